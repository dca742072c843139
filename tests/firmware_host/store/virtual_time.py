"""Virtual time for the store's tests: a clock that stands still until the test moves it (the
lease's expiry, the heartbeat, the store's retry back-off)."""

from __future__ import annotations

__all__ = ["ManualClock"]


class ManualClock:
    """A clock to give as ``clock=``: it reads :attr:`now`, which the test sets.

    >>> clock = ManualClock()
    >>> clock.now = 20.0
    >>> clock()
    20.0
    """

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
