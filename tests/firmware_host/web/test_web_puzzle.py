"""The puzzle of the day on the web (the app on fakeredis, the service's clock a test's): the
hall links to it; the page shows one shipped puzzle, the same all day and the next day another,
its diagram from the solver's side, who is to play, and the solution behind a ``<details>``
(no script needed), in the viewer's language; a variant without puzzles is a 404."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime
from typing import Any

import fakeredis.aioredis
from aiohttp.test_utils import TestClient, TestServer

from engine.pdn import line_text
from engine.puzzles import load
from firmware_host.web.app import WebSettings, build_app
from firmware_host.web.auth import Keys
from firmware_host.web.daily import of_the_day

Check = Callable[[TestClient], Awaitable[None]]
NOON = datetime(2026, 12, 6, 12, tzinfo=UTC).timestamp()


def serve(now: float, check: Check, **settings: Any) -> None:
    """Run ``check`` against the app on fakeredis, its clock at ``now`` (``settings``: more
    of its :class:`WebSettings`)."""
    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis()
        app = build_app(WebSettings(keys=Keys("the-control-token-of-the-web-service"),
                                    clock=lambda: now, **settings), client)
        async with TestClient(TestServer(app)) as http:
            await check(http)
        await client.aclose()

    asyncio.run(main())


async def page(http: TestClient, path: str, status: int = 200) -> str:
    reply = await http.get(path)
    assert reply.status == status, path
    return html.unescape(" ".join((await reply.text()).split()))


def shown(text: str) -> str:
    """The ``data-puzzle`` the page shows."""
    found = re.search(r'data-puzzle="([^"]*)"', text)
    assert found is not None
    return found[1]


def test_the_hall_links_to_the_puzzle_of_the_day_which_shows_one_puzzle() -> None:
    async def check(http: TestClient) -> None:
        assert 'href="/puzzle">Puzzle of the day</a>' in await page(http, "/")
        text = await page(http, "/puzzle")
        puzzle = next(p for p in load("international") if p.number == shown(text))
        board = puzzle.board()
        side = "White" if board.turn.name == "WHITE" else "Black"
        assert f"{side} to play and win." in text
        assert f"Difficulty {puzzle.difficulty} of 5" in text
        assert "<time datetime=\"2026-12-06\">2026-12-06</time>" in text
        # The solution is in the page, behind a <details> that opens without a script.
        solution = re.search(r"<details class=\"solution\"><summary>Show the solution</summary>"
                             r"<p class=\"line\">([^<]*)</p></details>", text)
        assert solution is not None and solution[1] == line_text(board, puzzle.line)
        # The diagram holds the puzzle's pieces, seen from the solver's side.
        assert text.count('class="piece') == len(board.pieces())
        assert ('<div class="diagram-box flipped">' in text) is (side == "Black")

    serve(NOON, check)


def test_the_same_puzzle_all_day_everywhere_and_another_on_other_days() -> None:
    seen: list[str] = []

    async def check(http: TestClient) -> None:
        seen.append(shown(await page(http, "/puzzle/russian")))

    for when in (NOON, NOON - 11.9 * 3600, NOON + 11.9 * 3600):  # 00:06 to 23:54 UTC
        serve(when, check)
    russian = load("russian")
    assert seen == [of_the_day(russian, "russian", date(2026, 12, 6)).number] * 3
    # Over a month, many of the 30 are shown: a choice by the date, not always the same one.
    month = {of_the_day(russian, "russian", date(2026, 11, d)).number for d in range(1, 31)}
    assert len(month) >= 12


def test_in_the_viewers_language() -> None:
    async def check(http: TestClient) -> None:
        text = await page(http, "/puzzle/russian?lang=ru")
        assert "Задача дня" in text and "Показать решение" in text
        assert re.search(r"(Белые|Чёрные) начинают и выигрывают\.", text)
        assert re.search(r"Сложность [1-5] из 5", text)
        assert "Задача дня" in await page(http, "/?lang=ru")

    serve(NOON, check)


def test_a_variant_without_puzzles_is_not_found() -> None:
    async def check(http: TestClient) -> None:
        await page(http, "/puzzle/frisian", 404)
        await page(http, "/puzzle/no-such-variant", 404)
        await page(http, "/puzzle/" + "x" * 300, 404)

    serve(NOON, check)
