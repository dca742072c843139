"""``draughtsboard play``: a simulated board in the terminal, driven by typed commands.

Typed moves become physical lifts and placements on the simulated board, so the whole pipeline
runs: sensors -> debouncer -> recogniser -> session -> LEDs. The board and its LEDs are drawn
after every change; session events are printed as one-line messages.

Commands: a move (``22-18``, ``22x13x4``, ``c3-d4``), ``lift SQ``, ``place SQ``, ``adjust``,
``hint``, ``takeback``, ``newgame``, ``resign``, ``draw``, ``done``, ``board``, ``help``,
``quit``. A command waits until the board is quiet (moves accepted, the computer's reply shown)
before the next is read, so input can be piped.
"""

from __future__ import annotations

import itertools
import re
import select
import sys
from collections import deque
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from types import MappingProxyType
from typing import TextIO

from board_io.clock import MonotonicClock, VirtualClock
from board_io.errors import BoardIOError
from board_io.sim import LedRecorder, render
from board_io.types import ButtonName, Reading
from engine import Color, Piece
from engine.errors import DraughtsError, IllegalMoveError
from engine.types import Move
from engine.variant import Variant, find_variant
from firmware_host.config import Config
from firmware_host.feedback.texts import render as message
from firmware_host.game.fields import refusal_fields
from firmware_host.game.types import EventData
from firmware_host.recognition.layout import layout_for
from firmware_host.recognition.resolution import Illegal

#: How the terminal draws a piece the game knows (colour, king).
_READING = MappingProxyType({
    (Color.WHITE, False): Reading.WHITE, (Color.BLACK, False): Reading.BLACK,
    (Color.WHITE, True): Reading.WHITE_KING, (Color.BLACK, True): Reading.BLACK_KING,
})

HELP = """commands:
  22-18, 22x13x4, c3-d4   make a move (or carry out the computer's)
  lift SQ / place SQ      move one piece by hand
  adjust hint takeback newgame resign draw done   press a button
  board   draw the board      help   this text      quit   leave"""

#: Gap between the physical events of a typed move (a hand's pace; above the debounce time).
STEP_S = 0.08

_BUTTONS = frozenset({"adjust", "hint", "takeback", "newgame", "resign", "draw", "done"})


@dataclass(frozen=True)
class PlayOptions:
    """What ``draughtsboard play`` was asked for."""

    config: Config
    fen: str | None = None
    auto_execute: bool = False
    colour: bool = True
    virtual_time: bool = False
    level: int = 3
    games_dir: str | None = None


