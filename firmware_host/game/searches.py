"""The engine's searches under way for one session: a reply or a hint, one at a time.

Each search gets a token; the result of a cancelled search (or of one replaced by a newer
one) comes back with a token no longer known and is ignored.
"""

from __future__ import annotations

from engine import Board
from firmware_host.game.types import SessionError
from firmware_host.terms.jobs import EngineJob, Purpose, Thinker

__all__ = ["Searches"]


class Searches:
    """The searches asked of ``thinker`` (None: record mode, no engine)."""

    def __init__(self, thinker: Thinker | None) -> None:
        self._thinker = thinker
        self._token = 0
        self._jobs: dict[int, Purpose] = {}

    @property
    def busy(self) -> bool:
        """A search is under way."""
        return bool(self._jobs)

    def submit(self, purpose: Purpose, board: Board, *, ponder: bool = False) -> None:
        """Ask for a move in ``board`` (copied), cancelling any search under way; ``ponder``:
        the engine may then think on the human's time (:class:`EngineJob`).

        Raises:
            SessionError: there is no engine (record mode).
        """
        if self._thinker is None:
            raise SessionError("no engine in record mode")
        self.cancel()
        self._token += 1
        self._jobs[self._token] = purpose
        self._thinker.submit(EngineJob(self._token, purpose, board.copy(), ponder=ponder))

    def cancel(self) -> None:
        """Forget the searches under way (their results are ignored)."""
        if self._jobs and self._thinker is not None:
            self._thinker.cancel()
        self._jobs.clear()

    def take(self, token: int) -> Purpose | None:
        """What the search ``token`` was for (None: cancelled, its result is ignored)."""
        return self._jobs.pop(token, None)
