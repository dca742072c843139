"""The board service analyses its own game after it (build_service on the simulated board, a
real redis-server): the game played by hand to its end, the board idle, the analysis kept in
Redis where the web reads it; a board whose coach only queues leaves it to the hall's workers."""

from __future__ import annotations

import threading
from pathlib import Path

import redis

from firmware_host.coach.jobs import Job
from firmware_host.coach.results import StoredAnalysis
from firmware_host.store.keys import COACH_JOBS, analysis_key
from tests.engine.test_analysis import DEPTH, DROP, DROPPED_SHOT, MISS
from tests.firmware_host.web.harness import BoardRig


def test_the_board_analyses_its_game_when_it_is_over(redis_url: str, tmp_path: Path) -> None:
    rig = BoardRig(redis_url, "club-1", tmp_path, variant="international", coach=True,
                   extra={"coach": {"depth": DEPTH}})
    try:
        assert rig.service.coach is not None
        done = threading.Event()

        def on_done(job: Job, analysis: StoredAnalysis) -> None:
            done.set()

        rig.service.coach.analyst.on_done = on_done
        for move in DROPPED_SHOT:
            rig.play(move)
        game_id = rig.session.game_id
        rig.session.command("resign", rig.clock.monotonic(), "black")
        rig.run(1.0)
        [result] = [e for e in rig.events if e.get("event") == "result"]
        assert result["result"] == "2-0"
        assert done.wait(120)
        raw = redis.Redis.from_url(redis_url).get(analysis_key("club-1", game_id))
        assert isinstance(raw, bytes)
        analysis = StoredAnalysis.parse(raw)
        assert analysis.fits(DROPPED_SHOT)
        assert [m.mark for m in analysis.moves if m.mark] == ["??", "??"]
        assert analysis.moves[DROP].mark == analysis.moves[MISS].mark == "??"
    finally:
        rig.close()


def test_a_board_that_only_queues_leaves_the_game_to_the_hall(redis_url: str,
                                                              tmp_path: Path) -> None:
    rig = BoardRig(redis_url, "club-2", tmp_path, variant="russian", coach=True,
                   extra={"coach": {"analyse": "queue"}})
    try:
        rig.play("c3-d4")
        game_id = rig.session.game_id
        rig.session.command("resign", rig.clock.monotonic(), "white")
        rig.run(1.0)
    finally:
        rig.close()  # the coach queues what ended before it stops
    client = redis.Redis.from_url(redis_url)
    [(_, fields)] = client.xrange(COACH_JOBS)
    assert (fields[b"board"], fields[b"game"]) == (b"club-2", game_id.encode())
    assert client.get(analysis_key("club-2", game_id)) is None
