"""The store under the faults of the fault model, each made for real against a redis-server.

Every Redis failure (refused, timed out, wrong password, out of memory, MISCONF, read-only)
takes the same outage path: the moves go to the spool in order and reach Redis, in order and
once, when it answers. A full disk under the spool keeps the order. A store that starts without
Redis resumes its game from the spool and its local copy.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from firmware_host.store import (
    LocalCopy,
    MoveRecord,
    RedisStore,
    Spool,
    StoreError,
    StoreUnavailable,
    open_store,
)
from firmware_host.store.keys import BoardKeys
from tests.firmware_host.store.virtual_time import ManualClock
from tests.redis_server import RedisServer, free_port

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]

PDNS = ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28", "20-24", "38-33",
        "15-20", "42-38", "10-15", "47-42", "5-10"]


def move(ply: int) -> MoveRecord:
    return MoveRecord(ply=ply, pdn=PDNS[ply - 1], fen_after=f"fen{ply}", time=1000.0 + ply)


def session(game_id: str, ply: int) -> dict[str, object]:
    return {"game_id": game_id, "ply": ply, "variant": "international", "mode": "record"}


def make_store(server: RedisServer, directory: Path, *, timeout: float = 1.0,
               clock: Callable[[], float] | None = None, url: str | None = None,
               writer: Callable[[int, bytes], None] | None = None) -> RedisStore:
    client = redis.Redis.from_url(url or server.url, socket_connect_timeout=timeout,
                                  socket_timeout=timeout)
    spool = Spool(directory / "board1.jsonl", writer) if writer else Spool(
        directory / "board1.jsonl")
    return RedisStore(client, "board1", spool, local=LocalCopy(directory / "board1.state.json"),
                      monotonic=clock or ManualClock())


def logged(server: RedisServer, game_id: str) -> tuple[list[str], list[int]]:
    """The moves of the game as Redis holds them, and every entry's seq."""
    client = redis.Redis.from_url(server.url)
    entries: Any = client.xrange(BoardKeys("board1").game(game_id))
    seqs = [int(fields[b"seq"]) for _, fields in entries]
    game = RedisStore(client, "board1").load_game(game_id)
    return [m.pdn for m in game.moves], seqs


def wait_until(check: Callable[[], bool]) -> None:
    """Poll a server-side state change (a background save ending) with a bound on polls."""
    for _ in range(100_000):
        if check():
            return
    raise AssertionError("the state never came")


# -- every failure mode, one outage path ---------------------------------------------------------

def _refused(server: RedisServer, admin: redis.Redis) -> Callable[[], object]:
    server.stop()
    return server.start


def _timeout(server: RedisServer, admin: redis.Redis) -> Callable[[], object]:
    admin.execute_command("CLIENT", "PAUSE", "600000", "WRITE")
    return lambda: admin.execute_command("CLIENT", "UNPAUSE")


def _out_of_memory(server: RedisServer, admin: redis.Redis) -> Callable[[], object]:
    admin.config_set("maxmemory-policy", "noeviction")
    admin.config_set("maxmemory", "1")
    return lambda: admin.config_set("maxmemory", "0")


def _misconf(server: RedisServer, admin: redis.Redis) -> Callable[[], object]:
    (server.directory / "dump.rdb").mkdir()  # the snapshot's rename fails: a broken disk
    admin.config_set("save", "3600 1")
    admin.bgsave()
    wait_until(lambda: admin.info("persistence")["rdb_last_bgsave_status"] == "err"
               and not admin.info("persistence")["rdb_bgsave_in_progress"])
    return lambda: admin.config_set("save", "")


def _read_only(server: RedisServer, admin: redis.Redis) -> Callable[[], object]:
    admin.replicaof("127.0.0.1", str(free_port()))  # a replica of a master that is not there
    return lambda: admin.replicaof("NO", "ONE")


def _wrong_password(server: RedisServer, admin: redis.Redis) -> Callable[[], object]:
    admin.config_set("requirepass", "changed")
    admin.client_kill_filter(_type="normal", skipme=True)

    def heal() -> None:
        admin.config_set("requirepass", "")

    return heal


