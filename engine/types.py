"""Small value types shared by the whole engine: colours, pieces and moves.

Example:
    >>> from engine.types import WHITE, Piece
    >>> WHITE.opponent
    <Color.BLACK: 1>
    >>> Piece(WHITE, king=True)
    Piece(color=<Color.WHITE: 0>, king=True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypyc's 64-bit machine integer (engine.movegen); an int when interpreted
    from mypy_extensions import i64

__all__ = ["BLACK", "WHITE", "Color", "Move", "Piece", "RawMove", "Square"]

#: A square is an index ``0 .. n-1`` (for numeric variants, the PDN number minus one).
Square = int
#: The search's move, on the move generator's bits (:mod:`engine.movegen`): (origin bit,
#: destination bit, captured mask, promotes, landing bits, captured bits in order).
RawMove = tuple[int, int, "i64", bool, tuple[int, ...], tuple[int, ...]]


class Color(IntEnum):
    """The two sides. White's first rank is row 0."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Color:
        """The other colour.

        Example:
            >>> Color.BLACK.opponent
            <Color.WHITE: 0>
        """
        return Color.BLACK if self is Color.WHITE else Color.WHITE


WHITE = Color.WHITE
BLACK = Color.BLACK


@dataclass(frozen=True, slots=True)
class Piece:
    """A man or a king of one colour.

    Example:
        >>> Piece(BLACK, False).king
        False
    """

    color: Color
    king: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """One move: where the piece starts, every square it lands on, and what it captures.

    ``path`` holds every landing square after the origin and ends with the destination
    (length 1 for a plain move). ``captures`` lists the captured squares in capture order.
    Two moves with the same :meth:`key` have the same result on the board.

    Example:
        >>> m = Move(31, 26, (26,), (), False)
        >>> m.is_capture, m.key()
        (False, (31, 26, frozenset()))
    """

    origin: Square
    destination: Square
    path: tuple[Square, ...]
    captures: tuple[Square, ...] = ()
    promotes: bool = False

    @property
    def is_capture(self) -> bool:
        """True when the move captures at least one piece."""
        return bool(self.captures)

    def key(self) -> tuple[Square, Square, frozenset[Square]]:
        """Identity of the move's effect: origin, destination and captured set."""
        return (self.origin, self.destination, frozenset(self.captures))
