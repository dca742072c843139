"""Persistence: the Redis game store (write-ahead), its disk spool, and opening it from a URL.

>>> store = open_store("memory", "board1")
>>> store.board_id
'board1'
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import redis

from firmware_host.config.loader import redact_url
from firmware_host.store.records import GameRecord, MoveRecord, RecordError
from firmware_host.store.redis_store import GameSummary, RedisStore
from firmware_host.store.spool import Spool

__all__ = ["GameRecord", "GameSummary", "MoveRecord", "RecordError", "RedisStore", "Spool",
           "open_store"]

log = logging.getLogger(__name__)


def open_store(
    url: str,
    board_id: str,
    spool_dir: str | Path | None = None,
    on_change: Callable[[GameRecord], None] | None = None,
) -> RedisStore:
    """Open the store named by ``url``: ``memory`` (fakeredis in-process) or a Redis URL.

    The connection is not tried here: a Redis that is down at start is handled like an outage.
    """
    spool = Spool(Path(spool_dir) / f"{board_id}.jsonl") if spool_dir is not None else None
    if url == "memory":
        import fakeredis

        log.warning("store: in memory (fakeredis): games are kept in PDN files only, nothing "
                    "else survives a restart")
        return RedisStore(fakeredis.FakeRedis(), board_id, spool, on_change)
    client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    log.info("store: %s, board %s", redact_url(url), board_id)
    return RedisStore(client, board_id, spool, on_change)
