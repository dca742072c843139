"""The keep-alive (board-id lease and heartbeat) against every reply Redis can give: wrong-type
keys, a read-only Redis, errors of any kind; one line each, never an exception out of it
(issue 25 §8, issue 26 §2)."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest
import redis

from firmware_host.store.keepalive import HEARTBEAT_TTL_S, KeepAlive
from firmware_host.store.keys import BoardKeys
from firmware_host.store.lease import BoardLease, LeaseState, lease_key
from firmware_host.store.outage.failures import is_poison
from tests.firmware_host.store.virtual_time import ManualClock
from tests.redis_server import RedisServer, free_port

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]


def lease(client: redis.Redis, clock: ManualClock) -> BoardLease:
    return BoardLease(client, "board1", ttl_s=30.0, machine="m1", host="pi", pid=100,
                      alive=lambda _pid: True, clock=clock)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_lease_key_of_the_wrong_type_is_said_once_and_the_lease_taken_once_it_is_gone(
        client: redis.Redis, caplog: pytest.LogCaptureFixture) -> None:
    client.hset(lease_key("board1"), "a", "b")  # another program wrote the key
    clock = ManualClock()
    held = lease(client, clock)
    assert held.acquire() is LeaseState.UNREACHABLE
    clock.now = 20.0
    assert held.refresh() is LeaseState.UNREACHABLE
    said = warnings(caplog)
    assert len(said) == 1, said
    assert "WRONGTYPE" in said[0] and f"redis-cli DEL {lease_key('board1')}" in said[0]
    client.delete(lease_key("board1"))
    clock.now = 40.0
    assert held.refresh() is LeaseState.HELD
    assert json.loads(client.get(lease_key("board1")) or "{}")["pid"] == 100


def test_release_never_raises_whatever_the_key_holds(client: redis.Redis) -> None:
    clock = ManualClock()
    with lease(client, clock) as held:
        client.delete(held.key)
        client.rpush(held.key, "x")  # the lease's key turned into a list meanwhile
    assert held.state is None


def test_a_read_only_redis_is_said_once_per_kind_and_nothing_raises(
        own_redis_server: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    admin = redis.Redis.from_url(own_redis_server.url)
    client = redis.Redis.from_url(own_redis_server.url, decode_responses=True)
    clock = ManualClock()
    keepalive = KeepAlive(client, "board1", lease(client, clock), clock=lambda: 5.0, pid=9)
    assert keepalive.tick()
    admin.replicaof("127.0.0.1", str(free_port()))
    try:
        for step in range(3):
            clock.now = 20.0 * (step + 1)
            assert not keepalive.tick()
        said = warnings(caplog)
        assert len(said) == 2, said  # the lease's line and the heartbeat's
        assert all("READONLY" in line for line in said)
    finally:
        admin.replicaof("NO", "ONE")
    clock.now = 100.0
    assert keepalive.tick()
    keepalive.close()
    assert client.get(lease_key("board1")) is None
    assert json.loads(client.get(BoardKeys("board1").alive) or "{}") == {
        "time": 5.0, "state": "stopped", "pid": 9}
    admin.close()
    client.close()


def test_the_heartbeat_follows_the_contract(client: redis.Redis) -> None:
    keepalive = KeepAlive(client, "hb1", None, clock=lambda: 1234.5, pid=42)
    assert keepalive.beat()
    assert json.loads(client.get(BoardKeys("hb1").alive) or "{}") == {
        "time": 1234.5, "state": "running", "pid": 42}
    ttl_ms = client.pttl(BoardKeys("hb1").alive)
    assert 0 < ttl_ms <= HEARTBEAT_TTL_S * 1000
    assert ttl_ms > (HEARTBEAT_TTL_S - 60) * 1000


class Exploding:
    """A client whose every write fails in a way no Redis error list names, then works."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0
        self.written = threading.Event()

    def set(self, name: str, value: str, *, px: int | None = None) -> object:
        self.calls += 1
        if self.calls <= self.failures:
            raise RuntimeError("something no one foresaw")
        self.written.set()
        return True


