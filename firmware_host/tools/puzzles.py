"""``draughtsboard play --puzzles``: puzzles solved on the simulated board in the terminal.

Each puzzle is a game on the board from its position, the player the side to move, the
computer the defender (:class:`~firmware_host.opponents.puzzle.PuzzleOpponent`: the puzzle's
line, or the refutation of a wrong move, lit on the board to be carried out as any computer
move). :class:`PuzzleJudge` listens to the game's moves and says each of the player's right or
wrong (:func:`engine.puzzles.verdict`): a wrong one with the refutation and the solution, the
last right one "solved". With a player (``--player``), each puzzle finished is rated (the
``rate`` hook: :meth:`firmware_host.coach.progress.ProgressBook.attempt`) and the rating's
change said. Then the next puzzle: the player's own mistakes first (their mistake book), then
the puzzles that ship for the variant, easiest first.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from typing import TextIO

from board_io.errors import BoardIOError
from engine.errors import DraughtsError
from engine.pdn import line_text
from engine.puzzles import Progress, Puzzle, verdict
from firmware_host.coach.book import BookError
from firmware_host.coach.progress import RatingChange
from firmware_host.config.schema import BOARD_LANGUAGE, GAME_HUMAN_SIDE
from firmware_host.game.fields import side_name
from firmware_host.game.types import EventData
from firmware_host.i18n import N_, Translator, translator
from firmware_host.opponents.puzzle import PuzzleOpponent
from firmware_host.terms.settings import GAME_MODE, Mode
from firmware_host.tools.terminal import PlayOptions, TerminalGame, read_line

__all__ = ["PuzzleJudge", "Tally", "line_text", "play_puzzles", "rating_words"]

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
#: Said after a rated puzzle: the player's rating before and after, the change, the puzzle's.
RATED = N_("your puzzle rating: {before} → {after} ({change}); this puzzle's: {puzzle}")
#: Said after a puzzle the player had tried before (only a first attempt is rated).
NOT_RATED = N_("tried before, so not rated again: your puzzle rating stays {rating}")
#: Said at the end.
SUMMARY = N_("{solved} of {tried} puzzles solved")


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


def rating_words(tr: Translator, change: RatingChange) -> str:
    """What is said of a finished puzzle's rating (``change``), in ``tr``'s language.

    >>> from firmware_host.coach.rating import Rating
    >>> from firmware_host.i18n import ENGLISH
    >>> rating_words(ENGLISH, RatingChange(Rating(), Rating(1650.4, 290.0), Rating(1300.0), True))
    "your puzzle rating: 1500? → 1650? (+150); this puzzle's: 1300?"
    """
    if not change.rated:
        return tr.gettext(NOT_RATED).format(rating=change.after.shown())
    return tr.gettext(RATED).format(before=change.before.shown(), after=change.after.shown(),
                                    change=f"{change.change:+d}", puzzle=change.puzzle.shown())


def play_puzzles(options: PlayOptions, puzzles: Sequence[tuple[Puzzle, bool]],
                 stdin: TextIO | None = None, out: TextIO | None = None,
                 rate: Callable[[Puzzle, bool], RatingChange] | None = None) -> int:
    """Offer ``puzzles`` (each with whether it is the player's own mistake) one after the
    other until they run out, ``quit`` or the end of input; return the exit status.

    ``rate``: called with each puzzle finished (solved or failed) and whether it was solved;
    what it returns is said. A rating that cannot be kept is one line on standard error, and
    the puzzles go on."""
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
                    if rate is not None:
                        try:
                            game.say(rating_words(tr, rate(
                                puzzle, judge.progress is Progress.SOLVED)))
                        except BookError as exc:
                            print(f"draughtsboard play: {exc}", file=sys.stderr)
                    game.say(tr.gettext(NEXT))
            if judge.progress is Progress.SOLVED:
                tally.solved += 1
            game.prompt_open = False
            if not going:
                break
    if tr is not None:
        out.write(tr.gettext(SUMMARY).format(solved=tally.solved, tried=tally.tried) + "\n")
    return 0
