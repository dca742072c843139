"""A stop token for a search run beside other threads of the same process (interpreted code:
this module is never compiled, unlike the engine)."""

from __future__ import annotations

from engine.search import StopToken

__all__ = ["ReadStop"]


class ReadStop(StopToken):
    """A stop token whose flag is read through Python code.

    The compiled search (mypyc) looks at its stop token every 64 nodes and otherwise never
    enters the interpreter in a search without a clock (a depth-only one, or pondering): it
    then kept the interpreter's lock for a whole iteration, and the thread reading the
    protocol could not take ``stop`` or ``ponder-hit`` in (seconds, deep in a search). Read
    through this property, every look lets the interpreter hand the lock over.

    >>> token = ReadStop()
    >>> token.stop()
    >>> token.stopped
    True
    """

    def __init__(self) -> None:
        self._flag = False
        super().__init__()

    @property
    def stopped(self) -> bool:
        """Whether the search must end (read by the search, set by the protocol's thread)."""
        return self._flag

    @stopped.setter
    def stopped(self, value: bool) -> None:
        self._flag = value
