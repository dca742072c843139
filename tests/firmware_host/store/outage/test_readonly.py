"""A Redis that turns read-only under a playing board (``REPLICAOF``: what a failover does to an
old primary, or a misconfigured hall): the service plays on, its keep-alive (lease and
heartbeat) says so in one line, the moves wait in the spool and reach Redis once, in order, when
it takes writes again; the service never exits and logs no traceback (issue 26 §2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis

from firmware_host.store.keys import BoardKeys
from tests.firmware_host.ha_board import BoardProcess, scripted_game
from tests.firmware_host.recorded_runs import stored_moves, write_config
from tests.redis_server import RedisServer, free_port

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]


def test_a_redis_turned_replica_mid_game_loses_nothing_and_stops_nothing(
        tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    admin = redis.Redis.from_url(server.url)
    script = tmp_path / "game.events"
    moves = scripted_game("russian", seed=26, plies=9, path=script)
    board = BoardProcess(write_config(tmp_path, server, "ro-1", "russian"), script)
    try:
        board.moves_announced(3)
        admin.replicaof("127.0.0.1", str(free_port()))  # a primary that is not there: READONLY
        # The keep-alive meets READONLY (lease refresh, heartbeat): one line, and it plays on.
        line = board.log_line("board lease", timeout=30)
        assert "READONLY" in line
        assert "Traceback" not in board.log()
        board.moves_announced(6)
        assert board.alive(), board.log()
        admin.replicaof("NO", "ONE")
        board.moves_announced(len(moves))
        board.log_line("is back", timeout=30)  # the spool flushed into the writable Redis
        alive = json.loads(admin.get(BoardKeys("ro-1").alive) or "null")
        assert rc_ok(board.stop()), board.log()
        _, recorded = stored_moves(server, "ro-1")
        assert recorded == moves
        assert "Traceback" not in board.log(), board.log()
        assert line.count("\n") == 1
        assert alive is not None and alive["state"] == "running"
        stopped = json.loads(admin.get(BoardKeys("ro-1").alive) or "null")
        assert stopped["state"] == "stopped"
    finally:
        board.kill()
        admin.close()
        server.stop()


def rc_ok(rc: int) -> bool:
    return rc == 0
