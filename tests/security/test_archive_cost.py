"""The archive's cost is bounded (issue 40): a search for a player nobody is read every game's
log on every request (10.2 s of CPU on a 5,000-game archive, any number of times); now each
game is read once into the archive's index, a request reads only games new or still in play,
a page holds 100 rows, and one address may ask 30 times a minute."""

from __future__ import annotations

import json
import re

import pytest
import redis

from firmware_host.store.keys import BOARDS as HALL_BOARDS
from firmware_host.store.keys import BoardKeys
from firmware_host.web.app import ARCHIVE_PER_MINUTE
from firmware_host.web.archive import NEW_PER_REQUEST, PAGE
from tests.conftest import sample_size
from tests.firmware_host.web.harness import WebServer
from tests.security.records import move_data, op, start_data

pytestmark = pytest.mark.redis

GAMES = sample_size(700, 5_000)
BOARDS = ("ar1", "ar2", "ar3")


def _archive(client: redis.Redis) -> None:
    pipe = client.pipeline(transaction=False)
    for n in range(GAMES):
        board, game = BOARDS[n % len(BOARDS)], f"g{n:05d}"
        pipe.sadd(HALL_BOARDS, board)
        pipe.zadd(BoardKeys(board).games, {game: 1.7e9 + n})
        players = {"White": f"Ann {n}", "Black": "Bob", "Event": f"Club {n % 7}"}
        for fields in (op("start", 1, start_data(board, game, headers=players,
                                                 created=1.7e9 + n)),
                       op("move", 2, move_data()),
                       op("finish", 3, {"result": "1-0", "termination": "resign"})):
            pipe.xadd(BoardKeys(board).game(game), fields)
    pipe.execute()


def _xrange_calls(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return int(stats.get("cmdstat_xrange", {}).get("calls", 0))


def test_a_search_reads_each_game_once_and_a_page_at_a_time(
        redis_url: str, client: redis.Redis) -> None:
    _archive(client)
    web = WebServer(redis_url, rate_per_minute=600).start()
    try:
        for _ in range(-(-GAMES // NEW_PER_REQUEST)):  # the index is read as requests come
            assert web.get("/games?player=nobody")[0] == 200
        before = _xrange_calls(client)
        status, _, page = web.get("/games?player=nobody")
        assert status == 200 and "No game matches" in page
        status, _, page = web.get("/games?player=ann%201&event=club%201")
        assert status == 200
        assert _xrange_calls(client) - before == 0  # no game log read again
        found = [int(n) for n in re.findall(r"Ann (\d+)<", page)]
        wanted = [n for n in reversed(range(GAMES)) if str(n).startswith("1") and n % 7 == 1]
        assert found == wanted[:PAGE]  # newest first; Ann 10 is of Club 3, not Club 1
        status, _, page = web.get("/games")
        assert page.count('name="game"') == PAGE and "page=2" in page
        status, _, page = web.get("/games?page=2")
        assert page.count('name="game"') == PAGE
        statuses = [web.get("/games?player=x")[0] for _ in range(ARCHIVE_PER_MINUTE)]
        assert statuses[-1] == 429  # the address's minute is used up
        assert json.loads(web.get("/health.json")[2])["ok"]
    finally:
        web.stop()
