"""The jobs stream on a real redis-server: jobs shared out between consumers, a job left by a
worker that died taken over, a board's own pending job first, a job that never gets an answer
given up, an unreadable one set aside; the result and the acknowledgement written together."""

from __future__ import annotations

import json

import pytest
import redis

from firmware_host.coach.jobs import GROUP, MAX_DELIVERIES, AnalysisQueue, Job, JobError
from firmware_host.store.keys import COACH_FAILED, COACH_JOBS, analysis_key
from firmware_host.store.records import GameRecord, MoveRecord

pytestmark = pytest.mark.redis


def finished(game_id: str, moves: tuple[str, ...] = ("c3-d4", "f6-g5"),
             board: str = "b1") -> GameRecord:
    return GameRecord(game_id, board, {}, "russian", None, "record", 0.0,
                      [MoveRecord(i, m, "", 0.0) for i, m in enumerate(moves, start=1)], "1-0")


def failed(client: redis.Redis) -> list[dict[str, str]]:
    return [{k.decode(): v.decode() for k, v in fields.items()}
            for _, fields in client.xrange(COACH_FAILED)]


def test_two_workers_share_the_jobs_out(client: redis.Redis) -> None:
    board, host = AnalysisQueue(client, "b1"), AnalysisQueue(client, "web-host")
    board.submit(finished("g1"))
    board.submit(finished("g2"))
    first, second = board.take(block_ms=0), host.take(block_ms=0)
    assert first is not None and second is not None
    assert {first.game, second.game} == {"g1", "g2"}
    assert AnalysisQueue(client, "b3").take(block_ms=0) is None  # nothing left for another
    assert host.waiting() == (2, 2)       # both taken, neither done


def test_a_job_is_replayed_from_what_it_carries(client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(finished("g1"))
    job = queue.take(block_ms=0)
    assert job is not None
    assert [job.variant, job.start_fen, job.moves] == ["russian", None, ("c3-d4", "f6-g5")]
    assert job.replay().ply == 2


def test_done_keeps_the_result_and_empties_the_stream_in_one_transaction(
        client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(finished("g1"))
    job = queue.take(block_ms=0)
    assert job is not None
    queue.done(job, '{"v": 1}')
    assert client.get(analysis_key("b1", "g1")) == b'{"v": 1}'
    assert client.xlen(COACH_JOBS) == 0
    assert client.xpending(COACH_JOBS, GROUP)["pending"] == 0


def test_a_workers_own_pending_job_comes_first(client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(finished("g1"))
    left = queue.take(block_ms=0)          # taken, then the board got busy
    queue.submit(finished("g2"))
    again = queue.take(block_ms=0)         # e.g. after a restart of the service
    assert left is not None and again is not None
    assert (again.game, again.deliveries) == ("g1", 2)


def test_a_job_left_by_a_worker_that_died_is_taken_over(client: redis.Redis) -> None:
    AnalysisQueue(client, "b1").submit(finished("g1"))
    assert AnalysisQueue(client, "b1").take(block_ms=0) is not None  # b1 is switched off
    patient = AnalysisQueue(client, "web-host")                      # default: 10 minutes
    assert patient.take(block_ms=0) is None
    other = AnalysisQueue(client, "web-host", claim_after_ms=0)
    job = other.take(block_ms=0)
    assert job is not None and (job.game, job.deliveries) == ("g1", 2)
    pending = client.xpending_range(COACH_JOBS, GROUP, min="-", max="+", count=10)
    assert [p["consumer"] for p in pending] == [b"web-host"]


def test_a_job_never_answered_is_given_up(client: redis.Redis,
                                          caplog: pytest.LogCaptureFixture) -> None:
    AnalysisQueue(client, "b1").submit(finished("g1"))
    queue = AnalysisQueue(client, "b1")
    for _ in range(MAX_DELIVERIES):  # the worker dies with it, five times
        assert queue.take(block_ms=0) is not None
    assert queue.take(block_ms=0) is None
    assert [(f["game"], f["reason"]) for f in failed(client)] == [
        ("g1", f"delivered {MAX_DELIVERIES + 1} times without an answer")]
    assert client.xlen(COACH_JOBS) == 0
    assert "given up: delivered 6 times" in caplog.text


@pytest.mark.parametrize(("fields", "reason"), [
    ({"board": "b1", "game": "g1", "variant": "russian", "moves": "not json"}, "moves: not JSON"),
    ({"board": "b1", "game": "g1", "variant": "russian", "moves": '{"a": 1}'},
     "moves: not a list"),
    ({"board": "b:1", "game": "g1", "variant": "russian", "moves": "[]"}, "is no id"),
    ({"game": "g1", "variant": "russian", "moves": "[]"}, "is no id"),
])
def test_an_unreadable_job_is_set_aside_with_the_reason(client: redis.Redis,
                                                        fields: dict[str, str],
                                                        reason: str) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.take(block_ms=0)  # makes the group
    client.xadd(COACH_JOBS, fields)  # another program wrote it
    queue.submit(finished("g2"))
    job = queue.take(block_ms=0)
    assert job is not None and job.game == "g2"  # the bad one did not stop the queue
    [kept] = failed(client)
    assert reason in kept["reason"] and kept["worker"] == "b1"


def test_a_job_whose_move_is_not_legal_says_which() -> None:
    job = Job("1-0", "b1", "g1", "russian", None, ("c3-d4", "c3-d4"))
    with pytest.raises(JobError, match="move 2 'c3-d4'"):
        job.replay()
    with pytest.raises(JobError, match="chess"):
        Job("1-0", "b1", "g1", "chess", None, ()).replay()


def test_a_job_deleted_after_it_was_delivered_is_skipped(client: redis.Redis) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(finished("g1"))
    job = queue.take(block_ms=0)
    assert job is not None
    client.xdel(COACH_JOBS, job.id)  # done by another worker meanwhile
    assert queue.take(block_ms=0) is None
    assert client.xpending(COACH_JOBS, GROUP)["pending"] == 0


def test_the_job_carries_the_game_not_a_reference() -> None:
    record = finished("g1", ("c3-d4",))
    from firmware_host.coach.jobs import job_fields

    fields = job_fields(record)
    assert json.loads(fields["moves"]) == ["c3-d4"] and fields["variant"] == "russian"
