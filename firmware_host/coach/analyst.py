"""The analyst: takes a finished game from the jobs stream, analyses it, keeps the result.

:class:`Analyst` does one job at a time (:meth:`Analyst.work`) with the built-in engine at a
fixed depth, so any machine, compiled or not, gives a game the same marks; a job stopped half
way (its :class:`~engine.search.StopToken` set) is held and taken up again where the analyst
is next free, from its first position. ``draughtsboard coach worker`` runs one in a loop.

On a board, :class:`IdleAnalyst` runs it from the thread ``coach`` while the board is idle: from
a game's end (or a new game set up, nothing played) until the next game's first move; the
service gives it a :class:`~firmware_host.coach.child.ChildRunner`, so the search runs in a
process of its own, never beside the scan loop. A move, a lift or the engine's turn stops the
search at once (its stop token, an :class:`~firmware_host.opponents.readstop.Interrupt`, kills
the child; the job stays pending, the board's own, and is taken up first when the board is
idle again). It also queues the board's own finished games
(the ``result`` event). It reads only the session's published events (a listener), never the
session.

Example:
    >>> import fakeredis
    >>> from firmware_host.coach.jobs import AnalysisQueue
    >>> from firmware_host.store.records import GameRecord, MoveRecord
    >>> client = fakeredis.FakeRedis()
    >>> queue = AnalysisQueue(client, "b1")
    >>> _ = queue.submit(GameRecord("g1", "b1", {}, "russian", "W:Wc3:Bd4", "play", 0.0,
    ...                             [MoveRecord(1, "c3:e5", "", 0.0)], "1-0"))
    >>> analyst = Analyst(queue, depth=2, engine="test")
    >>> analyst.work(Interrupt(), block_ms=0)
    <Outcome.DONE: 'done'>
    >>> from firmware_host.coach.results import StoredAnalysis
    >>> StoredAnalysis.parse(client.get("draughtsboard:coach:analysis:b1:g1")).moves[0].evaluation
    '#0'
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Final

import redis

from engine.analysis import analyse
from engine.search import Limit, Searcher, StopToken
from firmware_host.coach.jobs import AnalysisQueue, Job, JobError
from firmware_host.coach.players import Finding, findings, keep
from firmware_host.coach.results import StoredAnalysis, from_analysis
from firmware_host.opponents.readstop import Interrupt
from firmware_host.store.errors import StoreUnavailable
from firmware_host.store.outage.failures import FAILURES, describe_failure, failure_kind
from firmware_host.store.records import GameRecord, RecordError

__all__ = ["BUSY_STATES", "IDLE_STATES", "Analyst", "Examined", "IdleAnalyst", "Outcome", "Runner",
           "engine_name", "examine"]

log = logging.getLogger(__name__)

#: The transposition table of an analysis (MB): a Pi's memory is shared with the game.
TT_MB: Final = 8
#: The session's states in which the board is idle (a game over, a new one being set up).
IDLE_STATES: Final = frozenset({"game_over", "setting_up"})
#: The states of a game under way whatever came before (a move being made, the engine's turn).
BUSY_STATES: Final = frozenset({"move_in_progress", "engine_thinking", "computer_move_pending",
                                "adjusting"})


class Outcome(Enum):
    """What one :meth:`Analyst.work` did."""

    DONE = "done"
    STOPPED = "stopped"
    FAILED = "failed"
    NONE = "none"


def engine_name() -> str:
    """The engine that analyses, as a result names it: version and build.

    >>> engine_name().startswith("draughtsboard ")
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    from engine.compiled import build

    try:
        number = version("draughtsboard")
    except PackageNotFoundError:
        number = "unknown"
    return f"draughtsboard {number} {build()}"


@dataclass(frozen=True)
class Examined:
    """A job done: the game's analysis and what it leaves each named player
    (:mod:`firmware_host.coach.players`)."""

    analysis: StoredAnalysis
    findings: tuple[Finding, ...] = ()


#: How a job is done: ``(job, depth, engine, stop, players)`` -> the result, None when
#: stopped; ``players``: look for the players' missed wins too.
Runner = Callable[[Job, int, str, StopToken, bool], Examined | None]


def examine(job: Job, depth: int, engine: str, stop: StopToken,
            players: bool) -> Examined | None:
    """Do ``job`` in this process: analyse its game at ``depth`` and, with ``players``, find
    its players' missed wins; None when ``stop`` was set.

    Raises:
        JobError: the job's game cannot be replayed.
    """
    board = job.replay()
    if stop.stopped:
        return None
    analysis = analyse(board, Searcher(board.variant, tt_mb=TT_MB), Limit(depth=depth), stop)
    if stop.stopped:
        return None
    stored = from_analysis(board, analysis, board_id=job.board, game_id=job.game, depth=depth,
                           engine=engine)
    found = tuple(findings(job, stored)) if players else ()
    return None if stop.stopped else Examined(stored, found)


