"""A new game and its session snapshot are one write: a kill leaves nothing, or a game that the
session points at (never an empty game no session names).

``new_game(..., session=snapshot)`` writes the game's start, its place in the index and the
session in one MULTI/EXEC (one spool entry during an outage); the store fills the new id into
the snapshot. Each kill is made at a point of the write path, with Redis up or away, and a
restart must find the two agreeing, in Redis and in the spool.
"""

from __future__ import annotations

import os
from pathlib import Path

import fakeredis
import pytest
import redis

from firmware_host.store import LocalCopy, RedisStore, Spool
from firmware_host.store.outage.spool import write_all
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]


class Killed(BaseException):
    """The process dies here (nothing in the store may catch it)."""


class DiesInTransaction(redis.Redis):
    """A client whose process dies as a transaction is about to be sent."""

    armed = False

    def pipeline(self, transaction: bool = True,
                 shard_hint: object = None) -> redis.client.Pipeline:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def dying(raise_on_error: bool = True) -> list[object]:
            if DiesInTransaction.armed and transaction:
                raise Killed
            return execute(raise_on_error)

        pipe.execute = dying  # type: ignore[method-assign]
        return pipe


def torn_write(fd: int, data: bytes) -> None:
    """The spool's writer, killed half-way through the line."""
    os.write(fd, data[: len(data) // 2])
    raise Killed


def snapshot() -> dict[str, object]:
    """The session of a new game as the session makes it (its game id not known yet)."""
    return {"version": 1, "variant": "international", "mode": "record", "game_id": None,
            "moves": [], "pending": None, "obligation": None, "over": False}


def store_on(server: RedisServer, directory: Path, *, client: redis.Redis | None = None,
             spool: Spool | None = None) -> RedisStore:
    return RedisStore(client or redis.Redis.from_url(server.url, socket_connect_timeout=1),
                      "board1", spool or Spool(directory / "board1.jsonl"),
                      local=LocalCopy(directory / "board1.state.json"))


KILLS = ["in the transaction", "after new_game", "in the spool write", "after new_game, spooled"]


@pytest.mark.parametrize("kill", KILLS)
def test_a_kill_around_new_game_leaves_nothing_or_a_game_the_session_points_at(
        kill: str, own_redis_server: RedisServer, tmp_path: Path) -> None:
    spooled = "spool" in kill
    client = DiesInTransaction.from_url(own_redis_server.url, socket_connect_timeout=1)
    spool = Spool(tmp_path / "board1.jsonl",
                  torn_write if kill == "in the spool write" else write_all)
    store = store_on(own_redis_server, tmp_path, client=client, spool=spool)
    if spooled:
        own_redis_server.stop()
    DiesInTransaction.armed = kill == "in the transaction"
    try:
        store.new_game({}, "international", None, "record", session=snapshot())
    except Killed:
        assert kill.startswith("in ")
    finally:
        DiesInTransaction.armed = False

    restarted = store_on(own_redis_server, tmp_path)  # Redis still away when it was
    state = restarted.load_session()
    if state is None:
        assert not kill.startswith("after")
    else:
        assert restarted.load_game(str(state["game_id"])).moves == []
    if spooled:
        own_redis_server.start()
        assert restarted.flush()
    reader = RedisStore(redis.Redis.from_url(own_redis_server.url), "board1")
    games = [g.game_id for g in reader.list_games()]
    assert (games, reader.load_session()) == (
        ([], None) if state is None else ([state["game_id"]], state))


def test_the_store_fills_the_new_id_into_the_session() -> None:
    store = RedisStore(fakeredis.FakeRedis(), "board1")
    given = {**snapshot(), "game_id": "20261130-101010-beef"}  # the game before: replaced
    game_id = store.new_game({}, "international", None, "record", session=given)
    assert store.load_session() == {**snapshot(), "game_id": game_id}
    assert given["game_id"] == "20261130-101010-beef"  # the caller's snapshot is not changed
    assert [g.game_id for g in store.list_games()] == [game_id]


def test_without_a_session_new_game_saves_none() -> None:
    store = RedisStore(fakeredis.FakeRedis(), "board1")
    store.save_session({"game_id": "before"})
    store.new_game({}, "international", None, "record")
    assert store.load_session() == {"game_id": "before"}
