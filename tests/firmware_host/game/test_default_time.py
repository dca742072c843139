"""Default time (``clock.default_time``): a player who has not moved that long after the
round's start loses the game by forfeit (``Termination.FORFEIT``); the time counts while the
clock runs, and a board no round started never forfeits anybody."""

from __future__ import annotations

import fakeredis

from engine.outcome import Termination
from firmware_host.store import RedisStore
from firmware_host.terms.commands import Command
from firmware_host.tournament.pairing import PairingSource, read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.session_harness import Rig

ROUND = "board,white,black,round,event\nhall-1,Ann Smit,Bob de Vries,3,Club night\n"


def round_board(**settings: object) -> Rig:
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND)[0], "test")
    rig = Rig("international", store=RedisStore(client, "hall-1", name="test"), start=False,
              time_control="90+30", **settings)  # type: ignore[arg-type]
    rig.session.game.pairing = PairingSource(client, "hall-1")
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)
    rig.session.handle(Command("start_round", rig.now, value="3"))
    return rig


def test_an_absent_white_loses_by_forfeit_at_the_default_time() -> None:
    rig = round_board(default_time_s=1800.0)
    rig.wait(1_799_000)
    assert rig.published("result") == []
    rig.wait(2_000)
    result = rig.last("result")
    assert (result["result"], result["termination"], result["winner"]) == (
        "0-2", Termination.FORFEIT.value, "black")
    assert result["note"] == "default time: White absent 30 min after the start"
    assert (rig.game().result, rig.game().termination) == ("0-2", "forfeit")


def test_the_default_time_counts_the_clock_not_the_pause_and_stops_once_both_moved() -> None:
    rig = round_board(default_time_s=600.0)
    rig.wait(300_000)
    rig.play("32-28")                            # White came; Black's default time runs on
    rig.session.handle(Command("hall", rig.now, value="pause"))
    rig.wait(3_600_000)                          # a long pause counts for nobody
    rig.session.handle(Command("hall", rig.now, value="resume"))
    rig.wait(200_000)
    assert rig.published("result") == []
    rig.play("19-23")                            # Black came, 9 min after the start
    rig.wait(3_000_000)
    assert rig.published("result") == []
    rig.play("28x19")
    assert rig.session.outcome is None


def test_an_absent_black_loses_too_and_a_board_not_started_by_a_round_never_forfeits() -> None:
    rig = round_board(default_time_s=600.0)
    rig.play("32-28")
    rig.wait(600_000)
    assert rig.last("result")["winner"] == "white"
    casual = Rig("international", time_control="90+30", default_time_s=60.0)
    casual.wait(600_000)
    assert casual.published("result") == []


def test_a_forfeit_by_default_time_goes_back_to_the_pairing_program_as_a_forfeit() -> None:
    from firmware_host.tournament.export import RoundGame, outcome_of
    from firmware_host.tournament.pairing import read_pairings as pairings_of

    rig = round_board(default_time_s=600.0)
    rig.play("32-28")                            # White came; Black did not
    rig.wait(600_000)
    pairing = pairings_of(ROUND)[0][0]
    outcome = outcome_of(RoundGame(pairing, rig.game()))
    assert (outcome.points, outcome.termination) == ("+/-", "forfeit")  # not "1-0": unplayed
