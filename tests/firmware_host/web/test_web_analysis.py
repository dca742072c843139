"""The coach's analysis on the web (the app on fakeredis): the replay of an analysed game has the
evaluation graph, the marks in its move list and, at a marked move, the better line, each of
its moves a link that shows it on the diagram; the archive says which games are analysed; an
analysis that is damaged, of another game, or of the game before a correction is not shown,
and the page is served as without one."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable

import fakeredis
import fakeredis.aioredis
from aiohttp.test_utils import TestClient, TestServer

from engine.search import StopToken
from firmware_host.coach.analyst import Analyst
from firmware_host.coach.jobs import AnalysisQueue
from firmware_host.store import RedisStore
from firmware_host.store.keys import analysis_key
from firmware_host.web.app import WebSettings, build_app
from firmware_host.web.auth import Keys
from tests.engine.test_analysis import DEPTH, DROP, DROPPED_SHOT, MISS
from tests.firmware_host.session_harness import Rig

Check = Callable[[TestClient], Awaitable[None]]


def played(sync: fakeredis.FakeRedis, moves: list[str], board_id: str = "club-1") -> str:
    """A game of ``moves`` recorded by ``board_id`` and resigned by Black; its id."""
    rig = Rig("international", store=RedisStore(sync, board_id, name="test"))
    for move in moves:
        rig.play(move)
    rig.command("resign", side="black")
    return str(rig.session.game_id)


def analysed(sync: fakeredis.FakeRedis, board_id: str, game_id: str) -> None:
    """The hall's worker analyses the game (as ``draughtsboard coach worker`` does)."""
    queue = AnalysisQueue(sync, "worker-host")
    queue.submit(RedisStore(sync, board_id, name="test").load_game(game_id))
    Analyst(queue, DEPTH, engine="test").work(StopToken(), block_ms=0)


def analysed_game(moves: list[str]) -> tuple[fakeredis.FakeServer, fakeredis.FakeRedis, str]:
    """A hall's Redis holding a game of ``moves`` analysed; the server, a client, the game."""
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    game = played(sync, moves)
    analysed(sync, "club-1", game)
    return server, sync, game


def serve(server: fakeredis.FakeServer, check: Check) -> None:
    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = build_app(WebSettings(keys=Keys("the-control-token-of-the-web-service")), client)
        async with TestClient(TestServer(app)) as http:
            await check(http)
        await client.aclose()

    asyncio.run(main())


async def text(http: TestClient, path: str) -> str:
    page = await http.get(path)
    assert page.status == 200, path
    return " ".join((await page.text()).split())


def test_the_replay_shows_the_graph_the_marks_and_the_better_line() -> None:
    server, _, game = analysed_game(DROPPED_SHOT)

    async def check(http: TestClient) -> None:
        page = await text(http, f"/game/club-1/{game}?ply={MISS + 1}")
        graph = page.split('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 120" '
                           'class="evalgraph"', 1)[1].split("</svg>", 1)[0]
        assert graph.count("<a href=") == len(DROPPED_SHOT) + 1  # the start and every ply
        assert graph.count('class="mark blunder"') == 2
        assert f'<a href="?ply={DROP + 1}"><title>4... 16-21?? ' in graph
        marks = re.findall(r'class="m[^"]* mk blunder" href="\?ply=(\d+)">([^<]+)<b>\?\?</b>',
                           page)
        assert marks == [(str(DROP + 1), "16-21"), (str(MISS + 1), "39-34")]
        assert "Better than 5. 39-34??:" in page
        steps = re.findall(r'href="\?ply=9&amp;line=(\d)">([^<]+)</a>', page)
        assert steps[:3] == [("1", "5. 31-27"), ("2", "5... 22x31"), ("3", "6. 36x16")]
        assert "Analysed by the engine at depth 6." in page
        shot = await text(http, f"/game/club-1/{game}?ply={MISS + 1}&line=3")
        assert '<span class="now better-now">6. 36x16</span>' in shot
        assert 'class="piece white man" data-square="16"' in shot  # the shot, on the diagram
        assert 'data-square="36"' not in shot and 'data-square="22"' not in shot
        assert 'Back to the game' in shot
        russian = await text(http, f"/game/club-1/{game}?ply={MISS + 1}&lang=ru")
        assert "Сильнее, чем 5. 39-34??:" in russian and "грубая ошибка" in russian
        archive = await text(http, "/games?lang=en")
        assert archive.count('<span class="analysed">analysed</span>') == 1

    serve(server, check)


def test_a_better_line_that_is_not_legal_is_cut_where_it_stops_being() -> None:
    server, sync, game = analysed_game(DROPPED_SHOT)
    data = json.loads(sync.get(analysis_key("club-1", game)) or b"")
    data["moves"][MISS]["better"] = ["31-27", "22x31", "36x11", "1-2"]  # written by another
    sync.set(analysis_key("club-1", game), json.dumps(data))

    async def check(http: TestClient) -> None:
        page = await text(http, f"/game/club-1/{game}?ply={MISS + 1}&line=4")
        assert re.findall(r"line=(\d)", page) == ["1", "2"]
        assert '<span class="now better-now">5... 22x31</span>' in page

    serve(server, check)


def test_a_game_not_analysed_says_so_and_has_no_graph() -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    game = played(sync, DROPPED_SHOT[:4])

    async def check(http: TestClient) -> None:
        page = await text(http, f"/game/club-1/{game}?ply=2&line=3")
        assert "evalgraph" not in page and "Not analysed yet." in page and "Better" not in page
        assert 'class="analysed"' not in await text(http, "/games")

    serve(server, check)


def test_an_analysis_that_does_not_fit_is_not_shown() -> None:
    server, sync, game = analysed_game(DROPPED_SHOT)
    good = sync.get(analysis_key("club-1", game))
    assert isinstance(good, bytes)
    other = json.loads(good)
    other["moves"][0]["pdn"] = "31-27"  # of the game before a correction
    cases = {"damaged": b"{not json", "hostile": good.replace(b'"??"', b'"<script>"'),
             "another game's": good.replace(game.encode(), b"20000101-000000-0000"),
             "corrected": json.dumps(other).encode(), "too large": b" " * 300_000 + good}

    async def check(http: TestClient) -> None:
        for name, value in cases.items():
            sync.set(analysis_key("club-1", game), value)
            page = await text(http, f"/game/club-1/{game}?ply=9&line=2")
            assert "evalgraph" not in page and "<script>" not in page, name
            assert "Not analysed yet." in page, name

    serve(server, check)
