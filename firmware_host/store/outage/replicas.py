"""A move confirmed by a replica before it counts as stored, so a failover cannot lose it.

Redis replicates asynchronously: a primary that acknowledged a move and died a millisecond later
may never have passed it on, and the replica the sentinels promote would not hold it. On a
replicated Redis (a ``redis+sentinel://`` store) every durable write is therefore followed by
``WAIT 1 <ms>``: when no replica confirms it in :data:`CONFIRM_MS`, and the primary has
replicas at all (``ROLE``: with none there is nobody to promote), the write raises
:class:`Unconfirmed`, a connection error: the store takes its outage path, keeps the write in
its spool and flushes it when a replica confirms again. A flush is applied once whatever Redis
then holds (:mod:`.flush`: the write that reached the old primary is recognised, one that the
new primary never got is sent).

>>> issubclass(Unconfirmed, redis.ConnectionError)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import redis

from firmware_host.errors import DraughtsboardError
from firmware_host.store.client import Command

__all__ = ["CONFIRM_MS", "ReplicatedClient", "Unconfirmed", "run_confirmed"]

#: How long a durable write waits for a replica's confirmation.
CONFIRM_MS = 500


class Unconfirmed(redis.ConnectionError, DraughtsboardError):
    """No replica confirmed a write the primary took (the write waits in the spool)."""


class RawPipeline(Protocol):
    """A pipeline without MULTI/EXEC of its own (redis-py's ``transaction=False``)."""

    def execute_command(self, *args: object, **options: object) -> object: ...

    def wait(self, num_replicas: int, timeout: int) -> object: ...

    def execute(self, raise_on_error: bool = ...) -> list[object]: ...


class ReplicatedClient(Protocol):
    """What :func:`run_confirmed` asks of a client (redis-py's ``Redis``)."""

    def pipeline(self, transaction: bool = ...) -> RawPipeline: ...

    def execute_command(self, *args: object, **options: object) -> object: ...


def _replicas(role: object) -> int:
    """How many replicas a ``ROLE`` reply of a primary lists (0 for anything else)."""
    if not isinstance(role, Sequence) or len(role) < 3:
        return 0
    kind = role[0].decode() if isinstance(role[0], bytes) else str(role[0])
    listed = role[2]
    return len(listed) if kind == "master" and isinstance(listed, Sequence) else 0


def run_confirmed(client: ReplicatedClient, commands: Iterable[Command],
                  timeout_ms: int = CONFIRM_MS) -> None:
    """Run ``commands`` in one MULTI/EXEC and ``WAIT`` for a replica, on one connection (WAIT
    counts the writes of its own connection, and inside MULTI it does not wait): ``MULTI``,
    the commands, ``EXEC`` and ``WAIT`` go in one pipeline, one round trip.

    Raises:
        Unconfirmed: the primary has replicas and none confirmed in ``timeout_ms``.
        redis.RedisError, OSError: Redis failed or refused (as :func:`~.client.run` raises).
    """
    pipe = client.pipeline(transaction=False)
    pipe.execute_command("MULTI")
    count = 0
    for name, args, kwargs in commands:
        getattr(pipe, name)(*args, **kwargs)
        count += 1
    pipe.execute_command("EXEC")
    pipe.wait(1, timeout_ms)
    replies = pipe.execute(raise_on_error=False)
    executed = replies[count + 1]
    for reply in [*replies[:count + 1], executed,
                  *(executed if isinstance(executed, list) else [])]:
        if isinstance(reply, Exception):
            raise reply
    if isinstance(replies[-1], Exception):
        raise replies[-1]
    if isinstance(replies[-1], int) and replies[-1] >= 1:
        return
    if _replicas(client.execute_command("ROLE")) == 0:
        return  # a lone primary: no failover can promote a replica that lacks the write
    raise Unconfirmed(f"no replica confirmed the write within {timeout_ms} ms (a failover now "
                      "could lose it)")
