"""On a replicated Redis a move counts as stored once a replica confirms it (``WAIT``); one that
only the primary took waits in the spool, and reaches whichever server is primary afterwards
exactly once: the old primary that kept it (recognised, not sent twice) or a promoted replica
that never got it (sent). Real redis-server processes; the replica is stopped (SIGSTOP) to
hold its confirmation back."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from firmware_host.store import LocalCopy, MoveRecord, RedisStore, Spool
from firmware_host.store.keys import BoardKeys
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]

MOVES = ["c3-d4", "f6-g5", "g3-f4", "g7-f6", "b2-c3", "h8-g7"]


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[RedisServer, RedisServer]]:
    primary = RedisServer(tmp_path / "primary", extra_args=("--repl-diskless-sync-delay", "0"))
    primary.start()
    replica = RedisServer(tmp_path / "replica",
                          extra_args=("--replicaof", "127.0.0.1", str(primary.port)))
    replica.start()
    # Synced, and its append-only file rewritten after the sync (what it kept on disk is what
    # a restart of it holds), as its log tells ...
    assert replica.wait_logged(b"MASTER <-> REPLICA sync: Finished with success",
                               b"Background AOF rewrite finished successfully"), \
        replica.log_tail()
    # ... and online as the primary sees it, or WAIT counts no replica yet: a write the
    # replica acknowledges (WAIT blocks in the server until it does).
    head = redis.Redis(port=primary.port)
    head.set("draughtsboard-test:probe", "1")
    assert head.wait(1, 20_000) == 1, primary.log_tail()
    head.delete("draughtsboard-test:probe")
    head.close()
    yield primary, replica
    for server in (replica, primary):
        if server.process is not None and server.process.poll() is None:
            server.process.send_signal(signal.SIGCONT)
        server.stop()


def store_on(server: RedisServer, tmp_path: Path) -> RedisStore:
    spool = tmp_path / "spool"
    spool.mkdir(exist_ok=True)
    return RedisStore(redis.Redis(port=server.port, socket_timeout=2), "rp",
                      Spool(spool / "rp.jsonl"), local=LocalCopy(spool / "rp.state.json"),
                      confirm_ms=1000)


def play(store: RedisStore, game_id: str, ply: int) -> None:
    store.append_move(game_id, MoveRecord(ply=ply, pdn=MOVES[ply - 1], fen_after=f"f{ply}",
                                          time=float(ply)),
                      session={"game_id": game_id, "ply": ply})


def log_of(server_port: int, game_id: str) -> tuple[list[str], list[int]]:
    client = redis.Redis(port=server_port)
    entries = client.xrange(BoardKeys("rp").game(game_id))
    client.close()
    moves = [json.loads(f[b"data"])["pdn"] for _, f in entries if f[b"op"] == b"move"]
    return moves, [int(f[b"seq"]) for _, f in entries]


def test_an_unconfirmed_move_waits_and_is_not_sent_twice(
        pair: tuple[RedisServer, RedisServer], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    primary, replica = pair
    store = store_on(primary, tmp_path)
    game = store.new_game({}, "russian", None, "record", session={"game_id": None, "ply": 0})
    for ply in (1, 2, 3):
        play(store, game, ply)
    assert store.connected
    assert replica.process is not None
    replica.process.send_signal(signal.SIGSTOP)  # it takes nothing in, confirms nothing
    play(store, game, 4)
    assert not store.connected  # kept in the spool: the primary alone has it
    assert any("no replica confirmed" in r.getMessage() for r in caplog.records)
    assert log_of(primary.port, game)[0] == MOVES[:4]
    replica.process.send_signal(signal.SIGCONT)
    assert store.flush()
    moves, seqs = log_of(primary.port, game)
    assert moves == MOVES[:4]  # move 4 once: the flush saw the primary had it
    assert seqs == list(range(1, len(seqs) + 1))
    store.close()


def test_a_promoted_replica_that_missed_a_move_gets_it_once_in_order(
        pair: tuple[RedisServer, RedisServer], tmp_path: Path) -> None:
    primary, replica = pair
    store = store_on(primary, tmp_path)
    game = store.new_game({}, "russian", None, "record", session={"game_id": None, "ply": 0})
    for ply in (1, 2, 3, 4):
        play(store, game, ply)
    assert replica.process is not None and primary.process is not None
    replica.process.send_signal(signal.SIGSTOP)
    play(store, game, 5)  # the primary took it; no replica confirmed it
    assert not store.connected
    # The primary dies; the replica, which never read move 5, becomes the primary (its own
    # append-only file, without move 5, as a failover would promote it).
    primary.process.kill()
    primary.process.wait(timeout=10)
    replica.process.kill()
    replica.process.wait(timeout=10)
    promoted = RedisServer(replica.directory)
    promoted.port = replica.port
    promoted.start()
    try:
        assert log_of(promoted.port, game)[0] == MOVES[:4]
        store.client.connection_pool = redis.ConnectionPool(port=promoted.port)  # the sentinels
        play(store, game, 6)
        assert store.flush()
        moves, seqs = log_of(promoted.port, game)
        assert moves == MOVES  # 5 and 6, once each, in order
        assert seqs == list(range(1, len(seqs) + 1))
        assert [m.pdn for m in store.load_game(game).moves] == MOVES
    finally:
        store.close()
        promoted.stop()
