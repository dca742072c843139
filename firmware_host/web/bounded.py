"""The web app's Redis replies, bounded: no reply may cost more than :data:`REPLY_BYTES`.

A board's Redis login writes its own keys as it likes: a stream entry of a hundred megabytes, a
game log of a million entries, a session string of 512 MB. The web app reads those keys for every
page, and a reply read whole is memory the web app's unit does not have (``MemoryMax=160M``). So
every connection of the web app counts the bytes of each reply as they arrive and refuses one
that passes :data:`REPLY_BYTES` (:class:`ReplyTooLarge`, a :class:`~redis.exceptions.RedisError`):
the connection is closed before the rest is read, and the reader that asked skips that key as a
bad record (:mod:`firmware_host.web.reader`) or reads less of it (the live feed's reader:
:mod:`firmware_host.web.fanout`). Honest replies are far smaller: a board page's 400 newest events
are about 0.6 MB at most, a page of a game's log 0.2 MB.

>>> import redis.asyncio
>>> client = bounded(redis.asyncio.Redis())
>>> client.connection_pool.connection_class.__name__
'BoundedConnection'
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import RedisError

from firmware_host.errors import DraughtsboardError

__all__ = ["REPLY_BYTES", "ReplyTooLarge", "bounded"]

#: The largest reply the web app reads (bytes as Redis sends them).
REPLY_BYTES = 2 * 1024 * 1024


class ReplyTooLarge(RedisError, DraughtsboardError):
    """A reply larger than the web app reads: refused, its connection closed."""


class _CountedStream:
    """The connection's stream reader, counting what the reply under way has read."""

    def __init__(self, stream: asyncio.StreamReader, limit: int) -> None:
        self._stream = stream
        self.limit = limit
        self.count = 0

    def _take(self, size: int) -> None:
        self.count += size
        if self.count > self.limit:
            raise ReplyTooLarge(f"a reply of more than {self.limit} bytes: not read")

    async def read(self, size: int = -1) -> bytes:
        data = await self._stream.read(size)
        self._take(len(data))
        return data

    async def readline(self) -> bytes:
        data = await self._stream.readline()
        self._take(len(data))
        return data

    async def readexactly(self, size: int) -> bytes:
        self._take(size)  # before the bytes are read and kept
        return await self._stream.readexactly(size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Bounded:
    """What a bounded connection adds to redis-py's connection class (put before it)."""

    reply_limit = REPLY_BYTES
    _reader: Any

    async def _connect(self) -> None:
        await super()._connect()  # type: ignore[misc]
        if isinstance(self._reader, asyncio.StreamReader):
            self._reader = _CountedStream(self._reader, self.reply_limit)

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        if isinstance(self._reader, _CountedStream):
            self._reader.count = 0
        return await super().read_response(*args, **kwargs)  # type: ignore[misc]


def bounded(client: Redis, limit: int = REPLY_BYTES) -> Redis:
    """``client`` with every new connection's replies bounded to ``limit`` bytes (its pool's
    connection class, whatever it is: TCP, TLS, a Unix socket, a sentinel's primary)."""
    pool = client.connection_pool
    base: type[AbstractConnection] = pool.connection_class
    if not issubclass(base, _Bounded):
        name = "Bounded" + base.__name__.removeprefix("Bounded")
        pool.connection_class = type(name, (_Bounded, base), {"reply_limit": limit})
    return client
