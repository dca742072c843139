"""Move text per variant: writing, reading, ambiguity, and errors."""

from __future__ import annotations

import pytest

from engine import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError
from tests.engine.helpers import at, position


def test_numeric_quiet_and_capture() -> None:
    board = Board("international")
    move = board.parse_move("32-28")
    assert board.move_notation(move) == "32-28"
    board = Board.from_fen("W:W28:B23", "international")
    (move,) = board.legal_moves
    assert board.move_notation(move) == "28x19"
    assert board.parse_move("28x19") == move
    assert board.parse_move("28-19") == move  # separator kind is not enforced


def test_russian_letters_and_colon() -> None:
    board = position("russian", "W", "c3", "d4")
    (move,) = board.legal_moves
    assert board.move_notation(move) == "c3:e5"
    assert board.parse_move("c3:e5") == move
    assert board.parse_move("C3xE5") == move
    assert board.parse_move("c3e5") == move


def test_brazilian_letters_and_x() -> None:
    """PDN 3.0 GameType 26 ("26,W,8,8,A0,0", capture separator x); CBD score sheets: a3xc5."""
    board = position("brazilian", "W", "c3", "d4")
    (move,) = board.legal_moves
    assert board.move_notation(move) == "c3xe5"
    assert board.parse_move("c3xe5") == move
    assert board.parse_move("c3:e5") == move
    assert board.parse_move("22x15") == move  # the numbers of the numeric 8x8 games
    quiet = Board("brazilian").parse_move("c3-d4")
    assert Board("brazilian").move_notation(quiet) == "c3-d4"
    assert Board("brazilian").parse_move("22-18") == quiet


def test_concatenated_letter_squares() -> None:
    board = Board("russian")
    assert board.move_notation(board.parse_move("a3b4")) == "a3-b4"


def test_full_path_only_when_ambiguous() -> None:
    """Strike position (see test_rules_capture): two different moves e1 -> a5."""
    board = position("russian", "W", "Ke1", "d2,f2,d4,f4,b4")
    texts = sorted(board.move_notation(m) for m in board.legal_moves)
    assert texts == ["e1:a3", "e1:c3:a5", "e1:e1", "e1:g3:e5:c3:a5"]
    with pytest.raises(AmbiguousMoveError, match="e1:c3:a5") as info:
        board.parse_move("e1:a5")
    assert "e1:a5" in str(info.value)
    assert sorted(board.variant.square_name(c) for c in board.parse_move("e1:c3:a5").captures) \
        == ["b4", "d2"]
    # An intermediate square is enough to tell them apart.
    assert len(board.parse_move("e1:e5:a5").captures) == 4


def test_find_move_for_sensors() -> None:
    board = position("russian", "W", "Ke1", "d2,f2,d4,f4,b4")
    v = board.variant
    e1, a5 = at(v, "e1"), at(v, "a5")
    with pytest.raises(AmbiguousMoveError):
        board.find_move(e1, a5)
    move = board.find_move(e1, a5, captured={at(v, "d2"), at(v, "b4")})
    assert move.path == (at(v, "c3"), a5)
    with pytest.raises(IllegalMoveError, match="e1->a5"):
        board.find_move(e1, a5, captured={at(v, "d2")})


@pytest.mark.parametrize("text", ["", "banana", "32--28", "32-", "x32", "32-28-", "1" * 300])
def test_unreadable_text(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Board().parse_move(text)
    assert isinstance(info.value, ValueError)


def test_unknown_square_and_illegal_move() -> None:
    with pytest.raises(InvalidMoveError, match="'51'"):
        Board().parse_move("32-51")
    with pytest.raises(IllegalMoveError, match=r"'32-26'.*W:W31-50"):
        Board().parse_move("32-26")
    with pytest.raises(InvalidMoveError, match="'d3'"):
        Board("russian").parse_move("c3-d3")


def test_annotations_ignored() -> None:
    board = Board("english")
    assert board.move_notation(board.parse_move("11-15!?")) == "11-15"


def test_push_rejects_illegal_move() -> None:
    board = Board()
    move = Board.from_fen("W:W28:B23", "international").parse_move("28x19")
    with pytest.raises(IllegalMoveError):
        board.push(move)
    assert board.ply == 0
