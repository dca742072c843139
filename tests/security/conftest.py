"""Fixtures of the security suite: a real redis-server, the real web app on it, and raw
records written the way an attacker with Redis write access would (``redis-cli XADD``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.firmware_host.web.conftest import make_board  # noqa: F401 (a fixture here too)
from tests.firmware_host.web.harness import WebServer
from tests.redis_server import RedisServer
from tests.security.records import seed_board


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One real redis-server for the suite (each test flushes it)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The suite's redis-server, emptied for this test."""
    redis.Redis.from_url(redis_server.url).flushall()
    return redis_server.url


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    """A plain client of the test's Redis: the attacker's ``redis-cli``."""
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


@pytest.fixture
def web(redis_url: str) -> Iterator[WebServer]:
    """The real web app (aiohttp, the project's routes and middlewares) on the test's Redis."""
    server = WebServer(redis_url).start()
    yield server
    server.stop()


@pytest.fixture
def good_board(client: redis.Redis) -> str:
    """A healthy board with one game of one move: it must keep working whatever else is
    written."""
    seed_board(client, "good1")
    return "good1"


@pytest.fixture(autouse=True)
def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test in which anything (the web app, aiohttp, the board's threads) logged a
    traceback or an aiohttp 'Error handling request'."""
    yield
    bad = [r for r in caplog.get_records("call")
           if r.exc_info is not None or (r.name.startswith("aiohttp") and r.levelname == "ERROR")]
    if bad:
        pytest.fail("tracebacks logged:\n" + "\n".join(
            f"{r.name}: {r.getMessage()}" for r in bad[:5]), pytrace=False)