class TerminalGame:
    """The simulated board, its session and the typed-command loop."""

    def __init__(self, options: PlayOptions, stack: ExitStack, out: TextIO) -> None:
        from firmware_host.app.notify import Notifier
        from firmware_host.app.service import Wiring, build_service

        overrides: dict[str, object] = {"board.sensors": "sim", "board.leds": "sim",
                                        "board.buttons": "sim", "engine.level": options.level}
        if options.games_dir is not None:
            overrides["store.games_dir"] = options.games_dir
        config = options.config.with_overrides(overrides)
        self.out = out
        self.options = options
        self.variant = find_variant(str(config["game.variant"]))
        self.layout = layout_for(self.variant)
        self.clock: VirtualClock | MonotonicClock = (
            VirtualClock() if options.virtual_time else MonotonicClock())
        service = build_service(config, stack, Wiring(
            fen=options.fen, clock=self.clock, notifier=Notifier(environ={}),
            listeners=[self._on_event], virtual_time=options.virtual_time, resume=False,
            pdn_files=options.games_dir is not None))
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
        self._placed: dict[int, Reading] = {}
        self._hand: list[Reading] = []

    # -- output ------------------------------------------------------------------------------
    def _on_event(self, event: EventData) -> None:
        if event["event"] in ("leds", "state"):
            self.dirty = True
            return
        text = message(event)
        if text:
            self.out.write(f"  {text}\n")
        if event["event"] == "computer_move" and self.options.auto_execute:
            pending = self.session.pending
            if pending is not None:
                self._schedule_move(pending)

    def draw(self) -> None:
        """Draw the board and its LEDs, and say whose turn it is."""
        # A still picture cannot blink: draw it at the phase where every blinking LED is lit,
        # so a correction shows the moment it is drawn, not on some later redraw.
        picture = render(self.layout, self._pieces_seen(), self.leds.frame, 0.0,
                         colour=self.options.colour)
        state = self.session.state.value.replace("_", " ")
        turn = "white" if self.session.board.turn == 0 else "black"
        self.out.write(f"{picture}\n  [{state}; {turn} to move]\n")
        self.out.flush()
        self.dirty = False

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
        """The game's piece on ``square``, else the one the hand put there, else unknown."""
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
                self.out.write(HELP + "\n")
            elif verb == "board":
                self.dirty = True
            elif verb in _BUTTONS:
                button = ButtonName.parse(verb)
                self._schedule(lambda: self.sim.press(button))
            elif verb in ("lift", "place") and len(words) == 2:
                self._schedule_hand(verb, self.layout.parse(words[1]))
            else:
                self._schedule_move(self._find_move(line.strip()))
        except (BoardIOError, DraughtsError, ValueError) as exc:
            self.out.write(f"  {exc}\n")
        return True

    def _find_move(self, text: str) -> Move:
        board = self.session.board
        try:
            return board.parse_move(text)
        except IllegalMoveError as exc:
            if self.session.pending is None:
                raise ValueError(self._explain(text) or str(exc)) from exc
        except DraughtsError:
            if self.session.pending is None:
                raise
        after = board.copy()
        assert self.session.pending is not None
        after.push(self.session.pending)
        return after.parse_move(text)

    def _explain(self, text: str) -> str | None:
        """Why the typed move is refused, in the sentence the board gives when the same move
        is made by hand (the refusal texts of :mod:`firmware_host.feedback.texts`)."""
        variant, board = self.variant, self.session.board
        try:
            squares = [variant.parse_square(t) for t in re.split(r"[-x:]", text.strip())]
        except ValueError:
            return None
        occupied = set(board.occupied_squares())
        mover = board.piece_at(squares[0])
        if mover is None or len(squares) < 2:
            return None
        occupied.discard(squares[0])
        for a, b in itertools.pairwise(squares):
            for sq in _between(variant, a, b):
                piece = board.piece_at(sq)
                if piece is not None and piece.color != mover.color:
                    occupied.discard(sq)  # jumped: taken off
        occupied.add(squares[-1])
        result = self.session.game.index.resolve(occupied, obliged=self.session.obligation)
        if not isinstance(result, Illegal):
            return None
        fields = refusal_fields(result, self.session.namer)
        return message({"event": "refused", **fields})

    def _schedule(self, action: Callable[[], None]) -> None:
        last = self.actions[-1][0] if self.actions else self.clock.monotonic()
        self.actions.append((max(last, self.clock.monotonic()) + STEP_S, action))

    def _schedule_hand(self, verb: str, square: int) -> None:
        def act() -> None:
            if verb == "lift":
                self._hand.append(self._reading(square, self.session.board.pieces()))
                self._placed.pop(square, None)
                self.sim.lift(square)
            else:
                self.sim.place(square)
                self._placed[square] = self._hand.pop() if self._hand else Reading.OCCUPIED

        self._schedule(act)

    def _schedule_move(self, move: Move) -> None:
        self._schedule_hand("lift", move.origin)
        for captured in move.captures:
            self._schedule_hand("lift", captured)
        self._schedule_hand("place", move.destination)

    # -- the loop ----------------------------------------------------------------------------
    def tick(self, redraw: bool = False) -> None:
        """Apply due physical actions, step the controller; with ``redraw``, draw the board
        again once it is quiet and something changed."""
        now = self.clock.monotonic()
        while self.actions and self.actions[0][0] <= now:
            _, action = self.actions.popleft()
            try:
                action()
            except BoardIOError as exc:
                self.out.write(f"  {exc}\n")
        self.controller.step(now)
        if redraw and self.dirty and self.quiet:
            self.draw()

    @property
    def quiet(self) -> bool:
        """No action waiting and the session idle: ready for the next command."""
        return (not self.actions and self.controller.started and self.controller.quiet
                and self.scanner.occupied == self.sim.occupied)

    def wait_quiet(self, limit_s: float = 30.0) -> None:
        """Run the loop until the board is quiet (or ``limit_s`` passed)."""
        end = self.clock.monotonic() + limit_s
        while not self.quiet and self.clock.monotonic() < end:
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
        assert game_id is not None, "the session opens a game at start"
        return render_game(self.store.load_game(game_id))


def _between(variant: Variant, a: int, b: int) -> list[int]:
    """The squares strictly between ``a`` and ``b`` on a line (what a capture jumps)."""
    (ra, ca), (rb, cb) = variant.square_coords(a), variant.square_coords(b)
    steps = max(abs(rb - ra), abs(cb - ca))
    if not (ra == rb or ca == cb or abs(rb - ra) == abs(cb - ca)):
        return []
    sr, sc = (rb > ra) - (rb < ra), (cb > ca) - (cb < ca)
    found = (variant.square_at(ra + i * sr, ca + i * sc) for i in range(1, steps))
    return [sq for sq in found if sq is not None]


def read_line(stream: TextIO, game: TerminalGame) -> str | None:
    """Read one line while keeping the board alive; None at end of input."""
    interactive = stream.isatty()
    while True:
        if interactive:
            ready, _, _ = select.select([stream], [], [], 0.02)
            if not ready:
                game.tick(redraw=True)
                continue
        line = stream.readline()
        return line if line else None


def play(options: PlayOptions, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run the interactive game until ``quit`` or the end of input; return the exit status."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    with ExitStack() as stack:
        try:
            game = TerminalGame(options, stack, out)
        except (DraughtsError, BoardIOError) as exc:
            print(f"draughtsboard play: {exc}", file=sys.stderr)
            return 2
        out.write(f"draughtsboard play: {game.variant.name}, {options.config['game.mode']} "
                  f"mode. Type 'help' for commands.\n")
        game.wait_quiet()
        game.draw()
        while True:
            out.write("> ")
            out.flush()
            line = read_line(stdin, game)
            if line is None or not game.command(line):
                break
            game.wait_quiet()
            if game.dirty:
                game.draw()
        out.write("\n" + game.result_text())
        if options.games_dir:
            out.write(f"(PDN files in {options.games_dir})\n")
    return 0
