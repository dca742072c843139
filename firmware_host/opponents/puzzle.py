"""The defender of a puzzle as the computer's side: it plays the puzzle's line while the solver
follows it, and the refutation of a wrong move (:func:`engine.puzzles.reply`), so the board
lights the move that shows why; past the puzzle's position or after its end, the built-in
engine.

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

from types import TracebackType

from engine import Board
from engine.puzzles import Puzzle, reply
from engine.search import Limit, SearchResult, StopToken
from firmware_host.opponents.opponent import BuiltinOpponent, Opponent

__all__ = ["PuzzleOpponent"]


class PuzzleOpponent:
    """The defender of ``puzzle``; ``fallback`` (default: the built-in engine) plays where the
    puzzle has nothing to say."""

    def __init__(self, puzzle: Puzzle, fallback: Opponent | None = None) -> None:
        self.puzzle = puzzle
        self.fallback = fallback if fallback is not None else BuiltinOpponent()

    @property
    def name(self) -> str:
        """The PDN name of the computer's side."""
        return f"draughtsboard puzzle {self.puzzle.number}".strip()

    def best_move(self, board: Board, limit: Limit, stop: StopToken | None = None
                  ) -> SearchResult:
        """The defender's move in ``board`` (a game from the puzzle's position)."""
        moves = board.move_stack
        if board.root().fen() == self.puzzle.fen and len(moves) % 2 == 1 and \
                len(moves) <= self.puzzle.depth:
            move = reply(self.puzzle, moves)
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
