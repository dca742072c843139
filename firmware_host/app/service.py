"""Build the service from its configuration and run it: the one place objects are wired.

Everything that owns a resource is entered in one :class:`~contextlib.ExitStack`, so a failure
half-way through start-up closes what was opened, and a stop (SIGTERM, SIGINT) turns the LEDs
off, flushes the store and tells systemd, within its stop timeout.
"""

from __future__ import annotations

import json
import logging
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from board_io.clock import Clock, MonotonicClock
from board_io.errors import BoardIOError
from board_io.registry import (
    BackendContext,
    create_buttons,
    create_leds,
    create_scanner,
    create_sensors,
)
from engine import Board, Move
from engine.variant import Variant, find_variant
from firmware_host.app import logsetup
from firmware_host.app.notify import Notifier
from firmware_host.app.scripted import json_printer
from firmware_host.config.loader import ConfigError
from firmware_host.feedback.texts import render
from firmware_host.game.controller import Controller, ThreadEngineWorker
from firmware_host.game.session import Session
from firmware_host.game.types import Mode, SessionConfig
from firmware_host.recognition.layout import layout_for
from firmware_host.store import RedisStore, open_store
from firmware_host.store.pdnfiles import PdnFiles
from firmware_host.store.pdnrender import render_game

log = logging.getLogger("draughtsboard")

#: Events worth one log line each; LED frames and board snapshots are not (they go to the bus).
LOGGED_EVENTS = frozenset({"move", "refused", "result", "takeback", "new_game", "touch",
                           "adjust", "computer_move", "resumed", "fault", "link"})
#: How long start-up waits for the first stable scan before telling systemd it is ready anyway.
FIRST_SCAN_TIMEOUT = 1.0
#: How often spooled writes are retried while Redis is away.
FLUSH_PERIOD = 5.0


def run_service(options: Any) -> int:
    """Run the board service until SIGTERM or SIGINT; return the exit status.

    ``options`` is a :class:`firmware_host.commands.run.RunOptions`.

    Raises:
        ConfigError: an invalid option (the CLI prints it as one line).
    """
    config = options.config
    logsetup.configure("debug" if options.verbose else config["log.level"])
    stop = threading.Event()
    _install_signal_handlers(stop)
    try:
        with ExitStack() as stack:
            service = build_service(config, stack, fen=options.fen, events=options.events)
            service.serve(stop)
    except BoardIOError as exc:
        log.error("board: %s", exc)
        print(f"draughtsboard: {exc}", file=sys.stderr)
        return 1
    return 0


