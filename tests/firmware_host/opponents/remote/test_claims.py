"""A claim against a partner whose board has gone silent (virtual time, two whole services, one
real redis-server): offered on the waiting board after ``remote.claim_after_min`` without a
heartbeat while the silent player is to move, withdrawn when their board beats again, and once
claimed one result in both records (the silent board takes it as it comes back)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.config import Config
from firmware_host.errors import ConfigError
from tests.firmware_host.opponents.remote.two_boards import (
    move,
    poll,
    press,
    record,
    said,
    two_boards,
)
from tests.firmware_host.web.harness import BoardRig
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

CLAIM_AFTER_MIN = 3


def wait(rig: BoardRig, minutes: float) -> None:
    """``minutes`` of virtual time on ``rig``, its duel polled every 30 s as its writer does."""
    for _ in range(int(minutes * 2)):
        rig.run(30.0)
        poll(rig)


def test_a_silent_partner_can_be_claimed_against(redis_server: RedisServer,
                                                 tmp_path: Path) -> None:
    with two_boards(redis_server.url, tmp_path, claim_after_min=CLAIM_AFTER_MIN
                    ) as (white, black):
        move(white, black, "32-28")
        move(black, white, "19-23")
        white.play("28x19")
        poll(white, black)  # (lit on Black's board: Black is to move, and goes silent)
        black.go_dark()
        wait(white, CLAIM_AFTER_MIN - 0.5)
        assert said(white, "claim_offered") == []
        press(white, "claim")
        assert said(white, "command_refused")[-1]["reason"] == "no_claim"
        wait(white, 1)
        assert said(white, "claim_offered")[-1]["minutes"] == CLAIM_AFTER_MIN
        black.beat()  # back in time: no claim
        poll(white)
        assert said(white, "claim_withdrawn") and white.session.game.claimable is None
        black.beat("stopped")  # and gone again
        wait(white, CLAIM_AFTER_MIN + 0.5)
        assert len(said(white, "claim_offered")) == 2
        press(white, "claim")
        assert white.session.outcome is not None
        poll(white, black)  # White's board writes the end; Black's, back, reads it
        games = [record(rig) for rig in (white, black)]
    for game in games:
        assert (game.result, game.termination) == ("2-0", "forfeit")
        assert game.notes[-1] == (3, f"White claimed the game: the other board silent for "
                                     f"{CLAIM_AFTER_MIN} min")
    assert [m.pdn for m in games[0].moves] == [m.pdn for m in games[1].moves]


def test_the_claim_s_minutes_are_checked_at_load() -> None:
    with pytest.raises(ConfigError, match=r"remote\.claim_after_min"):
        Config.from_mapping({"remote": {"claim_after_min": 0}})


def test_a_move_and_a_resignation_at_once_reach_the_other_board_in_order(
        redis_server: RedisServer, tmp_path: Path) -> None:
    # White plays, then resigns before Black's board has read the move: Black's board lights
    # the move and ends the game with it in its record (one game, the same moves on both
    # boards), whether its player carries it out or not.
    with two_boards(redis_server.url, tmp_path) as (white, black):
        move(white, black, "32-28")
        move(black, white, "19-23")
        white.play("28x19")
        press(white, "resign")
        assert white.session.outcome is not None
        poll(white, black)  # the move and the end, read together
        assert black.session.outcome is not None
        games = [record(rig) for rig in (white, black)]
    assert [m.pdn for m in games[0].moves] == [m.pdn for m in games[1].moves] == [
        "32-28", "19-23", "28x19"]
    for game in games:
        assert (game.result, game.termination) == ("0-2", "resignation")
