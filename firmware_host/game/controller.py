"""The loop: one event queue between the board, the engine, the timers and the session.

:meth:`Controller.step` polls the scanner, queues what it saw, queues the timers that ran out,
and hands every queued event to the session, oldest first. The engine runs in an engine worker
(:mod:`firmware_host.opponents.worker`) that posts its results to the same queue (both are given
it where the service is wired: :func:`firmware_host.app.service.build_service`).

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from board_io.clock import Clock, VirtualClock
from board_io.events import BoardEvent, OccupancyChanged
from board_io.types import Reading
from firmware_host.game.types import SessionEvent, TimerFired
from firmware_host.terms.commands import Command

log = logging.getLogger(__name__)

class Poller(Protocol):
    """What the controller needs of a :class:`board_io.scanner.Scanner`."""

    def poll(self, now: float) -> Sequence[BoardEvent]:
        """Scan once; return the board events."""
        ...


class Tapped:
    """A :class:`Poller` whose events, with the time they were polled at, also go to ``tap``
    (the coach's drills and lessons watch the hand this way)."""

    def __init__(self, inner: Poller,
                 tap: Callable[[Sequence[BoardEvent], float], None]) -> None:
        self.inner = inner
        self._tap = tap

    def poll(self, now: float) -> Sequence[BoardEvent]:
        events = self.inner.poll(now)
        self._tap(events, now)
        return events


class Ticking(Protocol):
    """An LED sink that renders blinking patterns as time passes."""

    def tick(self, now: float) -> None:
        """Advance the blinking to ``now``."""
        ...


class Driven(Protocol):
    """What the controller needs of the session it drives."""

    @property
    def idle(self) -> bool: ...
    def start(self, occupied: Iterable[int], at: float,
              colours: Mapping[int, Reading] | None = None, resume: bool = True) -> None: ...
    def handle(self, event: SessionEvent) -> None: ...
    def recover(self) -> None: ...
    def due_timers(self, now: float) -> list[TimerFired]: ...
    def next_deadline(self) -> float | None: ...


#: The session type a controller drives (``controller.session`` keeps it).
S = TypeVar("S", bound=Driven)


class Controller(Generic[S]):
    """One event queue, polled and drained by :meth:`step`.

    Args:
        session: the :class:`~firmware_host.game.session.Session` (not started: the first stable
            occupancy starts it).
        scanner: gives board events (``poll(now)``).
        clock: the time source (virtual or monotonic).
        leds: an LED sink with ``tick(now)`` for blinking (optional).
        resume: whether the session resumes the saved game at start.
        events: the queue (the engine worker posts to it too: firmware_host/app/service.py
            gives both the same one); None: a queue of its own.
    """

    def __init__(self, session: S, scanner: Poller, *, clock: Clock,
                 leds: Ticking | None = None, resume: bool = True,
                 events: queue.SimpleQueue[SessionEvent] | None = None) -> None:
        self.session = session
        self.scanner = scanner
        self.clock = clock
        self.leds = leds
        self.resume = resume
        self._queue: queue.SimpleQueue[SessionEvent] = (
            queue.SimpleQueue() if events is None else events)
        #: Commands that came before the first stable scan (the hall's pause read at start):
        #: handled as soon as the session starts.
        self._early: list[Command] = []
        self.started = False
        #: Steps of :meth:`run` that ended past their next tick, and the ticks skipped for them.
        self.overruns = 0
        self.missed_ticks = 0

    def post(self, event: SessionEvent) -> None:
        """Queue an event (thread-safe: the engine thread and button callbacks use it)."""
        self._queue.put(event)

    def step(self, now: float | None = None) -> int:
        """Poll the board, queue due timers, handle every queued event; return how many.

        ``now`` defaults to the clock's time.
        """
        now = self.clock.monotonic() if now is None else now
        for seen in self.scanner.poll(now):
            self.post(seen)
        if self.started:
            for due in self.session.due_timers(now):
                self.post(due)
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

    def _dispatch(self, event: SessionEvent) -> None:
        if self.started:
            try:
                self.session.handle(event)
            except Exception:  # a bug must not stop the board: log it and re-sync
                log.exception("session: handling %r failed: re-syncing from the board", event)
                self._recover()
        elif isinstance(event, OccupancyChanged):
            self.started = True
            self.session.start(event.occupied, event.at, event.colours, resume=self.resume)
            early, self._early = self._early, []
            for command in early:
                self._dispatch(command)
        elif isinstance(event, Command):
            self._early.append(event)
        # Anything else before the first full scan (a button bounce at power-on) is dropped.

    def _recover(self) -> None:
        """The handler may have left the session half-updated: it re-syncs from the board."""
        try:
            self.session.recover()
        except Exception:  # then the next event tries again; the loop goes on
            log.exception("session: could not recover")

    @property
    def quiet(self) -> bool:
        """Nothing queued and the session idle (no timer, no search)."""
        return self._queue.empty() and (not self.started or self.session.idle)

    def run(self, stop: threading.Event, period: float = 0.01,
            on_step: Callable[[], None] | None = None,
            wait: Callable[[float], object] | None = None) -> None:
        """Step on fixed ticks, every ``period`` seconds from now, until ``stop`` is set (the
        service's scan loop).

        Each step is due at ``start + k * period``: the loop sleeps until the next tick, not for
        a period after the step, so the rate is the configured one; a step that ends past its
        next tick is followed by the next step at once, the ticks it overran are skipped and
        the schedule stays where it was (:func:`next_tick`). Overruns are counted
        (:attr:`overruns`, :attr:`missed_ticks`) and the first is logged. ``wait(seconds)``
        sleeps (default: ``stop.wait``; a test passes one that moves a virtual clock).
        """
        sleep = stop.wait if wait is None else wait
        deadline = self.clock.monotonic()
        while not stop.is_set():
            self.step()
            if on_step is not None:
                on_step()
            now = self.clock.monotonic()
            deadline, missed = next_tick(deadline, now, period)
            if missed:
                self._overran(now, deadline, missed, period)
            elif deadline > now:
                sleep(deadline - now)

    def _overran(self, now: float, deadline: float, missed: int, period: float) -> None:
        self.overruns += 1
        self.missed_ticks += missed - 1
        if self.overruns == 1:
            log.warning("scan loop: a step ended %.1f ms after its next tick (%.0f ms); "
                        "further overruns are counted, not logged",
                        (now - deadline) * 1000 + (missed - 1) * period * 1000, period * 1000)


def next_tick(deadline: float, now: float, period: float) -> tuple[float, int]:
    """The scan loop's next deadline after the step due at ``deadline`` ended at ``now``, and
    how many ticks that step overran (0: on time, sleep until the deadline; 1: the next tick is
    already due, run it now; more: the ticks between were skipped). The deadline stays on the
    grid ``deadline + k * period`` whatever a step cost.

    >>> next_tick(1.00, 1.004, 0.01)            # on time: sleep until 1.01
    (1.01, 0)
    >>> [round(x, 3) for x in next_tick(1.00, 1.025, 0.01)]   # 2.5 periods: 1.01 and 1.02 gone
    [1.02, 2]
    """
    following = deadline + period
    if now < following:
        return following, 0
    behind = int((now - following) // period)  # whole ticks past the one due now
    return following + behind * period, behind + 1


def run_script(controller: Controller[S], ticks: Iterable[float], *, period: float = 0.01,
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
