"""Record mode: two humans, every move logged, touch-move for both, refusals, corrections, ends."""

from __future__ import annotations

import pytest

from engine import Board
from firmware_host.feedback.roles import Role
from firmware_host.feedback.texts import render
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def test_moves_are_recorded_and_published_with_pdn_names() -> None:
    rig = Rig("english")
    for text in ("11-15", "23-19", "8-11", "22-17"):
        rig.play(text)
    assert rig.moves() == ["11-15", "23-19", "8-11", "22-17"]
    first = rig.published("move")[0]
    assert (first["ply"], first["pdn"], first["from"], first["to"], first["captures"]) == (
        1, "11-15", 11, 15, [])
    assert rig.state == "human_to_move"


def test_alphanumeric_variants_publish_square_names_as_strings() -> None:
    rig = Rig("russian")
    rig.play("c3-d4")
    move = rig.last("move")
    assert (move["from"], move["to"], move["pdn"]) == ("c3", "d4", "c3-d4")


def test_capture_with_pieces_removed_before_landing() -> None:
    rig = Rig("english", fen="B:W18,30:B14,1")
    rig.lift("14", "18")
    assert rig.state == "move_in_progress"
    assert rig.moves() == []
    rig.place("23")
    assert rig.moves() == []  # set down, not yet let go (FMJD art. 16, notes)
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves() == ["14x23"]
    assert rig.last("move")["captures"] == [18]


# -- touch-move ---------------------------------------------------------------------------------

@pytest.mark.parametrize("side_first", ["black", "white"])
def test_strict_touch_move_obliges_the_touched_piece_for_both_sides(side_first: str) -> None:
    rig = Rig("english")
    if side_first == "white":
        rig.play("11-15")
        touched, other, good = "23", "22-18", "23-19"
    else:
        touched, other, good = "11", "10-14", "11-16"
    rig.lift(touched)
    assert rig.last("touch")["square"] == int(touched)
    rig.place(touched)  # putting it back does not clear the obligation
    assert rig.session.obligation == rig.sq(touched)
    rig.play(other)
    assert rig.last("refused")["reason"] == "touch_move"
    assert len(rig.moves()) == (1 if side_first == "white" else 0)
    origin, destination = other.split("-")
    rig.lift(destination)
    rig.place(origin)
    rig.play(good)
    assert rig.moves()[-1] == good


def test_obliged_piece_shows_its_legal_destinations() -> None:
    rig = Rig("english")
    rig.lift("11")
    assert rig.leds(Role.LEGAL) == {"15", "16"}


def test_touching_an_opponents_or_unplayable_piece_obliges_nothing() -> None:
    rig = Rig("english")
    rig.lift("22")
    rig.place("22")
    rig.lift("1")  # black's 1 cannot move at the start
    rig.place("1")
    assert rig.published("touch") == []
    assert rig.session.obligation is None
    rig.play("10-14")
    assert rig.moves() == ["10-14"]


def test_touch_move_off_lets_the_player_change_their_mind() -> None:
    rig = Rig("english", touch_move="off")
    rig.lift("11")
    rig.place("11")
    rig.play("10-14")
    assert rig.moves() == ["10-14"]
    assert rig.published("touch") == []


def test_adjust_announced_before_touching_obliges_nothing() -> None:
    rig = Rig("english")
    rig.press("adjust")
    assert rig.state == "adjusting"
    assert rig.leds(Role.ADJUST) == {str(n) for n in range(1, 13)}
    rig.lift("11")
    rig.place("11")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.state == "human_to_move"
    assert [e["state"] for e in rig.published("adjust")] == [True, False]
    assert rig.session.obligation is None
    rig.play("10-14")
    assert rig.moves() == ["10-14"]


def test_a_piece_released_on_another_square_in_the_adjust_window_is_a_move() -> None:
    # Issue 14 (1). FMJD art. 7: "j'adoube" covers putting pieces right on their own squares;
    # a piece released on another square is a move, and the window closes with it.
    rig = Rig("english")
    rig.press("adjust")
    rig.lift("11")
    rig.place("15")
    assert rig.moves() == []  # not yet let go
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves() == ["11-15"]
    assert rig.last("adjust") == {**rig.last("adjust"), "state": False, "reason": "move"}
    assert rig.state == "human_to_move"


def test_adjust_announced_after_the_lift_keeps_the_obligation() -> None:
    rig = Rig("english")
    rig.lift("11")
    rig.press("adjust")
    rig.place("11")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.session.obligation == rig.sq("11")
    rig.play("10-14")
    assert rig.last("refused")["reason"] == "touch_move"
    assert rig.moves() == []


# -- refusals and corrections -------------------------------------------------------------------

def test_quiet_move_when_a_capture_is_compulsory_is_refused_and_explained() -> None:
    rig = Rig("english", fen="B:W18,30:B14,1")
    rig.lift("1")
    rig.place("5")
    assert rig.published("refused") == []  # not before the board settled
    rig.wait(rig.config.settle_ms + 10)
    refused = rig.last("refused")
    assert refused["reason"] == "capture_compulsory"
    assert render(refused) == "a capture is compulsory: 14x23"
    assert rig.leds(Role.MUST) == {"14"}
    assert rig.moves() == []


