"""``draughtsboard play``: a simulated board in the terminal, driven by typed commands.

Typed moves become physical lifts and placements on the simulated board, so the whole pipeline
runs: sensors -> debouncer -> recogniser -> session -> LEDs. The board and its LEDs are drawn
after every change (:mod:`firmware_host.tools.diagram`); session events are printed as one-line
messages.

Commands: a move (``22-18``, ``22x13x4``, ``c3-d4``; on numeric boards squares may also be
given as drawn, ``e3``), ``lift SQ``, ``place SQ``, the buttons ``adjust``, ``hint``,
``takeback``, ``newgame``, ``resign``, ``draw``, ``done``, and ``fix`` (do what the correction
lights ask), ``board``, ``help``, ``quit``.

Nothing waits on the game: a command returns as soon as its lifts and placements are on the
board and the sensors have seen them; the board's time runs on while the prompt waits, and
what happens then (the computer's reply, a correction) is printed when it happens. From a pipe
or a file, the next line is read once the board has nothing more to say (no search, no timer
but the sensors' health check), so a script sees every reaction.
"""

from __future__ import annotations

import itertools
import select
import shutil
import sys
from collections import deque
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TextIO

from board_io.clock import MonotonicClock, VirtualClock
from board_io.errors import BoardIOError
from board_io.registry import BUTTON_BACKEND, LED_BACKEND, SENSOR_BACKEND
from board_io.sim import LedRecorder
from board_io.types import Reading
from engine import Board, Color, Piece
from engine.errors import DraughtsError
from engine.types import Move
from engine.variant import Variant, find_variant
from firmware_host.config import Config
from firmware_host.config.schema import BOARD_LANGUAGE, STORE_GAMES_DIR
from firmware_host.feedback.roles import Role
from firmware_host.feedback.texts import WORDS, render, variant_name
from firmware_host.game.fields import refusal_fields
from firmware_host.game.setup import PUT
from firmware_host.game.timers import BACKGROUND
from firmware_host.game.types import EventData, State, TimerName
from firmware_host.i18n import N_, translator
from firmware_host.opponents.opponent import Opponent
from firmware_host.recognition.layout import layout_for
from firmware_host.recognition.resolution import Illegal
from firmware_host.terms.buttons import BUTTONS, CLOCK
from firmware_host.terms.settings import ENGINE_LEVEL, GAME_MODE, GAME_VARIANT, Mode
from firmware_host.tools.demo import engine_line
from firmware_host.tools.diagram import draw as draw_board
from firmware_host.tools.typed_move import (
    TypedMoveError,
    example,
    explain_move,
    names,
    parse_typed,
    square_from_text,
    squares_of,
)

#: How the terminal draws a piece the game knows (colour, king).
_READING = MappingProxyType({
    (Color.WHITE, False): Reading.WHITE, (Color.BLACK, False): Reading.BLACK,
    (Color.WHITE, True): Reading.WHITE_KING, (Color.BLACK, True): Reading.BLACK_KING,
})
#: The piece the hand puts on a square lit to set a position up (``fix``).
_PUT_READING: Mapping[Role, Reading] = MappingProxyType(
    {role: _READING[key] for key, role in PUT.items()})

#: The ``help`` block (the commands stay English: they are what is typed).
HELP = N_("""commands:
  {example}   make a move (or carry out the computer's); a capture joins
      its squares with {sep}, with the landings in between when two ways fit
  lift SQ / place SQ      move one piece by hand, one lift or placement at a time
  adjust    open the j'adoube window (straighten pieces without obliging a move)
  done      close the adjust window
  hint      show a suggested move (type it back to play it)
  takeback  go back to your previous turn
  newgame   start a new game (again: back to this one)
  resign    resign the game          draw   offer or accept a draw
            (record mode: say whose, resign white, draw black)
  fix       put the pieces right as the lights show (B: put a piece back, E: take it away):
            after a takeback, for a new game, after a slip
  board     draw the board again     help   this text      quit   leave
squares: {squares}.""")
#: Said after a takeback: the board still shows the moves taken back.
FIX_AFTER_TAKEBACK = N_("the lights show how to put the pieces back: type fix to do it, or "
                        "move them by hand (lift and place)")
