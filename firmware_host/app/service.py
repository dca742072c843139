"""Build the service from its configuration: the one place objects are wired.

:func:`build_service` is used by ``run`` (the service), scripted runs, the demo and the
terminal board alike; what differs between them is a :class:`Wiring` (the clock, a virtual-time
engine, extra listeners, the start position). Everything that owns a resource is entered in one
:class:`~contextlib.ExitStack`, so a failure half-way through start-up closes what was opened,
and a stop (SIGTERM, SIGINT) turns the LEDs off, flushes the store and tells systemd, within its
stop timeout.

>>> import tempfile
>>> from contextlib import ExitStack
>>> from board_io.clock import VirtualClock
>>> from firmware_host.config import Config
>>> games = tempfile.mkdtemp()
>>> config = Config.from_mapping({"game": {"mode": "record"}, "store": {"games_dir": games}})
>>> with ExitStack() as stack:
...     service = build_service(config, stack, Wiring(clock=VirtualClock(), virtual_time=True))
...     service.sim is not None, service.session.config.mode.value
(True, 'record')
"""

from __future__ import annotations

import logging
import queue
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import redis

from board_io.clock import Clock, MonotonicClock
from board_io.display.base import Display, Half, NoDisplay
from board_io.errors import BoardIOError, ConfigProblem
from board_io.leds.base import LedMatrix
from board_io.registry import (
    BUTTON_BACKEND,
    SENSOR_BACKEND,
    BackendContext,
    create_buttons,
    create_display,
    create_leds,
    create_scanner,
    create_sensors,
)
from board_io.scanner import Scanner
from board_io.schema import SCAN_HZ, TRANSFORM
from board_io.sim import SimulatedBoard
from engine import Board, Move
from engine.outcome import Termination
from engine.search import Limit
from engine.types import Color
from engine.variant import Variant, find_variant
from firmware_host.app import logsetup
from firmware_host.app.across import Across, OpenDuel
from firmware_host.app.listeners import Listener, event_logger, json_printer
from firmware_host.app.notify import Notifier
from firmware_host.coach.analyst import Analyst, IdleAnalyst
from firmware_host.coach.child import ChildRunner
from firmware_host.coach.jobs import AnalysisQueue
from firmware_host.coach.lessons import Lessons, offer
from firmware_host.coach.progress import ProgressBook
from firmware_host.coach.review import Review, last_game
from firmware_host.config import Config, ConfigError
from firmware_host.config.schema import (
    BOARD_ID,
    BOARD_LANGUAGE,
    CLOCK_DISPLAY_WHITE,
    COACH_ANALYSE,
    COACH_DEPTH,
    COACH_MISTAKES_DIR,
    COACH_PLAYER,
    COACH_START,
    ENGINE_SEED,
    FOLLOW_POLL_S,
    FOLLOW_SOURCE,
    GAME_BALLOT,
    GAME_HUMAN_SIDE,
    LOG_LEVEL,
    REMOTE_CLAIM_AFTER_MIN,
    REMOTE_OPPONENT,
    REMOTE_URL,
    STORE_GAMES_DIR,
    STORE_SPOOL_DIR,
    STORE_URL,
    WEB_CONTROL,
)
from firmware_host.errors import ExitCode, say
from firmware_host.feedback.clockface import clock_face
from firmware_host.follow import address as follow_address
from firmware_host.follow.follower import Follower, Following, Posted
from firmware_host.follow.game import BoardReader, Reader, UrlReader
from firmware_host.game.controller import Controller, Poller
from firmware_host.game.game import Opening
from firmware_host.game.outbox import Outbox
from firmware_host.game.session import Reviewer, Session
from firmware_host.game.types import SessionConfig, SessionEvent
from firmware_host.i18n import translator
from firmware_host.opponents.build import build_opponent, spare_core
from firmware_host.opponents.level import level_hook
from firmware_host.opponents.opponent import Opponent
from firmware_host.opponents.puzzle import PuzzleOpponent
from firmware_host.opponents.remote.duel import BLOCK_MS as DUEL_BLOCK_MS
from firmware_host.opponents.remote.duel import Duel, Link, RemoteOpponent
from firmware_host.opponents.worker import (
    EngineWorker,
    Post,
    SyncEngineWorker,
    ThreadEngineWorker,
)
from firmware_host.recognition.health import HealthTracker
from firmware_host.recognition.health import Wiring as SensorLayout
from firmware_host.recognition.layout import layout_for
from firmware_host.recognition.orientation import check_at_start, position_readings
from firmware_host.remote.reader import BLOCK_MS, CommandReader
from firmware_host.remote.saved import saver, with_saved_settings
from firmware_host.store import RedisStore, open_store
from firmware_host.store.connect import sync_client
from firmware_host.store.keepalive import KeepAlive
from firmware_host.store.lease import BoardIdInUse
from firmware_host.store.pdnfiles import PdnFiles
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord
from firmware_host.terms.buttons import CLOCK as CLOCK_BUTTON
from firmware_host.terms.buttons import names as button_names
from firmware_host.terms.jobs import Thinker
from firmware_host.terms.settings import GAME_MODE, GAME_VARIANT, Mode
from firmware_host.tournament.pairing import open_pairing
from firmware_host.voice import open_voice