FAULTS = {"refused": _refused, "timeout": _timeout, "out_of_memory": _out_of_memory,
          "misconf": _misconf, "read_only": _read_only, "wrong_password": _wrong_password}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_every_failure_takes_the_outage_path(fault: str, own_redis_server: RedisServer,
                                             tmp_path: Path,
                                             caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    store = make_store(own_redis_server, tmp_path, timeout=0.3, clock=clock)
    game_id = store.new_game({}, "international", None, "record")
    store.append_move(game_id, move(1), session=session(game_id, 1))
    admin = redis.Redis.from_url(own_redis_server.url)
    heal = FAULTS[fault](own_redis_server, admin)
    for ply in range(2, 6):
        store.append_move(game_id, move(ply), session=session(game_id, ply))
        store.publish({"event": "move", "pdn": PDNS[ply - 1]})
        clock.now += 0.1
    assert not store.connected
    assert len(store.spool or []) == 8
    assert store.load_session() == session(game_id, 5)
    assert [m.pdn for m in store.load_game(game_id).moves] == PDNS[:5]
    assert caplog.text.count("unreachable") == 1
    heal()
    if fault == "wrong_password":
        admin.client_kill_filter(_type="normal", skipme=True)
    clock.now += 10
    assert store.flush()
    store.append_move(game_id, move(6))
    moves, seqs = logged(own_redis_server, game_id)
    assert moves == PDNS[:6]
    assert seqs == list(range(1, 8))  # start + 6 moves, each once
    fresh = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1")
    assert fresh.load_session() == session(game_id, 5)
    assert fresh.client.xlen(BoardKeys("board1").events) == 4
    store.close()


def test_without_a_spool_a_failure_is_one_clear_error(own_redis_server: RedisServer) -> None:
    own_redis_server.stop()
    store = open_store(own_redis_server.url, "board1", background_events=False)
    with pytest.raises(StoreUnavailable, match=r"Redis at redis://127\.0\.0\.1:\d+/0 "
                                               r"unreachable: .*refused"):
        store.load_session()
    with pytest.raises(StoreUnavailable, match="unreachable"):
        store.new_game({}, "english", None, "play")
    store.close()


def test_a_wrong_password_says_so(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", password="right")
    server.start()
    try:
        store = open_store(f"redis://:wrong@127.0.0.1:{server.port}/0", "board1",
                           background_events=False)
        with pytest.raises(StoreUnavailable) as caught:
            store.new_game({}, "english", None, "play")
        message = str(caught.value)
        assert "authentication failed" in message and "\n" not in message
        assert "wrong" not in message.replace("***", "")
        store.close()
    finally:
        server.stop()


# -- the spool's disk full, then freed -----------------------------------------------------------

class FlakyDisk:
    """A writer that refuses (ENOSPC) while ``full``, after writing part of the data."""

    def __init__(self) -> None:
        self.full = False

    def __call__(self, fd: int, data: bytes) -> None:
        if self.full:
            os.write(fd, data[: len(data) // 2])  # what a nearly full disk takes
            raise OSError(errno.ENOSPC, "No space left on device")
        os.write(fd, data)


def test_a_full_spool_disk_keeps_one_order(own_redis_server: RedisServer, tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    disk = FlakyDisk()
    store = make_store(own_redis_server, tmp_path, writer=disk)
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    for ply in range(1, 15):
        disk.full = 6 <= ply <= 9
        store.append_move(game_id, move(ply), session=session(game_id, ply))
    assert "wait in memory, in order" in caplog.text
    assert store.spool is not None and store.spool.in_memory == 0
    on_disk = Spool(store.spool.path).entries()  # what a restart would find
    assert [e.n for e in on_disk] == list(range(1, 15))
    own_redis_server.start()
    assert store.flush()
    moves, seqs = logged(own_redis_server, game_id)
    assert moves == PDNS
    assert seqs == list(range(1, 16))


def test_the_spool_never_writes_out_of_turn(tmp_path: Path) -> None:
    disk = FlakyDisk()
    spool = Spool(tmp_path / "b.jsonl", disk)
    for n in range(1, 8):
        disk.full = n in (3, 4)
        spool.append([{"cmd": "set", "args": ["k", str(n)]}])
        if n == 4:
            assert spool.in_memory == 2
            assert [e.n for e in Spool(spool.path).entries()] == [1, 2]  # no half line kept
    assert [e.commands[0]["args"][1] for e in Spool(spool.path).entries()] == [
        str(n) for n in range(1, 8)]


def test_a_real_full_filesystem_then_freed(own_redis_server: RedisServer,
                                           small_disk: Path) -> None:
    store = make_store(own_redis_server, small_disk)
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    filler = small_disk / "filler"
    with contextlib.suppress(OSError), open(filler, "wb") as file:
        while True:
            file.write(b"x" * 1024)
            file.flush()
    for ply in range(1, 6):
        store.append_move(game_id, move(ply))
    assert store.spool is not None and store.waiting_in_memory == 5
    filler.unlink()
    for ply in range(6, 15):
        store.append_move(game_id, move(ply))
    assert store.spool.in_memory == 0
    assert [e.n for e in Spool(store.spool.path).entries()] == list(range(1, 15))
    own_redis_server.start()
    assert store.flush()
    assert logged(own_redis_server, game_id) == (PDNS, list(range(1, 16)))


# -- Redis absent at boot ------------------------------------------------------------------------

def test_a_start_without_redis_and_nothing_saved(own_redis_server: RedisServer,
                                                 tmp_path: Path) -> None:
    own_redis_server.stop()
    store = make_store(own_redis_server, tmp_path)
    assert store.load_session() is None  # no traceback: a new game starts, spool only
    game_id = store.new_game({}, "international", None, "record")
    store.save_session(session(game_id, 0))
    store.append_move(game_id, move(1), session=session(game_id, 1))
    own_redis_server.start()
    assert store.flush()
    assert logged(own_redis_server, game_id) == (PDNS[:1], [1, 2])
    fresh = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1")
    assert fresh.load_session() == session(game_id, 1)
    assert [g.game_id for g in fresh.list_games()] == [game_id]


def test_restarts_without_redis_resume_the_game(own_redis_server: RedisServer,
                                                tmp_path: Path) -> None:
    first = make_store(own_redis_server, tmp_path)
    game_id = first.new_game({}, "international", None, "record")
    for ply in range(1, 4):
        first.append_move(game_id, move(ply), session=session(game_id, ply))
    first.close()
    own_redis_server.stop()

    second = make_store(own_redis_server, tmp_path)  # boots before Redis, empty spool
    assert second.load_session() == session(game_id, 3)
    assert [m.pdn for m in second.load_game(game_id).moves] == PDNS[:3]
    second.append_move(game_id, move(4), session=session(game_id, 4))
    second.append_move(game_id, move(5))  # killed before the session was saved

    third = make_store(own_redis_server, tmp_path)  # boots before Redis, spool not empty
    assert third.load_session() == session(game_id, 4)
    assert [m.pdn for m in third.load_game(game_id).moves] == PDNS[:5]  # the log is ahead
    third.append_move(game_id, move(6), session=session(game_id, 6))
    own_redis_server.start()
    assert third.flush()
    assert logged(own_redis_server, game_id) == (PDNS[:6], list(range(1, 8)))
    fresh = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1")
    assert fresh.load_session() == session(game_id, 6)


def test_a_lost_local_copy_still_numbers_the_log_right(own_redis_server: RedisServer,
                                                       tmp_path: Path) -> None:
    first = make_store(own_redis_server, tmp_path)
    game_id = first.new_game({}, "international", None, "record")
    for ply in range(1, 4):
        first.append_move(game_id, move(ply))
    first.close()
    own_redis_server.stop()
    (tmp_path / "board1.state.json").unlink()
    blind = make_store(own_redis_server, tmp_path)
    blind.append_move(game_id, move(4))  # its seq is a guess: renumbered when flushed
    own_redis_server.start()
    assert blind.flush()
    assert logged(own_redis_server, game_id) == (PDNS[:4], [1, 2, 3, 4, 5])


def test_a_flush_cut_short_by_a_crash_is_not_applied_twice(own_redis_server: RedisServer,
                                                           tmp_path: Path) -> None:
    store = make_store(own_redis_server, tmp_path)
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    for ply in range(1, 5):
        store.append_move(game_id, move(ply))
        store.publish({"event": "move", "pdn": PDNS[ply - 1]})
    own_redis_server.start()

    class Killed(BaseException):
        pass

    def killed() -> None:
        raise Killed

    assert store.spool is not None
    store.spool.clear = killed  # type: ignore[method-assign]
    with pytest.raises(Killed):
        store.flush()
    restarted = make_store(own_redis_server, tmp_path)
    assert restarted.flush()
    assert logged(own_redis_server, game_id) == (PDNS[:4], [1, 2, 3, 4, 5])
    assert redis.Redis.from_url(own_redis_server.url).xlen(BoardKeys("board1").events) == 4


# -- the cost of a move, and what is spooled ----------------------------------------------------

class CountingClient(redis.Redis):
    """A client that counts round trips: one per command, one per pipeline execute."""

    trips = 0

    def execute_command(self, *args: object, **options: object) -> object:
        CountingClient.trips += 1
        return super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True,
                 shard_hint: object = None) -> redis.client.Pipeline:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def counted(raise_on_error: bool = True) -> list[object]:
            CountingClient.trips += 1
            return execute(raise_on_error)

        pipe.execute = counted  # type: ignore[method-assign]
        return pipe


def test_a_move_with_its_result_and_session_is_one_round_trip(redis_server: RedisServer,
                                                               tmp_path: Path) -> None:
    client = CountingClient.from_url(redis_server.url)
    client.flushall()
    store = RedisStore(client, "board1", Spool(tmp_path / "s.jsonl"),
                       local=LocalCopy(tmp_path / "l.json"))
    game_id = store.new_game({}, "international", None, "record")
    store.append_move(game_id, move(1))
    before = CountingClient.trips
    store.append_move(game_id, move(2), result="1-0", termination="resignation",
                      session=session(game_id, 2))
    assert CountingClient.trips - before == 1
    game = RedisStore(redis.Redis.from_url(redis_server.url), "board1").load_game(game_id)
    assert ([m.pdn for m in game.moves], game.result) == (PDNS[:2], "1-0")


def test_a_move_and_its_result_share_one_spool_entry(own_redis_server: RedisServer,
                                                     tmp_path: Path) -> None:
    store = make_store(own_redis_server, tmp_path)
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    store.append_move(game_id, move(1), result="0-1", termination="no_moves",
                      session=session(game_id, 1))
    assert store.spool is not None
    [entry] = store.spool.entries()  # a kill can keep both or neither, never the move alone
    assert [c["cmd"] for c in entry.commands] == ["xadd", "xadd", "set"]
    assert store.load_game(game_id).result == "0-1"


def test_live_only_events_are_never_spooled_nor_synced(own_redis_server: RedisServer,
                                                       tmp_path: Path) -> None:
    syncs: list[int] = []
    spool = Spool(tmp_path / "board1.jsonl", fsync=lambda fd: syncs.append(fd))
    store = RedisStore(redis.Redis.from_url(own_redis_server.url, socket_connect_timeout=1),
                       "board1", spool, monotonic=ManualClock())
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    store.append_move(game_id, move(1))
    for _ in range(50):
        store.publish({"event": "leds", "frame": {"28": ["on", "to"]}})
        store.publish({"event": "occupancy", "occupied": [1, 2]})
    store.publish({"event": "move", "pdn": "32-28"})
    assert len(spool) == 2  # the move and its event
    assert len(syncs) == 1  # the move alone is fsynced; its event rides on the next record


def test_events_from_the_background_thread_arrive_in_order(own_redis_server: RedisServer,
                                                           tmp_path: Path) -> None:
    flushed = threading.Event()
    store = open_store(own_redis_server.url, "board1", tmp_path,
                       on_change=lambda game: flushed.set())
    game_id = store.new_game({}, "international", None, "record")
    for number in range(20):
        store.publish({"event": "move", "n": number})
    store.drain_events()
    client = redis.Redis.from_url(own_redis_server.url)
    assert client.xlen(BoardKeys("board1").events) == 20
    own_redis_server.stop()
    store.append_move(game_id, move(1))
    store.publish({"event": "move", "n": 20})
    store.drain_events()
    flushed.clear()
    own_redis_server.start()
    assert flushed.wait(timeout=30)  # the events thread retried and flushed on its own
    assert store.connected
    events: Any = client.xrange(BoardKeys("board1").events)
    numbers = [json.loads(f[b"event"])["n"] for _, f in events]
    assert numbers == list(range(21))
    store.close()


# -- bad input ----------------------------------------------------------------------------------

def test_a_spool_dir_that_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    with pytest.raises(StoreError, match=r"spool_dir .* cannot be created"):
        open_store("redis://127.0.0.1:1/0", "board1", tmp_path / "a-file" / "spool")


def test_a_broken_url_is_a_store_error() -> None:
    with pytest.raises(StoreError, match=r"redis://:?\*\*\*@\[::1"):
        open_store("redis://:pw@[::1", "board1")


class LostReply(redis.Redis):
    """A client whose next transaction reaches Redis but whose reply is lost (a timeout)."""

    lose_next = False

    def pipeline(self, transaction: bool = True,
                 shard_hint: object = None) -> redis.client.Pipeline:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def lossy(raise_on_error: bool = True) -> list[object]:
            replies = execute(raise_on_error)
            if LostReply.lose_next and transaction:
                LostReply.lose_next = False
                raise redis.TimeoutError("Timeout reading from socket")
            return replies

        pipe.execute = lossy  # type: ignore[method-assign]
        return pipe


def lossy_game(server: RedisServer, directory: Path) -> tuple[RedisStore, str]:
    """A store whose next transaction's reply is lost, and a game with one move recorded."""
    client = LostReply.from_url(server.url)
    client.flushall()
    store = RedisStore(client, "board1", Spool(directory / "s.jsonl"),
                       local=LocalCopy(directory / "l.json"), monotonic=ManualClock())
    game_id = store.new_game({}, "international", None, "record")
    store.append_move(game_id, move(1))
    LostReply.lose_next = True
    return store, game_id


def test_a_write_whose_reply_was_lost_is_not_written_twice(redis_server: RedisServer,
                                                           tmp_path: Path) -> None:
    store, game_id = lossy_game(redis_server, tmp_path)
    store.append_move(game_id, move(2))  # in Redis, but the store cannot know: spooled too
    assert not store.connected
    store.append_move(game_id, move(3))
    assert store.flush()
    assert logged(redis_server, game_id) == (PDNS[:3], [1, 2, 3, 4])


def test_a_last_move_whose_reply_was_lost_is_not_written_twice(redis_server: RedisServer,
                                                               tmp_path: Path) -> None:
    """The move that ends the game goes with its result in one transaction: two log entries.
    Its reply lost, the spooled copy must be recognised by both, not sent again."""
    store, game_id = lossy_game(redis_server, tmp_path)
    store.append_move(game_id, move(2), result="1-0", termination="resigned",
                      session=session(game_id, 2))
    assert not store.connected
    assert store.flush()
    assert logged(redis_server, game_id) == (PDNS[:2], [1, 2, 3, 4])
    game = RedisStore(redis.Redis.from_url(redis_server.url), "board1").load_game(game_id)
    assert game.result == "1-0" and not game.problems


def test_a_key_clobbered_by_another_program_cannot_hold_the_spool_back(
        own_redis_server: RedisServer, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    store = make_store(own_redis_server, tmp_path)
    store.client.set(BoardKeys("board1").games, "not a sorted set")  # WRONGTYPE for ZADD
    game_id = store.new_game({}, "international", None, "record")
    assert not store.connected  # an error reply: the outage path
    for ply in range(1, 4):
        store.append_move(game_id, move(ply))
    assert store.flush()  # what Redis refuses is set aside, the rest goes in
    assert store.connected
    assert logged(own_redis_server, game_id) == (PDNS[:3], [1, 2, 3, 4])
    assert "WRONGTYPE" in (tmp_path / "board1.rejected.jsonl").read_text(encoding="utf-8")
    assert "refuses a spooled write" in caplog.text
    store.append_move(game_id, move(4))
    assert store.connected and logged(own_redis_server, game_id)[0] == PDNS[:4]


def test_a_spooled_write_redis_refuses_outright_is_set_aside(own_redis_server: RedisServer,
                                                             tmp_path: Path) -> None:
    store = make_store(own_redis_server, tmp_path)
    game_id = store.new_game({}, "international", None, "record")
    own_redis_server.stop()
    store.append_move(game_id, move(1))
    assert store.spool is not None
    store.spool.append([{"cmd": "execute_command",
                         "args": ["SET", BoardKeys("board1").prefix + "x"]}])
    store.append_move(game_id, move(2))
    own_redis_server.start()
    assert store.flush()
    assert logged(own_redis_server, game_id) == (PDNS[:2], [1, 2, 3])
    [refused] = (tmp_path / "board1.rejected.jsonl").read_text(encoding="utf-8").splitlines()
    assert "wrong number of arguments" in refused


def test_reads_during_an_outage_answer_at_once(own_redis_server: RedisServer,
                                               tmp_path: Path) -> None:
    client = CountingClient.from_url(own_redis_server.url, socket_connect_timeout=1)
    store = RedisStore(client, "board1", Spool(tmp_path / "s.jsonl"),
                       local=LocalCopy(tmp_path / "l.json"), monotonic=ManualClock())
    game_id = store.new_game({}, "international", None, "record")
    store.append_move(game_id, move(1), session=session(game_id, 1))
    own_redis_server.stop()
    store.append_move(game_id, move(2), session=session(game_id, 2))  # finds the outage
    before = CountingClient.trips
    for ply in range(3, 6):  # no connection attempt (a timeout on a dead host) before retry
        assert store.load_session() == session(game_id, ply - 1)
        assert len(store.load_game(game_id).moves) == ply - 1
        store.append_move(game_id, move(ply), session=session(game_id, ply))
    assert CountingClient.trips == before
