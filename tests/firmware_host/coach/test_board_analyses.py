"""The board service analyses its own game after it (build_service on the simulated board, a
real redis-server): the game played by hand to its end, the board idle, the analysis kept in
Redis where the web reads it, the players' mistakes in their books; a board whose coach only
queues leaves it to the hall's workers."""

from __future__ import annotations

import threading
from pathlib import Path

import redis

from engine.pdn import read_games
from engine.search import StopToken
from firmware_host.coach.analyst import Analyst, Outcome
from firmware_host.coach.book import MistakeBook
from firmware_host.coach.jobs import AnalysisQueue, Job
from firmware_host.coach.progress import ProgressBook, game_mistakes
from firmware_host.coach.results import StoredAnalysis
from firmware_host.store.keys import COACH_JOBS, analysis_key
from tests.engine.test_analysis import DEPTH, DROP, DROPPED_SHOT, MISS
from tests.firmware_host.web.harness import BoardRig


def test_the_board_analyses_its_game_when_it_is_over(redis_url: str, tmp_path: Path) -> None:
    """... and the players the game names get their mistakes in their books, once: the
    hall's worker analysing the same game again, or the board's PDN file read, adds nothing."""
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
