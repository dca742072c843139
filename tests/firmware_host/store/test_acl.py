"""The hall's Redis ACL users against a real redis-server started with the ACL file the
installer writes (issue 25, least privilege): board A's user cannot write board B's game or
command stream, the web app's user cannot write a game; each still does its own work (a board
records a game and keeps its lease and heartbeat; the web app serves pages and sends commands).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from firmware_host.doctor.redis import check_acl
from firmware_host.store import open_store
from firmware_host.store.acl import WEB, board_user, main, read_passwords
from firmware_host.store.keepalive import KeepAlive
from firmware_host.store.keys import AUDIT, BOARDS, ROUND_INDEX, BoardKeys, round_key
from firmware_host.store.lease import BoardLease
from firmware_host.store.records import MoveRecord
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

NOPERM = redis.exceptions.NoPermissionError


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RedisServer, dict[str, str]]]:
    directory = tmp_path_factory.mktemp("acl")
    passwords, acl = directory / "passwords", directory / "users.acl"
    assert main(["--boards", "a1,b2", "--passwords", str(passwords), "--acl-file", str(acl)]) == 0
    assert "#" in acl.read_text() and read_passwords(passwords)["board-a1"] not in acl.read_text()
    server = RedisServer(directory / "redis", extra_args=("--aclfile", str(acl)))
    server.start()
    yield server, read_passwords(passwords)
    server.stop()


def login(hall: tuple[RedisServer, dict[str, str]], user: str) -> redis.Redis:
    server, passwords = hall
    return redis.Redis(host="127.0.0.1", port=server.port, username=user,
                       password=passwords[user])


def url(hall: tuple[RedisServer, dict[str, str]], user: str) -> str:
    server, passwords = hall
    return f"redis://{user}:{passwords[user]}@127.0.0.1:{server.port}/0"


def test_a_board_cannot_write_another_boards_game_or_commands(hall: tuple[RedisServer,
                                                                          dict[str, str]]) -> None:
    a = login(hall, board_user("a1"))
    a.xadd(BoardKeys("a1").game("g1"), {"op": "start"})  # its own game: taken
    a.publish(BoardKeys("a1").events, "{}")
    assert a.wait(0, 10) == 0 and a.execute_command("ROLE")[0] == b"master"  # replicas.py
    for write in (lambda: a.xadd(BoardKeys("b2").game("g1"), {"op": "move"}),
                  lambda: a.xadd(BoardKeys("b2").commands, {"command": "resign"}),
                  lambda: a.set(BoardKeys("b2").session, "{}"),
                  lambda: a.publish(BoardKeys("b2").events, "{}"),
                  lambda: a.get(BoardKeys("b2").session),
                  lambda: a.sadd(BOARDS, "a1"),  # the set is the web app's
                  lambda: a.flushall()):
        with pytest.raises(NOPERM):
            write()
    a.close()


def test_the_web_user_reads_everything_and_writes_only_command_streams(
        hall: tuple[RedisServer, dict[str, str]]) -> None:
    web = login(hall, WEB)
    assert web.xrange(BoardKeys("a1").game("g1"))  # reads a board's game
    web.xadd(BoardKeys("a1").commands, {"command": "hint"})
    web.rpush(AUDIT, "{}")  # the arbiter's log (web/arbiter.py): appended to, nothing more
    web.sadd(BOARDS, "a1")  # the hall's boards: the web app adds them
    # What the console imports and decides: a round, the boards' pairing tags, the arbiter's
    # amendments of a game (kept apart from its log).
    web.set(round_key("3"), "{}")
    web.hset(ROUND_INDEX, round_key("3"), "{}")
    web.hset(BoardKeys("a1").pairing, "White", "Ann")
    web.xadd(BoardKeys("a1").amendments("g1"), {"op": "note", "by": "arbiter", "data": "{}"})
    for write in (lambda: web.xadd(BoardKeys("a1").game("g1"), {"op": "move"}),
                  lambda: web.set(BoardKeys("a1").session, "{}"),
                  lambda: web.delete(BoardKeys("a1").game("g1")),
                  lambda: web.publish(BoardKeys("a1").events, "{}"),
                  lambda: web.ltrim(AUDIT, 0, 0)):
        with pytest.raises(NOPERM):
            write()
    web.close()


def test_the_default_user_needs_the_administrators_password(
        hall: tuple[RedisServer, dict[str, str]]) -> None:
    server, _ = hall
    anonymous = redis.Redis(host="127.0.0.1", port=server.port)
    with pytest.raises(redis.AuthenticationError):
        anonymous.ping()
    assert login(hall, "default").ping()


def test_a_board_records_and_keeps_alive_as_its_own_user(
        hall: tuple[RedisServer, dict[str, str]], tmp_path: Path) -> None:
    store = open_store(url(hall, board_user("a1")), "a1")
    assert not store.joins_hall  # its user cannot write the set: the web app adds it
    game = store.new_game({}, "russian", None, "record", session={"game_id": None, "ply": 0})
    store.append_move(game, MoveRecord(ply=1, pdn="c3-d4", fen_after="x", time=1.0))
    store.publish({"event": "move"})
    assert [m.pdn for m in store.load_game(game).moves] == ["c3-d4"]
    lease_client = redis.Redis.from_url(url(hall, board_user("a1")), decode_responses=True)
    keepalive = KeepAlive(lease_client, "a1", BoardLease(lease_client, "a1"))
    keepalive.lease.acquire()  # type: ignore[union-attr]
    assert keepalive.tick()
    keepalive.close()
    admin = login(hall, "default")
    assert json.loads(admin.get(BoardKeys("a1").alive) or "{}")["state"] == "stopped"
    store.close()
    lease_client.close()
    admin.close()


def test_doctor_checks_the_board_writes_only_its_own_keys(
        hall: tuple[RedisServer, dict[str, str]]) -> None:
    own = check_acl(login(hall, board_user("a1")), "a1", local=False)
    assert own.ok, own
    assert "board-a1" in own.detail
    everyone = check_acl(login(hall, "default"), "a1", local=False)
    assert not everyone.ok and "every board" in everyone.detail
    other = check_acl(login(hall, board_user("b2")), "a1", local=False)  # b2's login on a1
    assert not other.ok


def test_doctor_as_a_board_user_names_what_it_cannot_read(
        hall: tuple[RedisServer, dict[str, str]]) -> None:
    from firmware_host.doctor.redis import check_redis
    from firmware_host.doctor.system import System

    checks = {c.name: c for c in check_redis(url(hall, board_user("a1")), System(), "a1")}
    durable = checks["Redis makes every write durable"]
    assert durable.ok and "ACL" in durable.detail
    assert checks["this board can write only its own keys in Redis"].ok


def test_the_web_app_serves_the_hall_as_its_own_user(
        hall: tuple[RedisServer, dict[str, str]]) -> None:
    from tests.firmware_host.web.harness import WebServer

    server = WebServer(url(hall, WEB)).start()
    admin = login(hall, "default")
    admin.srem(BOARDS, "a1", "b2")
    try:
        status, _, page = server.get("/")
        assert status == 200 and 'id="board-a1"' in page and 'id="board-b2"' in page
        assert {b.decode() for b in admin.smembers(BOARDS)} >= {"a1", "b2"}  # the ACL's boards
        for path in ("/board/a1", "/games"):
            status, _, _ = server.get(path)
            assert status == 200, path
    finally:
        server.stop()
        admin.close()
