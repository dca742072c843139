"""What the move notation and the game-end rules read of a position: the :class:`Position`
protocol, which :class:`engine.board.Board` fulfils.

:mod:`engine.notation` and :mod:`engine.draw` are written against it rather than against the
board, so the board can offer ``parse_move``, ``move_notation`` and ``outcome`` by importing
them, and neither imports the board back.

Example:
    >>> from engine.board import Board
    >>> board: Position = Board("english")
    >>> len(board.legal_moves), board.turn.name
    (7, 'BLACK')
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Protocol

from engine.rulesets import Variant
from engine.types import Color, Move, Piece, Square

__all__ = ["Position"]


class Position(Protocol):
    """A position with the moves that led to it from its root."""

    variant: Variant
    turn: Color

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from the root."""
        ...

    @property
    def legal_moves(self) -> Collection[Move]:
        """One legal move per distinct (origin, destination, captured set)."""
        ...

    def generate_moves(self, paths: bool = True) -> Iterator[Move]:
        """Every legal move (every capture path with ``paths``)."""
        ...

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on ``sq``, or None."""
        ...

    def pieces(self) -> dict[Square, Piece]:
        """Every piece by square."""
        ...

    def fen(self) -> str:
        """The position as FEN."""
        ...

    def zobrist_hash(self) -> int:
        """The position's hash (the side to move included)."""
        ...

    def root(self) -> Position:
        """A new position at the root (before the first move played)."""
        ...

    def push(self, move: Move) -> None:
        """Play ``move``."""
        ...
