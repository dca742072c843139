"""A live feed whose client has gone before the response's headers are written: a normal event
(a hall page closed, a browser's retry given up), never a traceback in the web app's log."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from unittest import mock

import pytest
from aiohttp.http_writer import StreamWriter
from aiohttp.test_utils import make_mocked_request
from redis.asyncio import Redis

from firmware_host.web.app import Site, WebSettings
from firmware_host.web.auth import Keys
from firmware_host.web.fanout import Feed


def test_a_feed_whose_client_left_before_the_headers_ends_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    opened: list[Feed] = []

    @asynccontextmanager
    async def open_feed(board: str | None, cursor: dict[str, str]) -> AsyncIterator[Feed]:
        feed = Feed(None, dict(cursor))  # what it missed takes a while to read meanwhile
        opened.append(feed)
        yield feed

    async def run() -> None:
        site = Site(WebSettings(keys=Keys("t" * 32)), Redis(port=1))  # never connected
        site.fanout.open = open_feed  # type: ignore[method-assign]
        transport = mock.Mock()
        transport.is_closing.return_value = True  # the client has closed its connection
        transport.get_extra_info.return_value = ("127.0.0.1", 40000)
        protocol = mock.Mock(transport=transport)
        request = make_mocked_request(
            "GET", "/feed", transport=transport, protocol=protocol,
            writer=StreamWriter(protocol, asyncio.get_running_loop()))
        await site.feed(request)  # raised ClientConnectionResetError: aiohttp's traceback
        assert opened
        assert site.feeds == {}  # its place among the address's feeds is given back

    with caplog.at_level(logging.DEBUG):
        asyncio.run(run())
    assert [r.getMessage() for r in caplog.records if r.levelno > logging.DEBUG] == []
