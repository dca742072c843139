"""Random records into every key the web app and the board read: 0 5xx, 0 tracebacks.

Whoever can write to the boards' Redis can write anything there. This test writes
``DRAUGHTSBOARD_SAMPLE``-many random records (10,000 at full size) the way such a writer would:
members of the boards set and the games sets, entries of game logs and event streams (healthy
ones with one field spoiled, and plain junk: wrong types, huge and non-finite numbers, format
strings, markup, non-UTF-8 bytes), sessions, keys of the wrong type, and command stream
entries for a board's command reader. After every round it loads every page of every board
(the hall, the board pages, the archive, the replays, every PDN): none may answer 5xx, nothing
may log a traceback, and the healthy board stays readable throughout. The command reader must
still take a valid command after the junk.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from firmware_host.game.types import SessionEvent
from firmware_host.remote.commands import CommandReader, commands_key
from firmware_host.web.reader import SPOKEN
from tests.conftest import sample_size
from tests.firmware_host.web.harness import WebServer
from tests.security.records import ROOT, move_data, op, start_data

pytestmark = pytest.mark.redis

RECORDS = sample_size(450, 10_000)
ROUNDS = sample_size(3, 40)
BOARDS = ["fz1", "fz2", "fz3", "fz-4", "F_5"]
GAMES = ["g1", "g2", "20261129-183005-3fa2"]
KINDS = sorted(SPOKEN | {"new_game", "synced", "state", "move", "leds", "touch", "zzz"})


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, biased towards what breaks code: huge, odd, nested."""
    pick = rng.randrange(16)
    if depth > 3:
        pick %= 8
    if pick == 0:
        return rng.choice([0, -1, 1, 2**63, -(2**70), 10**300, 7])
    if pick == 1:
        return rng.choice([1e308, -1e308, 0.5, 1e-320, 3.0e15])
    if pick == 2:
        return rng.choice(["", "x", "{kind:>999999}", "{0}", "{pieces}", "%s%n", "a:b",
                           "<script>alert(1)</script>", "<form action=//evil.example>",
                           "line\nbreak", "\r\nevent: board\r\n", "\u202e\u0000", "é" * 50,
                           "9" * 30, "c3-d4", "W:Wzz:B1", "../../etc/passwd"])
    if pick == 3:
        return rng.choice([True, False, None])
    if pick == 4:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 30)))
    if pick == 5:
        return "x" * rng.choice([100, 1000, 70_000])
    if pick == 6:
        return rng.choice(BOARDS + GAMES)
    if pick == 7:
        return str(rng.randrange(-5, 10**6))
    if pick < 12:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["kind", "pieces", "moves", "event", "state", "frame", "ply", "pdn",
                        "reason", "squares", str(_junk(rng, 4))]): _junk(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def _spoil(rng: random.Random, data: dict[str, Any]) -> dict[str, Any]:
    spoiled = dict(data)
    for _ in range(rng.randrange(1, 3)):
        key = rng.choice([*spoiled, "extra"])
        spoiled[key] = _junk(rng)
    return spoiled


def _dumps(rng: random.Random, data: object) -> str | bytes:
    pick = rng.randrange(20)
    if pick == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if pick == 1:
        return json.dumps(data)[: rng.randrange(1, 20)]  # truncated
    if pick == 2:
        return json.dumps(data).replace("0.5", "NaN").replace("7", "Infinity")
    return json.dumps(data)


def _record(rng: random.Random, client: redis.Redis) -> None:
    """Write one random record."""
    board = rng.choice(BOARDS) if rng.random() < 0.95 else str(_junk(rng))[:80]
    game = rng.choice(GAMES)
    pick = rng.randrange(100)
    if pick < 6:
        client.sadd(f"{ROOT}:boards", board if rng.random() < 0.8 else _dumps(rng, _junk(rng)))
    elif pick < 12:
        member = game if rng.random() < 0.8 else _dumps(rng, _junk(rng))
        score = rng.choice([1.7e9, 1e300, -1e300, float("inf"), float("-inf"), 0, -5, 1.8e9])
        client.zadd(f"{ROOT}:{board}:games", {member: score})
    elif pick < 45:
        fields: dict[Any, Any]
        shape = rng.randrange(10)
        if shape < 3:
            fields = op("start", rng.randrange(1, 4), start_data(board, game))
            if shape == 0:
                fields["data"] = _dumps(rng, _spoil(rng, start_data(board, game)))
        elif shape < 7:
            ply = rng.randrange(1, 4)
            fields = op("move", rng.randrange(1, 9), _spoil(rng, move_data(ply=ply))
                        if shape < 5 else move_data(ply=ply))
        elif shape == 7:
            fields = op(rng.choice(["takeback", "finish", "headers", "zap"]),
                        rng.randrange(9), {rng.choice(["to_ply", "result", "White", "bad tag",
                                                       "termination"]): _junk(rng)})
        else:
            fields = {rng.choice(["op", "seq", "data", "x", "\xff"]): _dumps(rng, _junk(rng))
                      for _ in range(rng.randrange(1, 4))}
            fields.setdefault("seq", rng.choice(["abc", "-1", "9" * 30, "", "2"]))
        client.xadd(f"{ROOT}:{board}:game:{game}", fields)
    elif pick < 50:
        session = {"game_id": rng.choice([*GAMES, _junk(rng)])} if rng.random() < 0.7 \
            else _junk(rng)
        client.set(f"{ROOT}:{board}:session", _dumps(rng, session))
    elif pick < 97:
        message: Any = {"event": rng.choice(KINDS)}
        for _ in range(rng.randrange(5)):
            message[rng.choice(["state", "frame", "game_id", "reason", "reasons", "ply", "pdn",
                                "squares", "missing", "pending", "tag", "value", "plies",
                                "side", "mode", "variant", str(_junk(rng))[:20]])] = _junk(rng)
        if rng.random() < 0.1:
            message = _junk(rng)
        entry = {"event": _dumps(rng, message)} if rng.random() < 0.95 else \
            {_dumps(rng, "x"): _dumps(rng, message)}
        client.xadd(f"{ROOT}:{board}:events", entry)
    else:  # a key of the wrong type
        key = rng.choice([f"{ROOT}:{board}:events", f"{ROOT}:{board}:games",
                          f"{ROOT}:{board}:game:{game}", f"{ROOT}:{board}:session"])
        client.delete(key)
        rng.choice([lambda: client.hset(key, "a", "b"), lambda: client.sadd(key, "x"),
                    lambda: client.rpush(key, "y"), lambda: client.set(key, "z")])()


def _write(rng: random.Random, client: redis.Redis) -> None:
    with contextlib.suppress(redis.ResponseError):  # the key is of another type now
        _record(rng, client)


def _pages(client: redis.Redis) -> list[str]:
    pages = ["/", "/games", "/games.pdn", "/broadcast.pdn", "/games?player=a&variant=russian"]
    for board in BOARDS:
        pages += [f"/board/{board}", f"/broadcast/board/{board}.pdn"]
        pages += [f"/game/{board}/{game}{ext}" for game in GAMES for ext in ("", ".pdn")]
    pages.append("/games.pdn?" + "&".join(f"game={b}/{g}" for b in BOARDS for g in GAMES))
    return pages


@pytest.mark.logs_errors  # the PDN writer logs an ERROR for a record whose moves do not replay
def test_random_records_give_no_5xx_and_no_traceback(client: redis.Redis, web: WebServer,
                                                     good_board: str) -> None:
    rng = random.Random(25)
    statuses: dict[int, int] = {}
    per_round = RECORDS // ROUNDS
    for _ in range(ROUNDS):
        for _ in range(per_round):
            _write(rng, client)
        for page in _pages(client):
            status, _, body = web.get(page)
            statuses[status] = statuses.get(status, 0) + 1
            assert status < 500, (page, status, body[:300])
        status, _, hall = web.get("/")
        assert status == 200 and good_board in hall
        status, _, page = web.get(f"/board/{good_board}")
        assert status == 200 and "c3-d4" in page
    print(f"{RECORDS} records, {sum(statuses.values())} page loads: {statuses}")


def test_the_command_reader_survives_random_entries(client: redis.Redis) -> None:
    rng = random.Random(26)
    key = commands_key("fz1")
    posted: list[SessionEvent] = []
    junk: list[Callable[[], object]] = [
        lambda: {"name": _dumps(rng, _junk(rng)), "time": str(time.time())},
        lambda: {"name": rng.choice(["hint", "header", "level", "resign"]),
                 "value": _dumps(rng, _junk(rng)), "tag": _dumps(rng, _junk(rng)),
                 "side": _dumps(rng, _junk(rng)), "time": _dumps(rng, _junk(rng))},
        lambda: {_dumps(rng, "k"): _dumps(rng, _junk(rng))},
    ]
    with CommandReader(client, "fz1", posted.append, lambda: 0.0).start() as reader:
        for _ in range(sample_size(300, 5_000)):
            client.xadd(key, rng.choice(junk)())  # type: ignore[arg-type]
        client.xadd(key, {"name": "hint", "time": f"{time.time():.3f}"})
        assert reader.wait_posted(1, 30), "the reader stopped taking commands"
    assert all(str(getattr(p, "name", "")) for p in posted)
