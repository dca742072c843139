"""Real-time playback: the service itself, on a simulated board, plays a script on the wall clock.

``draughtsboard run --board sim --script FILE --realtime`` builds the service exactly as ``run``
does (:func:`~firmware_host.app.service.build_service`: its real threads, its engine thread, its
store with the spool, its resume of a saved game), and a named thread applies the script's events
at their times (milliseconds from the start). So an outside process can kill it at any moment,
restart it with the rest of the script, and compare what was recorded.

Before it applies an event the player prints ``{"event": "script", "line": N}`` (with
``--events json``): once that line is out, the outside process counts the event as done on the
physical board — the board does not forget a piece put down because the service died. A restart
then gives the board as it stands with ``--occupied`` and the events still to come. After the last
event the run waits until the board is quiet (moves accepted, the computer's reply shown, no timer
left), at most ``QUIET_LIMIT_S``, and stops as on SIGTERM.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from board_io.errors import BoardIOError, ScriptError
from board_io.sim import ScriptEvent, SimulatedBoard, apply_event
from firmware_host.app.listeners import Listener
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service

if TYPE_CHECKING:
    from firmware_host.config import Config

log = logging.getLogger(__name__)

#: The longest wait for a quiet board after the script's last event.
QUIET_LIMIT_S = 30.0
#: How often the player looks whether the board is quiet.
QUIET_POLL_S = 0.05


class ScriptThread:
    """Applies script events to the simulated board on the wall clock, in a named thread.

    ``announce(line)`` is called before each event; ``done()`` once the script is over and the
    board quiet (or the wait gave up). A script error stops the run with the error kept.
    """

    def __init__(self, board: SimulatedBoard, events: Sequence[ScriptEvent],
                 quiet: Callable[[], bool], stop: threading.Event,
                 announce: Callable[[int], None]) -> None:
        self._board = board
        self._events = list(events)
        self._quiet = quiet
        self._stop = stop
        self._announce = announce
        self.error: ScriptError | None = None
        self._thread = threading.Thread(target=self._run, name="draughtsboard-script",
                                        daemon=True)

    def start(self) -> None:
        """Start playing (time 0 is now: the service has read the board)."""
        self._thread.start()

    def join(self, timeout: float = 2.0) -> None:
        """Wait for the thread (it ends soon after ``stop`` is set)."""
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        import time

        start = time.monotonic()
        try:
            for event in self._events:
                delay = start + event.time_ms / 1000.0 - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return
                self._announce(event.line)
                apply_event(self._board, event)
            deadline = time.monotonic() + QUIET_LIMIT_S
            while not self._quiet() and time.monotonic() < deadline:
                if self._stop.wait(QUIET_POLL_S):
                    return
        except ScriptError as exc:
            self.error = exc
        finally:
            self._stop.set()


def run_realtime(config: Config, events: Sequence[ScriptEvent], *, fen: str | None,
                 occupied: frozenset[int] | None, listeners: Sequence[Listener],
                 out: TextIO) -> int:
    """Run the service on the simulated board with the script on the wall clock; exit status.

    Returns 0 when the script was played (SIGTERM and SIGINT stop it early, also 0), 2 when an
    event could not be applied (one line on stderr).
    """
    stop = threading.Event()
    _install_signal_handlers(stop)

    def announce(line: int) -> None:
        if listeners:
            out.write(f'{{"event":"script","line":{line}}}\n')
            out.flush()

    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(
            fen=fen, occupied=occupied, notifier=Notifier(), listeners=listeners))
        if service.sim is None:
            raise BoardIOError("--realtime needs the simulated board (--board sim)")
        player = ScriptThread(service.sim, events, lambda: _quiet(service), stop, announce)
        service.serve(stop, on_ready=player.start)
        player.join()
    if player.error is not None:
        print(f"draughtsboard run: {player.error}", file=sys.stderr)
        return 2
    return 0


def _quiet(service: Service) -> bool:
    controller = service.controller
    return (controller.started and controller.quiet and service.sim is not None
            and service.scanner.occupied == service.sim.occupied)


def _install_signal_handlers(stop: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
