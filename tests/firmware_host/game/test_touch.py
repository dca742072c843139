"""Touch-move and j'adoube, in virtual time, with the recogniser.

The rules: docs/design.md#touch-move-and-jadoube.

Record mode applies touch-move to both players, so every rule is checked for White and for Black.
Positions come from the engine; the playable pieces from the recogniser's index.
"""

from __future__ import annotations

import pytest

from engine import Board
from firmware_host.game.touch import AdjustClosed, AdjustOpened, Obliged, TouchTracker
from firmware_host.recognition.recogniser import (
    Complete,
    Illegal,
    MoveIndex,
    RefusalReason,
    resolve,
)

SETTLE = 0.3  # seconds (settle_ms=300)


def start(board: Board, strict: bool = True) -> tuple[TouchTracker, frozenset[int]]:
    """A tracker at ``board``'s position (the side to move is a human)."""
    tracker = TouchTracker(strict=strict, settle_ms=SETTLE * 1000)
    occ = board.occupied_squares()
    assert tracker.reset(occ, MoveIndex(board).playable, at=0.0) == ()
    return tracker, occ


def sq(board: Board, names: str) -> frozenset[int]:
    return frozenset(board.variant.parse_square(n) for n in names.split())


def one(board: Board, name: str) -> int:
    return board.variant.parse_square(name)


@pytest.fixture(params=["white", "black"])
def position(request: pytest.FixtureRequest) -> tuple[Board, dict[str, str]]:
    """Both human sides of a record-mode game, with a playable piece, another one, an
    unplayable one and an opponent's piece, and a legal move of each playable piece."""
    board = Board("international")
    if request.param == "white":
        return board, {"piece": "32", "other": "33", "stuck": "46", "theirs": "19",
                       "move": "28", "other_move": "29"}
    board.push(board.parse_move("32-28"))
    return board, {"piece": "19", "other": "18", "stuck": "5", "theirs": "28",
                   "move": "24", "other_move": "22"}


def test_first_lift_of_a_playable_piece_obliges(position: tuple[Board, dict[str, str]]) -> None:
    board, n = position
    tracker, occ = start(board)
    assert tracker.update(occ - sq(board, n["piece"]), at=1.0) == (Obliged(one(board, n["piece"]),
                                                                          1.0),)
    assert tracker.obliged == one(board, n["piece"])


def test_putting_it_back_does_not_clear_it(position: tuple[Board, dict[str, str]]) -> None:
    board, n = position
    tracker, occ = start(board)
    tracker.update(occ - sq(board, n["piece"]), at=1.0)
    assert tracker.update(occ, at=2.0) == ()
    assert tracker.obliged == one(board, n["piece"])
    tracker.tick(at=10.0)
    # then moving another piece is refused, moving the touched one accepted
    other = occ - sq(board, n["other"]) | sq(board, n["other_move"])
    assert tracker.update(occ - sq(board, n["other"]), at=11.0) == ()
    result = resolve(board, other, obliged=tracker.obliged)
    assert isinstance(result, Illegal)
    assert result.reason is RefusalReason.TOUCHED_PIECE_MUST_MOVE
    moved = occ - sq(board, n["piece"]) | sq(board, n["move"])
    result = resolve(board, moved, obliged=tracker.obliged)
    assert isinstance(result, Complete) and result.move.origin == one(board, n["piece"])


def test_second_touch_does_not_move_the_obligation(
    position: tuple[Board, dict[str, str]],
) -> None:
    board, n = position
    tracker, occ = start(board)
    tracker.update(occ - sq(board, n["piece"]), at=1.0)
    tracker.update(occ, at=2.0)
    assert tracker.update(occ - sq(board, n["other"]), at=3.0) == ()
    assert tracker.obliged == one(board, n["piece"])


