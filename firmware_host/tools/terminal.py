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

import select
import sys
from collections import deque
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TextIO

from board_io.clock import MonotonicClock, VirtualClock
from board_io.errors import BoardIOError
from board_io.scanner import Scanner
from board_io.sim import LedRecorder, SimulatedBoard, render
from board_io.types import ButtonName, Reading
from engine import Board, Color
from engine.errors import DraughtsError
from engine.levels import limit_for_level
from engine.search import Limit
from engine.types import Move
from firmware_host.feedback.texts import render as message
from firmware_host.game.controller import Controller, SyncEngineWorker, ThreadEngineWorker
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig
from firmware_host.recognition.layout import layout_for

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

    config: Any
    fen: str | None = None
    auto_execute: bool = False
    colour: bool = True
    virtual_time: bool = False
    level: int = 3
    games_dir: str | None = None


class TerminalGame:
    """The simulated board, its session and the typed-command loop."""

    def __init__(self, options: PlayOptions, stack: ExitStack, out: TextIO) -> None:
        config = options.config
        self.out = out
        self.options = options
        self.variant = Board(config["game.variant"]).variant
        self.layout = layout_for(self.variant)
        self.clock: Any = VirtualClock() if options.virtual_time else MonotonicClock()
        start = Board(self.variant, fen=options.fen)
        self.sim = SimulatedBoard(self.layout, occupied=start.occupied_squares(),
                                  clock=self.clock)
        scanner = Scanner(self.sim.sensor_matrix, self.sim.cell_map, buttons=self.sim.buttons,
                          debounce_ms=config["timing.debounce_ms"])
        self.leds = stack.enter_context(LedRecorder(self.layout.num_squares, clock=self.clock))
        self.store = stack.enter_context(self._open_store(options))
        worker = self._worker(options, stack)
        self.session = Session(self.variant, self.store, SessionConfig.from_config(config),
                               thinker=worker, show_leds=self.leds.show, fen=options.fen)
        self.session.subscribe(self._on_event)
        self.scanner = scanner
        self.controller = Controller(self.session, scanner, clock=self.clock, leds=self.leds,
                                     worker=worker, resume=False)
        self.actions: deque[tuple[float, Callable[[], None]]] = deque()
        self.dirty = True

    def _open_store(self, options: PlayOptions) -> Any:
        from firmware_host.store import open_store

        store_url = options.config["store.url"]
        if options.games_dir is None:
            return open_store(store_url, options.config["board.id"])
        from firmware_host.store.pdnfiles import PdnFiles
        from firmware_host.store.pdnrender import render_game

        files = PdnFiles(options.games_dir, render_game)

        def write(game: Any) -> None:
            files.write(game)

        return open_store(store_url, options.config["board.id"], on_change=write)

    def _worker(self, options: PlayOptions, stack: ExitStack) -> Any:
        if options.config["game.mode"] == "record":
            return None
        from firmware_host.opponents.opponent import BuiltinOpponent

        opponent = stack.enter_context(BuiltinOpponent(seed=options.config["engine.seed"]))
        if options.virtual_time:
            return SyncEngineWorker(opponent, Limit(depth=4), self.clock)
        worker = ThreadEngineWorker(opponent, limit_for_level(options.level), self.clock)
        stack.callback(worker.close)
        return worker

    # -- output ------------------------------------------------------------------------------
    def _on_event(self, event: dict[str, Any]) -> None:
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
        now = self.clock.monotonic()
        picture = render(self.layout, self._pieces_seen(), self.leds.frame, now,
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
            piece = known.get(square)
            seen[square] = Reading.OCCUPIED if piece is None else _READING[
                (piece.color, piece.king)]
        return seen

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
        except DraughtsError:
            if self.session.pending is None:
                raise
        after = board.copy()
        after.push(self.session.pending)
        return after.parse_move(text)

    def _schedule(self, action: Callable[[], None]) -> None:
        last = self.actions[-1][0] if self.actions else self.clock.monotonic()
        self.actions.append((max(last, self.clock.monotonic()) + STEP_S, action))

    def _schedule_hand(self, verb: str, square: int) -> None:
        def act() -> None:
            if verb == "lift":
                self.sim.lift(square)
            else:
                self.sim.place(square)

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

        return render_game(self.store.load_game(self.session.game_id))


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
