"""``draughtsboard play --puzzles``: puzzles solved on the simulated board in the terminal.

Each puzzle is a game on the board from its position, the player the side to move, the
computer the defender (:class:`~firmware_host.opponents.puzzle.PuzzleOpponent`: the puzzle's
line, or the refutation of a wrong move, lit on the board to be carried out as any computer
move). :class:`PuzzleJudge` listens to the game's moves and says each of the player's right or
wrong (:func:`engine.puzzles.verdict`): a wrong one with the refutation and the solution, the
last right one "solved". Then the next puzzle: the player's own mistakes first (their mistake
book, ``--player``), then the puzzles that ship for the variant, easiest first.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from typing import TextIO

from board_io.errors import BoardIOError
from engine import Board, Move
from engine.errors import DraughtsError
from engine.puzzles import Progress, Puzzle, verdict
from firmware_host.config.schema import BOARD_LANGUAGE, GAME_HUMAN_SIDE
from firmware_host.game.fields import side_name
from firmware_host.game.types import EventData
from firmware_host.i18n import N_, Translator, translator
from firmware_host.opponents.puzzle import PuzzleOpponent
from firmware_host.terms.settings import GAME_MODE, Mode
from firmware_host.tools.terminal import PlayOptions, TerminalGame, read_line

__all__ = ["PuzzleJudge", "Tally", "line_text", "play_puzzles"]

#: Said as a puzzle begins (its number, its difficulty, the side to play).
INTRO = N_("Puzzle {number}, difficulty {difficulty} of 5: {side} to play and win.")
#: Said before a puzzle of the player's own mistake book.
OWN = N_("From your own game ({source}): you missed this.")
#: Said after each right move of the player's that does not end the puzzle.
RIGHT = N_("right: {move}")
#: Said when the puzzle is solved.
SOLVED = N_("solved: {line}")
#: Said after a wrong move: the defender's refutation, then the solution.
WRONG = N_("not that: after {move}, {refutation} and the win is gone. The solution: {line}")
#: How to go on.
NEXT = N_("type next for the next puzzle, quit to stop")
#: Said at the end.
SUMMARY = N_("{solved} of {tried} puzzles solved")


def line_text(board: Board, moves: Sequence[Move]) -> str:
    """``moves`` from ``board`` as PDN writes them, numbered: ``5. 31-27 22x31 6. 36x16``.

    >>> board = Board("international")
    >>> line_text(board, [board.parse_move("32-28")])
    '1. 32-28'
    """
    probe, words = board.copy(), []
    first = probe.variant.first_mover
    for move in moves:
        full = (len(probe.move_stack) + (probe.root().turn is not first)) // 2 + 1
        if probe.turn is first:
            words.append(f"{full}.")
        elif not words:
            words.append(f"{full}...")
        words.append(probe.move_notation(move))
        probe.push(move)
    return " ".join(words)


@dataclass
class Tally:
    """Puzzles tried and solved."""

    tried: int = 0
    solved: int = 0


class PuzzleJudge:
    """Listens to the moves of a puzzle's game and says what each of the player's was."""

    def __init__(self, puzzle: Puzzle, tr: Translator) -> None:
        self.puzzle = puzzle
        self.tr = tr
        self.board = puzzle.board()
        self.progress = Progress.GOING
        #: Where the sentences go (the terminal's ``say``, once it is there).
        self.sink: Callable[[str], None] | None = None

    def say(self, text: str) -> None:
        if self.sink is not None:
            self.sink(text)

    def listen(self, event: EventData) -> None:
        """The session listener: a move, a takeback."""
        kind = event.get("event")
        if kind == "takeback":
            ply = event.get("ply")
            while isinstance(ply, int) and len(self.board.move_stack) > ply:
                self.board.pop()
            return
        if kind != "move" or self.progress is not Progress.GOING:
            return
        before = self.board.copy()
        move = self.board.parse_move(str(event.get("pdn", "")))
        self.board.push(move)
        moves = self.board.move_stack
        if len(moves) % 2 == 0:
            return  # the defender's
        judged = verdict(self.puzzle, moves)
        self.progress = judged.progress
        words = self.tr.gettext
        if judged.progress is Progress.SOLVED:
            self.say(words(SOLVED).format(line=line_text(self.puzzle.board(), moves)))
        elif judged.progress is Progress.WRONG:
            self.say(words(WRONG).format(
                move=line_text(before, [move]),
                refutation=line_text(self.board, judged.refutation),
                line=line_text(self.puzzle.board(), self.puzzle.line)))
        else:
            self.say(words(RIGHT).format(move=line_text(before, [move])))


def play_puzzles(options: PlayOptions, puzzles: Sequence[tuple[Puzzle, bool]],
                 stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Offer ``puzzles`` (each with whether it is the player's own mistake) one after the
    other until they run out, ``quit`` or the end of input; return the exit status."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    script = not stdin.isatty()
    tally = Tally()
    tr: Translator | None = None
    for puzzle, own in puzzles:
        side = side_name(puzzle.board().turn)
        with ExitStack() as stack:
            chosen = replace(options, fen=puzzle.fen, opponent=PuzzleOpponent(puzzle),
                             config=options.config.with_overrides({
                                 GAME_HUMAN_SIDE: side, GAME_MODE: Mode.PLAY.value}))
            tr = translator(options.config[BOARD_LANGUAGE])
            judge = PuzzleJudge(puzzle, tr)
            try:
                game = TerminalGame(replace(chosen, listeners=(judge.listen,)), stack, out)
            except (DraughtsError, BoardIOError) as exc:
                print(f"draughtsboard play: {exc}", file=sys.stderr)
                return 2
            judge.sink = game.say
            tally.tried += 1
            if own:
                game.say(tr.gettext(OWN).format(source=puzzle.source))
            game.say(tr.gettext(INTRO).format(number=puzzle.number or "-",
                                              difficulty=puzzle.difficulty,
                                              side=tr.gettext(side.capitalize())))
            game.settle(script=True)
            game.draw()
            going = True
            while True:
                line = read_line(stdin, game)
                if line is None or line.strip().lower() in ("quit", "exit", "q"):
                    going = False
                    break
                if line.strip().lower() == "next":
                    break
                was = judge.progress
                game.command(line)
                game.settle(script=script)
                if game.dirty and not game.settling:
                    game.draw()
                if was is Progress.GOING and judge.progress is not Progress.GOING:
                    game.say(tr.gettext(NEXT))
            if judge.progress is Progress.SOLVED:
                tally.solved += 1
            game.prompt_open = False
            if not going:
                break
    if tr is not None:
        out.write(tr.gettext(SUMMARY).format(solved=tally.solved, tried=tally.tried) + "\n")
    return 0
