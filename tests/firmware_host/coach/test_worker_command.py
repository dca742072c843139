"""``draughtsboard coach worker`` and ``coach status`` as a hall's web host runs them (the
console script in a process of its own, a real redis-server): the queued games analysed, a bad
one given up, the queue's figures; bad options and a Redis away are one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import redis

from firmware_host.cli import main
from firmware_host.coach.jobs import AnalysisQueue
from firmware_host.coach.results import StoredAnalysis
from firmware_host.errors import ExitCode
from firmware_host.store.keys import analysis_key
from tests.firmware_host.coach.test_jobs import finished
from tests.redis_server import free_port

pytestmark = pytest.mark.redis

DRAUGHTSBOARD = str(Path(sys.executable).parent / "draughtsboard")


def coach(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([DRAUGHTSBOARD, "coach", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_worker_analyses_what_waits_then_stops(client: redis.Redis, redis_url: str) -> None:
    queue = AnalysisQueue(client, "b1")
    queue.submit(finished("g1"))
    queue.submit(finished("g2", ("c3-d4", "c3-d4")))  # a damaged record
    queue.submit(finished("g3", ("c3-d4", "f6-g5", "d4-c5"), board="b2"))
    status = coach("status", "--store", redis_url)
    assert status.stdout == "games waiting for their analysis: 3, under way: 0, given up: 0\n"
    done = coach("worker", "--store", redis_url, "--once", "--depth", "2", "--name", "host-1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "coach worker host-1: 2 games analysed, 1 given up"
    assert "host-1" in done.stdout.splitlines()[0] and "depth 2" in done.stdout
    assert "(board b1, game g2) given up: move 2 'c3-d4'" in done.stderr
    for board, game, plies in (("b1", "g1", 2), ("b2", "g3", 3)):
        raw = client.get(analysis_key(board, game))
        assert isinstance(raw, bytes) and len(StoredAnalysis.parse(raw).moves) == plies
    after = coach("status", "--store", redis_url)
    assert after.stdout == "games waiting for their analysis: 0, under way: 0, given up: 1\n"


def test_a_redis_away_is_one_line_and_unavailable() -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    done = coach("worker", "--store", url, "--once")
    assert done.returncode == ExitCode.UNAVAILABLE  # the one table (firmware_host/errors.py)
    assert "Connection refused" in done.stdout.splitlines()[-1]
    status = coach("status", "--store", url)
    assert status.returncode == ExitCode.UNAVAILABLE and len(status.stderr.splitlines()) == 1
    assert status.stderr.startswith(f"draughtsboard coach: Redis at {url}: ")


@pytest.mark.parametrize(("args", "says"), [
    (["worker"], "no Redis named"),
    (["worker", "--store", "redis://127.0.0.1:1/0", "--depth", "0"], "--depth 0: 1 to 20"),
    (["worker", "--store", "redis://127.0.0.1:1/0", "--name", "a:b"], "--name: 'a:b'"),
    (["worker", "--store", "ftp://x"], "store.url"),
])
def test_bad_options_are_one_line_and_status_2(args: list[str], says: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard coach: ") and says in err and err.count("\n") == 1
