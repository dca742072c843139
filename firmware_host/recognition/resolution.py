"""What the recogniser concludes about the board: the :data:`Resolution` types.

Kept apart from :mod:`~firmware_host.recognition.recogniser` (which computes them) so that
the session, the LED language and the messages can name results without the move index.

>>> from engine import Board
>>> board = Board("international")
>>> Complete(board.parse_move("32-28")).crowns
()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeAlias

from engine import Move, Square

__all__ = ["Complete", "Illegal", "InProgress", "InSync", "RefusalReason", "Resolution"]


class RefusalReason(Enum):
    """Why the board shows no legal move (values are the session's message keys).

    ``Illegal.detail`` keys per reason: CAPTURE_COMPULSORY, MAXIMUM_CAPTURE (+ ``count``),
    KING_PRIORITY, CAPTURE_PRECEDENCE: ``moves``/``pdn``/``capture`` (the legal captures);
    TOUCHED_PIECE_MUST_MOVE: ``piece``, ``square``, ``moves``, ``pdn``, ``destinations``;
    NOT_YOUR_PIECE, UNKNOWN_PIECE: ``squares`` (names), ``side`` (to move); WRONG_COLOUR:
    ``squares``, ``wrong``; NO_SUCH_MOVE: ``toward``/``pdn`` when guided to a move's result;
    AMBIGUOUS: ``moves``, ``pdn``; PENDING_MOVE_EXPECTED: ``pending``, ``expected``,
    ``alternative`` (a legal move of that side, or None), ``played``, ``needs_settle``.
    """

    CAPTURE_COMPULSORY = "capture_compulsory"
    MAXIMUM_CAPTURE = "max_capture"
    KING_PRIORITY = "king_priority"
    CAPTURE_PRECEDENCE = "capture_precedence"
    NOT_YOUR_PIECE = "not_your_turn"
    TOUCHED_PIECE_MUST_MOVE = "touch_move"
    NO_SUCH_MOVE = "not_a_move"
    UNKNOWN_PIECE = "unknown_piece"
    WRONG_COLOUR = "wrong_colour"
    AMBIGUOUS = "ambiguous"
    PENDING_MOVE_EXPECTED = "wrong_computer_move"


@dataclass(frozen=True)
class InSync:
    """The board shows the position."""


@dataclass(frozen=True)
class Complete:
    """The board shows the result of a legal move.

    ``needs_settle``: another legal move of the same piece could still follow from this board
    (a flying king sliding on, a capture that may go on): accept only once the board has held for
    ``settle_ms``. Otherwise accept at once. ``reply`` is set by :func:`resolve_after` when a
    human reply was played on top of the pending computer move (commit both).
    """

    move: Move
    needs_settle: bool = False
    reply: Move | None = None

    @property
    def crowns(self) -> tuple[Square, ...]:
        """Squares where a man was promoted (presence sensors cannot see crowns: show them)."""
        return tuple(m.destination for m in (self.move, self.reply) if m is not None and m.promotes)


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
    detail: Mapping[str, Any] = field(default_factory=dict)


Resolution: TypeAlias = InSync | Complete | InProgress | Illegal
