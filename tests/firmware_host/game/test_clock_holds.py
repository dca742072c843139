"""What holds a board's clock: the hall's pause (a state, read again as a board starts), the
arbiter's hold of one board, a corrected position being set up; a move made while the clock is
held counts for nothing and is put back; every arbiter command is answered."""

from __future__ import annotations

import fakeredis
import pytest

from firmware_host.store import RedisStore
from firmware_host.terms.commands import Command
from tests.firmware_host.session_harness import Rig


def clocked(**kwargs: object) -> Rig:
    return Rig("international", time_control="3+2", **kwargs)  # type: ignore[arg-type]


def hall(rig: Rig, value: str, decision: str | None = None) -> None:
    rig.session.handle(Command("hall", rig.now, value=value, id=decision))


@pytest.mark.parametrize("held_by", ["hall", "pause"])
def test_a_move_made_during_the_pause_is_refused_put_back_and_earns_nothing(held_by: str
                                                                           ) -> None:
    """Issue 38: "a move made during a hall pause is recorded and earns the increment;
    nothing marks it" (the hall's pause, and the arbiter's hold of the board)."""
    rig = clocked()
    rig.play("32-28")
    rig.session.handle(Command(held_by, rig.now, value="pause"))
    assert rig.state == "paused"
    black = rig.last("clock")["clock_black"]
    rig.play("19-23")                            # Black moves although the clock is stopped
    assert rig.moves() == ["32-28"]
    refused = rig.last("refused")
    assert (refused["reason"], refused["pdn"]) == ("paused", "19-23")
    assert refused["text"] == "the clock is stopped: 19-23 does not count, put it back"
    assert rig.leds_of("missing") == {"19"} and rig.leds_of("extra") == {"23"}
    rig.wait(60_000)
    assert rig.last("clock")["clock_black"] == black     # no time ran, no increment
    rig.session.handle(Command("hall" if held_by == "hall" else "resume", rig.now,
                               value="resume"))
    assert rig.state == "syncing"                # the board is not the game's: put it back
    assert rig.last("clock")["paused"] is False
    rig.lift("23")
    rig.place("19")
    assert rig.state == "human_to_move"
    rig.play("19-23")                            # now it counts
    assert rig.moves() == ["32-28", "19-23"]


def test_a_touch_before_the_pause_still_binds_after_it() -> None:
    rig = Rig("international", time_control="3+2", touch_move="strict")
    rig.lift("32")                               # White touches 32 and lifts it
    hall(rig, "pause")
    rig.place("32")                              # put back while the clock is stopped
    hall(rig, "resume")
    rig.wait(1_000)
    assert rig.session.obligation == rig.sq("32")


def test_the_hall_state_is_a_state_the_same_value_twice_changes_nothing() -> None:
    rig = clocked()
    hall(rig, "pause", "1-0")
    hall(rig, "pause", "2-0")                    # read again (a start, Redis back): no refusal
    assert [e["answer"] for e in rig.published("answer")] == ["done", "done"]
    assert rig.published("command_refused") == []
    hall(rig, "resume", "3-0")
    hall(rig, "resume")
    assert rig.last("clock")["paused"] is False and rig.published("command_refused") == []


def test_the_hall_and_the_arbiters_hold_each_need_their_own_release() -> None:
    rig = clocked()
    rig.play("32-28")
    rig.command("pause")                         # the arbiter holds this board (a claim)
    hall(rig, "pause")
    hall(rig, "resume")                          # the hall runs again, this board does not
    assert rig.last("clock")["paused"] is True and rig.last("clock")["held"] == ["arbiter"]
    rig.command("resume")
    assert rig.last("clock")["paused"] is False and rig.state == "human_to_move"
    hall(rig, "pause")
    rig.command("resume")                        # nothing of the board's to release
    assert rig.last("command_refused")["reason"] == "hall"


def test_a_board_restarted_during_the_hall_pause_comes_back_paused_with_its_stored_times(
        ) -> None:
    """Issue 38: "the board that was powered off came back with its clock running while the
    hall stayed paused"."""
    client = fakeredis.FakeRedis()
    rig = Rig("international", store=RedisStore(client, "hall-3", name="test"),
              time_control="3+2")
    rig.play("32-28")
    rig.wait(20_000)
    hall(rig, "pause")
    saved = rig.last("clock")
    again = Rig("international", store=RedisStore(client, "hall-3", name="test"),
                time_control="3+2", occupied=rig.occupied)
    clock = again.last("clock")
    assert (clock["paused"], clock["clock_black"]) == (True, saved["clock_black"])
    again.wait(300_000)
    assert again.published("result") == [] and again.state == "paused"


def test_a_new_game_during_the_hall_pause_starts_held() -> None:
    rig = clocked()
    rig.play("32-28")
    rig.command("resign", side="black")
    hall(rig, "pause")
    rig.set(rig.session.game.initial)
    rig.wait(2_000)
    assert rig.last("new_game") and rig.last("clock")["paused"] is True
    assert rig.state == "paused"


def test_every_arbiter_command_is_answered_done_or_refused_with_the_refusal() -> None:
    rig = clocked()
    rig.session.handle(Command("add_time", rig.now, side="black", value="30", id="5-0"))
    assert rig.last("answer") == {**rig.last("answer"), "id": "5-0", "command": "add_time",
                                  "answer": "done"}
    rig.session.handle(Command("correct_result", rig.now, value="draw", id="6-0"))
    answer = rig.last("answer")
    assert (answer["id"], answer["answer"], answer["reason"]) == ("6-0", "refused", "not_over")
    assert answer["refusal"] == {"event": "command_refused", "command": "correct_result",
                                 "reason": "not_over"}
    rig.command("hint")                          # a button: no decision, no answer
    assert len(rig.published("answer")) == 2
