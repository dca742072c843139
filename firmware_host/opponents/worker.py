"""Engine workers: run the session's engine jobs and post each result as an event.

:class:`SyncEngineWorker` computes in place (virtual time: deterministic tests and scripted
runs), :class:`ThreadEngineWorker` in a named daemon thread that only posts its result. Both
work with :class:`board_io.clock.VirtualClock` and ``MonotonicClock`` alike. On the board the
thread's opponent is an engine process (the built-in engine's own, or a Hub engine:
:func:`firmware_host.opponents.build.build_opponent`), so the thread only waits on its pipe;
after a reply whose job allows it (``EngineJob.ponder``) it has that engine think on the
position after the reply it expects (:class:`~firmware_host.opponents.opponent.Ponderer`).

>>> from board_io.clock import VirtualClock
>>> from engine import Board
>>> from engine.search import Limit
>>> results = []
>>> worker = SyncEngineWorker(BuiltinOpponent(seed=1), Limit(depth=2), VirtualClock(),
...                           post=results.append)
>>> worker.submit(EngineJob(1, Purpose.REPLY, Board("english")))
>>> results[0].move in Board("english").legal_moves
True
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from board_io.clock import Clock
from engine.hint import hint
from engine.search import Limit, SearchResult, StopToken
from firmware_host.opponents.hub_hint import hub_reasons
from firmware_host.opponents.opponent import BuiltinOpponent, Opponent, Ponderer
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose, Reason

__all__ = ["EngineWorker", "SyncEngineWorker", "ThreadEngineWorker"]

log = logging.getLogger(__name__)

Post = Callable[[EngineResult], None]


class SyncEngineWorker:
    """Runs each engine job at once, in the caller's thread, and posts its result.

    For virtual time: the answer arrives as the next event, whatever the search costs. Give it a
    limit without time (depth or nodes) for reproducible runs.
    """

    def __init__(self, opponent: Opponent, limit: Limit, clock: Clock, *,
                 post: Post | None = None) -> None:
        self.opponent = opponent
        self.limit = limit
        self.clock = clock
        #: Where results go (the controller's queue: wired by firmware_host/app/service.py).
        self.post = post

    def submit(self, job: EngineJob) -> None:
        """Search ``job.board`` now and post an :class:`EngineResult`."""
        if self.post is None:
            raise RuntimeError("give the worker a post (the controller's queue) first")
        self.post(search(self.opponent, job, self.limit, None, self.clock))

    def cancel(self) -> None:
        """Nothing runs between two calls: nothing to stop."""

    def close(self) -> None:
        """Nothing to release."""


class ThreadEngineWorker:
    """Runs engine jobs in a named daemon thread, one at a time; results are posted as events.

    A new job or :meth:`cancel` sets the running job's :class:`~engine.search.StopToken`; the
    session ignores results of cancelled jobs by their token.
    """

    def __init__(self, opponent: Opponent, limit: Limit, clock: Clock,
                 name: str = "draughtsboard-engine", *, post: Post | None = None) -> None:
        self.opponent = opponent
        self.limit = limit
        self.clock = clock
        self.name = name
        #: Where results go (the controller's queue: wired by firmware_host/app/service.py).
        self.post = post
        self._lock = threading.Lock()  # one search at a time: the searcher is not re-entrant
        self._stop: StopToken | None = None
        self._thread: threading.Thread | None = None

    def submit(self, job: EngineJob) -> None:
        """Stop the running job, if any, and start ``job`` in a new thread."""
        if self.post is None:
            raise RuntimeError("give the worker a post (the controller's queue) first")
        self.cancel()
        stop = StopToken()
        self._stop = stop
        self._thread = threading.Thread(target=self._run, args=(job, stop), name=self.name,
                                        daemon=True)
        self._thread.start()

    def _run(self, job: EngineJob, stop: StopToken) -> None:
        with self._lock:
            if stop.stopped:
                return
            result, found = _answer(self.opponent, job, self.limit, stop, self.clock)
            if not stop.stopped and self.post is not None:
                self.post(result)
            if job.ponder and found is not None and not stop.stopped:
                self._ponder(job, found)

    def _ponder(self, job: EngineJob, found: SearchResult) -> None:
        """Think on the position after the reply the search expects, until the next job."""
        opponent = self.opponent
        if not isinstance(opponent, Ponderer) or len(found.pv) < 2:
            return
        board = job.board.copy()
        for move in found.pv[:2]:
            board.push(move)
        if board.legal_moves:
            opponent.ponder(board, self.limit)

    def cancel(self) -> None:
        """Ask the running search to stop."""
        if self._stop is not None:
            self._stop.stop()

    def close(self, timeout: float = 2.0) -> None:
        """Stop the search and wait for its thread. Idempotent."""
        self.cancel()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)


#: Either worker.
EngineWorker = SyncEngineWorker | ThreadEngineWorker


def search(opponent: Opponent, job: EngineJob, limit: Limit, stop: StopToken | None,
           clock: Clock) -> EngineResult:
    """Run one job; a failing engine gives a result with ``move=None`` and the error."""
    return _answer(opponent, job, limit, stop, clock)[0]


def _answer(opponent: Opponent, job: EngineJob, limit: Limit, stop: StopToken | None,
            clock: Clock) -> tuple[EngineResult, SearchResult | None]:
    """The job's result, and the search behind it (None for a hint or a failure)."""
    try:
        if job.purpose is Purpose.HINT and isinstance(opponent, BuiltinOpponent):
            return _hint(opponent, job, limit, stop, clock), None
        result = opponent.best_move(job.board, limit, stop)
    except Exception as exc:  # the engine failing must not take the board down
        log.exception("engine: search failed")
        return EngineResult(job.token, job.purpose, None, clock.monotonic(), error=str(exc)), None
    # A hint from another engine (a Hub engine): its move, and what its line shows.
    reasons = hub_reasons(job.board, result) if job.purpose is Purpose.HINT else ()
    return (EngineResult(job.token, job.purpose, result.move, clock.monotonic(), reasons=reasons),
            result if job.purpose is Purpose.REPLY else None)


def _hint(opponent: BuiltinOpponent, job: EngineJob, limit: Limit, stop: StopToken | None,
          clock: Clock) -> EngineResult:
    """A hint with its reasons (:func:`engine.hint.hint`) from the built-in searcher."""
    searcher = opponent.searcher(job.board)
    searcher.clock = opponent.clock_for(limit)  # as best_move times a search
    found = hint(job.board, searcher, limit, stop)
    if found is None:
        return EngineResult(job.token, job.purpose, None, clock.monotonic(), error="no move")
    reasons = tuple(Reason(r.kind.value, r.pieces, r.moves) for r in found.reasons)
    return EngineResult(job.token, job.purpose, found.move, clock.monotonic(), reasons=reasons)