#: The help line of ``status`` (after the commands above).
HELP_STATUS = N_("  status    whose turn it is and what the board waits for, with both clocks")

#: Gap between the physical events of a typed move (a hand's pace; above the debounce time).
STEP_S = 0.08
#: The most a command is waited for: a hang guard, never reached by a working board.
SETTLE_LIMIT_S = 30.0

#: The buttons one word presses (``resign white``: White's resign button).
_BUTTONS = frozenset(button.name for button in BUTTONS if button.side is None) - {CLOCK}
#: What the state line says for each session state.
_STATES: Mapping[State, str] = MappingProxyType({
    State.SYNCING: N_("put the pieces as the lights show"),
    State.HUMAN_TO_MOVE: N_("your move"),
    State.MOVE_IN_PROGRESS: N_("move in progress"),
    State.ADJUSTING: N_("adjust window open"),
    State.ENGINE_THINKING: N_("the computer is thinking"),
    State.COMPUTER_MOVE_PENDING: N_("carry out the computer's move"),
    State.GAME_OVER: N_("game over"),
    State.SETTING_UP: N_("set up the initial position"),
    State.PAUSED: N_("the clock is held: no move counts"),
})
#: The state line while the computer's move waits to be carried out (the move in the sentence:
#: a language puts it where it reads).
PENDING_MOVE = N_("carry out the computer's move {pdn}")
#: Refusals of a typed move worded as the board words them when the move is made by hand:
#: those that name a rule (for the others the typed squares tell more).
_RULES = frozenset({"capture_compulsory", "max_capture", "capture_precedence",
                    "king_priority", "touch_move"})
#: Timers that do not hold up the next line of a script: the game clock's, and the sensors'
#: health check (it runs every second while the board is out of sync).
_BACKGROUND = BACKGROUND | {TimerName.HEALTH}


@dataclass(frozen=True)
class PlayOptions:
    """What ``draughtsboard play`` was asked for (``games_dir`` None: no PDN files;
    ``opponent``: the computer's side instead of the engine, a puzzle's defender;
    ``listeners``: more listeners of the session's events; ``set_up``: the board starts with
    the variant's start position on it and ``fen``'s position is set up by the lights)."""

    config: Config
    fen: str | None = None
    auto_execute: bool = False
    colour: bool = True
    virtual_time: bool = False
    level: int = 3
    games_dir: str | None = None
    opponent: Opponent | None = None
    listeners: tuple[Callable[[EventData], None], ...] = ()
    set_up: bool = False


