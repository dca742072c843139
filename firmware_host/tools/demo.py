"""``draughtsboard demo``: the whole service on the simulated board, a simulated player at it.

The service is built by :func:`firmware_host.app.service.build_service`, exactly as ``draughtsboard
run --board sim --store memory`` builds it (sim sensors -> scanner -> session -> engine thread ->
LEDs -> in-memory store + PDN files), but on a :class:`~board_io.clock.VirtualClock`, so a demo
replays identically. A simulated player (a weak engine level picks its moves) carries out its
moves with a little sloppiness, and carries out the computer's replies by reading the LED frame
only (:mod:`~firmware_host.tools.demo_hands`).
After every step the board and its LEDs are drawn with a
caption, paced for a person (real sleeps, display only) unless ``fast`` or not a terminal.

The demo keeps nothing but the game's PDN file, in the user's games directory
(:func:`firmware_host.config.places.games_dir`, ``--games-dir``), whose path it prints: its
store is in memory. Ctrl-C or SIGTERM ends it as the end does, with the file said.

Example::

    run_demo(DemoOptions(plies=6, fast=True, games_dir="/tmp/games"))
"""

from __future__ import annotations

import logging
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from board_io.clock import VirtualClock
from board_io.errors import BoardIOError
from board_io.sim import render
from board_io.types import Led, Pattern, Reading
from engine import Board, Move
from engine.errors import DraughtsError
from engine.levels import Level, level
from engine.search import Limit
from firmware_host.app.notify import Notifier
from firmware_host.config import places
from firmware_host.config.loader import Config
from firmware_host.config.schema import STORE_GAMES_DIR
from firmware_host.errors import DraughtsboardError, say
from firmware_host.feedback.roles import Light, Role, by_rank
from firmware_host.feedback.texts import STATE_NAMES, variant_name
from firmware_host.game.types import EventData, State
from firmware_host.i18n import ENGLISH, N_, Translator, translator
from firmware_host.terms.buttons import NEWGAME
from firmware_host.tools.demo_hands import HandStep, human_steps, next_led_step

#: Seconds each drawn frame stays on screen (a person can follow it).
FRAME_S = 0.5
#: Deepest search of the demo's computer: levels 8-10 would keep a watcher waiting.
MAX_DEPTH = 6
#: How long (real seconds) the demo waits for one engine reply before giving up.
ENGINE_WAIT_S = 120.0
_CLEAR = "\x1b[H\x1b[2J"
_PIECES = {(0, False): Reading.WHITE, (1, False): Reading.BLACK,
           (0, True): Reading.WHITE_KING, (1, True): Reading.BLACK_KING}
_KING = {Reading.WHITE: Reading.WHITE_KING, Reading.BLACK: Reading.BLACK_KING}
_HAND_CAPTIONS = {
    "from": N_("the simulated player lifts the computer's piece on {square} (lit 'from')"),
    "to": N_("and puts it down on {square} (lit 'to')"),
    "remove": N_("the simulated player takes off the captured piece on {square} (blinking "
                 "'remove')")}
#: The legend's entry of each kind of LED lit, with its squares.


class DemoError(DraughtsboardError, RuntimeError):
    """The simulated board and the service disagree (a bug: the demo cannot go on)."""


class DemoStopped(DraughtsboardError):
    """The demo was asked to stop (Ctrl-C, SIGTERM, a hall stopping)."""


@dataclass(frozen=True)
class DemoOptions:
    """What ``draughtsboard demo`` was asked for.

    ``plies``: stop after this many half-moves (or at game over); ``level``: the computer's
    strength; ``human_level``: the simulated player's; ``games_dir``: where the PDN file goes
    (None: the user's games directory, :func:`~firmware_host.config.places.games_dir`);
    ``seed``: the player's choices and hands. ``hub``: a configuration
    whose ``[engine]`` is a Hub engine (Scan) to play the computer's side instead of the
    built-in engine, at its own strength (``engine.hub_*``; ``level`` then does not apply).
    ``store_url`` and ``board_id``: where the game is recorded (``demo --hall``: a Redis of its
    own, one board id each); ``spool_dir``: the spool of a Redis store (``demo --hall``: in its
    temporary directory).
    """

    variant: str = "international"
    plies: int = 20
    level: int = 3
    human_level: int = 1
    fast: bool = False
    games_dir: str | None = None
    seed: int = 1
    hub: Config | None = None
    #: The game clock (``clock.time_control``; '': none).
    time_control: str = ""
    store_url: str = "memory"
    board_id: str | None = None
    #: The board's language (``board.language``: its events' text, its voice).
    language: str = "en"
    spool_dir: str | None = None


