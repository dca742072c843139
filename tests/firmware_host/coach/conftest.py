"""Fixtures of the coach's tests: the session's real redis-server, emptied for each test."""

from __future__ import annotations

import pytest
import redis

from tests.redis_server import RedisServer


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's real redis-server, emptied for this test."""
    redis.Redis.from_url(redis_server.url).flushall()
    return redis_server.url


@pytest.fixture
def client(redis_url: str) -> redis.Redis:
    return redis.Redis.from_url(redis_url)
