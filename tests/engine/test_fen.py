"""FEN (PDN 3.0 form) reading and writing, and its errors."""

from __future__ import annotations

import pytest

from engine import BLACK, WHITE, Board, InvalidFenError, Piece


def test_read_ranges_kings_and_turn() -> None:
    board = Board.from_fen("B:WK4,31-33:B1,2", "international")
    assert board.turn is BLACK
    assert board.piece_at(3) == Piece(WHITE, True)
    assert {s + 1 for s, p in board.pieces().items() if p.color is WHITE} == {4, 31, 32, 33}
    assert board.fen() == "B:WK4,31-33:B1,2"


@pytest.mark.parametrize("text", [
    ' "W:W31-50:B1-20." ', "w:w31-50:b1-20", "W:B1-20:W31-50", "W:W31-50:B1-20:H0:F1",
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
])
def test_tolerated_spellings(text: str) -> None:
    assert Board.from_fen(text, "international").fen() == "W:W31-50:B1-20"


def test_letter_squares_russian_and_turkish() -> None:
    board = Board.from_fen("W:WKa1,c3:Bh8", "russian")
    assert board.fen() == "W:WKa1,c3:Bh8"
    turkish = Board.from_fen("B:Wa2:BKh1,d4", "turkish")
    assert turkish.fen() == "B:Wa2:Bd4,Kh1"


def test_empty_sides_allowed() -> None:
    assert Board.from_fen("W:W:B1", "english").fen() == "W:W:B1"


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "side to move"),
    ("X:W41:B10", "side to move"),
    ("W:W51:B10", "'51'"),
    ("W:W0:B10", "'0'"),
    ("W:W40:B40", "twice"),
    ("W:W45-43:B10", "range"),
    ("W:Q41:B10", "bad field"),
    ("W:W40:W41", "twice"),
    ("W:Wa1:Bb9", "'b9'"),
    ("W:W1:B50", "promotion row"),
])
def test_malformed_fen_names_the_problem(text: str, fragment: str) -> None:
    variant = "russian" if "a1" in text else "international"
    with pytest.raises(InvalidFenError) as info:
        Board.from_fen(text, variant)
    assert isinstance(info.value, ValueError)
    assert fragment in str(info.value)


def test_russian_ranges_rejected_and_failed_set_fen_keeps_position() -> None:
    board = Board("russian")
    before = board.fen()
    with pytest.raises(InvalidFenError):
        board.set_fen("W:Wa1-c3:Bh8")
    assert board.fen() == before


def test_too_long_fen() -> None:
    with pytest.raises(InvalidFenError, match="too long"):
        Board.from_fen("W:W" + ",".join(["1"] * 5000) + ":B2", "international")


def test_not_a_string() -> None:
    with pytest.raises(InvalidFenError):
        Board.from_fen(None, "international")  # type: ignore[arg-type]