class Analyst:
    """Does the jobs of ``queue`` at ``depth`` plies with ``runner`` (:func:`examine`: in
    this process); ``books``, the mistake books' folder, gets each game's players' mistakes
    (None: none kept); ``on_done`` hears of each result."""

    def __init__(self, queue: AnalysisQueue, depth: int, *, engine: str | None = None,
                 on_done: Callable[[Job, StoredAnalysis], None] | None = None,
                 books: str | Path | None = None, runner: Runner = examine) -> None:
        self.queue = queue
        self.depth = depth
        self.engine = engine or engine_name()
        self.on_done = on_done
        self.books = books
        self.runner = runner
        #: The job being done, or stopped half way (taken up first).
        self.held: Job | None = None

    def work(self, stop: StopToken, block_ms: int) -> Outcome:
        """Take a job (the held one first; waiting up to ``block_ms`` for one) and do it.

        The players' books are written before the job is marked done: a job done again (Redis
        failed in between) adds nothing twice (the books keep a position and a game once).

        Raises:
            redis.RedisError: Redis failed (the job stays pending, or held).
        """
        job = self.held or self.queue.take(block_ms)
        if job is None:
            return Outcome.NONE
        self.held = job
        try:
            if stop.stopped:
                return Outcome.STOPPED
            examined = self.runner(job, self.depth, self.engine, stop, self.books is not None)
            if examined is None:
                return Outcome.STOPPED
        except JobError as exc:
            self.queue.fail(job, str(exc))
            self.held = None
            return Outcome.FAILED
        except Exception as exc:  # a fault of the engine: the job is given up, never the thread
            log.exception("coach: the analysis of game %s of board %s failed", job.game,
                          job.board)
            self.queue.fail(job, f"the analysis failed: {type(exc).__name__}: {exc}")
            self.held = None
            return Outcome.FAILED
        if self.books is not None:
            keep(self.books, list(examined.findings))
        self.queue.done(job, examined.analysis.to_json())
        self.held = None
        log.info("coach: game %s of board %s analysed (depth %d)", job.game, job.board,
                 self.depth)
        if self.on_done is not None:
            self.on_done(job, examined.analysis)
        return Outcome.DONE


class IdleAnalyst:
    """The board's analyst on the named thread ``coach``: queues the board's finished games
    (``load_game`` reads one from the store) and, with ``analyse``, does jobs while the board
    is idle. :meth:`listener` is the session listener that tells it; ``retry_s`` is the wait
    after Redis failed and ``poll_s`` between looks at an empty queue. An idempotent
    :meth:`close` stops it (a context manager)."""

    def __init__(self, analyst: Analyst, load_game: Callable[[str], GameRecord], *,
                 analyse: bool = True, retry_s: float = 5.0, poll_s: float = 5.0) -> None:
        self.analyst = analyst
        self._load_game = load_game
        self._analyse = analyse
        self._retry_s = retry_s
        self._poll_s = poll_s
        self._lock = threading.Condition()
        self._idle = False
        self._closing = False
        self._token = Interrupt()
        self._finished: deque[str] = deque()
        self._game_id: str | None = None
        self._failed_kind: str | None = None
        self._thread = threading.Thread(target=self._run, name="coach", daemon=True)

    def start(self) -> IdleAnalyst:
        """Start the thread; return self."""
        self._thread.start()
        return self

    # -- from the session's thread ----------------------------------------------------------------
    def listener(self) -> Callable[[Mapping[str, object]], None]:
        """The session listener: the game's start and end, its moves and states."""

        def listen(event: Mapping[str, object]) -> None:
            kind = event.get("event")
            if kind in ("new_game", "resumed"):
                game_id = event.get("game_id")
                self._game_id = game_id if isinstance(game_id, str) else None
            if kind == "result" and self._game_id is not None:
                self.finished(self._game_id)
            if kind in ("result", "new_game") or (
                    kind == "state" and event.get("state") in IDLE_STATES):
                self.idle()
            elif kind == "move" or (kind == "state" and event.get("state") in BUSY_STATES):
                self.busy()

        return listen

    def finished(self, game_id: str) -> None:
        """The board's game ``game_id`` is over: queue it (from the thread)."""
        with self._lock:
            self._finished.append(game_id)
            self._lock.notify_all()

    def idle(self) -> None:
        """The board is idle: analyse."""
        with self._lock:
            if not self._idle:
                self._idle = True
                self._lock.notify_all()

    def busy(self) -> None:
        """The board is busy: stop the analysis under way at once (it stays pending)."""
        with self._lock:
            self._idle = False
            self._token.stop()

    # -- the thread ---------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._closing and not self._finished and not (
                        self._idle and self._analyse):
                    self._lock.wait()
                closing = self._closing
                now = self._idle and self._analyse and not closing
                token = self._token = Interrupt()
            if closing:  # the games that ended are queued before the service stops
                try:
                    self._submit_finished()
                except FAILURES as exc:
                    self._failed(exc)
                return
            try:
                self._submit_finished()
                if not now:
                    continue
                outcome = self.analyst.work(token, block_ms=0)
                self._failed_kind = None
            except FAILURES as exc:
                self._failed(exc)
                self._wait(self._retry_s)
                continue
            if outcome is Outcome.NONE:
                self._wait(self._poll_s)

    def _submit_finished(self) -> None:
        while True:
            with self._lock:
                if not self._finished:
                    return
                game_id = self._finished[0]
            try:
                game = self._load_game(game_id)
            except RecordError as exc:  # no such game (any more): nothing to analyse
                log.warning("coach: game %s not queued: %s", game_id, exc)
            except StoreUnavailable as exc:
                raise redis.ConnectionError(str(exc)) from None  # retried as Redis's failure
            else:
                self.analyst.queue.submit(game)
                log.info("coach: game %s queued for its analysis", game_id)
            with self._lock:
                self._finished.popleft()

    def _failed(self, exc: BaseException) -> None:
        kind = failure_kind(exc)
        if kind != self._failed_kind:  # once a kind of failure, not every retry
            self._failed_kind = kind
            log.warning("coach: the analysis queue cannot be used now: %s",
                        describe_failure(exc))

    def _wait(self, seconds: float) -> None:
        """Wait ``seconds`` or until there is something to do (a game to queue, a stop)."""
        with self._lock:
            if not self._closing and not self._finished:
                self._lock.wait(timeout=seconds)

    def close(self) -> None:
        """Stop the analysis and the thread; idempotent."""
        with self._lock:
            self._closing = True
            self._token.stop()
            self._lock.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    def __enter__(self) -> IdleAnalyst:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
