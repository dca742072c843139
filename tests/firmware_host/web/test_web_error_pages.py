"""A browser that asks for something that is not there (or not now) gets a page of the site in
its language with the way back; a script keeps the short reply it reads."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.i18n import translator
from firmware_host.web.errors import error_pages
from firmware_host.web.views import Views
from tests.firmware_host.web.harness import BoardRig, WebServer

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.redis
def test_a_missing_board_is_a_page_for_a_browser(web: WebServer,
                                                 make_board: Callable[..., BoardRig]) -> None:
    make_board("here1")
    status, headers, html = web.get("/board/nosuch", BROWSER)
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    assert "<h1>Not found</h1>" in html and "no such board" in html
    assert '<a href="/">Back to the hall</a>' in html and 'class="top"' in html  # the frame
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, _, html = web.get("/no/such/page?lang=ja", BROWSER)
    assert status == 404 and '<html lang="ja">' in html and "<h1>見つかりません</h1>" in html


@pytest.mark.redis
def test_a_script_keeps_its_plain_reply(web: WebServer) -> None:
    status, headers, text = web.get("/board/nosuch", {"Accept": "*/*"})
    assert status == 404 and headers["Content-Type"].startswith("text/plain")
    assert text == "no such board"


def test_redis_away_is_a_page_that_says_when_to_come_back() -> None:
    async def away(request: web.Request) -> web.Response:
        return web.Response(status=503, text="the boards' Redis does not answer",
                            headers={"Retry-After": "5"})

    async def run() -> tuple[int, str, str | None, int, str]:
        app = web.Application(middlewares=[error_pages(Views(), lambda r: translator("ru"))])
        app.router.add_get("/", away)
        async with TestClient(TestServer(app)) as client:
            page = await client.get("/", headers=BROWSER)
            script = await client.get("/", headers={"Accept": "application/json"})
            return (page.status, await page.text(), page.headers.get("Retry-After"),
                    script.status, await script.text())

    status, html, retry, script_status, script_text = asyncio.run(run())
    assert status == 503 and retry == "5"
    assert "<h1>Сейчас недоступно</h1>" in html and "Redis does not answer" in html
    assert (script_status, script_text) == (503, "the boards' Redis does not answer")
