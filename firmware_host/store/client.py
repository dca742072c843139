"""What the store asks of Redis: the commands of a client, and one transaction of commands.

The store is written against :class:`RedisClient`, the few commands it calls directly, so
redis-py's ``Redis`` and fakeredis both serve. Writes are :data:`Command` triples, run in one
MULTI/EXEC by :func:`run` or kept in the spool and replayed later by name.

>>> import fakeredis
>>> client = fakeredis.FakeRedis()
>>> run(client, [("set", ("k", "v"), {}), ("sadd", ("s", "a"), {})])
>>> text(client.get("k")), sorted(text(m) for m in client.smembers("s"))
('v', ['a'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

#: One Redis command of a transaction: its name, positional and keyword arguments.
Command = tuple[str, tuple[object, ...], dict[str, object]]
#: A string as Redis answers it (bytes, or str when the client decodes).
Reply = bytes | str
#: One entry of a stream: its id and its fields.
StreamEntry = tuple[Reply | None, Mapping[Reply, Reply] | None]


class Pipeline(Protocol):
    """The commands the store calls on a pipeline by their names; every other one (``xadd``,
    ``zadd``, ``sadd``, ``publish``, whatever the spool holds) is called by its name as data."""

    def set(self, name: str, value: str) -> object: ...

    def xrevrange(self, name: str, max: str = ..., min: str = ...,
                  count: int | None = ...) -> object: ...

    def xlen(self, name: str) -> object: ...

    def execute(self) -> list[object]: ...


class RedisClient(Protocol):
    """The Redis commands the store calls itself (redis-py's ``Redis``, or fakeredis)."""

    def pipeline(self, transaction: bool = ...) -> Pipeline: ...

    def ping(self) -> object: ...

    def get(self, name: str) -> object: ...

    def set(self, name: str, value: str) -> object: ...

    def xrange(self, name: str) -> Sequence[StreamEntry] | None: ...

    def smembers(self, name: str) -> Iterable[object]: ...

    def zrangebyscore(self, name: str, min: float, max: str) -> Iterable[object]: ...

    def close(self) -> None: ...


def run(client: RedisClient, commands: Iterable[Command]) -> None:
    """Run ``commands`` in one MULTI/EXEC (one round trip).

    Raises:
        redis.RedisError, OSError: Redis failed (see :mod:`.outage.failures`).
    """
    pipe = client.pipeline(transaction=True)
    for name, args, kwargs in commands:
        getattr(pipe, name)(*args, **kwargs)
    pipe.execute()


def text(value: object) -> str:
    """A Redis reply (bytes, or str when the client decodes) as text.

    >>> text(b"seq"), text("seq"), text(3)
    ('seq', 'seq', '3')
    """
    return value.decode() if isinstance(value, bytes) else str(value)
