"""The store's one outage path: while Redis is away, writes wait in the spool; when it answers,
the spool is flushed in order, exactly once (:mod:`.flush`).

:class:`Outage` knows whether Redis is away (since when, logged once), whether the spool still
holds writes Redis has not taken (the *backlog*), and when to try Redis again: every
:data:`RETRY_SECONDS`, so a write or a read during an outage goes to the spool at once instead
of waiting on a connection timeout each time.

>>> import fakeredis, tempfile, threading
>>> from pathlib import Path
>>> spool = Spool(Path(tempfile.mkdtemp()) / "b.jsonl")
>>> spool.append([{"cmd": "set", "args": ["k", "v"]}])  # left by a run before the restart
>>> client = fakeredis.FakeRedis()
>>> outage = Outage(client, BoardKeys("b"), spool, lock=threading.RLock())
>>> outage.connected
False
>>> outage.execute([("set", ("k", "w"), {})])  # the spool first, in order, then the write
>>> outage.connected, len(spool), client.get("k")
(True, 0, b'w')
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import cast

from firmware_host.store.client import Command, RedisClient, run
from firmware_host.store.errors import StoreUnavailable
from firmware_host.store.keys import BoardKeys
from firmware_host.store.outage.failures import FAILURES, describe_failure
from firmware_host.store.outage.flush import SpoolReplay
from firmware_host.store.outage.replicas import ReplicatedClient, run_confirmed
from firmware_host.store.outage.spool import Spool

__all__ = ["RETRY_SECONDS", "Outage"]

log = logging.getLogger(__name__)

#: How often writes try Redis again during an outage (they go to the spool meanwhile).
RETRY_SECONDS = 2.0


class Outage:
    """The outage state of one store and the flush of its ``spool`` (None: no outage path).

    ``lock`` is the store's: a flush runs under it. ``on_flushed`` is told, under the lock, each
    game a flush touched with its last ``seq`` in Redis.
    """

    def __init__(self, client: RedisClient, keys: BoardKeys, spool: Spool | None, *,
                 lock: threading.RLock, name: str = "Redis",
                 monotonic: Callable[[], float] = time.monotonic,
                 on_flushed: Callable[[dict[str, int]], None] = lambda touched: None,
                 confirm_ms: int | None = None) -> None:
        self.client = client
        #: On a replicated Redis, how long a durable write waits for a replica to confirm it
        #: (:mod:`.replicas`; None: not asked).
        self.confirm_ms = confirm_ms
        self.keys = keys
        self.spool = spool
        self.name = name
        self._lock = lock
        self._monotonic = monotonic
        self._on_flushed = on_flushed
        self.since: float | None = None  # when Redis went away; None while it answers
        self.backlog = spool is not None and len(spool) > 0
        self._next_retry = 0.0
        self._flushing = threading.Lock()  # held by the one flush under way

    @property
    def connected(self) -> bool:
        """False while Redis is away or the spool still holds writes it has not taken."""
        return self.since is None and not self.backlog

    @property
    def away(self) -> bool:
        """Whether Redis failed and has not answered since."""
        return self.since is not None

    def retry_due(self) -> bool:
        """Whether it is time to try Redis again."""
        return self._monotonic() >= self._next_retry

    def unavailable(self, exc: BaseException) -> str:
        """The one line saying Redis failed, and how."""
        return f"{self.name} unreachable: {describe_failure(exc)}"

    def went_down(self, exc: BaseException) -> None:
        """Redis failed: log it (once per outage) and try again in :data:`RETRY_SECONDS`."""
        if self.since is None:
            self.since = self._monotonic()
            log.error("%s; moves wait on disk, in order, until it answers", self.unavailable(exc))
        self._next_retry = self._monotonic() + RETRY_SECONDS

    def execute(self, commands: list[Command], *, sync: bool = True, spoolable: bool = True,
                retry: bool = True) -> None:
        """Run ``commands`` in one MULTI/EXEC, or spool them (in order) while Redis is away or
        the spool is not flushed yet; with ``retry``, try Redis first when the retry is due.
        Call it under the lock.

        Raises:
            StoreUnavailable: Redis failed and there is no spool to hold a record.
        """
        if self.spool is None:
            try:
                run(self.client, commands)
            except FAILURES as exc:
                if spoolable:
                    raise StoreUnavailable(self.unavailable(exc)) from None
            return
        if not self.connected:
            if self.since is None or (retry and self.retry_due()):
                self.flush_locked()
            if not self.connected:
                self.spool_write(commands, sync=sync, spoolable=spoolable)
                return
        try:
            if sync and self.confirm_ms is not None:
                run_confirmed(cast(ReplicatedClient, self.client), commands, self.confirm_ms)
            else:
                run(self.client, commands)
        except FAILURES as exc:
            self.went_down(exc)
            self.spool_write(commands, sync=sync, spoolable=spoolable)

    def spool_write(self, commands: list[Command], *, sync: bool, spoolable: bool) -> None:
        """Keep one transaction in the spool (after every earlier one); ``spoolable=False``
        (live only: a subscriber that was not there has no use for it later) drops it."""
        if self.spool is None:
            raise RuntimeError("spool_write needs a spool")
        if not spoolable:
            return
        self.spool.append([{"cmd": name, "args": list(args), "kwargs": kwargs}
                           for name, args, kwargs in commands], sync=sync)
        self.backlog = True

    def try_flush(self) -> bool:
        """Flush now unless another flush is under way (then False at once); return whether
        no write is left. The ping that finds out whether Redis answers waits outside the lock,
        so other threads keep spooling meanwhile."""
        if not self._flushing.acquire(blocking=False):
            return False  # another thread is flushing: it does what this one would
        try:
            if not self.connected:
                try:
                    self.client.ping()
                except FAILURES as exc:
                    with self._lock:
                        self.went_down(exc)
                    return False
            with self._lock:
                return self.flush_locked()
        finally:
            self._flushing.release()

    def _confirm_flush(self) -> None:
        """A replica holds the flush too: a write on one connection with its ``WAIT`` (the
        flush's marker set again: the replication offset is the primary's, so a replica that
        has this write has every write of the flush before it).

        Raises:
            Unconfirmed, redis.RedisError, OSError: as :func:`~.replicas.run_confirmed`.
        """
        marker = self.client.get(self.keys.spool)
        if isinstance(marker, bytes | str):
            run_confirmed(cast(ReplicatedClient, self.client),
                          [("set", (self.keys.spool, marker), {})], self.confirm_ms or 0)

    def flush_locked(self, force: bool = True) -> bool:
        """Flush under the lock; return whether no write is left. Unless ``force``, not before
        the retry time while Redis is away (a read during an outage answers from the spool at
        once, not after a timeout)."""
        if self.spool is None or self.connected:
            return True
        if not force and self.since is not None and not self.retry_due():
            return False
        entries = self.spool.entries()
        replay = SpoolReplay(self.client, self.keys,
                             self.spool.path.with_suffix(".rejected.jsonl"), self.name)
        try:
            self.client.ping()
            touched = replay.send(entries) if entries else {}
            if entries and self.confirm_ms is not None:
                self._confirm_flush()
        except FAILURES as exc:
            self.went_down(exc)
            return False
        self.spool.clear()
        self.backlog = False
        if self.since is not None:
            log.warning("%s is back after %.0f s: %d pending writes flushed", self.name,
                        self._monotonic() - self.since, len(entries))
            self.since = None
        self._on_flushed(touched)
        return True
