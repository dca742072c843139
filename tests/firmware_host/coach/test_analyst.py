"""The analyst on a real redis-server: a finished game analysed and kept (the dropped
two-for-one marked as ``engine.analysis`` marks it), a stopped analysis held and taken up again,
a job that cannot be done given up without stopping the worker; and on a board, the idle
analyst that queues the board's games and works only between them."""

from __future__ import annotations

import queue
import threading
from typing import Any

import pytest
import redis

from engine.search import StopToken
from firmware_host.coach.analyst import Analyst, IdleAnalyst, Outcome
from firmware_host.coach.jobs import GROUP, AnalysisQueue, Job
from firmware_host.coach.results import StoredAnalysis
from firmware_host.store.keys import COACH_FAILED, COACH_JOBS, analysis_key
from firmware_host.store.records import GameRecord, MoveRecord
from tests.engine.test_analysis import DEPTH, DROP, DROPPED_SHOT, MISS

pytestmark = pytest.mark.redis


def record(game_id: str, moves: list[str], variant: str = "international") -> GameRecord:
    return GameRecord(game_id, "b1", {}, variant, None, "record", 0.0,
                      [MoveRecord(i, m, "", 0.0) for i, m in enumerate(moves, start=1)], "1-0")


def stored(client: redis.Redis, game_id: str) -> StoredAnalysis:
    raw = client.get(analysis_key("b1", game_id))
    assert isinstance(raw, bytes)
    return StoredAnalysis.parse(raw)