class TerminalGame:
    """The simulated board, its session and the typed-command loop."""

    def __init__(self, options: PlayOptions, stack: ExitStack, out: TextIO) -> None:
        from firmware_host.app.notify import Notifier
        from firmware_host.app.service import Wiring, build_service

        config = options.config.with_overrides({
            SENSOR_BACKEND: "sim", LED_BACKEND: "sim", BUTTON_BACKEND: "sim",
            ENGINE_LEVEL: options.level, STORE_GAMES_DIR: options.games_dir})
        self.out = out
        self.options = options
        self.variant = find_variant(config[GAME_VARIANT])
        #: The board's language (board.language, play --language).
        self.tr = translator(config[BOARD_LANGUAGE])
        self.layout = layout_for(self.variant)
        self.clock: VirtualClock | MonotonicClock = (
            VirtualClock() if options.virtual_time else MonotonicClock())
        service = build_service(config, stack, Wiring(
            fen=options.fen, clock=self.clock, notifier=Notifier(environ={}),
            listeners=[self._on_event, *options.listeners], virtual_time=options.virtual_time,
            resume=False, pdn_files=options.games_dir is not None, opponent=options.opponent,
            occupied=Board(self.variant).occupied_squares() if options.set_up else None))
        if service.sim is None or not isinstance(service.leds, LedRecorder):
            raise BoardIOError("the terminal board needs the simulated board and LEDs")
        self.sim = service.sim
        self.leds = service.leds
        self.store = service.store
        self.session = service.session
        self.controller = service.controller
        self.scanner = service.scanner
        self.actions: deque[tuple[float, Callable[[], None]]] = deque()
        self.dirty = True
        #: What the hand put where (the sensors see presence only): drawn where the game has
        #: no piece yet, so a piece in the middle of a move keeps its colour.
        self._placed: dict[int, Reading] = {} if not options.set_up else {
            sq: _READING[(p.color, p.king)] for sq, p in Board(self.variant).pieces().items()}
        self._hand: list[Reading] = []
        #: A hint was asked for and has not been answered yet.
        self._asking_hint = False
        #: "> " is on screen and nothing was written after it.
        self.prompt_open = False
        #: Origins of typed moves under way: their touch is not news.
        self._typed_from: set[str] = set()
        #: Every game this run played (the ids, in order), for the files said on exit.
        self.game_ids: list[str] = []

    # -- output ------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """Write one message line (on a line of its own when the prompt is showing)."""
        self._leave_prompt()
        self.out.write(f"  {text}\n")
        self.out.flush()

    def prompt(self) -> None:
        """Show the prompt."""
        if not self.prompt_open:
            self.out.write("> ")
            self.out.flush()
            self.prompt_open = True

    def _leave_prompt(self) -> None:
        if self.prompt_open:
            self.out.write("\n")
            self.prompt_open = False

    def _on_event(self, event: EventData) -> None:
        kind = event["event"]
        if kind in ("leds", "state"):
            self.dirty = True
            return
        if kind in ("hint", "hint_refused", "move"):
            self._asking_hint = False
        if kind == "new_game" and self.session.game_id is not None:
            self.game_ids.append(self.session.game_id)
        if kind == "touch" and str(event.get("square")) in self._typed_from:
            return  # the lift of a typed move: the move itself is said next
        if kind in ("move", "refused", "correction"):
            self._typed_from.clear()
        text = self._refusal_text(event) if kind == "refused" else \
            str(event.get("text", "")) if kind == "lesson" else self.message(event)
        if text:
            self.say(text)
        if kind == "takeback":  # the board still holds the moves taken back
            self.say(self.tr.gettext(FIX_AFTER_TAKEBACK))
        if kind == "computer_move" and self.options.auto_execute:
            pending = self.session.pending
            if pending is not None:
                self._schedule_move(pending)

    def _refusal_text(self, event: EventData) -> str | None:
        """A refused move by hand, with its reason: where the session has only "not a legal
        move", the lifted piece and where it was put tell why."""
        if event.get("reason") == "not_a_move":
            missing, extra = event.get("missing"), event.get("extra")
            if isinstance(missing, list) and isinstance(extra, list) and \
                    len(missing) == 1 and not extra:
                return self.tr.gettext(
                    "the piece from {square} is off the board: put it on a square").format(
                    square=missing[0])
            if isinstance(missing, list) and isinstance(extra, list) and \
                    len(missing) == 1 and len(extra) == 1:
                try:
                    squares = [square_from_text(self.variant, str(missing[0]), self.tr),
                               square_from_text(self.variant, str(extra[0]), self.tr)]
                except TypedMoveError:
                    return self.message(event)
                return explain_move(self.session.board, squares, self.tr)
        return self.message(event)

    def message(self, event: Mapping[str, object]) -> str | None:
        """The sentence of ``event`` in the board's language."""
        return render(event, self.tr)

    def draw(self) -> None:
        """Draw the board and its LEDs, and say whose turn it is."""
        self._leave_prompt()
        picture = draw_board(self.variant, self._pieces_seen(), self.session.frame,
                             colour=self.options.colour,
                             columns=shutil.get_terminal_size().columns, tr=self.tr)
        self.out.write(f"{picture}\n  {self.status_line()}\n")
        self.out.flush()
        self.dirty = False

    def status_line(self) -> str:
        """The state line and, with a time control, both clocks as they are now (the running
        side starred): ``[your move; white to move]  white 0:04:57*  black 0:05:00``."""
        times = self.session.timekeeper.display(self.clock.monotonic())  # None: no clock
        return f"[{self.status()}]" + (f"  {times}" if times else "")

    def status(self) -> str:
        """The state line: whose move it is and what the board waits for."""
        session = self.session
        tr = self.tr
        turn = tr.gettext(N_("white") if session.board.turn == Color.WHITE else N_("black"))
        state = tr.gettext(_STATES[session.state])
        if session.state is State.COMPUTER_MOVE_PENDING and session.pending is not None:
            state = tr.gettext(PENDING_MOVE).format(
                pdn=session.board.move_notation(session.pending))
        outcome = session.outcome
        if session.state is State.GAME_OVER and outcome is not None:
            winner = outcome.winner
            return f"{state}: " + (tr.gettext("a draw") if winner is None else
                                   tr.gettext("white wins") if winner == Color.WHITE else
                                   tr.gettext("black wins"))
        to_move = tr.gettext("{side} to move").format(side=turn)
        if session.config.mode is Mode.RECORD and session.state is State.HUMAN_TO_MOVE:
            return to_move
        return f"{state}; {to_move}"

    def _pieces_seen(self) -> dict[int, Reading]:
        """What stands on the board, drawn with the colours the game knows.

        The simulated sensors see presence only; a player wants white and black apart. A piece
        where the game has none (misplaced, or not yet taken off) stays a plain disc.
        """
        known = self.session.board.pieces()
        seen = {}
        for square in self.sim.pieces:
            seen[square] = self._reading(square, known)
        return seen

    def _reading(self, square: int, known: Mapping[int, Piece]) -> Reading:
        """The game's piece on ``square``, else the one the hand put there, else unknown
        (while a position is set up by the lights: the one the hand put there first)."""
        if self.session.view.placing is not None and square in self._placed:
            return self._placed[square]
        piece = known.get(square)
        if piece is not None:
            return _READING[(piece.color, piece.king)]
        return self._placed.get(square, Reading.OCCUPIED)

    # -- input -------------------------------------------------------------------------------
    def command(self, line: str) -> bool:
        """Carry out one typed command; return False to quit."""
        words = line.strip().lower().split()
        if not words:
            return True
        verb = words[0]
        try:
            if verb in ("quit", "exit", "q"):
                return False
            if verb == "help":
                self.out.write(self.tr.gettext(HELP).format(squares=names(self.variant, self.tr),
                                           example=example(self.variant, self.tr),
                                           sep=self.variant.capture_separator) + "\n"
                               + self.tr.gettext(HELP_STATUS) + "\n")
            elif verb == "board":
                self.dirty = True
            elif verb == "status" and len(words) == 1:
                self.say(self.status_line())
            elif verb == "fix" and len(words) == 1:
                self._fix()
            elif verb in _BUTTONS and (len(words) == 1 or (
                    verb in ("resign", "draw") and len(words) == 2
                    and words[1] in ("white", "black"))):
                button = "_".join(words)  # resign white: White's button
                self._asking_hint = verb == "hint" or self._asking_hint
                self._schedule(lambda: self.sim.press(button))
            elif verb in ("lift", "place") and len(words) == 2:
                self._hand_command(verb, square_from_text(self.variant, words[1], self.tr))
            elif verb in ("lift", "place"):
                raise TypedMoveError(self.tr.gettext(
                    "{command} takes one square, for example: {command} {square}").format(
                    command=verb, square=self.variant.square_name(0)))
            else:
                self._schedule_move(self._typed_move(line.strip()))
        except (BoardIOError, DraughtsError, ValueError) as exc:
            self.say(str(exc))
        return True

    def _fix(self) -> None:
        """Lift what the lights say to take away, then place what they say to put back."""
        frame = self.session.frame
        extra = sorted(sq for sq, role in frame.items() if role is Role.EXTRA)
        missing = sorted(sq for sq, role in frame.items()
                         if role is Role.MISSING or role in _PUT_READING)
        if self.actions:
            raise TypedMoveError(self.tr.gettext("wait: the hand is still moving"))
        if not (extra or missing):
            raise TypedMoveError(self.tr.gettext("nothing to put right: the board matches the game")
                                 if self.session.in_sync else self.tr.gettext(
                                 "no correction is lit yet: it comes once the board has been "
                                 "wrong for a moment (or finish the move)"))
        for square in extra:
            if square in self.sim.pieces:
                self._schedule_hand("lift", square)
        if self.session.view.placing is not None:
            # A piece of the wrong colour or crown comes off and the right one goes on.
            wanted = self.session.board.pieces()
            missing += [sq for sq in extra if sq in wanted]
        for square in missing:
            if square not in self.sim.pieces or square in extra:
                piece = self.session.board.piece_at(square)
                self._schedule_hand("place", square, put=_PUT_READING.get(frame[square]) or (
                    None if piece is None else _READING[(piece.color, piece.king)]))

    def _hand_command(self, verb: str, square: int) -> None:
        """``lift SQ`` / ``place SQ``, refused at once when the square cannot take it."""
        if not self.actions:
            name = self.variant.square_name(square)
            if verb == "lift" and square not in self.sim.pieces:
                raise TypedMoveError(
                    self.tr.gettext("there is no piece on {square} to lift").format(square=name))
            if verb == "place" and square in self.sim.pieces:
                raise TypedMoveError(
                    self.tr.gettext("{square} is taken: lift its piece first").format(square=name))
        self._schedule_hand(verb, square)

    def _typed_move(self, text: str) -> Move:
        """The move ``text`` asks for in the session's state, or why it cannot be made now."""
        session = self.session
        state = session.state
        tr = self.tr
        # Not a move at all, or a square the board has not: the same answer in every state.
        squares_of(self.variant, text, tr)
        if session.outcome is not None or state is State.GAME_OVER:
            raise TypedMoveError(tr.gettext("the game is over: type newgame for another"))
        if state is State.SETTING_UP:
            raise TypedMoveError(tr.gettext(
                "a new game is being set up: put the pieces on their starting "
                "squares (or type newgame to go back to the game)"))
        if state is State.ENGINE_THINKING:
            raise TypedMoveError(tr.gettext("the computer is thinking: its move comes in a moment"))
        pending = session.pending
        if pending is not None:
            move = _or_none(lambda: parse_typed(session.board, text, tr))
            pdn = session.board.move_notation(pending)
            if self.options.auto_execute:
                raise TypedMoveError(tr.gettext(
                    "the computer's move {pdn} is being carried out for you").format(pdn=pdn))
            if move is not None and move.key() == pending.key():
                return pending
            raise TypedMoveError((tr.gettext(
                "first carry out the computer's move {pdn}, or type `takeback`")
                if session.config.takebacks_allowed else tr.gettext(
                "first carry out the computer's move {pdn}")).format(pdn=pdn))
        if not session.in_sync or self.actions:
            raise TypedMoveError(tr.gettext(
                "first make the board match the game: type fix to put the pieces as the "
                "lights show, or finish the move in progress with lift and place"))
        try:
            move = parse_typed(session.board, text, tr)
        except TypedMoveError as exc:
            # The sentence the board gives when the same move is made by hand, where it
            # names a rule (a compulsory capture, the maximum); else the typed move's reason.
            said = self._hand_refusal(self._board_after(list(exc.squares))) \
                if exc.squares else None
            raise TypedMoveError(said or str(exc)) from None
        said = self._hand_refusal(self._board_after([move.origin, *move.path]))
        if said is not None:  # a legal move refused by hand: touch-move
            raise TypedMoveError(said)
        return move

    def _board_after(self, squares: list[int]) -> set[int]:
        """The occupied squares once a piece went along ``squares`` (taking what it jumped)."""
        board = self.session.board
        occupied = set(board.occupied_squares())
        mover = board.piece_at(squares[0])
        occupied.discard(squares[0])
        for a, b in itertools.pairwise(squares):
            for sq in _between(self.variant, a, b):
                piece = board.piece_at(sq)
                if piece is not None and mover is not None and piece.color != mover.color:
                    occupied.discard(sq)
        occupied.add(squares[-1])
        return occupied

    def _hand_refusal(self, occupied: set[int]) -> str | None:
        """The session's refusal of a board with ``occupied``, when it names its rule."""
        result = self.session.game.index.resolve(occupied, obliged=self.session.obligation)
        if not isinstance(result, Illegal) or result.reason.value not in _RULES:
            return None
        return self.message({"event": "refused", **refusal_fields(result, self.session.namer)})

    def _schedule(self, action: Callable[[], None]) -> None:
        last = self.actions[-1][0] if self.actions else self.clock.monotonic()
        self.actions.append((max(last, self.clock.monotonic()) + STEP_S, action))

    def _schedule_hand(self, verb: str, square: int, *, keep: bool = True,
                       put: Reading | None = None) -> None:
        """Lift or place on ``square`` when its turn comes; a lifted piece is held in the hand
        (put down by the next ``place``) unless ``keep`` is False (a captured piece: off the
        board for good); ``put``: the piece placed (one the lights asked for), not the
        hand's."""
        def act() -> None:
            if verb == "lift":
                piece = self._reading(square, self.session.board.pieces())
                if keep:
                    self._hand.append(piece)
                self._placed.pop(square, None)
                self.sim.lift(square)
            else:
                self.sim.place(square)
                if put is not None:
                    self._placed[square] = put
                    return
                self._placed[square] = self._hand.pop() if self._hand else Reading.OCCUPIED

        self._schedule(act)

    def _schedule_move(self, move: Move) -> None:
        self._typed_from.add(self.variant.square_name(move.origin))
        self._schedule_hand("lift", move.origin)
        self._schedule_hand("place", move.destination)
        for captured in move.captures:  # off after the capturing piece lands, as the rules say
            self._schedule_hand("lift", captured, keep=False)

    # -- the loop ----------------------------------------------------------------------------
    def tick(self, redraw: bool = False) -> None:
        """Apply due physical actions, step the controller; with ``redraw``, draw the board
        again once the typed actions are on it and something changed."""
        now = self.clock.monotonic()
        while self.actions and self.actions[0][0] <= now:
            _, action = self.actions.popleft()
            try:
                action()
            except BoardIOError as exc:
                self.say(str(exc))
        self.controller.step(now)
        if redraw and self.dirty and not self.settling:
            self.draw()

    @property
    def settling(self) -> bool:
        """A typed command is not yet all on the board: actions waiting, the sensors not
        caught up with them, or a move about to be counted (the settle time)."""
        return (bool(self.actions) or not self.controller.started
                or self.scanner.occupied != self.sim.occupied
                or self.session.timers.running(TimerName.SETTLE))

    @property
    def quiet(self) -> bool:
        """Nothing more to say: settled, no search, no timer but the background ones."""
        session = self.session
        return (not self.settling and not self._asking_hint
                and session.state is not State.ENGINE_THINKING
                and not any(session.timers.running(name) for name in TimerName
                            if name not in _BACKGROUND))

    def settle(self, *, script: bool) -> None:
        """Run the board until the last command is on it; a ``script`` (input not from a
        terminal) also waits until the board has nothing more to say."""
        end = self.clock.monotonic() + SETTLE_LIMIT_S
        while (self.settling or (script and not self.quiet)) and self.clock.monotonic() < end:
            self._pause(0.01)
            self.tick()

    def _pause(self, seconds: float) -> None:
        if isinstance(self.clock, VirtualClock):
            self.clock.advance(seconds)
        else:
            select.select([], [], [], seconds)

    def result_text(self) -> str:
        """The game so far as PDN."""
        from firmware_host.store.pdnrender import render_game

        game_id = self.session.game_id
        if game_id is None:
            raise RuntimeError("the session opens a game at start")
        return render_game(self.store.load_game(game_id))

    def saved_files(self, games_dir: str) -> list[Path]:
        """The PDN files of this run's games that are on disk."""
        from firmware_host.store.pdnfiles import PdnFiles
        from firmware_host.store.pdnrender import render_game

        files = PdnFiles(games_dir, render_game)
        found = []
        for game_id in dict.fromkeys(self.game_ids):
            path = files.path_for(self.store.load_game(game_id))
            if path.exists():
                found.append(path)
        return found


