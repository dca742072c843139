"""Persistence: the Redis game store (write-ahead), its disk spool, and opening it from a URL.

>>> store = open_store("memory", "board1")
>>> store.board_id
'board1'
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from firmware_host.store.acl import board_id_of_user
from firmware_host.store.connect import is_sentinel, login_user, sync_client
from firmware_host.store.errors import StoreError, StoreUnavailable
from firmware_host.store.outage.failures import describe_failure
from firmware_host.store.outage.local import LocalCopy
from firmware_host.store.outage.replicas import CONFIRM_MS
from firmware_host.store.outage.spool import Spool
from firmware_host.store.reading import GameSummary
from firmware_host.store.records import GameRecord, MoveRecord, RecordError
from firmware_host.store.redis_store import RedisStore

__all__ = ["GameRecord", "GameSummary", "LocalCopy", "MoveRecord", "RecordError", "RedisStore",
           "Spool", "StoreError", "StoreUnavailable", "describe_failure", "open_store",
           "shown_url"]

log = logging.getLogger(__name__)


def shown_url(url: str) -> str:
    """``url`` as it may be printed: the password replaced by ``***``, even in a broken URL.

    >>> shown_url("redis://:pw@127.0.0.1:6379/0")
    'redis://:***@127.0.0.1:6379/0'
    """
    from firmware_host.store.urls import redact_url

    try:
        return redact_url(url)
    except ValueError:
        scheme, sep, rest = url.partition("://")
        if "@" in rest:
            rest = ":***@" + rest.rsplit("@", 1)[1]
        return scheme + sep + rest


def open_store(
    url: str,
    board_id: str,
    spool_dir: str | Path | None = None,
    on_change: Callable[[GameRecord], None] | None = None,
    *,
    background_events: bool | None = None,
) -> RedisStore:
    """Open the store named by ``url``: ``memory`` (fakeredis in-process) or a Redis URL.

    The connection is not tried here: a Redis that is down at start is handled like an outage
    when ``spool_dir`` is given (created if missing), and raises :class:`StoreUnavailable` on
    the first write otherwise. Live events are sent from a thread of their own
    (``background_events``, default: on for Redis, off for ``memory``).

    Raises:
        StoreError: the URL cannot be parsed, or ``spool_dir`` cannot be created or written.
    """
    spool, local = _open_spool(spool_dir, board_id) if spool_dir is not None else (None, None)
    if url == "memory":
        import fakeredis

        log.warning("store: in memory (fakeredis): games are kept in PDN files only, nothing "
                    "else survives a restart")
        return RedisStore(fakeredis.FakeRedis(), board_id, spool, on_change, local=local,
                          name="the in-memory store", background=bool(background_events))
    shown = shown_url(url)
    try:
        client = sync_client(url, socket_timeout=2, socket_connect_timeout=2)
    except ValueError as exc:
        raise StoreError(f"store URL {shown!r} is not valid: {exc}") from None
    log.info("store: %s, board %s", shown, board_id)
    background = True if background_events is None else background_events
    # Behind sentinels a failover promotes a replica: a move counts once a replica has it.
    confirm = CONFIRM_MS if is_sentinel(url) and spool is not None else None
    # A board logged in as its own ACL user cannot write the hall's set: the web app adds it.
    user = login_user(url)
    joins = user is None or board_id_of_user(user) is None
    return RedisStore(client, board_id, spool, on_change, local=local, name=f"Redis at {shown}",
                      background=background, confirm_ms=confirm, joins_hall=joins)


def _open_spool(spool_dir: str | Path, board_id: str) -> tuple[Spool, LocalCopy]:
    directory = Path(spool_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"store.spool_dir {str(directory)!r} cannot be created: "
                         f"{exc.strerror or exc}") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise StoreError(f"store.spool_dir {str(directory)!r} is not writable by this user")
    return (Spool(directory / f"{board_id}.jsonl"),
            LocalCopy(directory / f"{board_id}.state.json"))
