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
import random
import time
from collections.abc import Callable

import pytest
import redis

from firmware_host.game.types import SessionEvent
from firmware_host.remote.reader import CommandReader, commands_key
from tests.conftest import sample_size
from tests.firmware_host.web.harness import WebServer
from tests.security.hostile import BOARDS, GAMES, dumps, junk, record

pytestmark = pytest.mark.redis

RECORDS = sample_size(450, 10_000)
ROUNDS = sample_size(3, 40)


def _write(rng: random.Random, client: redis.Redis) -> None:
    with contextlib.suppress(redis.ResponseError):  # the key is of another type now
        record(rng, client)


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
    entries: list[Callable[[], object]] = [
        lambda: {"name": dumps(rng, junk(rng)), "time": str(time.time())},
        lambda: {"name": rng.choice(["hint", "header", "level", "resign"]),
                 "value": dumps(rng, junk(rng)), "tag": dumps(rng, junk(rng)),
                 "side": dumps(rng, junk(rng)), "time": dumps(rng, junk(rng))},
        lambda: {dumps(rng, "k"): dumps(rng, junk(rng))},
    ]
    with CommandReader(client, "fz1", posted.append, lambda: 0.0).start() as reader:
        for _ in range(sample_size(300, 5_000)):
            client.xadd(key, rng.choice(entries)())  # type: ignore[arg-type]
        client.xadd(key, {"name": "hint", "time": f"{time.time():.3f}"})
        assert reader.wait_posted(1, 30), "the reader stopped taking commands"
    assert all(str(getattr(p, "name", "")) for p in posted)
