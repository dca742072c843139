"""The loop: one event queue between the board, the engine, the timers and the session.

:meth:`Controller.step` polls the scanner, queues what it saw, queues the timers that ran out,
and hands every queued event to the session, oldest first. The engine runs in an
:class:`EngineWorker`: :class:`SyncEngineWorker` computes in place (virtual time: deterministic
tests and scripted runs), :class:`ThreadEngineWorker` in a named daemon thread that only posts its
result. Both work with :class:`board_io.clock.VirtualClock` and ``MonotonicClock`` alike.

Example (a scripted record-mode game in virtual time)::

    clock = VirtualClock()
    board = SimulatedBoard(layout_for("english"), occupied=initial, clock=clock)
    scanner = Scanner(board.sensor_matrix, board.cell_map, buttons=board.buttons)
    controller = Controller(session, scanner, clock=clock)
    run_script(controller, ScriptPlayer(board, events))
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from board_io.clock import Clock, VirtualClock
from board_io.events import OccupancyChanged
from engine.search import Limit, StopToken
from firmware_host.game.types import EngineJob, EngineResult

log = logging.getLogger(__name__)

Post = Callable[[Any], None]


class Poller(Protocol):
    """What the controller needs of a :class:`board_io.scanner.Scanner`."""

    def poll(self, now: float) -> list[Any]:
        """Scan once; return the board events."""
        ...


class SyncEngineWorker:
    """Runs each engine job at once, in the caller's thread, and posts its result.

    For virtual time: the answer arrives as the next event, whatever the search costs. Give it a
    limit without time (depth or nodes) for reproducible runs.
    """

    def __init__(self, opponent: Any, limit: Limit, clock: Clock) -> None:
        self.opponent = opponent
        self.limit = limit
        self.clock = clock
        self.post: Post | None = None

    def submit(self, job: EngineJob) -> None:
        """Search ``job.board`` now and post an :class:`EngineResult`."""
        assert self.post is not None, "attach the worker to a controller first"
        self.post(_search(self.opponent, job, self.limit, None, self.clock))

    def cancel(self) -> None:
        """Nothing runs between two calls: nothing to stop."""

    def close(self) -> None:
        """Nothing to release."""


class ThreadEngineWorker:
    """Runs engine jobs in a named daemon thread, one at a time; results are posted as events.

    A new job or :meth:`cancel` sets the running job's :class:`~engine.search.StopToken`; the
    session ignores results of cancelled jobs by their token.
    """

    def __init__(self, opponent: Any, limit: Limit, clock: Clock,
                 name: str = "draughtsboard-engine") -> None:
        self.opponent = opponent
        self.limit = limit
        self.clock = clock
        self.name = name
        self.post: Post | None = None
        self._lock = threading.Lock()  # one search at a time: the searcher is not re-entrant
        self._stop: StopToken | None = None
        self._thread: threading.Thread | None = None

    def submit(self, job: EngineJob) -> None:
        """Stop the running job, if any, and start ``job`` in a new thread."""
        assert self.post is not None, "attach the worker to a controller first"
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
            result = _search(self.opponent, job, self.limit, stop, self.clock)
        if not stop.stopped and self.post is not None:
            self.post(result)

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


def _search(opponent: Any, job: EngineJob, limit: Limit, stop: StopToken | None,
            clock: Clock) -> EngineResult:
    try:
        if job.purpose == "hint" and hasattr(opponent, "searcher"):
            return _hint(opponent, job, limit, stop, clock)
        result = opponent.best_move(job.board, limit, stop)
    except Exception as exc:  # the engine failing must not take the board down
        log.exception("engine: search failed")
        return EngineResult(job.token, job.purpose, None, clock.monotonic(), error=str(exc))
    move = getattr(result, "move", result)
    return EngineResult(job.token, job.purpose, move, clock.monotonic())


def _hint(opponent: Any, job: EngineJob, limit: Limit, stop: StopToken | None,
          clock: Clock) -> EngineResult:
    """A hint with its reasons (:func:`engine.hint.hint`) from the built-in searcher."""
    from engine.hint import hint

    found = hint(job.board, opponent.searcher(job.board), limit, stop)
    if found is None:
        return EngineResult(job.token, job.purpose, None, clock.monotonic(), error="no move")
    reasons = tuple({"kind": r.kind.value, "pieces": r.pieces, "moves": r.moves}
                    for r in found.reasons)
    return EngineResult(job.token, job.purpose, found.move, clock.monotonic(), reasons=reasons)


class Controller:
    """One event queue, polled and drained by :meth:`step`.

    Args:
        session: the :class:`~firmware_host.game.session.Session` (not started: the first stable
            occupancy starts it).
        scanner: gives board events (``poll(now)``).
        clock: the time source (virtual or monotonic).
        leds: an LED sink with ``tick(now)`` for blinking (optional).
        worker: the engine worker; its ``post`` is pointed at this controller's queue.
        resume: whether the session resumes the saved game at start.
    """

    def __init__(self, session: Any, scanner: Poller, *, clock: Clock, leds: Any = None,
                 worker: Any = None, resume: bool = True) -> None:
        self.session = session
        self.scanner = scanner
        self.clock = clock
        self.leds = leds
        self.resume = resume
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.started = False
        if worker is not None:
            worker.post = self.post

    def post(self, event: Any) -> None:
        """Queue an event (thread-safe: the engine thread and button callbacks use it)."""
        self._queue.put(event)

    def step(self, now: float | None = None) -> int:
        """Poll the board, queue due timers, handle every queued event; return how many.

        ``now`` defaults to the clock's time.
        """
        now = self.clock.monotonic() if now is None else now
        for event in self.scanner.poll(now):
            self.post(event)
        if self.started:
            for event in self.session.due_timers(now):
                self.post(event)
        handled = 0
        while True:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                break
            handled += 1
            self._dispatch(event)
            if self.started and self._queue.empty():
                for timer in self.session.due_timers(now):
                    self.post(timer)
        if self.leds is not None:
            self.leds.tick(now)
        return handled

    def _dispatch(self, event: Any) -> None:
        if self.started:
            try:
                self.session.handle(event)
            except Exception:  # a bug must not stop the board: log it and carry on
                log.exception("session: handling %r failed", event)
        elif isinstance(event, OccupancyChanged):
            self.started = True
            self.session.start(event.occupied, event.at, event.colours, resume=self.resume)
        # Anything before the first full scan (a button bounce at power-on) is dropped.

    @property
    def quiet(self) -> bool:
        """Nothing queued and the session idle (no timer, no search)."""
        return self._queue.empty() and (not self.started or self.session.idle)

    def run(self, stop: threading.Event, period: float = 0.01,
            on_step: Callable[[], None] | None = None) -> None:
        """Step every ``period`` seconds until ``stop`` is set (the service's scan loop)."""
        while not stop.is_set():
            self.step()
            if on_step is not None:
                on_step()
            stop.wait(period)


def run_script(controller: Controller, ticks: Iterable[float], *, period: float = 0.01,
               max_tail: float = 60.0) -> float:
    """Drive ``controller`` through a scripted run in virtual time; return the end time.

    ``ticks`` are the scan instants (e.g. ``ScriptPlayer.ticks()``, which applies the script's
    events as time passes). After the last tick, time runs on, jumping from timer to timer, until
    the board is quiet (no event, timer or search left) or ``max_tail`` seconds have passed.

    Raises:
        ValueError: the controller's clock is not a :class:`VirtualClock`.
    """
    clock = controller.clock
    if not isinstance(clock, VirtualClock):
        raise ValueError("a script runs in virtual time: give the controller a VirtualClock")
    now = clock.monotonic()
    for now in ticks:
        controller.step(now)
    end = now + max_tail
    while not controller.quiet and now < end:
        deadline = controller.session.next_deadline() if controller.started else None
        now = max(now + period, deadline if deadline is not None else now + period)
        now = min(now, end)
        clock.set(max(clock.monotonic(), now))
        controller.step(now)
    return now
