"""``RedisStore.flush`` is safe on the scan thread: it never waits on a Redis that is away.

A Redis host that does not answer at all costs a ping the whole connect timeout. While the
``store-events`` thread retries, a flush from the scan thread returns at once; and a flush
never waits for (nor repeats) another flush under way. Each ping is watched, per thread: no
test depends on how long anything takes.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import redis

from firmware_host.store import LocalCopy, MoveRecord, RedisStore, Spool
from tests.firmware_host.store.virtual_time import ManualClock
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]


class WatchedPing(redis.Redis):
    """A client that records which thread pings, and can hold a ping (a host that does not
    answer) until the test lets it go."""

    pings: list[str]
    hold: threading.Event | None
    holding: threading.Event

    def ping(self, **kwargs: object) -> bool:
        self.pings.append(threading.current_thread().name)
        if self.hold is not None and threading.current_thread() is not threading.main_thread():
            self.holding.set()
            self.hold.wait()
        return bool(super().ping(**kwargs))


def watched(server: RedisServer) -> WatchedPing:
    client = WatchedPing.from_url(server.url, socket_connect_timeout=1, socket_timeout=1)
    client.pings, client.hold, client.holding = [], None, threading.Event()
    return client


def move(ply: int) -> MoveRecord:
    return MoveRecord(ply=ply, pdn=f"m{ply}", fen_after=f"fen{ply}", time=1000.0 + ply)


@pytest.mark.parametrize("outage", ["found by a write", "a spool left by the run before"])
def test_the_scan_thread_never_pings_an_absent_redis_while_the_events_thread_retries(
        outage: str, own_redis_server: RedisServer, tmp_path: Path) -> None:
    client = watched(own_redis_server)
    clock = ManualClock()
    if outage == "found by a write":
        store = RedisStore(client, "board1", Spool(tmp_path / "s.jsonl"),
                           local=LocalCopy(tmp_path / "l.json"), monotonic=clock,
                           background=True)
        game_id = store.new_game({}, "international", None, "record")
        own_redis_server.stop()
        store.append_move(game_id, move(1))
    else:
        before = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1",
                            Spool(tmp_path / "s.jsonl"), local=LocalCopy(tmp_path / "l.json"))
        game_id = before.new_game({}, "international", None, "record")
        own_redis_server.stop()
        before.append_move(game_id, move(1))  # killed here: the move waits in the spool
        store = RedisStore(client, "board1", Spool(tmp_path / "s.jsonl"),
                           local=LocalCopy(tmp_path / "l.json"), monotonic=clock,
                           background=True)
    assert not store.connected
    for _ in range(3):
        clock.now += 10  # a retry is due each time: the events thread's to make
        assert store.flush() is False
    assert "MainThread" not in client.pings
    own_redis_server.start()
    store.close()  # the events thread is gone: close flushes on this thread
    assert store.connected
    reader = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1")
    assert [m.pdn for m in reader.load_game(game_id).moves] == ["m1"]


def test_a_flush_never_waits_for_another_flush_under_way(own_redis_server: RedisServer,
                                                         tmp_path: Path) -> None:
    client = watched(own_redis_server)
    store = RedisStore(client, "board1", Spool(tmp_path / "s.jsonl"),
                       local=LocalCopy(tmp_path / "l.json"), monotonic=ManualClock())
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    store.append_move(game_id, move(1))  # finds the outage
    own_redis_server.start()
    client.hold = threading.Event()
    results: list[bool] = []
    other = threading.Thread(target=lambda: results.append(store.flush()), name="other",
                             daemon=True)
    other.start()
    try:
        assert client.holding.wait(timeout=30)  # the other flush waits on its ping
        assert store.flush() is False  # at once: not a second ping behind the first
        assert client.pings == ["other"]
        store.append_move(game_id, move(2))  # the scan thread spools meanwhile
    finally:
        client.hold.set()
        other.join(timeout=30)
    assert results == [True] and store.connected
    assert [m.pdn for m in store.load_game(game_id).moves] == ["m1", "m2"]
    store.close()