if TYPE_CHECKING:
    from firmware_host.app.options import RunOptions

__all__ = ["Service", "Wiring", "build_opponent", "build_service", "run_service"]

log = logging.getLogger("draughtsboard")

#: How long start-up waits for the first stable scan before telling systemd it is ready anyway.
FIRST_SCAN_TIMEOUT = 1.0
#: How often the microcontroller's own sensor-fault reports are passed to the sensor watch.
FAULTS_PERIOD = 1.0
#: Depth of the computer's search in virtual time when neither ``engine.depth`` nor the level
#: caps it: fixed, so a run is reproducible whatever the machine.
VIRTUAL_TIME_DEPTH = 4


@dataclass(frozen=True)
class Wiring:
    """What differs between the service, scripted runs, the demo and the terminal board.

    ``virtual_time``: the engine answers in the caller's thread, limited by depth only (no
    clock), so a run in virtual time is reproducible. ``resume``: resume the saved game at
    start. ``listeners``: more subscribers of the session's events (the ``--events json``
    printer, a terminal, a test).
    """

    fen: str | None = None
    clock: Clock | None = None
    notifier: Notifier | None = None
    listeners: Sequence[Listener] = ()
    virtual_time: bool = False
    resume: bool = True
    #: Write each game as a PDN file in ``store.games_dir``.
    pdn_files: bool = True
    #: What stands on a simulated board at start (None: the start position of ``fen``).
    occupied: frozenset[int] | None = None
    #: The coach's analysis after the game as ``coach.analyse`` says (False: none, as in
    #: scripted runs, whose games must not start a search on a thread of their own).
    coach: bool = False
    #: The computer's side, instead of the one ``[engine]`` names (a puzzle's defender); the
    #: service closes it.
    opponent: Opponent | None = None


