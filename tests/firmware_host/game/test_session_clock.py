"""The clock in a game: it runs from the first turn, switches on each committed move, ends the
game on a flag fall, survives a restart, pauses for the arbiter, and goes into the PDN."""

from __future__ import annotations

import logging

import pytest

from engine.pdn import read_games
from firmware_host.store import open_store
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import Command
from tests.firmware_host.session_harness import Rig

#: One move of the rig: lift (0.1 s), place (0.1 s), let go after settle_ms (0.3 s).
MOVE_S = 0.5


def clocked(control: str = "3+2", **kwargs: object) -> Rig:
    return Rig("international", time_control=control, **kwargs)  # type: ignore[arg-type]


def test_the_clock_starts_with_the_first_turn_and_the_game_has_its_time_control_tag() -> None:
    rig = clocked()
    clock = rig.last("clock")
    assert (clock["running"], clock["clock_white"], clock["clock_black"]) == ("white", 180, 180)
    assert rig.game().headers["TimeControl"] == "180+2"


def test_move_events_and_records_carry_both_clocks_to_the_second() -> None:
    rig = clocked()
    rig.wait(10_000)
    rig.play("32-28")                              # White: 10.5 s, +2
    rig.wait(20_000)
    rig.play("19-23")                              # Black: 20.5 s, +2
    first, second = rig.published("move")
    assert (first["clock_white"], first["clock_black"]) == (171.5, 180.0)
    assert (second["clock_white"], second["clock_black"]) == (171.5, 161.5)
    records = rig.game().moves
    assert (records[1].clock_white, records[1].clock_black) == (171.5, 161.5)
    text = render_game(rig.game())
    assert "32-28 {[%clk 0:02:51]}" in text and "19-23 {[%clk 0:02:41]}" in text
    assert '[TimeControl "180+2"]' in text


@pytest.mark.parametrize("control", ["1", "1+5"])
@pytest.mark.parametrize("loser", ["white", "black"])
def test_a_flag_fall_ends_the_game_by_time_and_the_other_side_wins(control: str,
                                                                    loser: str) -> None:
    rig = clocked(control)
    rig.play("32-28")                              # let go at MOVE_S
    if loser == "white":
        rig.play("19-23")                          # let go at 0.51 + MOVE_S
    start = MOVE_S if loser == "black" else 0.51 + MOVE_S
    used = 0.0 if loser == "black" else MOVE_S     # White's first move took MOVE_S
    increment = 5.0 if control == "1+5" and loser == "white" else 0.0
    rig.wait(61_000 + 5_000 + 5_000)
    result = rig.last("result")
    assert result["termination"] == "time"
    assert result["winner"] == ("black" if loser == "white" else "white")
    assert result["result"] == ("0-2" if loser == "white" else "2-0")
    assert rig.state == "game_over"
    assert result["at"] == pytest.approx(start + 60.0 - used + increment)
    assert rig.game().result == result["result"] and rig.game().termination == "time"
    assert '[Result "' + result["result"] + '"]' in render_game(rig.game())
    stopped = rig.last("clock")
    assert stopped["running"] is None and stopped[f"clock_{loser}"] == 0


def test_a_move_after_the_flag_fell_is_not_recorded() -> None:
    rig = clocked("1")
    rig.play("32-28")
    rig.wait(60_500)
    rig.play("19-23")
    assert rig.moves() == ["32-28"] and rig.last("result")["termination"] == "time"


def test_a_board_nobody_plays_on_loses_nothing_on_time() -> None:
    rig = clocked("1")
    rig.wait(10 * 60_000)                          # left at the start position
    assert rig.published("result") == [] and rig.state == "human_to_move"
    waiting = rig.last("clock")
    assert (waiting["running"], waiting["clock_white"]) == (None, 60.0)
    rig.play("32-28")                              # the players came: White's move untimed
    assert rig.last("move")["clock_white"] == 60.0
    assert rig.last("clock")["running"] == "black"
    rig.wait(61_000)
    assert rig.last("result")["winner"] == "white"


