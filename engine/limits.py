"""What bounds a search: the :class:`Limit` and the :class:`StopToken` another thread sets.

Example:
    >>> time_budget(Limit(movetime=2.0))
    (2.0, 2.0)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limit", "StopToken", "time_budget"]


@dataclass(frozen=True)
class Limit:
    """What bounds one search: any combination; the first bound reached ends it.

    ``movetime`` is the time for this move in seconds; ``time_left`` and ``increment`` are the
    side to move's game clock, from which the searcher budgets its own time.

    Example:
        >>> Limit(depth=8).depth
        8

    Raises:
        ValueError: on a negative or zero bound.
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    time_left: float | None = None
    increment: float | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "movetime"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"Limit.{name} must be positive, not {value!r}")
        if self.time_left is not None and self.time_left < 0:
            raise ValueError(f"Limit.time_left must not be negative, not {self.time_left!r}")
        if self.increment is not None and self.increment < 0:
            raise ValueError(f"Limit.increment must not be negative, not {self.increment!r}")

    @property
    def timed(self) -> bool:
        """True if this limit needs a clock."""
        return self.movetime is not None or self.time_left is not None


class StopToken:
    """A flag another thread sets to end a running search early.

    A plain attribute write and read: under the GIL this is enough, and it keeps the engine free
    of threading imports.

    Example:
        >>> token = StopToken()
        >>> token.stop()
        >>> token.stopped
        True
    """

    __slots__ = ("stopped",)

    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        """Ask the search to return as soon as it can."""
        self.stopped = True

    def reset(self) -> None:
        """Clear the flag so the token can serve the next search."""
        self.stopped = False


def time_budget(limit: Limit) -> tuple[float | None, float | None]:
    """Return (soft, hard) seconds for ``limit``: no new iteration after soft, stop at hard.

    A fixed ``movetime`` is spent in full. From a game clock the searcher aims at a thirtieth
    of the time left plus most of the increment, and never takes more than 40 % of what is left.

    Example:
        >>> [round(seconds, 2) for seconds in time_budget(Limit(time_left=60, increment=1))]
        [1.68, 8.4]
    """
    budgets: list[tuple[float, float]] = []
    if limit.movetime is not None:
        # A fixed time per move is spent in full: iterations run until the deadline.
        budgets.append((limit.movetime, limit.movetime))
    if limit.time_left is not None:
        left = limit.time_left
        increment = limit.increment or 0.0
        target = min(left / 30 + increment * 0.8, left * 0.25)
        hard = min(target * 3, left * 0.4)
        budgets.append((target * 0.6, max(hard, 0.001)))
    if not budgets:
        return None, None
    return min(b[0] for b in budgets), min(b[1] for b in budgets)
