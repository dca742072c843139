"""Boards, numbering, initial positions and first movers of every variant.

Sources: FMJD rules art. 1 (board, numbering 1-50, White on 31-50, White moves first); seed 002
(English: Black on 1-12 moves first); PDN 3.0 / seed 003 table (pool: Black first); FID (Italian:
the right-hand corner is dark, 1 at Black's right-hand corner, 32 at White's); realidad-simulada
(Spanish: 1 at White's lower right corner, right to left, White on 1-12); Wikipedia (Turkish:
16 men on the second and third rows); seed 001 (diagonal draughts: long diagonal empty, Black
above-left, White below-right).
"""

from __future__ import annotations

import pytest

from engine import (
    BLACK,
    VARIANTS,
    WHITE,
    Board,
    InvalidSquareError,
    UnknownVariantError,
    find_variant,
)
from tests.engine.helpers import at, keys


@pytest.mark.parametrize(("alias", "name"), [
    ("checkers", "english"), ("American", "english"), ("standard", "international"),
    ("shashki", "russian"), ("poddavki", "russian-giveaway"), ("antidraughts",
     "international-giveaway"), ("dama", "turkish"), ("damas", "spanish"), ("12x12", "canadian"),
])
def test_find_variant_by_alias(alias: str, name: str) -> None:
    assert find_variant(alias).name == name


def test_unknown_variant_lists_names() -> None:
    with pytest.raises(UnknownVariantError, match=r"international.*russian") as info:
        find_variant("chess")
    assert isinstance(info.value, ValueError)
    assert "'chess'" in str(info.value)


def test_gametypes() -> None:
    got = {v.name: v.pdn_gametype for v in VARIANTS}
    assert got["international"] == 20 and got["english"] == 21 and got["italian"] == 22
    assert got["pool"] == 23 and got["spanish"] == 24 and got["russian"] == 25
    assert got["brazilian"] == 26 and got["canadian"] == 27 and got["turkish"] == 30


@pytest.mark.parametrize(("name", "fen", "first"), [
    ("international", "W:W31-50:B1-20", WHITE),
    ("english", "B:W21-32:B1-12", BLACK),
    ("pool", "B:W21-32:B1-12", BLACK),
    ("italian", "W:W21-32:B1-12", WHITE),
    ("spanish", "W:W1-12:B21-32", WHITE),
    ("canadian", "W:W43-72:B1-30", WHITE),
    ("russian", "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8",
     WHITE),
    ("brazilian", "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8",
     WHITE),
])
def test_initial_positions(name: str, fen: str, first: object) -> None:
    v = find_variant(name)
    assert v.starting_fen == fen
    assert v.first_mover is first
    assert Board(name).fen() == fen


def test_numbering_international_and_english() -> None:
    intl = find_variant("international")
    assert intl.square_coords(0) == (9, 1)  # 1 = b10
    assert intl.square_coords(45) == (0, 0)  # 46 = a1
    assert intl.square_coords(49) == (0, 8)  # 50 = i1
    eng = find_variant("english")
    assert eng.square_coords(28) == (0, 0)  # 29 = a1, White's single corner
    assert eng.square_coords(31) == (0, 6) and eng.square_coords(27) == (1, 7)  # 32, 28: double


def test_italian_and_spanish_orientation() -> None:
    ita = find_variant("italian")
    assert ita.square_at(0, 0) is None  # a1 is light: the dark corner is at the right
    assert ita.square_coords(0) == (7, 0) and ita.square_coords(31) == (0, 7)  # 1 = a8, 32 = h1
    spa = find_variant("spanish")
    assert spa.square_at(0, 0) is None
    assert spa.square_coords(0) == (0, 7) and spa.square_coords(3) == (0, 1)  # 1 = h1, 4 = b1
    assert spa.square_coords(31) == (7, 0)  # 32 = a8


@pytest.mark.parametrize("name", ["russian", "brazilian"])
def test_letter_square_names_on_8x8(name: str) -> None:
    """PDN 3.0 GameTypes 25 and 26 are alphanumeric (A0); numbers 1-32 still read on input."""
    v = find_variant(name)
    assert not v.numeric_notation
    assert v.square_coords(v.parse_square("a1")) == (0, 0)
    assert v.square_coords(v.parse_square("h8")) == (7, 7)
    assert v.square_name(at(v, "c3")) == "c3"
    # c3 is square 22 in the numbering of the numeric 8x8 games (1 = b8 ... 32 = g1).
    assert v.parse_square("C3") == v.parse_square("22") == at(v, "c3")
    assert v.square_name(v.parse_square("1")) == "b8"
    assert v.square_name(v.parse_square("32")) == "g1"
    with pytest.raises(InvalidSquareError, match="'d3'"):
        v.parse_square("d3")  # a light square
    with pytest.raises(InvalidSquareError):
        v.parse_square("i1")


def test_turkish_setup_and_opening_moves() -> None:
    board = Board("turkish")
    v = board.variant
    assert v.num_squares == 64
    rows = {v.square_coords(sq)[0] for sq, p in board.pieces().items() if p.color is WHITE}
    assert rows == {1, 2}
    assert len([p for p in board.pieces().values() if p.color is BLACK]) == 16
    assert {o + d for o, d, _ in keys(board)} == {f"{c}3{c}4" for c in "abcdefgh"}


def test_diagonal_initial_position_from_korean_seed() -> None:
    board = Board("diagonal")
    v = board.variant
    white = {s for s, p in board.pieces().items() if p.color is WHITE}
    black = {s for s, p in board.pieces().items() if p.color is BLACK}
    names = ["c1", "e1", "g1", "d2", "f2", "h2", "e3", "g3", "f4", "h4", "g5", "h6"]
    assert white == {at(v, n) for n in names}
    assert black == {at(v, f"{chr(ord('a') + int(n[1]) - 1)}{ord(n[0]) - ord('a') + 1}")
                     for n in names}
    assert not any(at(v, f"{'abcdefgh'[i]}{i + 1}") in board.occupied_squares() for i in range(8))


def test_giveaway_variants_share_the_base_moves() -> None:
    for base, give in (("russian", "russian-giveaway"), ("international",
                                                        "international-giveaway")):
        a, b = Board(base), Board(give)
        for text in ("c3-d4", "f6-g5", "d4-e5") if base == "russian" else ("32-28", "19-23"):
            a.push(a.parse_move(text))
            b.push(b.parse_move(text))
            assert {m.key() for m in a.legal_moves} == {m.key() for m in b.legal_moves}
        assert find_variant(give).giveaway and not find_variant(base).giveaway


def test_canadian_board() -> None:
    board = Board("canadian")
    assert board.variant.num_squares == 72
    assert len(board.pieces()) == 60
    assert len(board.legal_moves) == 11