def _between(variant: Variant, a: int, b: int) -> list[int]:
    """The squares strictly between ``a`` and ``b`` on a line (what a capture jumps)."""
    (ra, ca), (rb, cb) = variant.square_coords(a), variant.square_coords(b)
    steps = max(abs(rb - ra), abs(cb - ca))
    if not (ra == rb or ca == cb or abs(rb - ra) == abs(cb - ca)):
        return []
    sr, sc = (rb > ra) - (rb < ra), (cb > ca) - (cb < ca)
    found = (variant.square_at(ra + i * sr, ca + i * sc) for i in range(1, steps))
    return [sq for sq in found if sq is not None]


def _or_none(parse: Callable[[], Move]) -> Move | None:
    try:
        return parse()
    except ValueError:
        return None


def read_line(stream: TextIO, game: TerminalGame) -> str | None:
    """Read one line while keeping the board alive; None at end of input.

    At a terminal the board runs on while the prompt waits: what happens meanwhile is printed
    and the prompt shown again.
    """
    interactive = stream.isatty()
    game.prompt()
    while True:
        if interactive:
            ready, _, _ = select.select([stream], [], [], 0.02)
            if not ready:
                if isinstance(game.clock, VirtualClock):
                    game.clock.advance(0.02)
                game.tick(redraw=True)
                if not game.settling:
                    game.prompt()
                continue
        line = stream.readline()
        if interactive:
            game.prompt_open = False  # the typed line ended with its newline
        return line if line else None