def test_the_thread_survives_anything_and_writes_again(caplog: pytest.LogCaptureFixture
                                                       ) -> None:
    client = Exploding(failures=2)
    keepalive = KeepAlive(client, "b", None, period_s=0.001).start()
    assert client.written.wait(10)
    keepalive.close()
    assert client.calls >= 3
    assert sum("keep-alive" in line for line in warnings(caplog)) == 2


def test_nopermission_is_an_outage_not_a_refused_write() -> None:
    # redis-py keeps the code NOPERM apart from the message: a spooled write that meets an ACL
    # mistake waits (the ACL gets fixed), it is not set aside as refused for ever.
    error = redis.exceptions.NoPermissionError(
        "this user has no permissions to access one of the keys used as arguments",
        status_code="NOPERM")
    assert not is_poison(error)


def test_the_service_keeps_its_heartbeat_off_the_scan_thread(tmp_path: Path,
                                                             redis_server: RedisServer) -> None:
    from contextlib import ExitStack

    from board_io.clock import VirtualClock
    from firmware_host.app.notify import Notifier
    from firmware_host.app.service import Wiring, build_service
    from firmware_host.config import Config

    config = Config.from_mapping({
        "game": {"mode": "record"}, "board": {"id": "hb-service"},
        "store": {"url": redis_server.url, "games_dir": str(tmp_path / "games"),
                  "spool_dir": str(tmp_path / "spool")}})
    admin = redis.Redis.from_url(redis_server.url)
    with ExitStack() as stack:
        service = build_service(config, stack, Wiring(clock=VirtualClock(), virtual_time=True,
                                                      notifier=Notifier(environ={})))
        assert service.keepalive is not None
        assert service.keepalive.ticked.wait(10)
        assert any(t.name == "board-keepalive" for t in threading.enumerate())
        running = json.loads(admin.get(BoardKeys("hb-service").alive) or "null")
        assert running is not None and running["state"] == "running"
    stopped = json.loads(admin.get(BoardKeys("hb-service").alive) or "null")
    assert stopped["state"] == "stopped"
    assert admin.get(BoardKeys("hb-service").lease) is None
    admin.close()


def test_the_store_never_raises_from_its_exit(tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    from firmware_host.store import RedisStore, Spool

    class Broken:
        """A client whose every command fails in a way no Redis error list names."""

        def __getattr__(self, name: str) -> object:
            def fail(*args: object, **kwargs: object) -> object:
                raise RuntimeError(f"{name}: something no one foresaw")
            return fail

    spool = Spool(tmp_path / "b.jsonl")
    spool.append([{"cmd": "set", "args": ["k", "v"]}])  # a backlog the stop tries to flush
    with RedisStore(Broken(), "b", spool):  # type: ignore[arg-type]
        pass
    assert len(spool) == 1  # kept for the next start
    assert any("not flushed at stop" in line for line in warnings(caplog))


def test_a_failing_sentinel_primary_is_given_up_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # redis-py's default for a client of sentinels retries ten times with a growing back-off:
    # 11 connections and some 4 s for each command while no primary is known (a failover),
    # on the scan thread, the keep-alive and every web request alike.
    import redis.connection

    from firmware_host.store.connect import sync_client
    from tests.redis_server import free_port

    connects: list[int] = []
    original = redis.connection.Connection._connect

    def counting(self: redis.connection.Connection) -> object:
        connects.append(1)
        return original(self)

    monkeypatch.setattr(redis.connection.Connection, "_connect", counting)
    client = sync_client(f"redis+sentinel://127.0.0.1:{free_port()}/hall/0", socket_timeout=1,
                         socket_connect_timeout=1)
    with pytest.raises(redis.ConnectionError):
        client.ping()
    assert 1 <= len(connects) <= 4
