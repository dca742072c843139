"""The board's keep-alive: the board-id lease refreshed and the heartbeat written, on a thread of
their own, whatever Redis answers.

Every :data:`PERIOD_S` the ``board-keepalive`` thread refreshes the lease (:mod:`.lease`) and
writes the heartbeat ``draughtsboard:<id>:alive`` (:meth:`~.keys.BoardKeys.alive`): a JSON
string ``{"time": <unix s>, "state": "running" | "stopped", "pid": <int>}`` with a TTL of
:data:`HEARTBEAT_TTL_S` (it never lingers for ever). A reader calls the board offline when the key
is missing, its state is ``stopped`` or its time is more than :data:`OFFLINE_AFTER_S` old.

Nothing Redis does stops the thread or the board: a Redis that is down, read-only (a failover's
old primary), loading, out of memory, or a key of the wrong type left by another program is said
once per kind of failure (one line), retried with a backoff up to :data:`MAX_BACKOFF_S`, and
said again when it passes. The scan thread never waits on it. :meth:`KeepAlive.close` writes the
heartbeat once more as ``stopped`` and releases the lease; it never raises.

Example (fakeredis: the lease's scripts need a real Redis, so without a lease here):
    >>> import fakeredis, json
    >>> client = fakeredis.FakeRedis()
    >>> keepalive = KeepAlive(client, "board1", None, clock=lambda: 1000.0, pid=7)
    >>> keepalive.beat()
    True
    >>> json.loads(client.get("draughtsboard:board1:alive"))
    {'time': 1000.0, 'state': 'running', 'pid': 7}
    >>> keepalive.close()
    >>> json.loads(client.get("draughtsboard:board1:alive"))["state"]
    'stopped'
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from typing import Protocol

from firmware_host.store.connect import sync_client
from firmware_host.store.keys import BoardKeys
from firmware_host.store.lease import BoardIdInUse, BoardLease, LeaseState
from firmware_host.store.outage.failures import FAILURES, describe_failure, failure_kind

__all__ = ["HEARTBEAT_TTL_S", "MAX_BACKOFF_S", "OFFLINE_AFTER_S", "PERIOD_S", "HeartbeatClient",
           "KeepAlive", "heard"]

log = logging.getLogger(__name__)

#: How often the heartbeat is written and the lease looked after.
PERIOD_S = 5.0
#: A heartbeat older than this says the board is offline.
OFFLINE_AFTER_S = 15.0
#: The heartbeat's time to live: a board that vanished leaves no key for ever.
HEARTBEAT_TTL_S = 7 * 24 * 3600.0
#: The longest wait between tries while Redis fails.
MAX_BACKOFF_S = 30.0
#: The latest Unix time a heartbeat may say (year 5138: ``time.gmtime`` takes it).
MAX_TIME = 1e11


def heard(raw: object, now: float) -> tuple[bool, float | None]:
    """What a heartbeat's value ``raw`` (bytes, str or None) says at Unix time ``now``: whether
    the board's service is running (a heartbeat of ``running`` at most
    :data:`OFFLINE_AFTER_S` old), and when it last beat (None: never, or unreadable).

    >>> heard(b'{"time": 100.0, "state": "running", "pid": 7}', 110.0)
    (True, 100.0)
    >>> heard(b'{"time": 100.0, "state": "stopped"}', 101.0), heard(b"junk", 1.0)
    ((False, 100.0), (False, None))
    """
    try:
        data = json.loads(raw) if isinstance(raw, str | bytes) else None
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        return False, None
    seen = data.get("time")
    if (isinstance(seen, bool) or not isinstance(seen, int | float)
            or not 0 <= seen <= MAX_TIME or not math.isfinite(seen)):
        return False, None  # (1e20 or a 400-digit int: no time anyone can show)
    running = data.get("state") == "running"
    return running and now - float(seen) <= OFFLINE_AFTER_S, float(seen)


class HeartbeatClient(Protocol):
    """The one Redis command the heartbeat needs (redis-py's ``Redis``, or fakeredis)."""

    def set(self, name: str, value: str, *, px: int | None = ...) -> object: ...


class KeepAlive:
    """The keep-alive of one board: ``lease`` (None: no lease, the heartbeat only) and the
    heartbeat through ``client``.

    ``on_lost`` is called from the thread when another board took the id while Redis was away
    (the service stops). ``clock`` (unix time), ``wait`` and ``pid`` are for tests.
    """

    def __init__(self, client: HeartbeatClient, board_id: str, lease: BoardLease | None, *,
                 on_lost: Callable[[BoardIdInUse], None] = lambda exc: None,
                 period_s: float = PERIOD_S, clock: Callable[[], float] = time.time,
                 pid: int | None = None) -> None:
        self.key = BoardKeys(board_id).alive
        self.lease = lease
        self.period_s = period_s
        self._client = client
        #: Told when another board took the id (the service stops).
        self.on_lost = on_lost
        self._clock = clock
        self._pid = os.getpid() if pid is None else pid
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said: str | None = None
        self._failures = 0
        self._closed = False
        self._closing: Callable[[], None] = lambda: None
        #: Set after each round of the thread (tests wait on it).
        self.ticked = threading.Event()

    @classmethod
    def from_url(cls, url: str, board_id: str, *,
                 on_lost: Callable[[BoardIdInUse], None] = lambda exc: None) -> KeepAlive:
        """The lease and the heartbeat of ``board_id`` through one connection of their own to
        ``url`` (short timeouts); the lease is taken here.

        Raises:
            BoardIdInUse: another live board holds the id.
            ValueError: the URL cannot be parsed.
        """
        client = sync_client(url, socket_timeout=1.0, socket_connect_timeout=1.0,
                             decode_responses=True)
        lease = BoardLease(client, board_id)
        try:
            lease.acquire()
        except BoardIdInUse:
            client.close()
            raise
        keepalive = cls(client, board_id, lease, on_lost=on_lost)
        keepalive._closing = client.close
        return keepalive

    def start(self) -> KeepAlive:
        """Start the thread (after the lease was taken at start)."""
        self._thread = threading.Thread(target=self._run, name="board-keepalive", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ok = self.tick()
            except Exception as exc:  # whatever happens, the thread and the board go on
                log.error("keep-alive: %s (%s): tried again", exc, type(exc).__name__)
                ok = False
            self.ticked.set()
            self._stop.wait(self.delay(ok))

    def delay(self, ok: bool) -> float:
        """The wait before the next try: the period, doubled after each failure in a row up to
        :data:`MAX_BACKOFF_S`.

        >>> keepalive = KeepAlive(None, "b", None)  # type: ignore[arg-type]
        >>> [keepalive.delay(False) for _ in range(5)], keepalive.delay(True)
        ([5.0, 10.0, 20.0, 30.0, 30.0], 5.0)
        """
        self._failures = 0 if ok else self._failures + 1
        if ok:
            return self.period_s
        return min(MAX_BACKOFF_S, self.period_s * 2.0 ** (self._failures - 1))

    def tick(self) -> bool:
        """Refresh the lease and write the heartbeat once; return whether Redis took both."""
        if self.lease is not None:
            try:
                self.lease.refresh()
            except BoardIdInUse as exc:
                log.error("%s: stopping", exc)
                self.on_lost(exc)
                self._stop.set()
                return True
        return self.beat() and (self.lease is None or self.lease.state is LeaseState.HELD)

    def beat(self, state: str = "running") -> bool:
        """Write the heartbeat; return whether Redis took it (a failure is logged once)."""
        value = json.dumps({"time": round(self._clock(), 3), "state": state, "pid": self._pid})
        try:
            self._client.set(self.key, value, px=round(HEARTBEAT_TTL_S * 1000))
        except FAILURES as exc:
            kind = failure_kind(exc)
            if kind != self._said:
                log.warning("heartbeat: Redis failed it (%s): written again when it takes it",
                            describe_failure(exc))
            self._said = kind
            return False
        if self._said is not None:
            log.info("heartbeat: written again")
            self._said = None
        return True

    def close(self) -> None:
        """Stop the thread, write ``stopped`` and release the lease; idempotent, never raises."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.beat("stopped")
        except Exception as exc:  # a stop must go on whatever the heartbeat meets
            log.info("heartbeat: not written at stop (%s)", exc)
        if self.lease is not None:
            self.lease.release()
        try:
            self._closing()
        except Exception as exc:  # closing a socket that is gone
            log.debug("keep-alive: closing its connection: %s", exc)

    def __enter__(self) -> KeepAlive:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
