"""The engine's time: the searching thread's CPU seconds, capped by the wall clock.

A level's strength is its nodes, and nodes come from CPU time: a search timed on the wall clock
gets half its nodes when another thread of the process (the board service's scan loop, LEDs,
store) or another program takes half the core. :class:`SearchClock` runs on the CPU time of the
thread that searches (``time.thread_time``), so a level plays the same whether the machine is
busy or not, and caps it by the wall clock: it never reads less than the wall seconds divided by
``wall_factor``, so on a machine that leaves the search less than ``1 / wall_factor`` of a core
the move still comes within ``wall_factor`` times its time (there, and only there, the level
plays weaker). :class:`engine.search.Searcher` calls :meth:`SearchClock.restart` at the start of
every search, from the searching thread.

Example (clocks injected; a real one reads ``time.thread_time`` and ``time.monotonic``):
    >>> cpu, wall = [0.0], [100.0]
    >>> clock = SearchClock(wall_factor=2.0, cpu=lambda: cpu[0], wall=lambda: wall[0])
    >>> clock.restart()
    >>> cpu[0], wall[0] = 1.0, 101.5       # the search had 2/3 of a core: CPU time counts
    >>> clock()
    1.0
    >>> cpu[0], wall[0] = 1.2, 105.0       # then hardly any: the wall clock caps it (5 s / 2)
    >>> clock()
    2.5
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["WALL_FACTOR", "SearchClock"]

#: A move takes at most this many times its time on the wall clock.
WALL_FACTOR = 2.0


class SearchClock:
    """Seconds since :meth:`restart`: the thread's CPU time, at least wall time / factor."""

    __slots__ = ("_cpu", "_cpu0", "_wall", "_wall0", "wall_factor")

    def __init__(self, wall_factor: float = WALL_FACTOR, *,
                 cpu: Callable[[], float] = time.thread_time,
                 wall: Callable[[], float] = time.monotonic) -> None:
        if not wall_factor >= 1.0:  # also refuses NaN
            raise ValueError(f"wall_factor must be at least 1, not {wall_factor!r}")
        self.wall_factor = wall_factor
        self._cpu, self._wall = cpu, wall
        self._cpu0, self._wall0 = cpu(), wall()

    def restart(self) -> None:
        """Start counting from now (call it from the thread that searches)."""
        self._cpu0, self._wall0 = self._cpu(), self._wall()

    def __call__(self) -> float:
        return max(self._cpu() - self._cpu0, (self._wall() - self._wall0) / self.wall_factor)

    def __repr__(self) -> str:
        return f"SearchClock(wall_factor={self.wall_factor})"
