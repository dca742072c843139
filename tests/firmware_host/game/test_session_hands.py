"""The board follows the hand as an arbiter would (issue 14), in international, Russian and English.

Rules cited from the official FMJD rules (docs/rules.md#sources, [FMJD]): the notes to article 16
("a move is finished when the player has released the piece"; "a touched piece not yet
released may be put on another square"; "j'adoube" is announced before putting pieces right),
article 12 (crowning: another piece of the same colour put on the promoted man), articles 20 and
28 (a capture ends when the captured pieces are taken off).
"""

from __future__ import annotations

import pytest

from engine import Color
from firmware_host.feedback.roles import Role
from firmware_host.feedback.texts import render
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def quiet(rig: Rig) -> bool:
    """Nothing refused, nothing to correct."""
    return not rig.published("refused") and not rig.published("correction")


# -- 1. j'adoube, then a move -------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "straighten", "move", "reply"), [
    ("international", "32", "33-28", "19-23"),
    ("russian", None, "c3-d4", "f6-e5"),  # an unsensed nudge: the board never left the position
    ("english", "11", "10-14", "22-17"),
])
def test_a_move_right_after_jadoube_is_the_move(
    variant: str, straighten: str | None, move: str, reply: str
) -> None:
    # Notes to art. 16: j'adoube covers putting pieces right on their own squares; a piece
    # released on another square is a move. The window closes with it.
    rig = Rig(variant)
    rig.press("adjust")
    if straighten is not None:
        rig.lift(straighten)
        rig.place(straighten)
    rig.step = 0.15  # inside the window's settle time
    rig.play(move)
    assert rig.moves() == [move]
    assert rig.last("adjust")["state"] is False
    assert rig.last("adjust")["reason"] == "move"
    rig.play(reply)
    assert rig.moves() == [move, reply]
    assert quiet(rig)
    assert rig.state == "human_to_move"


# -- 2. a piece set down but not yet let go ------------------------------------------------------

@pytest.mark.parametrize(("variant", "origin", "touched", "destination"), [
    ("international", "32", "28", "27"),
    ("russian", "c3", "d4", "b4"),
    ("english", "11", "15", "16"),
])
def test_a_piece_set_down_and_moved_on_counts_where_it_is_let_go(
    variant: str, origin: str, touched: str, destination: str
) -> None:
    # Notes to art. 16: a piece not yet released may be put on another square.
    rig = Rig(variant)
    rig.step = 0.08
    rig.lift(origin)
    rig.place(touched)
    rig.lift(touched)
    rig.place(destination)
    assert rig.moves() == []
    rig.wait(rig.config.settle_ms + 10)
    sep = "-"
    assert rig.moves() == [f"{origin}{sep}{destination}"]
    assert quiet(rig)


# -- 3. a fast reply releases the move before it --------------------------------------------------

@pytest.mark.parametrize(("variant", "fen", "move", "reply"), [
    ("international", "W:WK46:B6,1", "46-28", "6-11"),
    ("russian", "W:WKa1:Bh8,g7", "a1-d4", "g7-f6"),
    ("english", "W:W22,30:B1,5", "22-18", "5-9"),
])
def test_the_opponents_touch_releases_the_move(
    variant: str, fen: str, move: str, reply: str
) -> None:
    # A flying king could slide on from 28 (d4): yet the opponent lifting his piece 0.25 s later
    # shows the move was finished (notes to art. 16: released).
    rig = Rig(variant, fen=fen)
    origin, destination = move.split("-")
    rig.lift(origin)
    rig.place(destination)
    rig.step = 0.25
    start, end = reply.split("-")
    rig.lift(start)
    assert rig.moves() == [move]
    # After a quiet move the lift can only be the opponent's: it obliges him (strict).
    touch = rig.last("touch")
    assert touch["square"] == rig.session.namer.square(rig.sq(start))
    assert touch["side"] == "black"
    rig.place(end)
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves() == [move, reply]
    assert quiet(rig)


# -- 4. obligations only from the hand whose turn it is ------------------------------------------

def test_a_piece_taken_off_right_after_a_capture_obliges_nobody() -> None:
    # Arts. 20, 28: the capture ends when the captured pieces are off. Taking off one more
    # right after may be the capturer's hand: it is not Black's touch.
    rig = Rig("international", fen="W:W33:B28,17,30,19")
    rig.lift("33", "28", "17")
    rig.place("11")
    rig.lift("30")
    assert rig.moves() == ["33x11"]
    assert [t for t in rig.published("touch") if t["side"] == "black"] == []
    assert rig.session.obligation is None
    assert rig.leds(Role.LEGAL) == set()
    rig.place("30")  # put back
    rig.play("19-24")  # another piece: not refused
    assert rig.moves() == ["33x11", "19-24"]
    assert quiet(rig)


