"""The board-id lease, against a real redis-server: one live board per id."""

from __future__ import annotations

import json

import pytest
import redis

from firmware_host.store.lease import BoardIdInUse, BoardLease, LeaseState, lease_key
from tests.firmware_host.store.virtual_time import ManualClock
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


def lease(client: redis.Redis, *, machine: str = "m1", pid: int = 100, ttl_s: float = 30.0,
          alive: bool = True, clock: ManualClock | None = None) -> BoardLease:
    return BoardLease(client, "board1", ttl_s=ttl_s, machine=machine, host=f"host-{machine}",
                      pid=pid, alive=lambda _pid: alive, clock=clock or ManualClock())


def test_acquire_sets_the_key_with_a_ttl_and_release_deletes_it(client: redis.Redis) -> None:
    held = lease(client)
    assert held.acquire() is LeaseState.HELD
    value = json.loads(client.get(lease_key("board1")))
    assert (value["machine"], value["host"], value["pid"]) == ("m1", "host-m1", 100)
    assert 0 < client.pttl(lease_key("board1")) <= 30_000
    held.release()
    assert client.exists(lease_key("board1")) == 0


def test_a_second_live_board_with_the_same_id_is_refused_in_one_line(
        client: redis.Redis) -> None:
    lease(client, machine="m1").acquire()
    with pytest.raises(BoardIdInUse) as info:
        lease(client, machine="m2", pid=200).acquire()
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("board id 'board1' is in use by another live board")
    assert "host host-m1, pid 100" in message and "board.id" in message


def test_another_board_id_is_free(client: redis.Redis) -> None:
    lease(client).acquire()
    other = BoardLease(client, "board2", machine="m2", host="h", pid=1)
    assert other.acquire() is LeaseState.HELD


def test_release_never_deletes_another_holders_lease(client: redis.Redis) -> None:
    first = lease(client, machine="m1")
    first.acquire()
    client.delete(lease_key("board1"))  # expired ...
    second = lease(client, machine="m2", pid=200)
    second.acquire()  # ... and taken by another board
    first.release()
    assert json.loads(client.get(lease_key("board1")))["machine"] == "m2"


def test_the_lease_expires_when_its_holder_stops_refreshing(client: redis.Redis) -> None:
    lease(client, machine="m1", ttl_s=0.05).acquire()
    # Wait on Redis's own expiry (no sleep): BLPOP on a list nobody writes blocks 0.1 s.
    client.blpop(["never-written"], timeout=0.1)
    assert lease(client, machine="m2", pid=200).acquire() is LeaseState.HELD


def test_refresh_extends_the_ttl_only_after_a_third_of_it(client: redis.Redis) -> None:
    clock = ManualClock()
    held = lease(client, ttl_s=30.0, clock=clock)
    held.acquire()
    client.pexpire(lease_key("board1"), 1_000)
    clock.now = 5.0
    assert held.refresh() is LeaseState.HELD
    assert client.pttl(lease_key("board1")) <= 1_000  # too early: no round trip
    clock.now = 10.5
    assert held.refresh() is LeaseState.HELD
    assert client.pttl(lease_key("board1")) > 1_000


def test_a_crashed_run_of_this_machine_is_taken_over_at_once(client: redis.Redis) -> None:
    lease(client, machine="m1", pid=100).acquire()  # then the service died: never released
    restarted = lease(client, machine="m1", pid=101, alive=False)
    assert restarted.acquire() is LeaseState.HELD
    assert json.loads(client.get(lease_key("board1")))["pid"] == 101


def test_a_live_second_process_on_this_machine_is_refused(client: redis.Redis) -> None:
    lease(client, machine="m1", pid=100).acquire()
    with pytest.raises(BoardIdInUse):
        lease(client, machine="m1", pid=101, alive=True).acquire()


def test_refresh_reacquires_after_an_expiry_and_refuses_if_another_took_it(
        client: redis.Redis) -> None:
    clock = ManualClock()
    held = lease(client, clock=clock)
    held.acquire()
    client.delete(lease_key("board1"))  # expired while Redis was away
    clock.now = 100.0
    assert held.refresh() is LeaseState.HELD
    assert client.exists(lease_key("board1")) == 1
    client.delete(lease_key("board1"))
    lease(client, machine="m2", pid=200).acquire()
    clock.now = 200.0
    with pytest.raises(BoardIdInUse):
        held.refresh()


def test_an_unreachable_redis_lets_the_board_start_and_takes_the_lease_later(
        own_redis_server: RedisServer) -> None:
    client = redis.Redis.from_url(own_redis_server.url, decode_responses=True,
                                  socket_timeout=1, socket_connect_timeout=1)
    clock = ManualClock()
    held = lease(client, clock=clock)
    own_redis_server.stop()
    assert held.acquire() is LeaseState.UNREACHABLE
    clock.now = 1.0
    assert held.refresh() is LeaseState.UNREACHABLE
    held.release()  # never raises
    own_redis_server.start()
    clock.now = 2.0
    assert held.refresh() is LeaseState.HELD
    assert client.exists(lease_key("board1")) == 1


def test_from_url_uses_its_own_connection(redis_server: RedisServer,
                                          client: redis.Redis) -> None:
    with BoardLease.from_url(redis_server.url, "board9") as held:
        assert held.state is LeaseState.HELD
        assert client.exists(lease_key("board9")) == 1
    assert client.exists(lease_key("board9")) == 0
