"""Fixtures of the web tests: a flushed real Redis, the web app, boards on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.firmware_host.web.harness import BoardRig, WebServer
from tests.redis_server import RedisServer


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's real redis-server, emptied for this test."""
    redis.Redis.from_url(redis_server.url).flushall()
    return redis_server.url


@pytest.fixture
def web(redis_url: str, tmp_path: Path) -> Iterator[WebServer]:
    """The web app on the session's Redis, the players' progress records in ``mistakes``."""
    server = WebServer(redis_url, books=tmp_path / "mistakes").start()
    yield server
    server.stop()


@pytest.fixture
def make_board(redis_url: str, tmp_path: Path) -> Iterator[Callable[..., BoardRig]]:
    rigs: list[BoardRig] = []

    def make(board_id: str, **options: Any) -> BoardRig:
        rig = BoardRig(redis_url, board_id, tmp_path / board_id, **options)
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()
