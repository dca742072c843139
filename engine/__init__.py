"""draughtsboard rules engine: variants, positions, legal moves, notation (stdlib only).

Example:
    >>> from engine import Board, find_variant
    >>> board = Board(find_variant("checkers"))
    >>> board.push(board.parse_move("11-15"))
    >>> board.fen()
    'W:W21-32:B1-10,12,15'
"""

from __future__ import annotations

from engine.board import Board, LegalMoves
from engine.errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidSquareError,
    UnknownVariantError,
)
from engine.outcome import Outcome, Termination
from engine.types import BLACK, WHITE, Color, Move, Piece, Square
from engine.variant import VARIANTS, CaptureRule, PromotionInCapture, Variant, find_variant

__all__ = [
    "BLACK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "CaptureRule",
    "Color",
    "DraughtsError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidSquareError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "PromotionInCapture",
    "Square",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "find_variant",
]