class Service:
    """The running service: the controller's scan loop plus systemd and store upkeep."""

    def __init__(self, controller: Controller[Session], scanner: Scanner, store: RedisStore,
                 leds: LedMatrix, notifier: Notifier, clock: Clock, scan_period: float,
                 sim: SimulatedBoard | None = None, remote: CommandReader | None = None,
                 transform: str = "identity", keepalive: KeepAlive | None = None,
                 display: ClockDisplay | None = None, coach: IdleAnalyst | None = None,
                 follow: Following | None = None, across: Across | None = None,
                 worker: EngineWorker | None = None) -> None:
        self.controller = controller
        self.scanner = scanner
        self.session = controller.session
        self.store = store
        self.leds = leds
        self.notifier = notifier
        self.clock = clock
        self.scan_period = scan_period
        #: The simulated board, when the sensors are simulated (demo, scripts, terminal).
        self.sim = sim
        #: The reader of the web app's commands (None: control off or no Redis).
        self.remote = remote
        #: The configured ``board.transform`` (the orientation check names the one that fits).
        self.transform = transform
        #: The lease on the board id and the heartbeat, kept on a thread of their own (None: the
        #: memory store); another board taking the id stops the service.
        self.keepalive = keepalive
        if keepalive is not None:
            keepalive.on_lost = self._lost
        #: The clock display the players read (None: none).
        self.display = display
        #: The board's analyst of finished games (None: ``coach.analyse`` off, or a scripted
        #: run).
        self.coach = coach
        #: The followed game's source and its follower (None: the board plays its own game).
        self.follow = follow
        #: Who plays across the board, the engine or a person afar (None: a followed game).
        self.across = across
        #: The engine worker (None: record mode); its opponent searches in a process of its
        #: own in real time.
        self.worker = worker
        self._stop: threading.Event | None = None
        self._last_watchdog = float("-inf")
        self._last_faults = float("-inf")

    @property
    def duel(self) -> Duel | None:
        """The link to the board of the person across this one (None: not paired)."""
        return None if self.across is None else self.across.duel

    def start(self) -> None:
        """Scan until the board is read and the game resumed, then tell systemd READY."""
        deadline = self.clock.monotonic() + FIRST_SCAN_TIMEOUT
        while not self.controller.started and self.clock.monotonic() < deadline:
            self.controller.step()
            time.sleep(self.scan_period)  # real time: the debouncer needs real scans
        if not self.controller.started:
            log.warning("no stable scan after %.1f s: ready anyway, waiting for the board",
                        FIRST_SCAN_TIMEOUT)
        else:
            self._check_orientation()
        self.notifier.ready("board scanned" if self.controller.started else "waiting for board")

    def _check_orientation(self) -> None:
        """Say so when the board stands turned round against the game (a resumed game, or
        colour sensors: a start position looks the same both ways)."""
        occupied = self.scanner.occupied
        if occupied is None:
            return
        advice = check_at_start(self.scanner.cell_map, occupied,
                                position_readings(self.session.board), transform=self.transform)
        if advice.message is not None:
            log.warning("%s", advice.message)

    def upkeep(self) -> None:
        """Called after every scan: watchdog pings, the microcontroller's fault reports."""
        now = self.clock.monotonic()
        interval = self.notifier.watchdog_interval
        if interval is not None and now - self._last_watchdog >= interval:
            self.notifier.watchdog()
            self._last_watchdog = now
        # The lease and the heartbeat: the keep-alive thread. Spooled writes: the store's
        # events thread retries Redis by itself, off this thread.
        if now - self._last_faults >= FAULTS_PERIOD:
            self._last_faults = now
            self._pass_reported_faults()
        if self.display is not None:
            self.display.show(self.session, now)

    def _lost(self, exc: BoardIdInUse) -> None:
        """From the keep-alive thread: another board took the id while Redis was away."""
        if self._stop is not None:
            self._stop.set()

    def _pass_reported_faults(self) -> None:
        """Cells the microcontroller reported faulty (its diode check) to the sensor watch."""
        watch = self.session.sensors
        reported = getattr(self.scanner.sensors, "reported_faults", None)
        if watch is None or not isinstance(reported, frozenset) or not reported:
            return
        cell_map = self.scanner.cell_map
        squares = {cell_map.square(divmod(cell, cell_map.sensor_cols)) for cell in reported}
        watch.mcu_reported(frozenset(sq for sq in squares if sq is not None))

    def serve(self, stop: threading.Event, on_ready: Callable[[], None] | None = None) -> None:
        """Run until ``stop`` is set, then turn the LEDs off and tell systemd.

        ``on_ready`` is called once the board is read and systemd told (a scripted hand starts).
        """
        self._stop = stop
        self.start()
        if on_ready is not None:
            on_ready()
        log.info("running")
        try:
            self.controller.run(stop, period=self.scan_period, on_step=self.upkeep)
        finally:
            self.notifier.stopping()
            if self.controller.overruns:
                log.info("scan loop: %d scans ended past their next tick (%d ticks skipped)",
                         self.controller.overruns, self.controller.missed_ticks)
            log.info("stopping")
            self.leds.show({})
            self.leds.tick(self.clock.monotonic())


