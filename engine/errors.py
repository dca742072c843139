"""The engine's exception tree.

Every error the engine raises for bad input is a :class:`DraughtsError` and a :class:`ValueError`,
so callers at the edges can catch either. Messages carry the offending input (and the FEN where a
position is involved) so that a log line is enough to reproduce the problem.

Example:
    >>> from engine import Board, InvalidMoveError
    >>> try:
    ...     Board().parse_move("banana")
    ... except InvalidMoveError as exc:
    ...     print(type(exc).__name__)
    InvalidMoveError
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "DraughtsError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidSquareError",
    "UnknownVariantError",
]


class DraughtsError(Exception):
    """Base class of every error raised by the engine."""


class InvalidMoveError(DraughtsError, ValueError):
    """Move text that cannot be read at all (bad syntax, unknown square)."""


class IllegalMoveError(DraughtsError, ValueError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(DraughtsError, ValueError):
    """Move text or sensor input that matches more than one legal move."""


class InvalidFenError(DraughtsError, ValueError):
    """A FEN string that cannot be read or describes an impossible position."""


class InvalidSquareError(DraughtsError, ValueError):
    """A square name or number that does not exist on the variant's board."""


class UnknownVariantError(DraughtsError, ValueError):
    """A variant name or alias that no variant answers to."""