def play(options: PlayOptions, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run the interactive game until ``quit`` or the end of input; return the exit status."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    script = not stdin.isatty()
    with ExitStack() as stack:
        try:
            game = TerminalGame(options, stack, out)
        except (DraughtsError, BoardIOError) as exc:
            print(f"draughtsboard play: {exc}", file=sys.stderr)
            return 2
        out.write("draughtsboard play: " + game.tr.gettext(
            "{variant}, {mode} mode. Type 'help' for commands.").format(
            variant=variant_name(game.variant.name, game.tr),
            mode=game.tr.gettext(WORDS["mode"].get(options.config[GAME_MODE], "play")))
            + "\n" + engine_line(game.tr) + "\n")
        game.settle(script=True)
        game.draw()
        try:
            while True:
                line = read_line(stdin, game)
                if line is None or not game.command(line):
                    break
                game.settle(script=script)
                if game.dirty and not game.settling:
                    game.draw()
        except KeyboardInterrupt:  # Ctrl-C leaves as quit does: the game and its file said
            pass
        game.prompt_open = False
        out.write("\n" + game.result_text())
        if options.games_dir:
            saved = game.saved_files(options.games_dir)
            where = ", ".join(str(path) for path in saved) or game.tr.gettext(
                "nothing yet, in {folder}").format(folder=options.games_dir)
            out.write(game.tr.gettext("saved: {files}").format(files=where) + "\n")
    return 0
