"""The arbiter starts a round on a board (the ``start_round`` command): the game waiting at the
start takes the round's pairing and its clock starts again, full; a board that cannot start
it refuses and changes nothing. (The console's route: test_arbiter_start_round.py.)"""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest

from firmware_host.store import RedisStore
from firmware_host.terms.commands import Command
from firmware_host.tournament.pairing import PairingSource, pairing_key, read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.session_harness import Rig

HEADER = "board,white,black,round,event\n"
ROUND_3 = HEADER + "hall-1,Ann Smit,Bob de Vries,3,Club night\n"
#: One move of the rig: lift (0.1 s), place (0.1 s), let go after settle_ms (0.3 s).
MOVE_S = 0.5


def board(client: Any, control: str | None = "3+2") -> Rig:
    """hall-1 at the start position on a 3+2 clock, reading its pairing from ``client``."""
    extra = {} if control is None else {"time_control": control}
    rig = Rig("international", store=RedisStore(client, "hall-1", name="test"), start=False,
              **extra)
    rig.session.game.pairing = PairingSource(client, "hall-1")
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)
    return rig


def start_round(rig: Rig, number: str = "3") -> None:
    rig.wait(100)
    rig.session.handle(Command("start_round", rig.now, value=number))


def test_the_round_starts_with_the_names_and_a_full_clock() -> None:
    client = fakeredis.FakeRedis()
    rig = board(client)                       # the game opens before the list: no names
    assert rig.last("clock")["running"] == "white"
    rig.wait(40_000)                          # the players sit down: White's time runs
    import_round(client, read_pairings(ROUND_3)[0], "test")
    start_round(rig)
    tags = rig.game().headers
    assert (tags["White"], tags["Black"], tags["Round"]) == ("Ann Smit", "Bob de Vries", "3")
    assert {e["tag"]: e["value"] for e in rig.published("header")}["Black"] == "Bob de Vries"
    clock = rig.last("clock")
    assert (clock["running"], clock["paused"], clock["clock_white"], clock["clock_black"]) == (
        "white", False, 180, 180)
    assert client.exists(pairing_key("hall-1")) == 0  # taken: the next game is not named
    rig.wait(10_000)
    rig.play("32-28")
    assert rig.last("move")["clock_white"] == 180 - 10 - MOVE_S + 2
    assert rig.session.game.clock is not None


def test_a_paused_board_starts_running_and_a_restart_keeps_the_started_clock() -> None:
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_3)[0], "test")
    rig = board(client)
    rig.command("pause")                      # held while the players sit down
    rig.wait(5_000)
    start_round(rig)
    assert rig.last("clock")["paused"] is False
    rig.wait(20_000)
    again = board(client)                     # the service restarts: the round's game goes on
    assert again.game().headers["White"] == "Ann Smit"
    assert again.last("clock")["clock_white"] == 160


def test_a_board_that_cannot_start_the_round_refuses_and_changes_nothing() -> None:
    client = fakeredis.FakeRedis()
    rig = board(client)
    start_round(rig)                          # nothing imported
    assert rig.last("command_refused") == {**rig.last("command_refused"),
                                           "command": "start_round", "reason": "no_pairing"}
    import_round(client, read_pairings(ROUND_3)[0], "test")
    start_round(rig, "4")                     # another round than the one waiting
    assert rig.last("command_refused")["reason"] == "no_pairing"
    assert "White" not in rig.game().headers
    rig.play("32-28")                         # the game begins (and takes the pairing)
    clock = rig.last("clock")
    start_round(rig)
    assert rig.last("command_refused")["reason"] == "in_game"
    assert rig.last("clock") == clock         # the clock untouched
    rig.command("resign", side="black")
    start_round(rig)
    assert rig.last("command_refused")["reason"] == "game_over"


def test_a_round_started_twice_starts_once() -> None:
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_3)[0], "test")
    rig = board(client)
    start_round(rig)
    rig.wait(30_000)
    start_round(rig)                          # pressed again: its pairing is taken already
    assert rig.last("command_refused")["reason"] == "no_pairing"
    assert rig.last("clock")["clock_white"] == 180  # not set back (the event of the start)
    rig.play("32-28")
    assert rig.last("move")["clock_white"] == pytest.approx(180 - 30.1 - MOVE_S + 2)


def test_a_board_without_a_clock_only_takes_the_names() -> None:
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_3)[0], "test")
    rig = board(client, control=None)
    start_round(rig)
    assert rig.published("command_refused") == [] and rig.published("clock") == []
    assert rig.game().headers["Black"] == "Bob de Vries"
