"""FEN in the PDN 3.0 form: ``W:W31-50:B1-20``, ``K`` before kings, ranges, letter squares.

Example:
    >>> from engine.variant import find_variant
    >>> turn, white, black = parse_fen("B:WK4,31-33:B1,2", find_variant("international"))
    >>> turn.name, white[3], sorted(black)
    ('BLACK', True, [0, 1])
    >>> write_fen(find_variant("international"), turn, white, black)
    'B:WK4,31-33:B1,2'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

from engine.errors import InvalidFenError, InvalidSquareError
from engine.types import BLACK, WHITE, Color, Square

__all__ = ["Geometry", "parse_fen", "write_fen"]


class Geometry(Protocol):
    """What a FEN reads of its variant (a :class:`~engine.rulesets.Variant`): the squares'
    names and places. The variants' own ``starting_fen`` is written here, so this module does
    not import them."""

    @property
    def numeric_notation(self) -> bool:
        """Whether squares are numbers (``32``) rather than letters (``c3``)."""
        ...

    def square_name(self, sq: Square) -> str:
        """The PDN name of a square."""
        ...

    def parse_square(self, text: str) -> Square:
        """The square a PDN name gives."""
        ...

    def square_coords(self, sq: Square) -> tuple[int, int]:
        """``(row, col)`` of a square."""
        ...

    def promotion_row(self, color: Color) -> int:
        """The row where ``color``'s men are crowned."""
        ...

_MAX_FEN = 2000
_RANGE = re.compile(r"^(\d+)-(\d+)$")
_EXTRA = re.compile(r"^[HF]\d+$", re.IGNORECASE)  # lidraughts' halfmove/fullmove fields


def parse_fen(fen: str, variant: Geometry) -> tuple[Color, dict[Square, bool], dict[Square, bool]]:
    """Read a FEN into (side to move, white pieces, black pieces); pieces map square -> is king.

    Accepts surrounding quotes and spaces, a final ``.``, lower-case colour letters, ranges
    (``31-50``, also ``K1-5``), and ignores lidraughts ``H0``/``F1`` fields.

    Raises:
        InvalidFenError: malformed text, unknown square, a square given twice, or a man
            standing on its own promotion row. The message quotes the FEN.
    """
    if not isinstance(fen, str):
        raise InvalidFenError(f"FEN must be a string, not {type(fen).__name__}")
    text = fen.strip().strip('"').strip()
    if len(text) > _MAX_FEN:
        raise InvalidFenError(f"FEN too long ({len(text)} characters)")
    if text.endswith("."):
        text = text[:-1]
    fields = [f.strip() for f in text.split(":")]
    if not fields or fields[0].upper() not in ("W", "B"):
        raise InvalidFenError(f"FEN must start with the side to move 'W' or 'B': {fen!r}")
    turn = WHITE if fields[0].upper() == "W" else BLACK
    pieces: dict[Color, dict[Square, bool]] = {WHITE: {}, BLACK: {}}
    seen_colour: set[Color] = set()
    for field in fields[1:]:
        if not field or _EXTRA.match(field):
            continue
        colour = {"W": WHITE, "B": BLACK}.get(field[0].upper())
        if colour is None:
            raise InvalidFenError(f"bad field {field!r} in FEN {fen!r}: expected W... or B...")
        if colour in seen_colour:
            raise InvalidFenError(f"colour {field[0]!r} given twice in FEN {fen!r}")
        seen_colour.add(colour)
        _read_pieces(field[1:], colour, pieces, variant, fen)
    return turn, pieces[WHITE], pieces[BLACK]


def _read_pieces(
    body: str, colour: Color, pieces: dict[Color, dict[Square, bool]], variant: Geometry, fen: str
) -> None:
    for raw in body.split(","):
        item = raw.strip()
        if not item:
            continue
        king = item[0] in "Kk"
        if king:
            item = item[1:].strip()
        for sq in _expand(item, variant, fen):
            if sq in pieces[WHITE] or sq in pieces[BLACK]:
                name = variant.square_name(sq)
                raise InvalidFenError(f"square {name} given twice in FEN {fen!r}")
            if not king and variant.square_coords(sq)[0] == variant.promotion_row(colour):
                raise InvalidFenError(
                    f"{colour.name.lower()} man on its promotion row at "
                    f"{variant.square_name(sq)} in FEN {fen!r}"
                )
            pieces[colour][sq] = king


def _expand(item: str, variant: Geometry, fen: str) -> list[Square]:
    match = _RANGE.match(item)
    try:
        if match:
            lo, hi = variant.parse_square(match[1]), variant.parse_square(match[2])
            if hi < lo or not variant.numeric_notation:
                raise InvalidFenError(f"bad range {item!r} in FEN {fen!r}")
            return list(range(lo, hi + 1))
        return [variant.parse_square(item)]
    except InvalidSquareError as exc:
        raise InvalidFenError(f"{exc} (in FEN {fen!r})") from None


def write_fen(
    variant: Geometry, turn: Color, white: Mapping[Square, bool], black: Mapping[Square, bool]
) -> str:
    """Write a FEN; numeric variants compress runs of three or more men into ranges.

    Example:
        >>> from engine.variant import find_variant
        >>> write_fen(find_variant("russian"), WHITE, {21: False}, {0: True})
        'W:Wc3:BKb8'
    """
    parts = ["W" if turn is WHITE else "B"]
    for letter, pieces in (("W", white), ("B", black)):
        parts.append(letter + ",".join(_items(variant, pieces)))
    return ":".join(parts)


def _items(variant: Geometry, pieces: Mapping[Square, bool]) -> list[str]:
    if not variant.numeric_notation:
        ordered = sorted(pieces, key=lambda s: (variant.square_coords(s)[1],
                                                variant.square_coords(s)[0]))
        return [("K" if pieces[s] else "") + variant.square_name(s) for s in ordered]
    out: list[str] = []
    run: list[Square] = []

    def flush() -> None:
        if len(run) >= 3:
            out.append(f"{variant.square_name(run[0])}-{variant.square_name(run[-1])}")
        else:
            out.extend(variant.square_name(s) for s in run)
        run.clear()

    for sq in sorted(pieces):
        if pieces[sq]:
            flush()
            out.append("K" + variant.square_name(sq))
        elif run and sq != run[-1] + 1:
            flush()
            run.append(sq)
        else:
            run.append(sq)
    flush()
    return out
