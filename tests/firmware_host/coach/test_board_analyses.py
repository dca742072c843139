"""The board service analyses its own game after it (build_service on the simulated board, a
real redis-server): the game played by hand to its end, the board idle, the analysis kept in
Redis where the web reads it, the players' mistakes in their books; a board whose coach only
queues leaves it to the hall's workers."""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path
from typing import Any

import pytest
import redis

from engine.pdn import read_games
from engine.search import StopToken
from firmware_host.coach import analyst as analyst_module
from firmware_host.coach.analyst import Analyst, Examined, Outcome
from firmware_host.coach.book import MistakeBook
from firmware_host.coach.child import ChildRunner
from firmware_host.coach.jobs import GROUP, AnalysisQueue, Job
from firmware_host.coach.progress import ProgressBook, game_mistakes
from firmware_host.coach.results import StoredAnalysis
from firmware_host.store.keys import ANALYSIS, COACH_JOBS, analysis_key
from tests.engine.test_analysis import DEPTH, DROP, DROPPED_SHOT, MISS
from tests.firmware_host.web.harness import BoardRig


def forbidden(*args: object, **kwargs: object) -> None:
    raise AssertionError("a search in the service's process")


def test_the_board_analyses_its_game_when_it_is_over(redis_url: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """... in a process of its own (the service's never searches), and the players the game
    names get their mistakes in their books, once: the hall's worker analysing the same game
    again, or the board's PDN file read, adds nothing."""
    monkeypatch.setattr(analyst_module, "analyse", forbidden)
    books = tmp_path / "mistakes"
    rig = BoardRig(redis_url, "club-1", tmp_path, variant="international", coach=True,
                   extra={"coach": {"depth": DEPTH, "mistakes_dir": str(books)},
                          "game": {"white": "Anna de Vries", "black": "Bob"}})
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
        client = redis.Redis.from_url(redis_url)
        raw = client.get(analysis_key("club-1", game_id))
        assert isinstance(raw, bytes)
        analysis = StoredAnalysis.parse(raw)
        assert analysis.fits(DROPPED_SHOT)
        assert [m.mark for m in analysis.moves if m.mark] == ["??", "??"]
        assert analysis.moves[DROP].mark == analysis.moves[MISS].mark == "??"
        record = rig.service.store.load_game(game_id)
    finally:
        rig.close()
    # White (Anna) missed the two-for-one: its position is her puzzle, the shot its solution
    [puzzle] = MistakeBook(books).load("Anna de Vries")
    assert puzzle.board().move_notation(puzzle.solution) == "31-27"
    assert MistakeBook(books).load("Bob") == []  # Black's ?? left no single winning move
    anna, bob = (ProgressBook(books).load(name).games for name in ("anna de vries", "Bob"))
    assert [(g.moves, g.mistakes, g.blunders) for g in anna] == [(7, 0, 1)]
    assert [(g.moves, g.mistakes, g.blunders) for g in bob] == [(7, 0, 1)]
    # the hall's worker takes the same game over and analyses it again: nothing twice
    monkeypatch.undo()  # (the worker analyses in its own process: here, the test's)
    AnalysisQueue(client, "club-1").submit(record)
    worker = Analyst(AnalysisQueue(client, "worker-1"), DEPTH, engine="test", books=books)
    assert worker.work(StopToken(), block_ms=0) is Outcome.DONE
    assert len(MistakeBook(books).load("Anna de Vries")) == 1
    assert ProgressBook(books).load("Anna de Vries").games == anna
    # the board's own PDN file of the game is the same game for `puzzles mistakes`
    [pdn] = read_games((tmp_path / "games").glob("*.pdn").__next__().read_bytes())
    kept = game_mistakes(pdn, "Bob", {}, "file")
    assert kept is not None and kept.key == bob[0].key


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


def test_the_analysis_runs_in_a_child_that_the_first_touch_kills(
        redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 42's point for the coach: the board's scan loop never shares its interpreter with
    the analysis. The game's analysis (depth 20: longer than the test) runs in a child
    process; the pieces set up again, it goes on; the next game's first lift kills it, and the
    job stays pending for the next idle time."""
    monkeypatch.setattr(analyst_module, "analyse", forbidden)
    rig = BoardRig(redis_url, "club-3", tmp_path, variant="international", coach=True,
                   extra={"coach": {"depth": 20}})
    try:
        assert rig.service.coach is not None
        analyst = rig.service.coach.analyst
        runner = analyst.runner
        assert isinstance(runner, ChildRunner)
        pids: queue.Queue[int] = queue.Queue()
        results: queue.Queue[Examined | None] = queue.Queue()
        runner.on_start = pids.put

        def watched(*args: Any) -> Examined | None:
            result = runner(*args)
            results.put(result)
            return result

        analyst.runner = watched
        square = rig.session.board.variant.parse_square
        rig.play("32-28")
        rig.session.command("resign", rig.clock.monotonic(), "black")
        rig.run(1.0)                                       # over: the board is idle
        pid = pids.get(timeout=60)
        assert pid != os.getpid()
        rig.sim.lift(square("28"))                         # the pieces set up again ...
        rig.sim.place(square("32"))
        rig.run(2.0)
        status = Path(f"/proc/{pid}/status").read_text()  # the service's child, still at it
        assert f"PPid:\t{os.getpid()}\n" in status and "State:\tZ" not in status
        assert [e["event"] for e in rig.events].count("new_game") == 2 and results.empty()
        rig.sim.lift(square("31"))                         # ... and the next game's first lift
        rig.run(0.1)
        assert results.get(timeout=30) is None             # stopped: the child killed
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        client = redis.Redis.from_url(redis_url)
        assert client.xpending(COACH_JOBS, GROUP)["pending"] == 1
        assert client.keys(ANALYSIS + "*") == []
        assert pids.empty()                                # nothing started while busy
    finally:
        rig.close()
