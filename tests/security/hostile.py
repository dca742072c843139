"""Random hostile records for the boards' keys: what a writer with Redis access may write (the
random fuzz of test_fuzz.py, and the chaos of a board's stolen login in test_board_login.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import redis

from firmware_host.store.keys import BOARDS as HALL_BOARDS
from firmware_host.store.keys import BoardKeys
from firmware_host.web.reader import SPOKEN
from tests.security.records import move_data, op, start_data

BOARDS = ["fz1", "fz2", "fz3", "fz-4", "F_5"]
GAMES = ["g1", "g2", "20261129-183005-3fa2"]
KINDS = sorted(SPOKEN | {"new_game", "synced", "state", "move", "leds", "touch", "zzz"})


def junk(rng: random.Random, depth: int = 0) -> Any:
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
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["kind", "pieces", "moves", "event", "state", "frame", "ply", "pdn",
                        "reason", "squares", str(junk(rng, 4))]): junk(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def spoil(rng: random.Random, data: dict[str, Any]) -> dict[str, Any]:
    spoiled = dict(data)
    for _ in range(rng.randrange(1, 3)):
        key = rng.choice([*spoiled, "extra"])
        spoiled[key] = junk(rng)
    return spoiled


def dumps(rng: random.Random, data: object) -> str | bytes:
    pick = rng.randrange(20)
    if pick == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if pick == 1:
        return json.dumps(data)[: rng.randrange(1, 20)]  # truncated
    if pick == 2:
        return json.dumps(data).replace("0.5", "NaN").replace("7", "Infinity")
    return json.dumps(data)


def record(rng: random.Random, client: redis.Redis, boards: list[str] = BOARDS,
           games: list[str] = GAMES) -> None:
    """Write one random record."""
    board = rng.choice(boards) if rng.random() < 0.95 else str(junk(rng))[:80]
    game = rng.choice(games)
    pick = rng.randrange(100)
    if pick < 6:
        client.sadd(HALL_BOARDS, board if rng.random() < 0.8 else dumps(rng, junk(rng)))
    elif pick < 12:
        member = game if rng.random() < 0.8 else dumps(rng, junk(rng))
        score = rng.choice([1.7e9, 1e300, -1e300, float("inf"), float("-inf"), 0, -5, 1.8e9])
        client.zadd(BoardKeys(board).games, {member: score})
    elif pick < 45:
        fields: dict[Any, Any]
        shape = rng.randrange(10)
        if shape < 3:
            fields = op("start", rng.randrange(1, 4), start_data(board, game))
            if shape == 0:
                fields["data"] = dumps(rng, spoil(rng, start_data(board, game)))
        elif shape < 7:
            ply = rng.randrange(1, 4)
            fields = op("move", rng.randrange(1, 9), spoil(rng, move_data(ply=ply))
                        if shape < 5 else move_data(ply=ply))
        elif shape == 7:
            fields = op(rng.choice(["takeback", "finish", "headers", "zap"]),
                        rng.randrange(9), {rng.choice(["to_ply", "result", "White", "bad tag",
                                                       "termination"]): junk(rng)})
        else:
            fields = {rng.choice(["op", "seq", "data", "x", "\xff"]): dumps(rng, junk(rng))
                      for _ in range(rng.randrange(1, 4))}
            fields.setdefault("seq", rng.choice(["abc", "-1", "9" * 30, "", "2"]))
        client.xadd(BoardKeys(board).game(game), fields)
    elif pick < 50:
        session = {"game_id": rng.choice([*games, junk(rng)])} if rng.random() < 0.7 \
            else junk(rng)
        client.set(BoardKeys(board).session, dumps(rng, session))
    elif pick < 97:
        message: Any = {"event": rng.choice(KINDS)}
        for _ in range(rng.randrange(5)):
            message[rng.choice(["state", "frame", "game_id", "reason", "reasons", "ply", "pdn",
                                "squares", "missing", "pending", "tag", "value", "plies",
                                "side", "mode", "variant", str(junk(rng))[:20]])] = junk(rng)
        if rng.random() < 0.1:
            message = junk(rng)
        entry = {"event": dumps(rng, message)} if rng.random() < 0.95 else \
            {dumps(rng, "x"): dumps(rng, message)}
        client.xadd(BoardKeys(board).events, entry)
    else:  # a key of the wrong type
        key = rng.choice([BoardKeys(board).events, BoardKeys(board).games,
                          BoardKeys(board).game(game), BoardKeys(board).session])
        client.delete(key)
        rng.choice([lambda: client.hset(key, "a", "b"), lambda: client.sadd(key, "x"),
                    lambda: client.rpush(key, "y"), lambda: client.set(key, "z")])()
