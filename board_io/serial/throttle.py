"""Rate-limited warnings with counts: a noisy line says how often it happened, not every time.

The first warning of a kind is logged at once; further ones of the same kind within
``interval`` seconds are only counted, and the next one logged after the interval says how many
were left out. Time comes from a :class:`~board_io.clock.Clock`, so tests run in virtual time.

Example:
    >>> import logging
    >>> from board_io.clock import VirtualClock
    >>> clock = VirtualClock()
    >>> throttle = Throttle(logging.getLogger("doctest"), clock, interval=10.0)
    >>> [throttle.warning("bad", "bad message: %s", n) for n in range(3)]
    [True, False, False]
    >>> clock.advance(10.0)
    >>> throttle.warning("bad", "bad message: %s", 3), throttle.suppressed("bad")
    (True, 0)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from board_io.clock import Clock

__all__ = ["Throttle"]


@dataclass(slots=True)
class _Kind:
    last: float
    suppressed: int = 0


class Throttle:
    """At most one warning per ``interval`` seconds for each ``kind``, with the count left out."""

    def __init__(self, logger: logging.Logger, clock: Clock, *, interval: float = 10.0) -> None:
        self._log = logger
        self._clock = clock
        self._interval = interval
        self._kinds: dict[str, _Kind] = {}

    def warning(self, kind: str, fmt: str, *args: object) -> bool:
        """Log ``fmt % args`` unless a warning of ``kind`` was logged recently; True if logged."""
        now = self._clock.monotonic()
        state = self._kinds.get(kind)
        if state is not None and now - state.last < self._interval:
            state.suppressed += 1
            return False
        if state is not None and state.suppressed:
            fmt += " (%d more since the last report %.0f s ago)"
            args = (*args, state.suppressed, now - state.last)
        self._kinds[kind] = _Kind(now)
        self._log.warning(fmt, *args)
        return True

    def suppressed(self, kind: str) -> int:
        """How many warnings of ``kind`` were left out since the last one logged."""
        state = self._kinds.get(kind)
        return state.suppressed if state is not None else 0
