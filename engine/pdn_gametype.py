"""Which variant a PDN GameType names, and the GameType tag a variant is written with.

>>> variant_for_number(25).name, gametype_tag(variant_for_number(21))
('russian', '21,B,8,8,N1,0')
"""

from __future__ import annotations

from engine.variant import VARIANTS, Variant, find_variant

__all__ = ["CANONICAL_VARIANT", "GAMETYPE_TAGS", "gametype_number", "gametype_tag",
           "variant_for_number"]

# The PDN GameType number of each variant that owns one, and the tag value PDN 3.0 lists for it.
CANONICAL_VARIANT = {
    20: "international",
    21: "english",
    22: "italian",
    23: "pool",
    24: "spanish",
    25: "russian",
    26: "brazilian",
    27: "canadian",
    28: "portuguese",
    29: "czech",
    30: "turkish",
    31: "thai",
    40: "frisian",
}
GAMETYPE_TAGS = {
    20: "20,W,10,10,N2,0",
    21: "21,B,8,8,N1,0",
    22: "22,W,8,8,N2,1",
    23: "23,B,8,8,N1,0",
    24: "24,W,8,8,N1,1",
    25: "25,W,8,8,A0,0",
    26: "26,W,8,8,A0,0",
    27: "27,W,12,12,N2,0",
    28: "28,W,8,8,N1,1",
    29: "29,W,8,8,A0,0",
    30: "30,W,8,8,A0,0",
    31: "31,B,8,8,N2,0",
    40: "40,W,10,10,N2,0",
}


def variant_for_number(number: int) -> Variant | None:
    """The variant of GameType ``number`` (None: none this program plays)."""
    name = CANONICAL_VARIANT.get(number)
    if name is not None:
        return find_variant(name)
    return next((v for v in VARIANTS if gametype_number(v) == number), None)


def gametype_number(variant: Variant) -> int:
    """The GameType number of ``variant`` (its ``pdn_gametype`` may be ``20`` or ``"20,W,..."``)."""
    return int(str(variant.pdn_gametype).split(",", 1)[0])


def gametype_tag(variant: Variant) -> str:
    """The six-field GameType of ``variant``: PDN 3.0's value unless the notation differs."""
    letter = "N" if variant.numeric_notation else "A"
    standard = GAMETYPE_TAGS.get(gametype_number(variant))
    if standard is not None and standard.split(",")[4][0] == letter:
        return standard
    # The corner of square 1 (a1 in letters) as the starting player sees the board.
    row, col = (0, 0) if letter == "A" else variant.square_coords(0)
    if variant.first_mover == 1:
        row, col = variant.rows - 1 - row, variant.cols - 1 - col
    corner = (2 if row >= variant.rows / 2 else 0) + (1 if col >= variant.cols / 2 else 0)
    start = "W" if variant.first_mover == 0 else "B"
    invert = 0 if variant.square_at(0, 0) is not None else 1
    number = gametype_number(variant)
    return f"{number},{start},{variant.cols},{variant.rows},{letter}{corner},{invert}"