@dataclass
class DemoResult:
    """What happened: the PDN file, and each ply as ``(by, pdn, followed_leds)``; ``result``
    None: the game was stopped at ``--moves`` before its end."""

    pdn_path: Path
    plies: list[tuple[str, str, bool]] = field(default_factory=list)
    result: str | None = None


class Display:
    """Draws frames: on a terminal in colour, cleared and paced; else plain text, unpaced."""

    def __init__(self, out: TextIO, *, fast: bool) -> None:
        self.out = out
        self.tty = out.isatty()
        self.pace = self.tty and not fast

    def frame(self, picture: str, lines: list[str]) -> None:
        """Draw one picture with its caption lines."""
        self.out.write((_CLEAR if self.tty else "\n") + picture + "\n")
        self.out.write("".join(f"  {line}\n" for line in lines if line))
        self.out.flush()
        if self.pace:
            time.sleep(FRAME_S)  # real time, for the eye only: the game runs in virtual time

    def line(self, text: str) -> None:
        """Write one line of text."""
        self.out.write(text + "\n")
        self.out.flush()


def check_options(options: DemoOptions) -> Level:
    """Check the variant, the levels and the time control; return the computer's
    :class:`~engine.levels.Level`.

    Raises:
        ConfigError: an unknown variant, an out-of-range level, a bad time control.
    """
    from firmware_host.config.loader import ConfigError, check_variant

    # --time-control and --language, checked as run and play check them (in the service it
    # would be a crash; in a hall's board, a dead board).
    Config.from_mapping({"clock": {"time_control": options.time_control},
                         "board": {"language": options.language}}, source="command line")
    check_variant(options.variant, "command line")
    try:
        level(options.human_level)
        return level(options.level)
    except ValueError as exc:
        raise ConfigError(f"demo: {exc}") from None