def test_a_smaller_capture_than_the_maximum_is_refused() -> None:
    rig = Rig("international", fen="W:W33,39:B28,18,34")
    rig.lift("39", "34")
    rig.place("30")
    rig.wait(rig.config.settle_ms + 10)
    refused = rig.last("refused")
    assert refused["reason"] == "max_capture"
    assert render(refused) == "you must take the maximum: 2 pieces"
    assert rig.moves() == []


def test_correction_guidance_after_error_ms_and_not_before() -> None:
    rig = Rig("english")
    rig.place("15")  # a stray piece
    rig.wait(rig.config.error_ms - 200)
    assert rig.leds(Role.EXTRA) == set()
    rig.wait(250)
    assert rig.leds(Role.EXTRA) == {"15"}
    assert rig.last("correction")["extra"] == [15]
    rig.lift("15")
    assert rig.leds(Role.EXTRA) == set()
    assert rig.state == "human_to_move"


def test_correction_follows_the_board_once_shown() -> None:
    rig = Rig("english")
    rig.lift("1")
    rig.lift("2")
    rig.wait(rig.config.error_ms + 10)
    assert rig.leds(Role.MISSING) == {"1", "2"}
    rig.place("1")
    assert rig.leds(Role.MISSING) == {"2"}


# -- game end -----------------------------------------------------------------------------------

def test_game_ends_when_the_side_to_move_has_no_move() -> None:
    rig = Rig("english", fen="B:W18:B14,1")
    rig.play("14x23")
    result = rig.last("result")
    # PDN 3.0 scores the first mover first: in English (GameType 21) that is Black.
    assert (result["result"], result["termination"], result["winner"]) == (
        "1-0", "no_moves", "black")
    assert rig.state == "game_over"
    assert rig.game().result == "1-0"
    assert rig.leds(Role.RESULT) == {"1", "23"}


def test_game_ends_by_repetition_as_a_draw() -> None:
    rig = Rig("english", fen="W:WK1:BK32")
    for text in ("1-5", "32-27", "5-1", "27-32") * 2:
        rig.play(text)
    result = rig.last("result")
    assert (result["result"], result["termination"]) == ("1/2-1/2", "repetition")
    assert len(rig.leds(Role.RESULT)) == 32  # every square on a draw


def test_game_ends_by_a_draw_rule_of_the_variant() -> None:
    rig = Rig("turkish", fen="W:WKa1:BKh8,a5")
    rig.play("a1xa6")  # king against king: a draw at once in Turkish draughts
    result = rig.last("result")
    assert (result["termination"], result["rule"]) == ("draw_rule", "turkish-king-vs-king")
    assert rig.game().termination == "draw_rule"


def test_giveaway_inverts_the_winner() -> None:
    giveaway = Rig("russian-giveaway", fen="B:Wc3:Bd4")
    giveaway.play("d4xb2")
    assert giveaway.last("result")["winner"] == "white"  # black has nothing left to give away


@pytest.mark.parametrize(("how", "expected"), [  # English: Black, the first mover, scores first
    ("resign-button", "0-1"),  # black's own button: black resigns
    ("resign-white", "1-0"),
    ("draw-button", "1/2-1/2"),
])
def test_resignation_and_agreed_draw(how: str, expected: str) -> None:
    rig = Rig("english")
    if how == "resign-button":
        rig.press("resign_black")
    elif how == "resign-white":
        rig.command("resign", side="white")
    else:
        rig.play("11-15")
        rig.press("draw_black")  # offered by Black, who has just moved
        rig.press("draw_white")  # accepted by White
    assert rig.last("result")["result"] == expected
    assert rig.game().result == expected
    assert rig.state == "game_over"


# -- new game, re-sync, resume ------------------------------------------------------------------

def test_new_game_when_the_initial_position_is_set_up_after_game_over() -> None:
    rig = Rig("english")
    rig.play("11-15")
    rig.press("resign_white")
    old = rig.session.game_id
    rig.set(Board("english").occupied_squares())
    rig.wait(rig.config.newgame_ms - 100)
    assert rig.session.game_id == old
    rig.wait(200)
    assert rig.session.game_id != old
    assert rig.state == "human_to_move"
    rig.play("9-13")
    assert rig.moves() == ["9-13"]


def test_new_game_button_mid_game_waits_for_the_set_up() -> None:
    rig = Rig("english")
    rig.play("11-15")
    old = rig.session.game_id
    rig.press("newgame")
    assert rig.state == "setting_up"
    assert rig.leds(Role.MISSING) == {"11"} and rig.leds(Role.EXTRA) == {"15"}
    rig.lift("15")
    rig.place("11")
    rig.wait(rig.config.newgame_ms + 10)
    assert rig.session.game_id != old
    assert rig.store.load_game(old).result == "*"
    assert rig.state == "human_to_move"