def test_jumping_on_with_a_newly_crowned_king_obliges_nobody() -> None:
    # English: crowning ends the move. The player lifts White's 28 to jump on with the new king:
    # his own hand, not White's touch.
    rig = Rig("english", fen="B:W27,28,30:B23,1")
    rig.lift("23", "27")
    rig.place("32")
    rig.lift("28")
    assert rig.moves() == ["23x32"]
    assert [t for t in rig.published("touch") if t["side"] == "white"] == []
    rig.place("28")
    rig.play("30-26")
    assert rig.moves() == ["23x32", "30-26"]
    assert quiet(rig)


def test_lifting_the_crowned_piece_to_crown_it_is_no_error() -> None:
    # Art. 12: the promoted man is crowned with another piece, which may mean lifting it; while
    # it is off the board, lifts are the mover's hand.
    rig = Rig("english", fen="B:W27,28,30:B23,1")
    rig.play("23x32")
    rig.lift("32")
    rig.lift("28")
    rig.wait(rig.config.settle_ms + 10)
    assert [t for t in rig.published("touch") if t["side"] == "white"] == []
    assert rig.published("refused") == []
    rig.place("28", "32")
    rig.play("30-26")
    assert rig.moves() == ["23x32", "30-26"]


# -- 5. takeback guidance knows colours ----------------------------------------------------------

def test_takeback_guidance_replaces_a_piece_of_the_wrong_colour() -> None:
    rig = Rig("international", mode=Mode.PLAY, fen="W:W32,46:B23,5", computer=["23x32"])
    rig.play("32-28")
    rig.computer_move()
    assert rig.moves() == ["32-28", "23x32"]
    rig.press("takeback")
    assert render(rig.last("correction")) == "put back on: 23; take away: 32"
    rig.place("23")  # a spare piece: the occupancy matches, but 32 holds Black's man
    rig.wait(500)
    assert rig.state == "syncing"
    assert rig.leds(Role.EXTRA) == {"32"}
    rig.lift("32")
    assert rig.leds(Role.MISSING) == {"32"}
    rig.place("32")  # White's man
    assert rig.state == "human_to_move"
    assert rig.last("synced")


# -- 6. lights where a player needs them ---------------------------------------------------------

def test_a_capture_stopped_halfway_lights_what_is_left_after_error_ms() -> None:
    # Russian: a man that reaches the last rank in a capture goes on capturing as a king.
    rig = Rig("russian", mode=Mode.PLAY, fen="W:Wb6:Bc7,f6,a7")
    rig.lift("b6", "c7")
    rig.place("d8")
    assert rig.leds(Role.REMOVE) == set()
    rig.wait(rig.config.error_ms + 10)
    assert rig.leds(Role.REMOVE) == {"f6"}
    assert rig.leds(Role.LEGAL) == {"g5", "h4"}
    rig.lift("d8", "f6")
    rig.place("h4")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.moves()[0] == "b6:h4"


@pytest.mark.parametrize(("variant", "fen", "origin", "to", "sentence"), [
    ("english", "B:W18,30:B14,1", "1", "5", "a capture is compulsory: 14x23"),
    ("international", "W:W33,39:B28,18,34,5", "39", "43", None),
    ("russian", "W:Wc3:Bd4,h8", "c3", "b4", "a capture is compulsory: c3:e5"),
])
def test_a_refused_move_lights_at_once_with_its_sentence(
    variant: str, fen: str, origin: str, to: str, sentence: str | None
) -> None:
    rig = Rig(variant, fen=fen)
    rig.lift(origin)
    rig.place(to) if variant != "international" else rig.place("44")
    rig.wait(rig.config.settle_ms + 10)
    refused = rig.last("refused")
    assert refused["text"] == render(refused)
    if sentence is not None:
        assert refused["text"] == sentence
    # Not after error_ms: now.
    assert rig.leds(Role.EXTRA) and rig.leds(Role.MISSING)
    assert rig.last("correction")


# -- 8. refused squares as the variant names them -----------------------------------------------

def test_refused_squares_are_numbers_on_numeric_variants() -> None:
    rig = Rig("english")  # Black to move
    rig.lift("22")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.last("refused")["squares"] == [22]
    rig = Rig("international")
    rig.lift("32")
    rig.place("32")
    rig.play("33-28")
    refused = rig.last("refused")
    assert refused["reason"] == "touch_move" and refused["square"] == 32
    rig = Rig("russian")
    rig.lift("c3")
    rig.place("c3")
    rig.play("a3-b4")
    assert rig.last("refused")["square"] == "c3"


def test_crowning_the_human_s_new_king_while_the_computer_answers_is_no_error() -> None:
    # Art. 12: the player crowns his promoted man while the computer's reply is on the LEDs.
    rig = Rig("english", mode=Mode.PLAY, human_side=Color.BLACK,
              fen="B:W27,28,30:B23,1", computer=["28-24"])
    rig.play("23x32")
    assert rig.state == "computer_move_pending"
    rig.lift("32")
    rig.wait(rig.config.error_ms + 10)
    assert rig.published("correction") == []
    rig.place("32")
    rig.computer_move()
    assert rig.moves() == ["23x32", "28-24"]
