"""The defender of a puzzle as the computer's side: it plays the puzzle's line while the solver
follows it, and the refutation of a wrong move (:func:`engine.puzzles.reply`), so the board
lights the move that shows why; past the puzzle's position or after its end, the built-in
engine (or the ``fallback`` given: on the board, the engine's process).

On the board (the coach's puzzles, firmware_host/coach/lessons.py) the puzzle is the one being
solved now (``puzzle`` a callable), and the defender judges the solver's move as it is asked
for the reply (``judged``: :func:`engine.puzzles.verdict`, a search): both run on the engine
worker's thread, never on the scan thread.

>>> from engine.puzzles import load
>>> from engine.search import Limit
>>> puzzle = load("russian")[0]
>>> board = puzzle.board()
>>> board.push(puzzle.solution)
>>> with PuzzleOpponent(puzzle) as defender:
...     defender.best_move(board, Limit(depth=1)).move == puzzle.line[1]
True
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType

from engine import Board
from engine.puzzles import Puzzle, Verdict, reply, verdict
from engine.search import Limit, SearchResult, StopToken
from engine.types import Move
from firmware_host.opponents.opponent import BuiltinOpponent, Opponent

__all__ = ["Judged", "PuzzleOpponent"]

#: Told each solver's move judged: the puzzle, the moves from its position, the verdict.
Judged = Callable[[Puzzle, tuple[Move, ...], Verdict], None]


class PuzzleOpponent:
    """The defender of ``puzzle`` (or of the one ``puzzle()`` names now: None, no puzzle);
    ``fallback`` (default: the built-in engine) plays where the puzzle has nothing to say;
    ``judged`` hears each solver's move judged."""

    def __init__(self, puzzle: Puzzle | Callable[[], Puzzle | None],
                 fallback: Opponent | None = None, judged: Judged | None = None) -> None:
        self._puzzle = puzzle
        self.fallback = fallback if fallback is not None else BuiltinOpponent()
        self.judged = judged

    @property
    def puzzle(self) -> Puzzle | None:
        """The puzzle defended now."""
        return self._puzzle if isinstance(self._puzzle, Puzzle) else self._puzzle()

    @property
    def name(self) -> str:
        """The PDN name of the computer's side (the fallback's, for the board's puzzles)."""
        if not isinstance(self._puzzle, Puzzle):
            return self.fallback.name
        return f"draughtsboard puzzle {self._puzzle.number}".strip()

    def best_move(self, board: Board, limit: Limit, stop: StopToken | None = None
                  ) -> SearchResult:
        """The defender's move in ``board`` (a game from the puzzle's position)."""
        moves = board.move_stack
        puzzle = self.puzzle
        if puzzle is not None and board.root().fen() == puzzle.fen and len(moves) % 2 == 1 \
                and len(moves) <= puzzle.depth:
            if self.judged is not None:
                self.judged(puzzle, tuple(moves), verdict(puzzle, moves))
            move = reply(puzzle, moves)
            if move is not None:
                return SearchResult(move, 0, 0, 0, 0.0, (move,))
        return self.fallback.best_move(board, limit, stop)

    def close(self) -> None:
        """Release the fallback engine."""
        self.fallback.close()

    def __enter__(self) -> PuzzleOpponent:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
