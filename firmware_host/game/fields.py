"""What the session says about positions and moves: square names, event fields, move records.

Pure helpers, no state. Events name squares as the variant's PDN does: numbers on numeric
variants, strings (``"c3"``) on the others.

>>> from engine import Board
>>> board = Board("english")
>>> sorted(occupancy(board))[:3]
[0, 1, 2]
>>> move_fields(board, board.parse_move("11-15"), Namer(board.variant))["to"]
15
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Board
from engine.types import Color, Move, Square
from engine.variant import Variant
from firmware_host.recognition.resolution import Illegal, RefusalReason
from firmware_host.store.records import MoveRecord

#: A square as JSON events give it.
SquareName = int | str


def occupancy(board: Board) -> frozenset[Square]:
    """The squares a position occupies."""
    return frozenset(board.occupied_squares())


def after(board: Board, move: Move) -> Board:
    """A copy of ``board`` with ``move`` played."""
    copy = board.copy()
    copy.push(move)
    return copy


def side_name(color: int) -> str:
    """``"white"`` or ``"black"``."""
    return "white" if color == Color.WHITE else "black"


class Namer:
    """Turns square indices into the variant's PDN names, as the JSON events want them.

    Numeric variants give numbers (``22``), alphanumeric ones strings (``"c3"``).

    >>> from engine.variant import find_variant
    >>> Namer(find_variant("russian")).square(28), Namer(find_variant("english")).square(21)
    ('a1', 22)
    """

    def __init__(self, variant: Variant) -> None:
        self._variant = variant
        self._numeric = bool(variant.numeric_notation)

    def text(self, square: Square) -> str:
        """The square's PDN name as text."""
        return str(self._variant.square_name(square))

    def square(self, square: Square) -> SquareName:
        """The square's name for JSON: an int on numeric variants."""
        name = self.text(square)
        return int(name) if self._numeric else name

    def named(self, name: str) -> SquareName:
        """A square already named as text (``"22"``, ``"c3"``), for JSON.

        >>> from engine.variant import find_variant
        >>> Namer(find_variant("english")).named("22"), Namer(find_variant("russian")).named("c3")
        (22, 'c3')
        """
        return int(name) if self._numeric else name

    def squares(self, squares: Iterable[Square]) -> list[SquareName]:
        """Names of several squares, sorted by index."""
        return [self.square(sq) for sq in sorted(squares)]


def move_record(board: Board, move: Move, by: str, wall_time: float, namer: Namer) -> MoveRecord:
    """The store's record of ``move`` played on ``board`` (the position before it)."""
    return MoveRecord(
        ply=len(board.move_stack) + 1,
        pdn=board.move_notation(move),
        fen_after=after(board, move).fen(),
        time=wall_time,
        origin=namer.text(move.origin),
        destination=namer.text(move.destination),
        path=tuple(namer.text(sq) for sq in move.path),
        captures=tuple(namer.text(sq) for sq in move.captures),
        by=by,
    )


def move_fields(board: Board, move: Move, namer: Namer) -> dict[str, object]:
    """Event fields describing ``move`` on ``board`` (the position before it)."""
    return {
        "pdn": board.move_notation(move),
        "from": namer.square(move.origin),
        "to": namer.square(move.destination),
        "path": [namer.square(sq) for sq in move.path],
        "captures": [namer.square(sq) for sq in move.captures],
        "side": side_name(board.turn),
        "promotes": bool(move.promotes),
    }


def must_capture(board: Board) -> frozenset[Square]:
    """The squares of the pieces that can capture (the ``must`` lights of teach mode)."""
    return frozenset(m.origin for m in board.legal_moves if m.is_capture)


#: Refusal details that are plain data worth publishing (the rest holds Move objects).
_DETAIL_KEYS = ("capture", "count", "side", "expected", "played", "pdn")
#: The details that name a move the player could make (the compulsory capture, how many
#: pieces it takes, the touched piece's moves): guidance, left out of a rated game's refusal,
#: which says the rule as an arbiter would ("illegal move: a capture is compulsory").
_GUIDING_KEYS = frozenset({"capture", "count", "pdn"})
#: Refusals whose ``pdn`` names the player's own move, not one to make (two capture paths
#: with the same squares): kept.
_OWN_MOVE = frozenset({RefusalReason.AMBIGUOUS})


def refusal_fields(result: Illegal, namer: Namer, guidance: bool = True) -> dict[str, object]:
    """Data of a refused move: the reason and what makes its message concrete. Squares are
    named as in every event: numbers on numeric variants (docs/events.md). Without
    ``guidance`` (a rated game: ``board.guidance``) nothing names a move to make.

    >>> from engine.variant import find_variant
    >>> from firmware_host.recognition.resolution import RefusalReason
    >>> refused = Illegal(RefusalReason.NOT_SIDE_TO_MOVE, frozenset(), frozenset({18}),
    ...                   {"squares": ("19",), "side": "white"})
    >>> fields = refusal_fields(refused, Namer(find_variant("international")))
    >>> fields["squares"], fields["extra"]
    ([19], [19])
    """
    fields: dict[str, object] = {"reason": result.reason.value}
    quiet = not guidance and result.reason not in _OWN_MOVE
    for key in _DETAIL_KEYS:
        if quiet and key in _GUIDING_KEYS:
            continue
        value = result.detail.get(key)
        if value is not None:
            fields[key] = list(value) if isinstance(value, tuple | list) else value
    square = result.detail.get("square")
    if square is not None:
        fields["square"] = namer.named(square)
    squares = result.detail.get("squares")
    if squares is not None:
        fields["squares"] = [namer.named(name) for name in squares]
    fields["missing"] = namer.squares(result.missing)
    fields["extra"] = namer.squares(result.extra)
    return fields
