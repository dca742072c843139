"""The settle model's evidence of release (firmware_host/game/release.py), as a table.

FMJD, notes to article 16: a move is finished when the piece is released; a piece not yet
released may still go to another square. The board reads release from the next lift elsewhere
or the opponent's touch (the hold time is the session's timer).
"""

from __future__ import annotations

import pytest

from engine import Board
from firmware_host.game.release import Release
from tests.firmware_host.session_harness import find_move


def squares(board: Board, names: str) -> set[int]:
    return {board.variant.parse_square(n) for n in names.split()}


@pytest.mark.parametrize(("variant", "fen", "move", "lifted", "released"), [
    # the opponent begins his reply: released
    ("international", None, "32-28", "19", True),
    ("russian", "W:WKa1:Bh8,g7", "a1-d4", "g7", True),  # a flying king that could slide on
    ("english", None, "11-15", "22", True),
    # the moved piece lifted again: still in the hand
    ("international", None, "32-28", "28", False),
    ("russian", "W:WKa1:Bh8,g7", "a1-d4", "d4", False),
    ("english", None, "11-15", "15", False),
    # another piece of the mover lifted: the hand has moved on
    ("international", None, "32-28", "33", True),
    ("english", None, "11-15", "10", True),
    # a capture, then one more of the opponent's pieces taken off: released (the tail)
    ("international", "W:W33:B28,17,30,19", "33x11", "30", True),
    ("english", "B:W27,28,30:B23,1", "23x32", "28", True),
    # the crowned king lifted again, and the piece it would jump: not the next move
    ("english", "B:W27,28,30:B23,1", "23x32", "32 28", False),
])
def test_evidence_of_release(
    variant: str, fen: str | None, move: str, lifted: str, released: bool
) -> None:
    board = Board(variant, fen)
    played = find_move(board, move)
    shown = board.occupied_squares() - {played.origin, *played.captures} | {played.destination}
    release = Release()
    assert release.show(played, shown)
    assert not release.show(played, shown)  # the same board again: nothing new
    assert release.moved_on(board, shown - squares(board, lifted)) is released


def test_nothing_shown_or_forgotten_is_no_evidence() -> None:
    board = Board("international")
    release = Release()
    assert not release.moved_on(board, board.occupied_squares() - {18})
    played = board.parse_move("32-28")
    release.show(played, board.occupied_squares() - {31} | {27})
    release.forget()
    assert not release.moved_on(board, board.occupied_squares() - {31, 18} | {27})


@pytest.mark.parametrize(("variant", "fen", "move", "tail"), [
    ("international", None, "32-28", False),
    ("international", "W:W33:B28,17,30,19", "33x11", True),  # arts. 20, 28: pieces taken off
    ("english", "B:W27,28,30:B23,1", "23x32", True),  # crowned: art. 12
    ("russian", "W:Wc7:Bh8", "c7-d8", True),  # a promotion without capture
])
def test_which_moves_have_a_tail(variant: str, fen: str | None, move: str, tail: bool) -> None:
    board = Board(variant, fen)
    assert Release.tail_of(find_move(board, move)) is tail