def run_service(options: RunOptions) -> int:
    """Run the board service until SIGTERM or SIGINT; return the exit status (a backend that
    cannot start is one line on stderr, the journal under systemd, and the code of
    :data:`firmware_host.errors.EXIT_CODES`: a wrong option 2, a device that does not answer
    69).

    Raises:
        ConfigError: an invalid option (the CLI prints it as one line).
    """
    config = options.config
    logsetup.configure("debug" if options.verbose else config[LOG_LEVEL])
    stop = threading.Event()
    _install_signal_handlers(stop)
    listeners = [json_printer(sys.stdout)] if options.events == "json" else []
    try:
        with ExitStack() as stack:
            service = build_service(config, stack, Wiring(fen=options.fen, listeners=listeners,
                                                          coach=True))
            service.serve(stop)
    except ConfigProblem as exc:  # a backend's option: one line naming the file and the key
        return say(exc.in_file(config.source))
    except BoardIOError as exc:  # said once: stderr is the journal under systemd
        return say(exc)
    return ExitCode.OK


def _install_signal_handlers(stop: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def build_service(config: Config, stack: ExitStack, wiring: Wiring | None = None) -> Service:
    """Open every part named by ``config`` inside ``stack`` and wire them.

    Raises:
        ConfigError, BoardIOError: a bad option or a backend that cannot be opened.
    """
    wiring = wiring or Wiring()
    # One live board per board id: taken before anything else is opened (a second board with
    # this id is refused with one line; the service's own crashed run is taken over).
    url = config[STORE_URL]
    followed = config[FOLLOW_SOURCE]
    if url == "memory" and followed and "://" not in followed:
        raise ConfigError(f"follow.source = {followed!r} names a board of the hall: its "
                          "store.url is needed (the hall's Redis)")
    keepalive = None if url == "memory" else stack.enter_context(
        KeepAlive.from_url(url, config[BOARD_ID]))
    config = with_saved_settings(config)  # what the players chose at the web app last time
    clock = wiring.clock or MonotonicClock()
    variant = find_variant(config[GAME_VARIANT])
    layout = layout_for(variant)
    start = Board(variant, fen=wiring.fen)
    initial = start.occupied_squares() if wiring.occupied is None else wiring.occupied
    context = stack.enter_context(BackendContext(
        layout, clock, frozenset(initial),
        buttons=button_names(simulated=config[BUTTON_BACKEND] == "sim")))
    sensors = stack.enter_context(create_sensors(config, context))
    leds = stack.enter_context(create_leds(config, context))
    buttons = stack.enter_context(create_buttons(config, context))
    scanner = create_scanner(config, layout, sensors, buttons)
    store = stack.enter_context(_open_store(config, wiring.pdn_files))
    events: queue.SimpleQueue[SessionEvent] = queue.SimpleQueue()  # the controller's queue
    # A board that follows another game: its thinker is the follower, which answers each turn
    # with that game's move (firmware_host/follow/); any other: the engine (none to record).
    following = _following(config, variant, wiring, clock, store, events.put)
    worker = None if following is not None else _engine_worker(
        config, variant, stack, clock, wiring.virtual_time, events.put, wiring.opponent)
    # The coach's puzzles and drills (a button, coach.start), on a board that plays its own
    # games (refused while a person afar is the opponent: the commands say so).
    lessons = None if following is not None else _lessons(config, variant, events.put)
    if lessons is not None and worker is not None:
        lessons.defend = _defence(worker, lessons)
    # Across the board: the engine, or a person on another board (remote.opponent, or a pair
    # command later), whose moves come through a duel on the Redis both boards reach.
    link = None if following is not None else _duel_client(config, stack)
    across = None if following is not None else Across(worker, None,
                                                         threads=not wiring.virtual_time)
    health = HealthTracker(
        SensorLayout.from_cell_map(scanner.cell_map,
                                   matrix=config[SENSOR_BACKEND] != "shift-register"),
        expected=start.occupied_squares(), at=clock.monotonic())
    computer = "draughtsboard" if worker is None else worker.opponent.name  # e.g. Scan 3.1
    # A board with a clock button switches the clock when it is pressed, not as a move is let go.
    settings = replace(SessionConfig.from_config(config),
                       clock_button=CLOCK_BUTTON in buttons.available,
                       spare_core=spare_core())
    remote = _remote_client(config, stack)  # the web app's commands and the kept settings
    session = Session(variant, store, settings,
                      thinker=following.follower if following is not None else across,
                      engine=worker is not None,
                      computer_name=computer,
                      show_leds=leds.show, fen=wiring.fen, wall_clock=time.time,
                      opening=ballot_opening(config, variant), health=health,
                      pairing=open_pairing(config, stack),  # a round's names (tournament)
                      level_hook=level_hook(config, worker, VIRTUAL_TIME_DEPTH
                                            if wiring.virtual_time else None),
                      on_applied=None if remote is None else saver(remote, config[BOARD_ID]),
                      # (what a game not analysed waits for: coach.analyse, where the
                      # wiring analyses games at all; else nothing, "none": the terminal's)
                      reviewer=None if worker is None else _reviewer(
                          store, worker, config[COACH_ANALYSE] if wiring.coach else "none"),
                      pair_hook=None if across is None or link is None else across.pair)
    session.subscribe(event_logger())
    for listener in wiring.listeners:
        session.subscribe(listener)
    polled: Poller = scanner
    if lessons is not None:
        lessons.publish = session.publish
        # Kept with the session's snapshot: a restart comes back to the exercise under way
        # (else coach.start's exercises start as the board is read).
        lessons.keep, lessons.kept = session.keep_lesson, lambda: session.game.lesson
        session.subscribe(lessons.listen)
        polled = lessons.poller(scanner)  # the hand's frames and the verdicts, on this thread
    coach = _coach(config, stack, store) if wiring.coach else None
    if coach is not None:  # the analysis after the game, while the board is idle
        session.subscribe(coach.listener())
    open_voice(config, stack, session)  # [voice] enabled: spoken off the scan thread
    controller = Controller(session, polled, clock=clock, leds=leds, resume=wiring.resume,
                            events=events)
    reader = None if remote is None else _command_reader(remote, config[BOARD_ID], controller,
                                                         stack, clock)
    if following is not None and not wiring.virtual_time:  # (virtual time: a test polls)
        stack.callback(following.start().close)
    if across is not None:
        stack.callback(across.close)
        if link is not None:
            across.open_duel = _duel_opener(config, session, store, link, clock, events.put)
            session.subscribe(across.moved)  # a move logged: written to the link at once
        if config[REMOTE_OPPONENT]:
            if link is None:
                raise ConfigError("remote.opponent: the two boards need a Redis both reach: "
                                  "remote.url (or store.url)")
            across.pair(config[REMOTE_OPPONENT], session.config.human_side)
    display = stack.enter_context(create_display(config, context))
    clock_display = None if isinstance(display, NoDisplay) else ClockDisplay(
        display, Half(config[CLOCK_DISPLAY_WHITE]), translator(config[BOARD_LANGUAGE]).gettext)
    notifier = wiring.notifier or stack.enter_context(Notifier())
    sim = context.shared.get("sim-board")
    period = 1.0 / config[SCAN_HZ]
    return Service(controller, scanner, store, leds, notifier, clock, period,
                   sim=sim if isinstance(sim, SimulatedBoard) else None, remote=reader,
                   transform=config[TRANSFORM], keepalive=keepalive, display=clock_display,
                   coach=coach, follow=following, across=across, worker=worker)


@dataclass(frozen=True)
class ClockDisplay:
    """The clock display and how the game's clock is put on it (``white``: the half of White's
    time; ``words``: the board's language)."""

    display: Display
    white: Half
    words: Callable[[str], str]

    def show(self, session: Session, now: float) -> None:
        """Show the game's clock as it is at ``now`` (the display skips a face it shows)."""
        keeper, outcome = session.timekeeper, session.outcome
        flag = None if outcome is None or outcome.winner is None \
            or outcome.termination is not Termination.TIME_FORFEIT else outcome.winner.opponent
        self.display.show(clock_face(keeper.clock, now, width=self.display.half_width,
                                     white=self.white, held=keeper.holding, flag=flag,
                                     words=self.words))


def _remote_client(config: Config, stack: ExitStack) -> redis.Redis | None:
    """The Redis client of the board's remote: its command stream and its kept settings (None:
    the ``memory`` store, or ``web.control`` off)."""
    url = config[STORE_URL]
    if url == "memory" or not config[WEB_CONTROL]:
        return None
    client = sync_client(url, socket_timeout=BLOCK_MS / 1000 + 2, socket_connect_timeout=2)
    stack.callback(client.close)
    return client


def _reviewer(store: RedisStore, worker: Thinker, analysed_by: str) -> Reviewer:
    """The review of the board's last game (its analysis read from the store), the tries by
    hand answered by the engine worker, as the opponent's moves are; a game not analysed yet
    said to wait for whoever ``coach.analyse`` (``analysed_by``) names (``none``: a wiring
    that analyses no game, whatever ``coach.analyse`` says: the terminal's ``play``)."""

    def review(variant: Variant, outbox: Outbox) -> Review:
        return Review(variant, partial(last_game, store), thinker=worker, outbox=outbox,
                      analysed_by=analysed_by)

    return review


def _coach(config: Config, stack: ExitStack, store: RedisStore) -> IdleAnalyst | None:
    """The board's analyst (``coach.analyse``: idle or queue), started, its analysis in a
    child process; None: off."""
    choice = config[COACH_ANALYSE]
    if choice == "off":
        return None
    url = config[STORE_URL]
    if isinstance(store.client, redis.Redis) and url == "memory":
        client = store.client  # the in-memory store: its one fakeredis
    else:
        client = sync_client(url, socket_timeout=2, socket_connect_timeout=2)
        stack.callback(client.close)
    queue = AnalysisQueue(client, config[BOARD_ID])
    analyst = IdleAnalyst(Analyst(queue, config[COACH_DEPTH], books=config[COACH_MISTAKES_DIR],
                                  runner=ChildRunner()),  # the search in a process of its own
                          store.load_game, analyse=choice == "idle")
    stack.enter_context(analyst)
    return analyst.start()


def _command_reader(client: redis.Redis, board_id: str, controller: Controller[Session],
                    stack: ExitStack, clock: Clock) -> CommandReader:
    """The reader of the board's command stream into ``controller``'s queue, started."""
    reader = CommandReader(client, board_id, controller.post, clock.monotonic)
    stack.callback(reader.close)
    return reader.start()


def _open_store(config: Config, pdn_files: bool) -> RedisStore:
    files = PdnFiles(config[STORE_GAMES_DIR], render_game) if pdn_files else None

    def on_change(game: GameRecord) -> None:
        if files is not None:
            files.write(game)

    url = config[STORE_URL]
    spool = None if url == "memory" else config[STORE_SPOOL_DIR]
    if spool is not None:
        try:
            Path(spool).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"store.spool_dir: cannot create {spool}: "
                              f"{exc.strerror or exc}") from None
    return open_store(url, config[BOARD_ID], spool, on_change=on_change)


