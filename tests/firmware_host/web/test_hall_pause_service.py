"""The hall's pause on the board service itself (build_service, a real redis-server): a board
that starts while the hall is paused starts paused, before any move can count; the pause's
end, sent on its command stream, runs its clock again."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import redis

from firmware_host.remote.reader import commands_key
from firmware_host.store.keys import HALL
from firmware_host.tournament.hall import HallState
from tests.firmware_host.web.harness import BoardRig


def test_a_board_started_during_the_hall_pause_is_paused_and_resumes_with_the_hall(
        redis_url: str, make_board: Callable[..., BoardRig], tmp_path: Path) -> None:
    client = redis.Redis.from_url(redis_url)
    clock = {"clock": {"time_control": "5+3"}}
    rig = make_board("hall-9", variant="international", extra=clock)
    rig.play("32-28")
    saved = [e for e in rig.events if e.get("event") == "clock"][-1]
    rig.close()                                  # the power goes
    client.set(HALL, HallState(True, time.time(), reason="fire alarm").to_json())
    back = BoardRig(redis_url, "hall-9", tmp_path / "hall-9", variant="international",
                    extra=clock)                 # ... and comes back during the pause
    try:
        square = back.session.board.variant.parse_square
        back.sim.lift(square("32"))              # its pieces put as the lights show: 32-28
        back.sim.place(square("28"))
        back.run(1.0)
        assert back.session.state.value == "paused"
        clocks = [e for e in back.events if e.get("event") == "clock"]
        assert clocks[-1]["paused"] is True and clocks[-1]["held"] == ["hall"]
        assert clocks[-1]["clock_black"] == saved["clock_black"]  # as it was stored
        back.play("19-23")                       # a move during the pause does not count
        assert back.service.store.load_game(back.session.game_id).moves[-1].pdn == "32-28"
        back.sim.lift(square("23"))
        back.sim.place(square("19"))
        back.run(1.0)
        client.delete(HALL)                      # the arbiter resumes every clock
        client.xadd(commands_key("hall-9"), {"name": "hall", "value": "resume",
                                             "time": f"{time.time():.3f}"})
        assert back.service.remote is not None and back.service.remote.wait_posted(1, 10)
        back.run(1.0)
        assert back.session.state.value == "human_to_move"
        assert [e for e in back.events if e.get("event") == "clock"][-1]["paused"] is False
    finally:
        back.close()
