"""The store against a real redis-server: durability settings, outage, passwords."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import redis

from firmware_host.store import MoveRecord, RedisStore, Spool, open_store
from firmware_host.store.keys import BoardKeys
from tests.firmware_host.store.virtual_time import ManualClock
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


def move(ply: int, pdn: str) -> MoveRecord:
    return MoveRecord(ply=ply, pdn=pdn, fen_after=f"fen{ply}", time=1000.0 + ply)


def test_moves_are_in_the_append_only_file(own_redis_server: RedisServer) -> None:
    store = open_store(own_redis_server.url, "board1")
    game_id = store.new_game({}, "russian", None, "record")
    store.append_move(game_id, move(1, "c3-d4"))
    store.close()
    aof = b"".join(p.read_bytes() for p in own_redis_server.directory.rglob("*.aof*")
                   if p.is_file())
    assert b"c3-d4" in aof  # on disk, not just in memory, before the server stops


@pytest.mark.logs_errors
@pytest.mark.logs_errors
def test_outage_loses_nothing_and_is_reported_once(own_redis_server: RedisServer,
                                                   tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    client = redis.Redis.from_url(own_redis_server.url, socket_connect_timeout=0.5,
                                  socket_timeout=0.5)
    store = RedisStore(client, "board1", Spool(tmp_path / "spool.jsonl"), monotonic=clock)
    game_id = store.new_game({}, "international", None, "record")
    store.append_move(game_id, move(1, "32-28"))
    own_redis_server.stop()
    with caplog.at_level(logging.WARNING):
        pdns = ["19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]
        for ply, pdn in enumerate(pdns, 2):
            store.append_move(game_id, move(ply, pdn))
            store.publish({"event": "move", "pdn": pdn})
            clock.now += 0.5
        assert not store.connected
        assert caplog.text.count("Redis unreachable") == 1
        own_redis_server.start()
        clock.now += 10
        store.append_move(game_id, move(8, "20-24"))
    assert store.connected
    assert "is back after" in caplog.text
    fresh = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1")
    assert [m.pdn for m in fresh.load_game(game_id).moves] == ["32-28", *pdns, "20-24"]
    assert fresh.client.xlen(BoardKeys("board1").events) == len(pdns)
    assert len(store.spool or []) == 0


def test_password_is_never_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    server = RedisServer(tmp_path / "redis", password="s3cret-pw")
    server.start()
    try:
        with caplog.at_level(logging.DEBUG):
            store = open_store(server.url, "board1")
            game_id = store.new_game({}, "english", None, "record")
            store.append_move(game_id, move(1, "11-15"))
            store.close()
        assert "s3cret-pw" not in caplog.text
        assert "***" in caplog.text
    finally:
        server.stop()
