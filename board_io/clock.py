"""Clocks: everything time-dependent in :mod:`board_io` takes one, so tests run in virtual time.

Example:
    >>> clock = VirtualClock()
    >>> clock.advance(0.25)
    >>> clock.monotonic()
    0.25
"""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Anything with a monotonic time in seconds."""

    def monotonic(self) -> float:
        """Return the current time in seconds; never goes backwards."""
        ...


class MonotonicClock:
    """The real clock (:func:`time.monotonic`)."""

    def monotonic(self) -> float:
        """Return :func:`time.monotonic`."""
        return time.monotonic()

    def __repr__(self) -> str:
        return "MonotonicClock()"


class VirtualClock:
    """A clock that only moves when told to.

    Raises:
        ValueError: on an attempt to move it backwards.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def monotonic(self) -> float:
        """Return the virtual time in seconds."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (>= 0)."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self._now += seconds

    def set(self, now: float) -> None:
        """Move the clock forward to ``now``."""
        if now < self._now:
            raise ValueError(f"a clock cannot go back (from {self._now} to {now})")
        self._now = float(now)

    def __repr__(self) -> str:
        return f"VirtualClock({self._now!r})"