def _following(config: Config, variant: Variant, wiring: Wiring, clock: Clock,
               store: RedisStore, post: Callable[[Posted], None]) -> Following | None:
    """The followed game's reader and the follower (None: ``follow.source`` is empty)."""
    text = config[FOLLOW_SOURCE]
    if not text:
        return None
    source = follow_address.parse(text)
    reader: Reader
    if isinstance(source, follow_address.HallBoard):
        reader = BoardReader(source, store)
    else:
        reader = UrlReader(source)
    follower = Follower(variant.name, wiring.fen, clock, post=post)
    return Following(reader, follower, config[FOLLOW_POLL_S])


@dataclass(frozen=True)
class _LocalGame:
    """The duel's view of this board: the session's game in play, the store's records."""

    session: Session
    store: RedisStore

    @property
    def game_id(self) -> str | None:
        return self.session.game_id

    def load_game(self, game_id: str) -> GameRecord:
        return self.store.load_game(game_id)


def _duel_client(config: Config, stack: ExitStack) -> redis.Redis | None:
    """The client of the Redis both boards of a duel reach (``remote.url``, else the store's;
    None: the memory store, no pairing)."""
    url = config[REMOTE_URL] or config[STORE_URL]
    if url == "memory":
        return None
    client = sync_client(url, socket_timeout=DUEL_BLOCK_MS / 1000 + 2,
                         socket_connect_timeout=2)
    stack.callback(client.close)
    return client