def _install_signal_handlers(stop: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


class Service:
    """The running service: the controller's scan loop plus systemd and store upkeep."""

    def __init__(self, controller: Controller, store: RedisStore, leds: Any, notifier: Notifier,
                 clock: Clock, scan_period: float) -> None:
        self.controller = controller
        self.store = store
        self.leds = leds
        self.notifier = notifier
        self.clock = clock
        self.scan_period = scan_period
        self._last_watchdog = float("-inf")
        self._last_flush = clock.monotonic()

    def start(self) -> None:
        """Scan until the board is read and the game resumed, then tell systemd READY."""
        deadline = self.clock.monotonic() + FIRST_SCAN_TIMEOUT
        while not self.controller.started and self.clock.monotonic() < deadline:
            self.controller.step()
            time.sleep(self.scan_period)  # real time: the debouncer needs real scans
        if not self.controller.started:
            log.warning("no stable scan after %.1f s: ready anyway, waiting for the board",
                        FIRST_SCAN_TIMEOUT)
        self.notifier.ready("board scanned" if self.controller.started else "waiting for board")

    def upkeep(self) -> None:
        """Called after every scan: watchdog pings, and retries of spooled writes."""
        now = self.clock.monotonic()
        interval = self.notifier.watchdog_interval
        if interval is not None and now - self._last_watchdog >= interval:
            self.notifier.watchdog()
            self._last_watchdog = now
        if not self.store.connected and now - self._last_flush >= FLUSH_PERIOD:
            self._last_flush = now
            self.store.flush()

    def serve(self, stop: threading.Event) -> None:
        """Run until ``stop`` is set, then turn the LEDs off and tell systemd."""
        self.start()
        log.info("running")
        try:
            self.controller.run(stop, period=self.scan_period, on_step=self.upkeep)
        finally:
            self.notifier.stopping()
            log.info("stopping")
            self.leds.show({})
            self.leds.tick(self.clock.monotonic())


def build_service(config: Any, stack: ExitStack, *, fen: str | None = None,
                  events: str | None = None, out: TextIO | None = None,
                  clock: Clock | None = None, notifier: Notifier | None = None) -> Service:
    """Open every part named by ``config`` inside ``stack`` and wire them.

    Raises:
        ConfigError, BoardIOError: a bad option or a backend that cannot be opened.
    """
    clock = clock or MonotonicClock()
    variant = find_variant(config["game.variant"])
    layout = layout_for(variant)
    start = Board(variant, fen=fen)
    context = stack.enter_context(BackendContext(layout, clock, start.occupied_squares()))
    sensors = stack.enter_context(create_sensors(config, context))
    leds = stack.enter_context(create_leds(config, context))
    buttons = stack.enter_context(create_buttons(config, context))
    scanner = create_scanner(config, layout, sensors, buttons)
    store = stack.enter_context(_open_store(config))
    worker = _engine_worker(config, variant, stack, clock)
    session = Session(variant, store, SessionConfig.from_config(config), thinker=worker,
                      show_leds=leds.show, fen=fen, wall_clock=time.time,
                      opening=ballot_opening(config, variant))
    session.subscribe(_event_logger())
    if events == "json":
        session.subscribe(json_printer(out or sys.stdout))
    controller = Controller(session, scanner, clock=clock, leds=leds, worker=worker)
    notifier = notifier or stack.enter_context(Notifier())
    return Service(controller, store, leds, notifier, clock, 1.0 / config["timing.scan_hz"])


def _open_store(config: Any) -> RedisStore:
    files = PdnFiles(config["store.games_dir"], render_game)
    spool = None if config["store.url"] == "memory" else config["store.spool_dir"]
    if spool is not None:
        Path(spool).mkdir(parents=True, exist_ok=True)
    return open_store(config["store.url"], config["board.id"], spool, on_change=files.write)


def _engine_worker(config: Any, variant: Variant, stack: ExitStack,
                   clock: Clock) -> ThreadEngineWorker | None:
    if config["game.mode"] == Mode.RECORD.value:
        return None
    opponent, limit = build_opponent(config, variant)
    stack.enter_context(opponent)
    worker = ThreadEngineWorker(opponent, limit, clock)
    stack.callback(worker.close)
    return worker


def build_opponent(config: Any, variant: Variant) -> tuple[Any, Any]:
    """The opponent (built-in at its level, or a Hub engine) and the search limit per move."""
    from engine.levels import level, limit_for_level
    from engine.search import Limit
    from firmware_host.opponents.opponent import BuiltinOpponent, HubOpponent

    chosen = level(config["engine.level"])
    movetime = config["engine.movetime_ms"] / 1000 or None
    if config["engine.depth"]:
        limit = Limit(depth=config["engine.depth"], movetime=movetime)
    else:
        limit = limit_for_level(chosen.number, movetime=movetime)
    if config["engine.kind"] == "hub":
        from firmware_host.opponents.hub.client import HubEngine, config_from_settings

        section = {key.split(".", 1)[1]: config[key] for key in config
                   if key.startswith("engine.")}
        return HubOpponent(HubEngine(config_from_settings(section))), limit
    return BuiltinOpponent(seed=config["engine.seed"], options=chosen.options), limit


def ballot_opening(config: Any, variant: Variant) -> Callable[[Board], list[Move]] | None:
    """The opening of each new game drawn from the English tournament ballots, or None.

    Raises:
        ConfigError: ``game.ballot`` is set for another variant than English checkers.
    """
    choice = config["game.ballot"]
    if choice == "none":
        return None
    if variant.name != "english":
        raise ConfigError(f"{config.source}: game.ballot = {choice!r} applies to English "
                          f"checkers only, not {variant.name}")
    from engine.book import ballot_board, random_ballot

    rng = random.Random(config["engine.seed"] or None)
    length = int(choice[0])

    def opening(board: Board) -> list[Move]:
        ballot = random_ballot(rng, length)
        log.info("ballot %s", ballot)
        return list(ballot_board(ballot).move_stack)

    return opening


def _event_logger() -> Callable[[dict[str, Any]], None]:
    def listen(event: dict[str, Any]) -> None:
        if event.get("event") not in LOGGED_EVENTS:
            return
        text = render(event)
        level = logging.WARNING if event.get("event") in ("refused", "fault") else logging.INFO
        log.log(level, "%s", text if text else json.dumps(event, default=str))

    return listen