def test_a_finished_game_is_analysed_and_kept(client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(record("g1", DROPPED_SHOT))
    assert Analyst(queue, DEPTH, engine="test").work(StopToken(), block_ms=0) is Outcome.DONE
    analysis = stored(client, "g1")
    assert [m.pdn for m in analysis.moves] == DROPPED_SHOT
    assert {i for i, m in enumerate(analysis.moves) if m.mark} == {DROP, MISS}
    assert analysis.moves[DROP].mark == analysis.moves[MISS].mark == "??"
    assert analysis.moves[MISS].better[:3] == ("31-27", "22x31", "36x16")
    assert all(m.evaluation for m in analysis.moves) and analysis.depth == DEPTH
    assert analysis.fits(DROPPED_SHOT) and analysis.marks(1) == {"??": 1}
    assert client.xlen(COACH_JOBS) == 0


def test_a_stopped_analysis_is_held_and_taken_up_again(client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(record("g1", DROPPED_SHOT[:4]))
    analyst = Analyst(queue, 2, engine="test")
    stop = StopToken()
    stop.stop()                                   # the board got busy
    assert analyst.work(stop, block_ms=0) is Outcome.STOPPED
    assert analyst.held is not None and client.get(analysis_key("b1", "g1")) is None
    assert client.xpending(COACH_JOBS, GROUP)["pending"] == 1  # still this board's
    assert analyst.work(StopToken(), block_ms=0) is Outcome.DONE
    assert analyst.held is None and len(stored(client, "g1").moves) == 4


def test_a_job_that_cannot_be_done_is_given_up_and_the_next_is_done(
        client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(record("bad", ["32-28", "32-28"]))
    queue.submit(record("good", ["32-28"]))
    analyst = Analyst(queue, 1, engine="test")
    assert analyst.work(StopToken(), block_ms=0) is Outcome.FAILED
    assert analyst.work(StopToken(), block_ms=0) is Outcome.DONE
    assert analyst.work(StopToken(), block_ms=0) is Outcome.NONE
    [(_, reason)] = client.xrange(COACH_FAILED)
    assert reason[b"game"] == b"bad" and b"move 2 '32-28'" in reason[b"reason"]


class Recording(Analyst):
    """The analyst, each outcome of its work put on a queue the test reads."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.outcomes: queue.Queue[Outcome] = queue.Queue()

    def work(self, stop: StopToken, block_ms: int) -> Outcome:
        outcome = super().work(stop, block_ms)
        if outcome is not Outcome.NONE:
            self.outcomes.put(outcome)
        return outcome


class Games:
    """The board's store as the idle analyst reads it, held at a gate the test opens."""

    def __init__(self, *games: GameRecord) -> None:
        self.games = {g.game_id: g for g in games}
        self.gate = threading.Event()
        self.asked = threading.Event()

    def load(self, game_id: str) -> GameRecord:
        self.asked.set()
        assert self.gate.wait(30)
        return self.games[game_id]


def test_the_board_analyses_between_games_and_stops_at_the_next_move(
        client: redis.Redis) -> None:
    games = Games(record("g1", DROPPED_SHOT[:6]), record("g2", ["32-28"]))
    done: list[str] = []
    finished = threading.Event()

    def on_done(job: Job, analysis: StoredAnalysis) -> None:
        done.append(job.game)
        if len(done) == 2:
            finished.set()

    analyst = Recording(AnalysisQueue(client, "b1"), 2, engine="test", on_done=on_done)
    with IdleAnalyst(analyst, games.load, poll_s=30).start() as board:
        listen = board.listener()
        listen({"event": "new_game", "game_id": "g1"})
        listen({"event": "move", "ply": 1})
        listen({"event": "result", "result": "1-0"})  # g1 over: queued, the board idle
        assert games.asked.wait(30)                   # (the thread reads g1 from the store)
        listen({"event": "new_game", "game_id": "g2"})
        listen({"event": "move", "ply": 1})           # ... and the next game has begun
        games.gate.set()
        assert analyst.outcomes.get(timeout=30) is Outcome.STOPPED  # g1 queued, not analysed
        listen({"event": "state", "state": "engine_thinking"})
        assert client.get(analysis_key("b1", "g1")) is None
        listen({"event": "result", "result": "0-1"})  # g2 over: g1 first, then g2
        assert finished.wait(60)
    assert done == ["g1", "g2"]
    assert [analyst.outcomes.get_nowait() for _ in range(2)] == [Outcome.DONE] * 2
    assert len(stored(client, "g1").moves) == 6 and client.xlen(COACH_JOBS) == 0


def test_queue_only_queues(client: redis.Redis) -> None:
    games = Games(record("g1", ["32-28"]))
    games.gate.set()
    queue = AnalysisQueue(client, "b1")
    with IdleAnalyst(Analyst(queue, 2, engine="test"), games.load, analyse=False).start() as b:
        listen = b.listener()
        listen({"event": "new_game", "game_id": "g1"})
        listen({"event": "result", "result": "1-0"})
    # close() returns once the thread has stopped; the job it queued waits for a worker
    assert client.xlen(COACH_JOBS) == 1 and client.get(analysis_key("b1", "g1")) is None


def test_the_idle_analysis_reads_its_stop_through_python_code(client: redis.Redis) -> None:
    """The compiled search enters the interpreter only to read its stop token: with a plain
    token a depth-8 analysis kept the interpreter's lock for whole iterations and the scan
    thread could not see the lift that should stop it (the engine's process reads its own
    ``stop`` through the same token, for the same reason). On the board the analysis runs in
    a child, which the token's stop kills (an ``Interrupt``); a worker's search, in process,
    reads it."""
    from firmware_host.opponents.readstop import Interrupt, ReadStop

    tokens: list[StopToken] = []
    finished = threading.Event()

    class Tokens(Analyst):
        def work(self, stop: StopToken, block_ms: int) -> Outcome:
            tokens.append(stop)
            outcome = super().work(stop, block_ms)
            if outcome is Outcome.DONE:
                finished.set()
            return outcome

    games = Games(record("g1", ["32-28"]))
    games.gate.set()
    with IdleAnalyst(Tokens(AnalysisQueue(client, "b1"), 1, engine="test"), games.load,
                     poll_s=30).start() as board:
        listen = board.listener()
        listen({"event": "new_game", "game_id": "g1"})
        listen({"event": "move", "ply": 1})
        listen({"event": "result", "result": "1-0"})
        assert finished.wait(60)
    assert tokens and all(type(token) is Interrupt and isinstance(token, ReadStop)
                          for token in tokens)