def test_resync_at_start_is_guided_by_the_leds() -> None:
    rig = Rig("english", occupied=set())
    assert rig.state == "syncing"
    assert len(rig.leds(Role.MISSING)) == 24
    rig.set(Board("english").occupied_squares())
    assert rig.state == "human_to_move"
    assert rig.leds(Role.MISSING) == set()


def test_resume_after_restart_continues_the_same_game() -> None:
    rig = Rig("english")
    for text in ("11-15", "23-19", "8-11"):
        rig.play(text)
    position = set(rig.occupied)
    restarted = Session("english", rig.store, SessionConfig(mode=Mode.RECORD))
    restarted.start(frozenset(), at=100.0)  # the board was cleared meanwhile
    assert restarted.game_id == rig.session.game_id
    assert restarted.state.value == "syncing"
    assert len(restarted.board.move_stack) == 3
    rig.session = restarted
    rig.events.clear()
    restarted.subscribe(rig.events.append)
    rig.now = 100.0
    rig.set(position)
    assert rig.state == "human_to_move"
    rig.play("22-17")
    assert rig.moves() == ["11-15", "23-19", "8-11", "22-17"]


def test_record_mode_has_no_takebacks_and_no_hints() -> None:
    rig = Rig("english")
    before = set(rig.occupied)
    rig.play("11-15")
    rig.play("23-19")
    rig.press("takeback")
    assert rig.published("takeback_refused")
    rig.press("hint")
    assert rig.published("hint_refused")
    rig.set(before)  # restoring an earlier position is an error here, never a takeback
    rig.wait(5000)
    assert rig.moves() == ["11-15", "23-19"]
    assert rig.published("takeback") == []
    assert rig.leds(Role.MISSING) | rig.leds(Role.EXTRA)


def test_colour_aware_sensors_catch_a_piece_of_the_wrong_colour() -> None:
    from board_io.types import Reading

    rig = Rig("english")
    after = (set(rig.occupied) - {rig.sq("11")}) | {rig.sq("15")}
    board = Board("english")
    colours = {sq: Reading.BLACK if p.color else Reading.WHITE for sq, p in board.pieces().items()
               if sq != rig.sq("11")}
    rig.set(after, {**colours, rig.sq("15"): Reading.WHITE})
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves() == []
    assert rig.last("refused")["reason"] == "wrong_colour"
    rig.set(after, {**colours, rig.sq("15"): Reading.BLACK})
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves() == ["11-15"]


def test_a_move_made_while_the_service_was_down_is_read_from_the_board() -> None:
    rig = Rig("english")
    rig.play("11-15")
    board = Board("english", fen=rig.session.board.fen())
    board.push(board.find_move(rig.sq("23"), rig.sq("19")))
    again = Rig("english", store=rig.store, occupied=board.occupied_squares())
    assert again.moves() == ["11-15", "23-19"]
    assert again.published("resumed")
    assert again.state == "human_to_move"


def test_an_unrelated_board_at_restart_is_guided_not_played() -> None:
    rig = Rig("english")
    rig.play("11-15")
    again = Rig("english", store=rig.store, occupied=set())
    assert again.state == "syncing"
    assert again.moves() == ["11-15"]


def test_resume_trusts_the_game_log_over_a_lagging_snapshot() -> None:
    rig = Rig("english")
    rig.play("11-15")
    stale = rig.store.load_session()  # the snapshot of a stop between log and snapshot writes
    rig.play("23-19")
    rig.press("resign_black")
    rig.store.save_session(stale)
    again = Rig("english", store=rig.store, occupied=set(rig.occupied))
    assert len(again.session.board.move_stack) == 2
    assert again.state == "game_over"
    # Black resigned: White won, which English's GameType 21 writes 0-1 (the first mover first).
    assert again.session.outcome is not None and again.session.outcome.result() == "0-1"


def test_touch_move_obligation_survives_a_restart() -> None:
    rig = Rig("english")
    rig.lift("11")
    rig.place("11")
    assert rig.session.obligation == rig.sq("11")
    again = Rig("english", store=rig.store, occupied=set(rig.occupied))
    assert again.session.obligation == rig.sq("11")
    again.play("10-14")
    assert again.last("refused")["reason"] == "touch_move"
    assert again.moves() == []


def test_new_games_after_a_resume_start_from_the_configured_position() -> None:
    rig = Rig("english")
    rig.play("11-15")
    fen = "B:W18,30:B14,1"
    again = Rig("english", store=rig.store, fen=fen, occupied=set(rig.occupied))
    assert again.session.game_id == rig.session.game_id  # resumed, from the standard start
    again.press("resign_black")
    again.set(Board("english", fen=fen).occupied_squares())
    again.wait(again.config.newgame_ms + 10)
    assert again.session.game_id != rig.session.game_id
    assert again.session.board.fen() == Board("english", fen=fen).fen()
