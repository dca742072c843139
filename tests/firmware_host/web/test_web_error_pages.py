"""A browser that asks for something that is not there (or not now) gets a page of the site in
its language with the way back; a script keeps the short reply it reads."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.i18n import LANGUAGES, translator
from firmware_host.web.errors import DETAILS, detail_words, error_pages
from firmware_host.web.views import Views
from tests.firmware_host.web.harness import BoardRig, WebServer

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.redis
def test_a_missing_board_is_a_page_for_a_browser(web: WebServer,
                                                 make_board: Callable[..., BoardRig]) -> None:
    make_board("here1")
    status, headers, html = web.get("/board/nosuch", BROWSER)
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    assert "<h1>Not found</h1>" in html and "There is no such board in this hall." in html
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
        return web.Response(status=503, text="the boards' Redis does not answer: try again in "
                            "a moment", headers={"Retry-After": "5"})

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
    assert "<h1>Сейчас недоступно</h1>" in html and "Redis досок не отвечает" in html
    assert "does not answer" not in html  # the reply's words in the viewer's language too
    assert (script_status, script_text) == (
        503, "the boards' Redis does not answer: try again in a moment")


WEB = Path(__file__).resolve().parents[3] / "firmware_host" / "web"


def _sample(node: ast.expr) -> str | None:
    """A reply the source can write, its variable parts given sample values (``None``: not
    a written-out reply, e.g. ``str(exc)``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                assert isinstance(value, ast.FormattedValue)
                parts.append("'7'" if value.conversion == ord("r") else "7")
        return "".join(parts)
    return None


def _plain_replies() -> list[tuple[str, str]]:
    """Every plain-text error reply written out in the web package: (file:line, reply)."""
    found = []
    for path in sorted(WEB.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            error = node.func.attr.startswith("HTTP") or (
                node.func.attr == "Response" and "status" in keywords
                and "content_type" not in keywords)
            reply = _sample(keywords["text"]) if error and "text" in keywords else None
            if reply is not None:
                found.append((f"{path.name}:{node.lineno}", reply))
    return found


def test_every_reply_the_web_app_writes_has_its_sentence() -> None:
    replies = _plain_replies()
    assert len(replies) >= 20  # the scan finds them (a scan that finds none proves nothing)
    for where, reply in replies:
        assert any(p.fullmatch(reply) for p, _ in DETAILS), f"{where}: {reply!r} not in DETAILS"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_sentence_is_in_the_language_with_its_fields(language: str) -> None:
    tr, english = translator(language), translator("en")
    for where, reply in _plain_replies():
        words, source = detail_words(reply, tr), detail_words(reply, english)
        assert words != source, f"{language}: {where}: {reply!r} untranslated"
        assert ("7" in words) == ("7" in source), f"{language}: {where}: a field lost"