def test_a_restart_mid_game_keeps_both_clocks_and_charges_the_downtime_to_nobody() -> None:
    store = open_store("memory", Rig.board_id())
    rig = clocked(store=store)
    rig.wait(10_000)
    rig.play("32-28")                              # White 171.5 left
    rig.wait(4_000)                                # Black thinks 4 s: no save yet (5 s)
    rig.wait(3_000)                                # 7 s: saved at 5 s into Black's turn
    # The service is killed; it starts again (its own time from 0) a while later.
    again = clocked(store=store, occupied=rig.session.game.position)
    resumed = again.last("clock")
    assert (resumed["clock_white"], resumed["clock_black"]) == (171.5, 175.0)
    assert resumed["running"] == "black"
    again.wait(1_000)
    again.play("19-23")                            # Black: 5 s + 1.5 s used, +2
    assert again.last("move")["clock_black"] == 175.5
    assert again.last("move")["clock_white"] == 171.5


def test_a_restart_says_how_long_the_clock_was_down_and_charges_it_to_nobody(
        caplog: pytest.LogCaptureFixture) -> None:
    store = open_store("memory", Rig.board_id())
    rig = clocked(store=store)
    rig.play("32-28")
    rig.wait(5_000)                                # saved: Black has 175 s
    # Killed; back ten minutes later by the wall clock (its own monotonic time from 0).
    with caplog.at_level(logging.INFO, logger="firmware_host.game.timekeeper"):
        again = clocked(store=store, occupied=rig.session.game.position,
                        wall=1_700_000_000.0 + 600)
    assert "clock: resumed as saved 600 s ago (the time the service was down is charged to " \
        "nobody)" in caplog.text
    resumed = again.last("clock")
    assert (resumed["running"], resumed["clock_black"]) == ("black", 175.0)
    assert again.published("result") == []       # ten minutes down: no flag fell


def test_a_flag_fall_loses_even_when_the_opponent_could_not_win() -> None:
    # White's three kings against Black's lone king: Black could never win this, and still
    # wins on time when White's flag falls (FMJD: no exception for the material left).
    rig = Rig("international", time_control="1", fen="W:WK46,K47,K48:BK5")
    rig.play("47-42")
    rig.play("5-10")
    rig.wait(61_000)
    result = rig.last("result")
    assert (result["termination"], result["winner"], result["result"]) == (
        "time", "black", "0-2")
    assert '[Result "0-2"]' in render_game(rig.game())


def test_pause_and_resume_hold_the_clock_and_a_paused_flag_does_not_fall() -> None:
    rig = clocked("1")
    rig.play("32-28")
    rig.wait(10_000)
    rig.command("pause")
    assert rig.last("clock")["paused"] is True
    rig.wait(600_000)
    assert rig.published("result") == []
    rig.command("resume")
    assert rig.last("clock")["clock_black"] == pytest.approx(49.9)
    rig.wait(50_000)
    assert rig.last("result")["termination"] == "time"


def test_clock_commands_without_a_clock_are_refused() -> None:
    rig = Rig("international")
    rig.command("pause")
    refused = rig.last("command_refused")
    assert (refused["command"], refused["reason"]) == ("pause", "no_clock")
    assert rig.published("clock") == []
    rig.play("32-28")
    assert "clock_white" not in rig.last("move")
    assert "TimeControl" not in rig.game().headers


def test_the_arbiter_adds_time() -> None:
    rig = clocked("1")
    rig.wait(10_000)
    rig.session.handle(Command("add_time", rig.now, side="black", value="30"))
    assert rig.last("clock")["clock_black"] == 90.0
    rig.session.handle(Command("add_time", rig.now, side="black", value="lots"))
    assert rig.last("command_refused")["reason"] == "bad_value"


def test_a_time_control_from_the_phone_applies_to_the_next_game() -> None:
    rig = Rig("international")
    rig.session.handle(Command("time_control", rig.now, value="5+3"))
    assert rig.last("settings")["pending"] == {"time_control": "5+3"}
    rig.session.handle(Command("time_control", rig.now, value="soon"))
    assert rig.last("command_refused")["reason"] == "bad_value"
    rig.play("32-28")
    rig.command("newgame")
    rig.set(rig.session.game.initial)
    rig.wait(rig.config.newgame_ms + 10)
    assert rig.game().headers["TimeControl"] == "300+3"
    assert rig.last("clock")["clock_white"] == 300