def test_opponent_or_unplayable_piece_sets_none(position: tuple[Board, dict[str, str]]) -> None:
    board, n = position
    tracker, occ = start(board)
    for name in (n["theirs"], n["stuck"]):
        assert tracker.update(occ - sq(board, name), at=1.0) == ()
        assert tracker.update(occ, at=1.5) == ()
        assert tracker.obliged is None
    assert tracker.update(occ - sq(board, n["other"]), at=2.0) == (
        Obliged(one(board, n["other"]), 2.0),
    )


def test_off_mode_never_obliges(position: tuple[Board, dict[str, str]]) -> None:
    board, n = position
    tracker, occ = start(board, strict=False)
    assert tracker.update(occ - sq(board, n["piece"]), at=1.0) == ()
    assert tracker.update(occ, at=2.0) == ()
    assert tracker.obliged is None
    other = occ - sq(board, n["other"]) | sq(board, n["other_move"])
    assert isinstance(resolve(board, other, obliged=tracker.obliged), Complete)


def test_adjust_before_touching(position: tuple[Board, dict[str, str]]) -> None:
    board, n = position
    tracker, occ = start(board)
    assert tracker.press_adjust(at=1.0) == (AdjustOpened(1.0, None),)
    assert tracker.adjusting
    assert tracker.update(occ - sq(board, n["piece"]), at=1.5) == ()
    assert tracker.update(occ - sq(board, n["piece"] + " " + n["other"]), at=1.7) == ()
    assert tracker.update(occ - sq(board, n["other"]), at=2.0) == ()
    assert tracker.update(occ, at=2.2) == ()
    assert tracker.obliged is None and tracker.adjusting
    assert tracker.deadline == pytest.approx(2.2 + SETTLE)
    assert tracker.tick(at=2.2 + SETTLE / 2) == ()
    assert tracker.tick(at=2.2 + SETTLE) == (AdjustClosed(2.2 + SETTLE, "restored"),)
    assert not tracker.adjusting and tracker.deadline is None
    # the window is closed: the next lift is a touch again
    assert tracker.update(occ - sq(board, n["other"]), at=4.0) == (
        Obliged(one(board, n["other"]), 4.0),
    )


def test_adjust_window_waits_for_the_board_to_hold(
    position: tuple[Board, dict[str, str]],
) -> None:
    board, n = position
    tracker, occ = start(board)
    tracker.press_adjust(at=1.0)
    tracker.update(occ - sq(board, n["piece"]), at=1.5)
    tracker.update(occ, at=2.0)
    tracker.update(occ - sq(board, n["piece"]), at=2.1)  # lifted again before settle_ms
    assert tracker.tick(at=2.0 + SETTLE) == ()
    assert tracker.adjusting
    assert tracker.update(occ, at=3.0) == ()
    assert tracker.update(occ, at=3.0 + SETTLE) == (AdjustClosed(3.0 + SETTLE, "restored"),)


def test_adjust_pressed_but_nothing_touched_stays_open() -> None:
    board = Board("international")
    tracker, _ = start(board)
    tracker.press_adjust(at=1.0)
    assert tracker.tick(at=60.0) == () and tracker.adjusting
    assert tracker.press_adjust(at=61.0) == (AdjustClosed(61.0, "button"),)


def test_adjust_closed_by_the_button(position: tuple[Board, dict[str, str]]) -> None:
    board, n = position
    tracker, occ = start(board)
    tracker.press_adjust(at=1.0)
    tracker.update(occ - sq(board, n["piece"]), at=1.5)
    assert tracker.press_adjust(at=2.0) == (AdjustClosed(2.0, "button"),)
    assert not tracker.adjusting and tracker.obliged is None
    # the piece was lifted inside the window: putting it back and lifting it again is a touch
    tracker.update(occ, at=2.5)
    assert tracker.update(occ - sq(board, n["piece"]), at=3.0) == (
        Obliged(one(board, n["piece"]), 3.0),
    )


