"""Promotion during a capture, per variant (positions worked out by hand).

Russian (seed 003 and 001): a man reaching the last row during a capture becomes a king at once
and continues capturing as a king. FMJD 3.x / 4.x (international, Brazilian, Canadian) and pool:
a man passing the last row continues as a man and is crowned only if the move ends there.
English (seed 002) and Italian (fid.it): reaching the king row ends the move.
"""

from __future__ import annotations

from engine import Board
from tests.engine.helpers import keys, move, position


def _promotes(board: Board) -> set[tuple[str, bool]]:
    v = board.variant
    return {
        ("abcdefgh"[v.square_coords(m.destination)[1]] + str(v.square_coords(m.destination)[0] + 1),
         m.promotes)
        for m in board.legal_moves
    }


def test_russian_man_crowned_mid_capture_continues_as_king() -> None:
    """b6 takes c7 landing on d8 (crowned), then as a king takes f6 from afar: g5 or h4."""
    board = position("russian", "W", "b6", "c7,f6")
    assert keys(board) == {move("b6", "g5", "c7", "f6"), move("b6", "h4", "c7", "f6")}
    assert all(m.promotes for m in board.legal_moves)


def test_fmjd_man_passing_last_row_continues_as_man() -> None:
    """Brazilian (FMJD rules): b6xd8 then, still a man, backwards over e7 to f6: not crowned."""
    board = position("brazilian", "W", "b6", "c7,e7")
    assert keys(board) == {move("b6", "f6", "c7", "e7")}
    assert _promotes(board) == {("f6", False)}
    # A king could have taken f6 from d8; a man cannot (it is not adjacent): ends on d8, crowned.
    board = position("brazilian", "W", "b6", "c7,f6")
    assert keys(board) == {move("b6", "d8", "c7")}
    assert _promotes(board) == {("d8", True)}


def test_russian_same_position_continues_as_king() -> None:
    """Russian, same c7/e7 position: crowned on d8, the king takes e7 landing f6, g5 or h4."""
    board = position("russian", "W", "b6", "c7,e7")
    assert keys(board) == {move("b6", s, "c7", "e7") for s in ("f6", "g5", "h4")}
    assert all(m.promotes for m in board.legal_moves)


def test_pool_continues_as_man() -> None:
    """Pool checkers: like FMJD, the man goes on capturing as a man through the king row."""
    board = position("pool", "W", "b6", "c7,e7")
    assert _promotes(board) == {("f6", False)}


def test_english_and_italian_move_ends_on_king_row() -> None:
    """English (seed 002: 'kinging ends the move'): b6xd8 stops although e7/f6 is open."""
    board = position("english", "W", "b6", "c7,e7")
    assert keys(board) == {move("b6", "d8", "c7")}
    assert _promotes(board) == {("d8", True)}
    # Italian board: a1 is light, so use the mirrored squares (a6 over b7 to c8).
    italian = position("italian", "W", "a6", "b7,d7")
    assert keys(italian) == {move("a6", "c8", "b7")}
    assert _promotes(italian) == {("c8", True)}


def test_quiet_move_onto_last_row_promotes() -> None:
    board = Board.from_fen("W:W7:B45", "international")
    assert {(m.destination + 1, m.promotes) for m in board.legal_moves} == {(1, True), (2, True)}
    board.push(board.find_move(6, 0))
    assert board.piece_at(0) is not None and board.piece_at(0).king  # type: ignore[union-attr]
