"""Agreements across the link: two boards (whole services on simulated boards, a real
redis-server, virtual time) play one game, and what one player proposes needs the other's yes.

A draw offered after one's own move stands on the other board until that player accepts
(their draw button) or declines by moving; a takeback asked stands there until that player
agrees (their takeback button: both boards take back, each record with the note) or moves;
neither board takes back on the partner's word alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.feedback.texts import render
from firmware_host.opponents.remote.duel import Partner, proposals
from firmware_host.opponents.remote.entries import Played
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import TAKEBACK_AGREED
from tests.firmware_host.opponents.remote.two_boards import (
    WHITE,
    move,
    poll,
    press,
    record,
    said,
    set_up,
    two_boards,
)
from tests.firmware_host.web.harness import BoardRig
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


@pytest.fixture
def pair(redis_server: RedisServer, tmp_path: Path) -> Iterator[tuple[BoardRig, BoardRig]]:
    with two_boards(redis_server.url, tmp_path) as rigs:
        yield rigs




def test_offers_and_takebacks_need_the_other_player_s_yes(
        pair: tuple[BoardRig, BoardRig]) -> None:
    white, black = pair
    move(white, black, "32-28")
    # The lit move is the other player's, and said so (by name where the game has one).
    assert render(said(black, "computer_move")[-1]) == \
        f"{WHITE} plays 32-28: carry it out on the board"
    move(black, white, "19-23")
    assert render(said(white, "computer_move")[-1]) == \
        "your opponent plays 19-23: carry it out on the board"
    # A draw offered after White's move stands on Black's board; Black declines by moving.
    white.play("28x19")
    press(white, "draw")
    poll(white, black)
    assert said(black, "draw_offer")[-1]["side"] == "white"
    black.play_computer_move()
    black.play("14x23")
    poll(white, black)
    white.play_computer_move()
    for rig in pair:
        assert said(rig, "draw_declined")[-1]["reason"] == "moved"
        assert rig.session.game.offer is None
    # White asks to take back a move Black has not carried out yet; Black agrees.
    white.play("37-32")
    press(white, "takeback")
    poll(white, black)
    assert said(black, "takeback_asked")[-1] == {**said(black, "takeback_asked")[-1],
                                                 "side": "white", "back_to": 4}
    assert len(black.session.board.move_stack) == 4  # (unchanged until Black agrees)
    press(black, "takeback")
    poll(white, black)
    for rig in pair:
        assert len(rig.session.board.move_stack) == 4
    set_up(white)  # White's hand takes its move back, as its lights show
    assert black.session.pending is None  # (the move taken back no longer lit there)
    move(white, black, "31-27")  # and plays another: it reaches Black in the new line
    # An offer accepted: the game ends drawn on both boards, one record.
    move(black, white, "20-24")
    white.play("27-22")
    press(white, "draw")
    poll(white, black)
    press(black, "draw")  # (refused while White's move is only lit: both records need it)
    assert black.session.outcome is None
    black.play_computer_move()
    press(black, "draw")
    poll(white, black)
    games = [record(rig) for rig in pair]
    for game in games:
        assert game.result == "1-1" and game.termination == "draw_agreed"
        assert [ply for ply, note in game.notes if note == TAKEBACK_AGREED] == [4]
    assert [m.pdn for m in games[0].moves] == [m.pdn for m in games[1].moves] == [
        "32-28", "19-23", "28x19", "14x23", "31-27", "20-24", "27-22"]
    headerless = [render_game(g).split("\n\n", 1)[1] for g in games]
    assert headerless[0] == headerless[1]


def test_a_takeback_the_player_did_not_ask_for_is_not_done() -> None:
    """The partner's ``back`` without this board's ask (a partner's board gone wrong, or a
    hostile one) is refused and never handed to the session."""
    partner = Partner(1, {1: Played(1, 1, "32-28", "B:W28,31-50:B1-20")}, agreed={1: 0})
    commands, refused = proposals(partner)
    assert commands == [] and "did not ask" in refused[0]
    asked = Partner(1, agreed={1: 0}, asked={0: 0})
    assert [(c.tag, c.value) for c in proposals(asked)[0]] == [("takeback_agreed", "1:0")]