def test_a_piece_put_down_during_the_move_is_not_the_position_s_piece() -> None:
    board = Board("international")
    tracker, occ = start(board)
    tracker.press_adjust(at=1.0)
    tracker.update(occ - sq(board, "32 33"), at=1.2)
    tracker.press_adjust(at=1.4)  # closed with two pieces off the board
    tracker.update(occ - sq(board, "33"), at=1.6)  # one put down on 32: which one?
    assert tracker.update(occ - sq(board, "32 33"), at=1.8) == ()
    assert tracker.obliged is None
    assert tracker.update(occ - sq(board, "32 33 34"), at=2.0) == (
        Obliged(one(board, "34"), 2.0),
    )


def test_adjust_announced_after_the_lift_does_not_cancel(
    position: tuple[Board, dict[str, str]],
) -> None:
    board, n = position
    tracker, occ = start(board)
    piece = one(board, n["piece"])
    tracker.update(occ - {piece}, at=1.0)
    assert tracker.press_adjust(at=1.2) == (AdjustOpened(1.2, piece),)
    tracker.update(occ, at=1.5)
    assert tracker.tick(at=1.5 + SETTLE) == (AdjustClosed(1.5 + SETTLE, "restored"),)
    assert tracker.obliged == piece


def test_new_position_clears_obligation_and_window(
    position: tuple[Board, dict[str, str]],
) -> None:
    board, n = position
    tracker, occ = start(board)
    tracker.update(occ - sq(board, n["piece"]), at=1.0)
    tracker.press_adjust(at=1.1)
    after = board.copy()
    move = next(m for m in after.legal_moves if m.origin == one(board, n["piece"]))
    after.push(move)
    events = tracker.reset(after.occupied_squares(), MoveIndex(after).playable, at=2.0)
    assert events == (AdjustClosed(2.0, "reset"),)
    assert tracker.obliged is None and not tracker.adjusting


def test_both_players_in_turn() -> None:
    """A record-mode game: each side's touch obliges that side, one after the other."""
    board = Board("international")
    tracker, occ = start(board)
    assert tracker.update(occ - sq(board, "31"), at=1.0) == (Obliged(one(board, "31"), 1.0),)
    # White's obliged piece moves; a new position for Black
    tracker.update(occ - sq(board, "31") | sq(board, "26"), at=1.5)
    board.push(board.parse_move("31-26"))
    occ = board.occupied_squares()
    tracker.reset(occ, MoveIndex(board).playable, at=2.0)
    assert tracker.obliged is None
    # Black touching a white piece sets nothing; Black's own piece does
    assert tracker.update(occ - sq(board, "26"), at=3.0) == ()
    tracker.update(occ, at=3.2)
    assert tracker.update(occ - sq(board, "17"), at=3.5) == (Obliged(one(board, "17"), 3.5),)


def test_simultaneous_lifts_oblige_neither() -> None:
    # Issue 14 (6): two playable pieces lifted within one debounce interval: which was touched
    # first (FMJD art. 7: the first touched piece must be played) cannot be known, so the board
    # obliges neither rather than refuse a move the rule allowed; nor does a later touch.
    board = Board("international")
    tracker, occ = start(board)
    assert tracker.update(occ - sq(board, "33 32"), at=1.0) == ()
    assert tracker.obliged is None
    assert tracker.update(occ, at=1.5) == ()
    assert tracker.update(occ - sq(board, "34"), at=2.0) == ()
    assert tracker.obliged is None


def test_zero_settle_closes_at_once() -> None:
    board = Board("international")
    tracker = TouchTracker(strict=True, settle_ms=0)
    occ = board.occupied_squares()
    tracker.reset(occ, MoveIndex(board).playable, at=0.0)
    tracker.press_adjust(at=1.0)
    tracker.update(occ - {31}, at=1.1)
    assert tracker.update(occ, at=1.2) == (AdjustClosed(1.2, "restored"),)


def test_negative_settle_is_refused() -> None:
    with pytest.raises(ValueError, match="settle_ms"):
        TouchTracker(strict=True, settle_ms=-1)
