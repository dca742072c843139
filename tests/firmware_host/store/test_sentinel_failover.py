"""Redis Sentinel failover under a playing board (issue 26, done-when): a primary, its replica
and three sentinels, real processes; a board records a game through ``redis+sentinel://``, the
primary is SIGKILLed after move 8 and play goes on. Every move reaches the new primary exactly
once, in order; the service never exits and logs no traceback; the web app (its own process,
on the same URL) serves the board after the failover; the old primary comes back, while play
goes on, as a replica, and nothing is duplicated."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from firmware_host.store import RedisStore
from firmware_host.store.connect import sync_client
from firmware_host.store.keys import BoardKeys
from tests.firmware_host.ha_board import BoardProcess, scripted_game
from tests.redis_server import free_port
from tests.sentinel_cluster import SentinelCluster

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]

BOARD = "hall-7"


def recorded(client: redis.Redis, board_id: str) -> list[str]:
    """The moves of the game the board's session points at, as that server holds them."""
    store = RedisStore(client, board_id)
    raw = client.get(BoardKeys(board_id).session)
    if raw is None:
        return []
    game = store.load_game(str(json.loads(raw)["game_id"]))
    assert game.problems == []
    return [m.pdn for m in game.moves]


def game_ops(client: redis.Redis, board_id: str) -> list[int]:
    """Every ``seq`` of the game's log on that server (no repeat, no gap when all is well)."""
    raw = client.get(BoardKeys(board_id).session)
    assert raw is not None
    key = BoardKeys(board_id).game(json.loads(raw)['game_id'])
    return [int(fields[b"seq"]) for _, fields in client.xrange(key)]


def wait_written(client: redis.Redis, check: Callable[[], bool], what: str,
                 timeout: float = 30) -> None:
    """Until ``check()`` is true, checked again whenever a key of the board changes on that
    server (its keyspace notifications: the flush into a new primary has no event of its own);
    the timeout only bounds a hang."""
    client.config_set("notify-keyspace-events", "KA")
    pubsub = client.pubsub()
    pubsub.psubscribe("__keyspace@0__:draughtsboard:*")
    deadline = time.monotonic() + timeout
    try:
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"never: {what}")
            pubsub.get_message(timeout=1.0)
    finally:
        pubsub.close()


def start_web(tmp_path: Path, url: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    config = tmp_path / "web.toml"
    config.write_text(f'[store]\nurl = "{url}"\n[web]\nlisten = "127.0.0.1:{port}"\n'
                      f'token_file = "{tmp_path / "web-token"}"\n')
    with open(tmp_path / "web.log", "w") as log:  # the child keeps its own descriptor
        process = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "web",
                                    "--config", str(config)], stdout=subprocess.PIPE,
                                   stderr=log, text=True)
    assert process.stdout is not None
    banner = process.stdout.readline()  # printed once it listens
    assert "http://127.0.0.1" in banner, (tmp_path / "web.log").read_text()
    return process, f"http://127.0.0.1:{port}"


def test_a_failover_mid_game_loses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    cluster = SentinelCluster(tmp_path / "cluster")
    board: BoardProcess | None = None
    web: subprocess.Popen[str] | None = None
    try:
        cluster.wait_ready()
        old_primary = cluster.primary
        script = tmp_path / "game.events"
        moves = scripted_game("russian", seed=2026, plies=12, path=script)
        config = tmp_path / "board.toml"
        config.write_text(
            f'[game]\nvariant = "russian"\nmode = "record"\n[board]\nid = "{BOARD}"\n'
            f'[store]\nurl = "{cluster.url}"\ngames_dir = "{tmp_path / "games"}"\n'
            f'spool_dir = "{tmp_path / "spool"}"\n')
        switch = cluster.switch_listener()
        board = BoardProcess(config, script)
        # The web app runs through the failover, on the same URL (it starts while the board
        # starts).
        web, base = start_web(tmp_path, cluster.url)
        board.moves_announced(8)
        with urllib.request.urlopen(f"{base}/board/{BOARD}", timeout=10) as reply:
            assert reply.status == 200  # it holds connections to the primary now
        assert old_primary.process is not None
        old_primary.process.kill()  # SIGKILL: no goodbye to anyone
        old_primary.process.wait(timeout=10)
        new_port = cluster.wait_switch(switch)
        assert new_port == cluster.replica.port
        # The old primary comes back while the game goes on: the sentinels make it a replica
        # of the new one (a sentinel waits 8 s, its own constant, before it converts a primary
        # that returns), and the board keeps writing to the new primary meanwhile.
        mark = old_primary.log_mark()
        old_primary.start()
        board.moves_announced(len(moves))  # play goes on through the failover
        primary = redis.Redis(host="127.0.0.1", port=new_port)
        wait_written(primary, lambda: len(recorded(primary, BOARD)) == len(moves),
                     "every move in the new primary")
        assert board.alive(), board.log()
        assert recorded(primary, BOARD) == moves
        ops = game_ops(primary, BOARD)
        assert ops == list(range(1, len(ops) + 1))  # each operation once, in order

        # The web app serves the board from the new primary (its first request after the
        # failover meets the dead primary's connections: redis-py retries through the sentinels).
        with urllib.request.urlopen(f"{base}/board/{BOARD}", timeout=10) as reply:
            page = reply.read().decode()
        assert reply.status == 200 and BOARD in page
        assert "Traceback" not in (tmp_path / "web.log").read_text()

        # The old primary, back, is a replica of the new one and holds the same single copy.
        back = redis.Redis(host="127.0.0.1", port=old_primary.port)
        synced = (b"MASTER <-> REPLICA sync: Finished with success",
                  b"Successful partial resynchronization with master")
        assert old_primary.wait_logged(synced, since=mark, timeout=30), old_primary.log_tail()
        assert back.info("replication")["role"] == "slave"
        assert recorded(back, BOARD) == moves
        assert game_ops(back, BOARD) == ops

        # Through the sentinel URL a reader sees the same single copy.
        through = sync_client(cluster.url)
        assert recorded(through, BOARD) == moves
        through.close()
        assert board.stop() == 0, board.log()
        log = board.log()
        assert "Traceback" not in log, log
        # The moves of the failover waited in the spool: the outage said once, then its end.
        assert log.count("moves wait on disk") == 1 and "is back" in log, log
        primary.close()
        back.close()
    finally:
        if board is not None:
            board.kill()
        if web is not None:
            web.terminate()
            web.wait(timeout=10)
        cluster.stop()
