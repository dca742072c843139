"""What the recogniser concludes about the board: the :data:`Resolution` types.

Kept apart from :mod:`~firmware_host.recognition.recogniser` (which computes them) so that
the session, the LED language and the messages can name results without the move index.

>>> from engine import Board
>>> board = Board("international")
>>> Complete(board.parse_move("32-28")).needs_settle
False
>>> RefusalReason("not_side_to_move")
<RefusalReason.NOT_SIDE_TO_MOVE: 'not_side_to_move'>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias, TypedDict

from engine import Move, Square

__all__ = [
    "Complete",
    "Illegal",
    "InProgress",
    "InSync",
    "RefusalDetail",
    "RefusalReason",
    "Resolution",
]


class RefusalReason(Enum):
    """Why the board shows no legal move (values are the session's message keys).

    ``Illegal.detail`` keys per reason: CAPTURE_COMPULSORY, MAXIMUM_CAPTURE (+ ``count``),
    KING_PRIORITY, CAPTURE_PRECEDENCE: ``moves``/``pdn``/``capture`` (the legal captures);
    TOUCHED_PIECE_MUST_MOVE: ``piece``, ``square``, ``moves``, ``pdn``, ``destinations``;
    NOT_SIDE_TO_MOVE, UNKNOWN_PIECE: ``squares`` (names), ``side`` (to move); WRONG_COLOUR:
    ``squares``, ``wrong``; NO_SUCH_MOVE: ``toward``/``pdn`` when guided to a move's result;
    AMBIGUOUS: ``moves``, ``pdn``; PENDING_MOVE_EXPECTED: ``pending``, ``expected``,
    ``alternative`` (a legal move of that side, or None), ``played``, ``needs_settle``.
    """

    CAPTURE_COMPULSORY = "capture_compulsory"
    MAXIMUM_CAPTURE = "max_capture"
    KING_PRIORITY = "king_priority"
    CAPTURE_PRECEDENCE = "capture_precedence"
    #: A piece of the side *not* to move was lifted or moved (``side`` says whose turn it is).
    NOT_SIDE_TO_MOVE = "not_side_to_move"
    TOUCHED_PIECE_MUST_MOVE = "touch_move"
    NO_SUCH_MOVE = "not_a_move"
    UNKNOWN_PIECE = "unknown_piece"
    WRONG_COLOUR = "wrong_colour"
    AMBIGUOUS = "ambiguous"
    PENDING_MOVE_EXPECTED = "wrong_computer_move"


class RefusalDetail(TypedDict, total=False):
    """The data of a refusal (:attr:`Illegal.detail`); which keys a reason sets is listed in
    :class:`RefusalReason`. Squares are indices unless named (``square``, ``squares``)."""

    moves: tuple[Move, ...]
    pdn: tuple[str, ...]
    capture: str
    count: int
    piece: Square
    square: str
    destinations: frozenset[Square]
    squares: tuple[str, ...]
    side: str
    wrong: frozenset[Square]
    toward: Move
    pending: Move
    expected: str
    alternative: Move | None
    played: str
    needs_settle: bool


@dataclass(frozen=True)
class InSync:
    """The board shows the position."""


@dataclass(frozen=True)
class Complete:
    """The board shows the result of a legal move.

    ``needs_settle``: another legal move of the same piece could still follow from this board
    (a flying king sliding on, a capture that may go on): accept only once the board has held for
    ``settle_ms``. Otherwise accept at once.
    """

    move: Move
    needs_settle: bool = False


@dataclass(frozen=True)
class InProgress:
    """The board is consistent with legal moves still being carried out.

    ``to_remove``: captured pieces still on the board; ``to_land``: destinations the piece has not
    reached. Exactly what is left when ``single``; the union over ``candidates`` otherwise.
    """

    candidates: tuple[Move, ...]
    to_remove: frozenset[Square]
    to_land: frozenset[Square]
    single: bool


@dataclass(frozen=True)
class Illegal:
    """The board matches no legal move, finished or in progress.

    ``missing``/``extra``: squares to fill / to empty to reach the nearest target (the position,
    or a move's result); ``detail`` holds the reason's data (moves, PDN texts, counts, names).
    """

    reason: RefusalReason
    missing: frozenset[Square]
    extra: frozenset[Square]
    detail: RefusalDetail = field(default_factory=RefusalDetail)


Resolution: TypeAlias = InSync | Complete | InProgress | Illegal
