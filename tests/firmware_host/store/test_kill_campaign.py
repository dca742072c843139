"""Campaign: a recording process SIGKILLed at random points while Redis fails under it.

A child process (:mod:`tests.firmware_host.store_kill_child`) records a game move by move;
the parent kills it (SIGKILL) after a random number of acknowledged moves, and between kills
stops or restarts Redis, fills its memory (OOM) or makes it a replica (READONLY). Each restart
resumes from the session (from Redis, or from the spool and the local copy when Redis is away)
and checks that the log agrees with it. At the end Redis must hold exactly the moves made, once
each, in order, numbered 1, 2, 3…, with the result and a session that points at the game.
Every decision waits on an event (a line from the child), never on time.

Size from ``DRAUGHTSBOARD_SAMPLE``: ``ci`` 3 games, ``full`` 30 games.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import redis

from firmware_host.store import RedisStore, open_store
from firmware_host.store.keys import BoardKeys
from tests.conftest import sample_size
from tests.redis_server import RedisServer, free_port

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]

ROOT = Path(__file__).resolve().parents[3]
PLIES = 40


class Faults:
    """Redis faults the parent makes and heals between kills."""

    def __init__(self, server: RedisServer) -> None:
        self.server = server
        self.active: str | None = None

    def admin(self) -> redis.Redis:
        return redis.Redis.from_url(self.server.url, socket_timeout=5)

    def make(self, kind: str) -> None:
        self.heal()
        if kind == "stopped":
            self.server.stop()
        elif kind == "oom":
            admin = self.admin()
            admin.config_set("maxmemory-policy", "noeviction")
            admin.config_set("maxmemory", "1")
        elif kind == "readonly":
            self.admin().replicaof("127.0.0.1", str(free_port()))
        self.active = kind

    def heal(self) -> None:
        if self.active == "stopped":
            self.server.start()
        elif self.active == "oom":
            self.admin().config_set("maxmemory", "0")
        elif self.active == "readonly":
            self.admin().replicaof("NO", "ONE")
        self.active = None


def run_child(server: RedisServer, spool: Path, kill_after: int | None,
              on_ack: Any = None) -> tuple[int, list[str]]:
    """Run the child until it prints ``ok <kill_after>`` (then SIGKILL it) or ends."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.firmware_host.store_kill_child", server.url, str(spool),
         str(PLIES)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    lines: list[str] = []
    for line in child.stdout:
        lines.append(line.strip())
        if line.startswith("ok ") and on_ack is not None:
            on_ack(int(line.split()[1]))
        if kill_after is not None and line.strip() == f"ok {kill_after}":
            child.send_signal(signal.SIGKILL)
            break
        if line.startswith(("mismatch", "unreadable")):
            break
    lines.extend(line.strip() for line in child.stdout)  # what it wrote before the kill landed
    child.stdout.close()
    return child.wait(timeout=60), lines


def play_one_game(directory: Path, rng: random.Random, totals: dict[str, int]) -> None:
    server = RedisServer(directory / "redis")
    server.start()
    faults = Faults(server)
    spool = directory / "spool"
    acknowledged = 0
    try:
        while True:
            resumed = acknowledged
            kill_after = None if rng.random() < 0.05 or resumed >= PLIES - 1 else rng.randint(
                resumed + 1, min(PLIES - 1, resumed + 6))
            # The child may be ahead of the lines read when the kill lands: all moves may be
            # acknowledged by a child killed before it said "done" (then no fault is left to make).
            fault_at = rng.randint(resumed + 1, kill_after or PLIES) \
                if rng.random() < 0.7 and resumed < PLIES else None
            kind = rng.choice(["stopped", "oom", "readonly", "healed"])

            def on_ack(ply: int, fault_at: int | None = fault_at, kind: str = kind) -> None:
                if ply != fault_at:
                    return
                if kind == "healed":
                    faults.heal()
                else:
                    faults.make(kind)
                    totals["faults"] += 1

            code, lines = run_child(server, spool, kill_after, on_ack)
            assert not any(line.startswith(("mismatch", "unreadable")) for line in lines), lines
            acks = [int(line.split()[1]) for line in lines if line.startswith("ok ")]
            acknowledged = max([acknowledged, *acks])
            if "done" in lines:
                break
            assert code == -signal.SIGKILL, lines
            totals["kills"] += 1
        faults.heal()
        with open_store(server.url, "board1", spool, background_events=False) as store:
            assert store.flush()
        check_redis(server, totals)
    finally:
        faults.heal()
        server.stop()


def check_redis(server: RedisServer, totals: dict[str, int]) -> None:
    client = redis.Redis.from_url(server.url)
    reader = RedisStore(client, "board1")
    state = reader.load_session()
    assert state is not None and state["ply"] == PLIES and state["over"]
    games = reader.list_games()
    [game] = [g for g in games if g.game_id == state["game_id"]]
    assert all(g.moves == 0 for g in games if g.game_id != state["game_id"])
    record = reader.load_game(game.game_id)
    assert [m.pdn for m in record.moves] == [f"m{n}" for n in range(1, PLIES + 1)]
    assert record.result == "1-0" and not record.problems
    entries: Any = client.xrange(BoardKeys("board1").game(game.game_id))
    assert [int(f[b"seq"]) for _, f in entries] == list(range(1, PLIES + 3))
    totals["games"] += 1
    totals["moves"] += len(record.moves)


def test_kills_and_redis_faults_lose_nothing(tmp_path: Path) -> None:
    rng = random.Random(12)
    totals = {"games": 0, "kills": 0, "faults": 0, "moves": 0}
    for number in range(sample_size(3, 30)):
        play_one_game(tmp_path / f"game{number}", rng, totals)
    print(f"store kill campaign: {totals['games']} games, {totals['kills']} SIGKILLs, "
          f"{totals['faults']} Redis faults, {totals['moves']} moves: 0 lost, 0 duplicated, "
          "0 results lost")
    assert totals["kills"] >= totals["games"]