def test_the_pdn_with_clock_comments_reads_back() -> None:
    rig = clocked()
    for text in ("32-28", "19-23", "28x19", "14x23"):
        rig.wait(3_000)
        rig.play(text)
    game = read_games(render_game(rig.game()))[0]
    assert game.move_texts == ["32-28", "19-23", "28x19", "14x23"]
    assert game.comments[1] == ["[%clk 0:02:58]"]          # 180 - 3.5 + 2 = 178.5
    # Each later turn: 0.01 s after the let-go, 3 s, the move 0.5 s; Black: 180 - 7.02 + 4.
    assert game.comments[4] == ["[%clk 0:02:56]"]
    assert game.headers["TimeControl"] == "180+2"


def test_the_terminal_shows_both_clocks() -> None:
    import io

    from firmware_host.config.loader import Config
    from firmware_host.tools.terminal import PlayOptions, play

    config = Config.from_mapping({"game": {"variant": "english", "mode": "record"},
                                  "store": {"url": "memory"}, "clock": {"time_control": "5+3"}})
    out = io.StringIO()
    options = PlayOptions(config=config, colour=False, virtual_time=True)
    assert play(options, stdin=io.StringIO("11-15\nquit\n"), out=out) == 0
    text = out.getvalue()
    # Black moves first in English: its time runs (*); its move took under a second, +3.
    assert "[black to move]  white 0:05:00  black 0:05:00*" in text
    assert "[white to move]  white 0:05:00*  black 0:05:02" in text
    assert '[TimeControl "300+3"]' in text and "1. 11-15 {[%clk 0:05:02]}" in text


def test_falling_under_a_minute_is_one_clock_event() -> None:
    rig = clocked("2")
    rig.wait(59_000)
    assert rig.last("clock")["low"] is None
    rig.wait(2_000)                                # White under a minute at 60 s
    low = rig.last("clock")
    assert (low["low"], low["at"], low["clock_white"]) == ("white", 60.0, 60.0)
    count = len(rig.published("clock"))
    rig.wait(30_000)
    assert len(rig.published("clock")) == count    # no more until something changes


@pytest.mark.parametrize(("value", "result", "winner"), [
    ("white", "2-0", "white"), ("black", "0-2", "black"), ("draw", "1-1", None)])
def test_the_arbiter_adjudicates_the_game_in_play(value: str, result: str,
                                                  winner: str | None) -> None:
    rig = clocked()
    rig.play("32-28")
    rig.session.handle(Command("adjudicate", rig.now, value=value))
    ended = rig.last("result")
    assert (ended["result"], ended["termination"], ended["winner"]) == (
        result, "adjudication", winner)
    assert rig.last("clock")["running"] is None
    rig.session.handle(Command("adjudicate", rig.now, value="white"))
    assert rig.last("command_refused")["reason"] == "game_over"


def test_an_adjudication_without_a_side_is_refused() -> None:
    rig = Rig("international")
    rig.session.handle(Command("adjudicate", rig.now, value="nobody"))
    assert rig.last("command_refused")["reason"] == "bad_value"
    assert rig.session.outcome is None


def test_a_clock_held_before_the_first_turn_starts_held_and_the_round_starts_at_once() -> None:
    rig = Rig("international", time_control="1", start=False)
    rig.session.game.open_new()                    # the game waits for its players
    rig.session.handle(Command("pause", rig.now))
    assert rig.last("clock")["paused"] is True
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)
    rig.wait(120_000)                              # held: no flag falls
    assert rig.published("result") == []
    rig.command("resume")                          # the arbiter starts the round
    assert rig.last("clock")["running"] == "white"
    rig.wait(30_000)
    rig.play("32-28")
    assert rig.last("move")["clock_white"] == 60 - 30 - MOVE_S
    rig.wait(60_200)
    assert rig.last("result")["termination"] == "time"
    rig.command("pause")
    assert rig.last("command_refused")["reason"] == "game_over"
