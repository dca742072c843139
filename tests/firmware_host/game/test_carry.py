"""A game carried to a spare board: its moves, names and clock go on there, held until the
arbiter resumes it, once the players have set its position up; a carry that does not fit is
refused and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import fakeredis

from engine import Board
from engine.pdn import read_games
from firmware_host.feedback.roles import Role
from firmware_host.store.keys import BoardKeys
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import Command
from firmware_host.tournament.pairing import read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.session_harness import Rig, hall_board

MOVES = ("32-28", "19-23", "28x19", "14x23", "37-32", "10-14")


def board(sync: Any, board_id: str) -> Rig:
    """A board of the hall on a 5+3 clock, at the start position, reading its pairing."""
    return hall_board(sync, board_id, time_control="5+3")


def carry(rig: Rig, value: str, reason: str = "hall-1's sensors failed") -> None:
    rig.wait(100)
    rig.session.handle(Command("carry", rig.now, value=value, tag=reason))


def failed_board(sync: Any) -> Rig:
    """hall-1 played six moves of round 3, Black thought 20 s, then it failed."""
    import_round(sync, read_pairings("board,white,black,round,event\n"
                                     "hall-1,Ann Smit,Bob de Vries,3,Club night\n")[0], "test")
    one = board(sync, "hall-1")
    for text in MOVES:
        one.wait(4_000)
        one.play(text)
    one.wait(20_000)
    one.session.game.save(None)   # (its 5-second save while the clock runs)
    return one


def test_the_spare_board_carries_on_the_moves_names_and_clock() -> None:
    sync = fakeredis.FakeRedis()
    one = failed_board(sync)
    spare = board(sync, "spare-1")
    carry(spare, f"hall-1/{one.session.game_id}")
    game = spare.game()
    assert game.game_id != one.session.game_id
    assert [m.pdn for m in game.moves] == list(MOVES)
    assert [(m.clock_white, m.clock_black) for m in game.moves] == [
        (m.clock_white, m.clock_black) for m in one.game().moves]
    assert (game.headers["White"], game.headers["Round"]) == ("Ann Smit", "3")
    note = (f"arbiter: carried on from hall-1 (game {one.session.game_id}, ply 6; hall-1's "
            "sensors failed)")
    assert game.notes == [(6, note)]
    assert read_games(render_game(game))[0].comments[6][-1] == note
    # The clock as hall-1 last saved it (White to move, 20 s used), held.
    clock = spare.last("clock")
    saved = json.loads(sync.get(BoardKeys("hall-1").session))["clock"]
    assert (clock["running"], clock["paused"]) == ("white", True)
    assert (clock["clock_white"], clock["clock_black"]) == (round(saved["white"], 1),
                                                            round(saved["black"], 1))
    assert 275 < saved["white"] < 276  # 20 s of White's thought at the failure carried on
    # The players set the position up, guided square by square; the game goes on there.
    assert spare.state == "syncing"
    assert (spare.leds(Role.EXTRA), spare.leds(Role.MISSING)) == ({"10", "19", "37"}, {"23"})
    position = Board("international")
    for text in MOVES:
        position.push(position.parse_move(text))
    spare.set(position.occupied_squares())
    spare.wait(1_000)
    assert spare.state == "paused"              # set up; no move counts until the release
    spare.command("resume")
    assert spare.last("clock")["paused"] is False and spare.state == "human_to_move"
    spare.play("41-37")
    assert [m.pdn for m in spare.game().moves][-1] == "41-37"


def test_a_carry_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    sync = fakeredis.FakeRedis()
    one = failed_board(sync)
    busy = board(sync, "busy-1")
    busy.play("32-28")
    carry(busy, f"hall-1/{one.session.game_id}")
    spare = board(sync, "spare-1")
    for value in ("hall-1", f"hall-9/{one.session.game_id}", "hall-1/20260101-000000-0000"):
        carry(spare, value)
    reasons = [e["reason"] for e in busy.published("command_refused") +
               spare.published("command_refused")]
    assert reasons == ["in_game", "bad_value", "no_game", "no_game"]
    assert spare.game().moves == [] and spare.state != "syncing"
    one.command("resign", side="black")
    carry(spare, f"hall-1/{one.session.game_id}")
    assert spare.last("command_refused")["reason"] == "game_over"


def test_the_carried_game_stays_while_the_players_set_it_up_from_the_start_position() -> None:
    """Issue 38's evening: the spare board stood at the start position, as a spare board
    does; 1.5 s into the setting up (timing.newgame_ms) it took that for a new game and
    dropped the carried one, its clock and its round."""
    sync = fakeredis.FakeRedis()
    one = failed_board(sync)
    spare = board(sync, "spare-1")
    carry(spare, f"hall-1/{one.session.game_id}")
    carried = spare.session.game_id
    spare.wait(30_000)                           # the players look, then set it up
    assert spare.session.game_id == carried and spare.published("new_game")[-1][
        "game_id"] == carried
    assert spare.state == "syncing" and spare.last("clock")["held"] == ["arbiter"]
    position = Board("international")
    for text in MOVES:
        position.push(position.parse_move(text))
    spare.set(position.occupied_squares())
    spare.wait(1_000)
    spare.command("resume")
    assert spare.state == "human_to_move" and spare.session.game_id == carried