def _duel_opener(config: Config, session: Session, store: RedisStore, client: redis.Redis,
                 clock: Clock, post: Callable[[SessionEvent], None]) -> OpenDuel:
    """Opens the duel with a partner's board: its link on ``client``, its thinker posting to
    the controller's queue."""
    def open_duel(partner: str, side: Color) -> Duel:
        opponent = RemoteOpponent(clock, post=post,
                                  claim_after_s=60.0 * config[REMOTE_CLAIM_AFTER_MIN])
        return Duel(Link(client, config[BOARD_ID], partner), _LocalGame(session, store),
                    me=config[BOARD_ID], partner=partner, side=side,
                    variant=session.game.variant.name, opponent=opponent)
    return open_duel


def _lessons(config: Config, variant: Variant, post: Callable[[SessionEvent], None]
             ) -> Lessons:
    """The coach's exercises of this board (firmware_host/coach/lessons.py): the puzzles of
    the variant (a player's mistake book first) rated in ``coach.mistakes_dir``."""
    folder = config[COACH_MISTAKES_DIR]
    progress = ProgressBook(folder)
    return Lessons(variant.name, translator(config[BOARD_LANGUAGE]), post, None,
                   lambda player: offer(variant.name, folder, player), progress.attempt,
                   player=config[COACH_PLAYER], side=config[GAME_HUMAN_SIDE],
                   start=config[COACH_START])