def demo_config(options: DemoOptions, games_dir: str) -> Config:
    """The service configuration of a demo (sim board, memory store, depth-limited engine).

    Raises:
        ConfigError: an unknown variant or an out-of-range level.
    """
    chosen = check_options(options)
    # Depth only, no clock, no thinking on the player's time (a ponder search stopped by a
    # miss leaves a table that depends on when): the same demo plays the same game on any
    # machine, and a hall of boards does not keep every core busy.
    depth = min(chosen.depth or MAX_DEPTH, MAX_DEPTH)
    engine: dict[str, object] = {"level": options.level, "depth": depth, "movetime_ms": 0,
                                 "ponder": "off"}
    if options.hub is not None:  # the Hub engine's own settings, as its configuration has them
        engine = {path.split(".", 1)[1]: options.hub[path] for path in options.hub
                  if path.startswith("engine.") and options.hub.is_set(path)}
        engine["kind"] = "hub"
        engine["ponder"] = "off"
    return Config.from_mapping({
        "game": {"variant": options.variant, "mode": "play", "human_side": "white"},
        "engine": engine,
        "board": {"sensors": "sim", "leds": "sim", "buttons": "sim", "rgb": True,
                  "language": options.language,
                  "id": options.board_id or "demo"},
        "store": {"url": options.store_url, "games_dir": games_dir,
                  **({"spool_dir": options.spool_dir} if options.spool_dir else {})},
        "clock": {"time_control": options.time_control},
    }, source="demo" if options.hub is None else options.hub.source)


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """The demo draws its own captions: service log lines would scramble the picture."""
    loggers = [logging.getLogger(name) for name in
               ("draughtsboard", "firmware_host", "board_io", "engine")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, old in zip(loggers, levels, strict=True):
            logger.setLevel(old)


class Demo:
    """The service on a simulated board, with a simulated player's hands and eyes.

    One service plays game after game (:meth:`play`, then :meth:`next_game`), as a real board
    does: ``demo --hall`` keeps each board's service running between its games. ``stopped``
    is asked at every step; once it says so, the demo raises :class:`DemoStopped`.
    """

    def __init__(self, options: DemoOptions, stack: ExitStack, display: Display,
                 games_dir: str, stopped: Callable[[], bool] = lambda: False) -> None:
        from firmware_host.app.service import Wiring, build_service
        from firmware_host.opponents.opponent import BuiltinOpponent

        self.options = options
        self.display = display
        self.games_dir = games_dir
        self.stopped = stopped
        self.clock = VirtualClock()
        config = demo_config(options, games_dir)
        # Never resume a game from the store: the simulated board is set up at the start, so a
        # resumed game would refuse the simulated player's every move.
        service = build_service(config, stack, Wiring(clock=self.clock, resume=False,
                                                      notifier=Notifier(environ={})))
        self.store = service.store
        self.leds = service.leds
        self.period = service.scan_period
        self.controller = service.controller
        self.session = self.controller.session
        if service.sim is None:
            raise DemoError("the demo needs the simulated board")
        self.scanner = service.scanner
        self.sim = service.sim
        self.layout = self.sim.layout
        self.game = Board(self.session.variant)  # the player's own idea of the game
        self.rng = random.Random(options.seed)
        human = level(options.human_level)
        self.human_limit = Limit(depth=human.depth or 1)
        self.human = stack.enter_context(BuiltinOpponent(seed=options.seed,
                                                         options=human.options))
        self.events: list[EventData] = []
        self.session.subscribe(self.events.append)
        self.held: Reading | None = None
        self.untold: str | None = None  # a caption waiting for the next frame
        #: The game's plies so far: ``(by, pdn, followed_leds)``.
        self.plies: list[tuple[str, str, bool]] = []
        self.tr = translator(options.language)  # the captions speak the board's language
        self._set_up_pieces()

    def _set_up_pieces(self) -> None:
        # Give each piece its colour before the first scan: presence sensors read them all the
        # same, but the picture needs to tell the sides apart.
        for sq, piece in self.game.pieces().items():
            self.sim.lift(sq)
            self.sim.place(sq, _PIECES[int(piece.color), piece.king])

    # -- time ---------------------------------------------------------------------------------
    def _wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass, scanning the board all the while."""
        end = self.clock.monotonic() + ms / 1000
        while self.clock.monotonic() < end:
            self.clock.set(min(end, self.clock.monotonic() + self.period))
            self.controller.step()

    def _run_until(self, done: Callable[[], bool], limit_s: float = 10.0) -> bool:
        """Scan until ``done()``; while the engine thinks, virtual time stands still."""
        end = self.clock.monotonic() + limit_s
        give_up = time.monotonic() + ENGINE_WAIT_S
        while True:
            if self.stopped():
                raise DemoStopped
            self.controller.step()
            if done():
                return True
            if self.session.state is State.ENGINE_THINKING:
                if time.monotonic() > give_up:
                    return False
                time.sleep(0.002)  # real time: the engine thread is searching
            elif self.clock.monotonic() >= end:
                return False
            else:
                self.clock.advance(self.period)

    def _seen(self) -> bool:
        """The scanner has taken in the board as it is (the LEDs answer what is there)."""
        return self.scanner.occupied == self.sim.occupied

    def _moves(self, by: str) -> int:
        return sum(1 for e in self.events if e["event"] == "move" and e["by"] == by)

    # -- hands --------------------------------------------------------------------------------
    def _act(self, step: HandStep, moving: bool) -> None:
        if step.action == "lift":
            piece = self.sim.lift(step.square)
            if moving:
                self.held = piece
        else:
            if self.held is None:
                raise RuntimeError("placing a piece the hand does not hold")
            self.sim.place(step.square, self.held)

    def _crown_if_asked(self) -> None:
        # Crowning stacks a second piece: presence sensors see no change, so no scan between.
        for sq, role in self.session.frame.items():
            piece = self.sim.pieces.get(sq)
            if role is Role.CROWN and piece in _KING:
                self.sim.lift(sq)
                self.sim.place(sq, _KING[piece])

    # -- drawing ------------------------------------------------------------------------------
    def show(self, caption: str) -> None:
        """Draw the board, its LEDs and ``caption`` (after any caption not yet shown)."""
        if self.untold is not None:
            caption, self.untold = f"{self.untold}; {caption}", None
        frame = self.session.frame
        steady = {sq: Led(Pattern.ON, role.colour.rgb) for sq, role in frame.items()}
        picture = render(self.layout, self.sim.pieces, steady, self.clock.monotonic(),
                         colour=self.display.tty)
        self.display.frame(picture, [caption, led_legend(frame, self.layout.name, self.tr),
                                     ply_line(len(self.game.move_stack),
                                              self.session.state.value, self.tr)])

    # -- the game -----------------------------------------------------------------------------
    def human_ply(self) -> str:
        """The simulated player picks a move and carries it out; return its notation."""
        move: Move | None = self.human.best_move(self.game, self.human_limit).move
        if move is None:
            raise DemoError("the simulated player found no move")
        text = self.game.move_notation(move)
        before = self._moves("human")
        for step in human_steps(self.game, move, self.rng):
            self._wait(step.pause_ms)
            self._act(step, moving=step.why in ("lift", "lift again"))
        if not self._run_until(lambda: self._moves("human") > before and self._seen()):
            raise DemoError(f"the board did not accept the simulated player's {text}")
        self.game.push(move)
        self._crown_if_asked()
        # Shown with the computer's reply: the engine thread may answer before the next scan.
        self.untold = self.tr.gettext("the simulated player: {move}").format(move=text)
        return text

    def computer_ply(self) -> str | None:
        """Wait for the computer's reply on the LEDs and carry it out by following them;
        return its notation (None: the game ended)."""
        shown = {State.COMPUTER_MOVE_PENDING, State.GAME_OVER}
        if not self._run_until(lambda: self.session.state in shown and self._seen()):
            raise DemoError("the computer's reply never came")
        if self.session.state is State.GAME_OVER:
            return None
        # The caption names the move for the watcher; the hands read only the LEDs.
        shown_as = next(e["pdn"] for e in reversed(self.events)
                        if e["event"] == "computer_move")
        self.show(self.tr.gettext("computer shows {move} on the LEDs").format(move=shown_as))
        move = self._follow_leds()
        text = self.game.move_notation(move)
        self.game.push(move)
        if self.game.fen() != self.session.board.fen():
            raise DemoError(f"the LEDs were read as {text}, but the computer played {shown_as}")
        self._crown_if_asked()
        self.show(self.tr.gettext("computer: {move} (carried out by following the LEDs)").format(
            move=text))
        return text

    def _next_led_step(self) -> HandStep | None:
        step = next_led_step(self.session.frame, self.sim.occupied, self.held is not None, self.rng)
        if step is None and self.session.state is State.COMPUTER_MOVE_PENDING:
            # Nothing readable yet (a "crown" blink outranks the move's squares for a moment):
            # look again once the LEDs have settled, as a player would.
            self._run_until(lambda: self.controller.quiet)
            step = next_led_step(self.session.frame, self.sim.occupied, self.held is not None,
                                 self.rng)
        return step

    def _follow_leds(self) -> Move:
        before = self._moves("computer")
        origin = destination = None
        removed: set[int] = set()
        self.held = None
        for _ in range(4 * self.layout.num_squares):  # every step changes the board
            step = self._next_led_step()
            if step is None:
                break
            self._wait(step.pause_ms)
            self._act(step, moving=step.why == "from")
            origin = step.square if step.why == "from" else origin
            destination = step.square if step.why == "to" else destination
            if step.why == "remove":
                removed.add(step.square)
            self._run_until(self._seen)
            if self._moves("computer") == before:
                self.show(self.tr.gettext(_HAND_CAPTIONS[step.why]).format(
                    square=self.layout.name(step.square)))
        if self._moves("computer") == before or origin is None or destination is None:
            raise DemoError("following the LEDs did not complete the computer's move")
        try:
            return self.game.find_move(origin, destination, frozenset(removed))
        except DraughtsError as exc:
            raise DemoError(f"the LEDs showed no legal move: {exc}") from exc

    def play(self) -> DemoResult:
        """Play until ``options.plies`` half-moves or game over.

        Raises:
            DemoError: the service and the simulated board disagree.
            DemoStopped: ``stopped`` said so.
        """
        if not self._run_until(lambda: self.controller.started and self._seen()):
            raise DemoError("the service never read the board")
        self.show(self.tr.gettext(
            "{variant}: the simulated player (white) against {computer}").format(
            variant=variant_name(self.session.variant.name, self.tr), computer=self.computer))
        self.plies = []
        while len(self.plies) < self.options.plies and self.session.outcome is None:
            if self.session.human_turn:
                self.plies.append(("human", self.human_ply(), False))
                continue
            text = self.computer_ply()
            if text is not None:
                self.plies.append(("computer", text, True))
        if self.untold is not None:
            caption, self.untold = self.untold, None
            self.show(caption)
        result = self.result()
        if result.result is not None:
            self._run_until(self._seen)
            self.show(self.tr.gettext("game over: {result}").format(result=result.result))
        return result

    def result(self) -> DemoResult:
        """The game so far: its PDN file, its plies, its result (None: not over)."""
        outcome = self.session.outcome
        result = None if outcome is None else outcome.result(self.session.variant.pdn_gametype)
        return DemoResult(self._pdn_path(), list(self.plies), result)

    def next_game(self) -> None:
        """Start the board's next game as players do: New game pressed if the game is not
        over, the pieces set up on their starting squares, and the service's new game begun
        (with whatever was set for it meanwhile: a variant, a level, from the web).

        Raises:
            DemoError: the service did not begin a new game.
            DemoStopped: ``stopped`` said so.
        """
        game_id = self.session.game_id
        mark = len(self.events)  # what happens from here on is the next game's
        if self.session.outcome is None and self.session.state is not State.SETTING_UP:
            self.sim.press(NEWGAME)
            self._run_until(lambda: self.session.state is State.SETTING_UP)
        self.display.frame("", [self.tr.gettext("setting up the next game")])
        start = Board(self.session.variant)
        wanted = start.pieces()
        for sq in sorted(self.sim.occupied - wanted.keys()):
            self.sim.lift(sq)
        self._wait(500)
        for sq, piece in wanted.items():
            if self.sim.pieces.get(sq) != _PIECES[int(piece.color), piece.king]:
                if sq in self.sim.occupied:
                    self.sim.lift(sq)
                self.sim.place(sq, _PIECES[int(piece.color), piece.king])
        if not self._run_until(lambda: self.session.game_id != game_id
                               and self.session.state is not State.SETTING_UP
                               and self.session.in_sync, limit_s=60.0):
            raise DemoError("the board did not begin a new game")
        self.game = Board(self.session.variant)
        del self.events[:mark]  # the new game's own events stay (its first computer move)
        self.plies = []
        self.held = None
        self.untold = None

    @property
    def computer(self) -> str:
        """Who plays the computer's side: ``level 3``, or the Hub engine's name (``Scan 3.1``)."""
        if self.options.hub is None:
            return self.tr.gettext("level {level}").format(level=self.options.level)
        game_id = self.session.game_id
        if game_id is None:
            raise RuntimeError("the session opens a game at start")
        return self.store.load_game(game_id).headers.get("Black", "the Hub engine")

    def _pdn_path(self) -> Path:
        from firmware_host.store.pdnfiles import PdnFiles
        from firmware_host.store.pdnrender import render_game

        game_id = self.session.game_id
        if game_id is None:
            raise RuntimeError("the session opens a game at start")
        game = self.store.load_game(game_id)
        return PdnFiles(self.games_dir, render_game).path_for(game)


def led_legend(frame: Mapping[int, Light], name: Callable[[int], str],
               tr: Translator = ENGLISH) -> str:
    """The lit LEDs as text in ``tr``'s language, by role in priority order.

    >>> led_legend({31: Role.FROM, 27: Role.TO}, lambda sq: str(sq + 1))
    'LEDs: to 28 | from 32'
    """
    by_role: dict[Light, list[str]] = {}
    for sq in sorted(frame):
        by_role.setdefault(frame[sq], []).append(name(sq))
    if not by_role:
        return tr.gettext("LEDs: off")
    parts = [tr.gettext(light.told).format(squares=" ".join(by_role[light]))
             for light in by_rank(by_role)]
    return tr.gettext("LEDs: {lights}").format(lights=" | ".join(parts))


def ply_line(ply: int, state: str, tr: Translator = ENGLISH) -> str:
    """The demo's line of the ply reached and the board's state (a :class:`State` value), in
    the web's words for the states.

    >>> ply_line(3, "human_to_move")
    '[ply 3, waiting for a move]'
    """
    words = tr.gettext(STATE_NAMES.get(state, STATE_NAMES["unknown"]))
    return tr.gettext("[ply {ply}, {state}]").format(ply=ply, state=words)


def engine_line(tr: Translator = ENGLISH) -> str:
    """The line that says which engine plays: compiled, or pure Python with its cost and the
    command that compiles it (the quick start installs it compiled where a C compiler is).

    >>> engine_line() in (ENGINE_WORDS["compiled"], ENGINE_WORDS["pure"])
    True
    """
    from engine.compiled import build

    return tr.gettext(ENGINE_WORDS.get(build(), ENGINE_WORDS["pure"]))


#: What :func:`engine_line` says of each :func:`engine.compiled.build` (lines after the first
#: are indented).
ENGINE_WORDS: Mapping[str, str] = {
    "compiled": N_("the engine: compiled"),
    "pure": N_("the engine: pure Python (the compiled one is 3 to 4 times faster)\n"
               "  to compile it: .venv/bin/pip install '.[web]' with gcc and python3-dev"),
}


class _Signals:
    """SIGINT and SIGTERM, while it is entered, only set :attr:`received` (the demo stops at
    its next step and ends as at its end); outside the main thread it changes nothing."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._old: dict[int, object] = {}

    def _handler(self, signum: int, frame: object) -> None:
        self.received = signum

    def __enter__(self) -> _Signals:
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self._old[signum] = signal.signal(signum, self._handler)
            except ValueError:  # not the main thread: the caller stops it
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, old in self._old.items():
            signal.signal(signum, old)  # type: ignore[arg-type]

    def is_set(self) -> bool:
        """A signal came."""
        return self.received is not None


def run_demo(options: DemoOptions, out: TextIO | None = None) -> int:
    """Run the demo; return the exit status (0; 1 when the demo found a bug; 2 when its games
    directory cannot be written; 128 + the signal's number when Ctrl-C or SIGTERM stopped it).

    Raises:
        ConfigError: an unknown variant or a bad level.
    """
    from firmware_host.config import ConfigError

    out = out if out is not None else sys.stdout
    display = Display(out, fast=options.fast)
    check_options(options)  # before a directory is made for nothing
    tr = translator(options.language)
    try:
        games_dir = str(places.check_writable(options.games_dir or places.games_dir(),
                                              STORE_GAMES_DIR.path, "--games-dir"))
    except ConfigError as exc:
        print(f"draughtsboard demo: {exc}", file=sys.stderr)
        return 2
    display.line(engine_line(tr))
    signals = _Signals()
    try:
        with signals, _quiet_logs(), ExitStack() as stack:
            demo = Demo(options, stack, display, games_dir, stopped=signals.is_set)
            try:
                result = demo.play()
            except DemoStopped:
                result = demo.result()
    except (DemoError, BoardIOError) as exc:
        return say(exc, "draughtsboard demo")
    if not result.pdn_path.is_file():
        print(f"draughtsboard demo: the PDN file {result.pdn_path} was not written",
              file=sys.stderr)
        return 1
    moves = " ".join(text for _, text, _ in result.plies)
    display.line(tr.gettext("moves: {moves}").format(moves=moves)
                 + (f"  {result.result}" if result.result else ""))
    led_plies = sum(1 for _, _, followed in result.plies if followed)
    display.line(tr.ngettext("the computer's {count} move was carried out by following the LEDs",
                             "the computer's {count} moves were carried out by following the "
                             "LEDs", led_plies).format(count=led_plies))
    display.line(stop_line(result, options.plies, signals.received, tr))
    display.line(tr.gettext("done: PDN written to {path}").format(path=result.pdn_path))
    return 0 if signals.received is None else 128 + signals.received


def stop_line(result: DemoResult, limit: int, signum: int | None,
              tr: Translator = ENGLISH) -> str:
    """Why the demo stopped: the game's end, ``--moves``, or a signal.

    >>> stop_line(DemoResult(Path("g.pdn"), [("human", "32-28", False)] * 20), 20, None)
    'stopped after 20 plies, as --moves 20 asks: the game is unfinished (*); --moves 200 plays on'
    >>> stop_line(DemoResult(Path("g.pdn"), [], "2-0"), 20, None)
    'the game is over: 2-0'
    """
    plies = len(result.plies)
    if signum is not None:
        return tr.ngettext("stopped by {signal} after {plies} ply: the game is unfinished (*)",
                           "stopped by {signal} after {plies} plies: the game is unfinished "
                           "(*)", plies).format(signal=signal.Signals(signum).name, plies=plies)
    if result.result is not None:
        return tr.gettext("the game is over: {result}").format(result=result.result)
    return tr.ngettext("stopped after {plies} ply, as --moves {limit} asks: the game is "
                       "unfinished (*); --moves 200 plays on",
                       "stopped after {plies} plies, as --moves {limit} asks: the game is "
                       "unfinished (*); --moves 200 plays on", plies).format(plies=plies,
                                                                            limit=limit)
