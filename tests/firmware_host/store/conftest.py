"""Fixtures of the store's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from tests.redis_server import RedisServer


@pytest.fixture
def client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """A client of the session's redis-server, its database emptied first (strings decoded)."""
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    client.flushdb()
    yield client
    client.close()