def _defence(worker: EngineWorker, lessons: Lessons) -> Callable[[bool], None]:
    """What makes the worker's opponent the coach's puzzles' defender while they run (it
    judges each move of the solver's on the worker's thread) and gives the engine back after:
    the engine stays the one the level and the hints know."""
    engine = worker.opponent
    defender = PuzzleOpponent(lessons.puzzle, fallback=engine, judged=lessons.judged)

    def defend(on: bool) -> None:
        worker.opponent = defender if on else engine

    return defend


def _engine_worker(config: Config, variant: Variant, stack: ExitStack, clock: Clock,
                   virtual_time: bool, post: Post, given: Opponent | None = None
                   ) -> EngineWorker | None:
    if config[GAME_MODE] == Mode.RECORD.value:
        if given is not None:
            given.close()
        return None
    # In real time the search runs in a process of its own (the built-in engine's or a Hub
    # engine's): nothing the engine does can slow the scan loop. (A given opponent replaces
    # it: none is started for it.) Started with the service, ready for the first move, unless
    # a person afar plays across the board (remote.opponent): then at its first move.
    opponent, limit = build_opponent(config, variant,
                                     process=not virtual_time and given is None,
                                     start=not config[REMOTE_OPPONENT])
    if given is not None:
        opponent.close()
        opponent = given
    stack.callback(opponent.close)
    if virtual_time:  # no clock: a depth (or a Hub engine's node count) decides
        virtual = Limit(nodes=limit.nodes) if limit.nodes and not limit.depth \
            else Limit(depth=limit.depth or VIRTUAL_TIME_DEPTH)
        return SyncEngineWorker(opponent, virtual, clock, post=post)
    worker = ThreadEngineWorker(opponent, limit, clock, post=post)
    stack.callback(worker.close)
    return worker


def ballot_opening(config: Config, variant: Variant) -> Opening | None:
    """The opening of each new game drawn from the English tournament ballots, or None.

    Raises:
        ConfigError: ``game.ballot`` is set for another variant than English checkers.
    """
    choice = config[GAME_BALLOT]
    if choice == "none":
        return None
    if variant.name != "english":
        raise ConfigError(f"{config.source}: game.ballot = {choice!r} applies to English "
                          f"checkers only, not {variant.name}")
    from engine.book import ballot_board, random_ballot

    rng = random.Random(config[ENGINE_SEED] or None)
    length = int(choice[0])

    def opening(board: Board) -> list[Move]:
        ballot = random_ballot(rng, length)
        log.info("ballot %s", ballot)
        return list(ballot_board(ballot).move_stack)

    return opening
