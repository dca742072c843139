"""Stop tokens for a search run beside other threads of the same process (interpreted code:
this module is never compiled, unlike the engine): one read through Python code, and one that
also runs what is hooked to it (a child process's kill)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine.search import StopToken

__all__ = ["Interrupt", "ReadStop"]


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


class Interrupt(ReadStop):
    """A stop token that also runs what was hooked to it (the child's kill), at once.

    >>> token, said = Interrupt(), []
    >>> token.when_stopped(lambda: said.append("killed"))
    >>> token.stop()
    >>> token.stopped, said
    (True, ['killed'])
    >>> token.when_stopped(lambda: said.append("at once"))  # stopped already: runs now
    >>> said
    ['killed', 'at once']
    """

    def __init__(self) -> None:
        super().__init__()
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def when_stopped(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` when the token is stopped (now, if it is)."""
        with self._lock:
            if not self.stopped:
                self._hooks.append(hook)
                return
        hook()

    def stop(self) -> None:
        """Stop, and run the hooks."""
        with self._lock:
            self.stopped = True
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            hook()
