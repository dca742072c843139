"""Draws and resignations in record mode, as the FMJD rules have them: a draw is offered by the
side that has just moved and stands until the other side accepts (its own button) or declines
by moving; each side has its own buttons, so the record says who offered, who accepted and
who resigned."""

from __future__ import annotations

import pytest

from engine.pdn import read_games
from firmware_host.game.session import Session
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import Command
from tests.firmware_host.game.test_correction import played
from tests.firmware_host.session_harness import Rig


def test_a_draw_is_one_press_no_more() -> None:
    """Issue 38: "a draw is one press": the draw button ended the game drawn at once."""
    rig = played("32-28", "19-23")
    rig.press("draw_black")                      # Black has just moved: an offer
    assert rig.session.outcome is None and rig.last("draw_offer")["side"] == "black"
    rig.press("draw_black")                      # pressed again: still only an offer
    assert rig.last("command_refused")["reason"] == "already_offered"
    assert rig.session.outcome is None
    rig.press("draw_white")                      # White accepts
    result = rig.last("result")
    assert (result["result"], result["termination"]) == ("1-1", "draw_agreed")
    assert result["note"] == "draw offered by Black, accepted by White"
    text = render_game(rig.game())
    assert "{draw offered by Black, accepted by White}" in " ".join(text.split())
    assert read_games(text)[0].result == "1-1"


def test_a_move_declines_the_offer() -> None:
    rig = played("32-28")
    rig.press("draw_white")
    rig.play("19-23")                            # Black plays on: declined
    declined = rig.last("draw_declined")
    assert (declined["side"], declined["offered_by"], declined["reason"]) == (
        "black", "white", "moved")
    rig.press("draw_black")                      # Black's own offer after its move
    assert rig.last("draw_offer")["side"] == "black"
    rig.press("draw_white")
    assert rig.last("result")["note"] == "draw offered by Black, accepted by White"


@pytest.mark.parametrize(("setting", "moves", "press", "reason"), [
    ({}, (), "draw_white", "no_move_yet"),               # before the first move
    ({}, ("32-28",), "draw_black", "offer_after_moving"),  # Black is to move: not an offer
    ({"draw_min_moves": 20}, ("32-28", "19-23"), "draw_black", "too_early"),
])
def test_an_offer_out_of_turn_or_too_early_is_refused(setting: dict[str, object],
                                                       moves: tuple[str, ...], press: str,
                                                       reason: str) -> None:
    rig = played(*moves, **setting)
    rig.press(press)
    assert rig.last("command_refused")["reason"] == reason
    assert rig.published("draw_offer") == [] and rig.session.outcome is None


def test_no_draw_while_the_clock_is_held_the_arbiter_records_it() -> None:
    rig = played("32-28", "19-23", time_control="3+2")
    rig.command("pause")                         # the arbiter holds the clock
    rig.press("draw_black")
    assert rig.last("command_refused")["reason"] == "clock_held"
    rig.session.handle(Command("adjudicate", rig.now, value="draw", tag="agreed at the board"))
    assert (rig.game().result, rig.game().termination) == ("1-1", "adjudication")


def test_the_phone_offers_and_accepts_for_a_side_and_a_sideless_draw_is_refused() -> None:
    rig = played("32-28")
    rig.command("draw")                          # the shared button: whose? never guessed
    assert rig.last("command_refused")["reason"] == "which_side"
    rig.command("draw", side="white")
    rig.command("draw", side="black")
    assert rig.last("result")["note"] == "draw offered by White, accepted by Black"


def test_resigning_after_ones_own_move_loses_the_game() -> None:
    """Issue 38: "Resign resigns for the side to move (a player who resigns after moving, on
    the opponent's turn, is recorded as the winner)"."""
    rig = played("32-28")                        # White moves, then sees it is lost
    rig.press("resign_white")                    # on Black's turn
    result = rig.last("result")
    assert (result["result"], result["winner"], result["note"]) == (
        "0-2", "black", "White resigned")
    game = rig.game()
    assert (game.result, game.termination) == ("0-2", "resignation")


def test_a_sideless_resignation_is_refused_in_record_mode() -> None:
    rig = played("32-28")
    rig.press("resign")
    assert rig.last("command_refused")["reason"] == "which_side"
    assert rig.session.outcome is None


def restarted(rig: Rig) -> Rig:
    """The board's service killed and started again (a power cut): a new session on the same
    store, resuming the saved game."""
    session = Session("international", rig.store, rig.config)
    rig.session = session
    rig.events.clear()
    session.subscribe(rig.events.append)
    session.start(frozenset(rig.occupied), rig.now)
    return rig


def test_a_draw_offer_survives_a_restart_of_the_board() -> None:
    """Issue 38: the offer was not part of the saved game: after a power cut the opponent's
    acceptance started an offer of its own instead of ending the game drawn."""
    rig = restarted(played("32-28", "19-23", time_control="5+3"))
    rig.press("draw_black")                      # Black has just moved: an offer
    rig = restarted(rig)
    assert rig.last("draw_offer")["side"] == "black"  # said again as the board comes back
    rig.press("draw_white")                      # White accepts, after the restart
    result = rig.last("result")
    assert (result["result"], result["note"]) == ("1-1",
                                                  "draw offered by Black, accepted by White")


def test_a_declined_offer_stays_declined_after_a_restart() -> None:
    rig = played("31-27", "19-24")
    rig.press("draw_black")
    rig.play("36-31")                            # White plays on: declined
    rig = restarted(rig)
    assert rig.published("draw_offer") == []
    rig.press("draw_white")                      # White's own offer now, not an acceptance
    assert rig.last("draw_offer")["side"] == "white" and rig.session.outcome is None
