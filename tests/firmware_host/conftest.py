"""Fixtures of the firmware_host tests: a real Redis server for the integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import RedisServer


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One real redis-server for the session (flush it in tests that need it empty)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real redis-server of this test alone, which the test may stop and restart."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.stop()
