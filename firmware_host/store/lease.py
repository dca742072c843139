"""A lease on the board id in Redis, so two live boards never share one id (and one game).

Every Redis key of a board is prefixed with its id; two boards left at the same id on one Redis
would write one session and one event stream, and a restart could resume the other board's
game. At start the service takes ``draughtsboard:<id>:lease`` with ``SET NX PX`` and a value
naming a random token and its holder (machine id, host name, pid); the keep-alive thread
(:mod:`.keepalive`) refreshes it, it is released at stop, and a service that dies lets it expire
after ``ttl_s``.

A lease left by this machine's previous run of the service (same machine id, its pid no longer
alive: a crash followed by systemd's restart) is taken over at once instead of waited out. While
Redis is unreachable or refuses (read-only, loading, out of memory, a key of the wrong type left
by another program: :data:`~.failures.FAILURES`) the board keeps playing (the store spools),
the lease says so in one line and is taken as soon as Redis answers again.

Every compare-and-act (refresh, take over, release) is a ``WATCH``/``MULTI``/``EXEC``
transaction, not a Lua script: a board's ACL user may run no script (store/acl.py).

Example (fakeredis; the tests use a real redis-server too):
    >>> import fakeredis
    >>> client = fakeredis.FakeRedis()
    >>> first = BoardLease(client, "board1", machine="a", host="pi-a", pid=1)
    >>> first.acquire()
    <LeaseState.HELD: 'held'>
    >>> try:
    ...     BoardLease(client, "board1", machine="b", host="pi-b", pid=2).acquire()
    ... except BoardIdInUse as exc:
    ...     print(str(exc).split(" (")[0])
    board id 'board1' is in use by another live board
"""

from __future__ import annotations

import enum
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import redis

from firmware_host.store.connect import sync_client
from firmware_host.store.errors import StoreError
from firmware_host.store.keys import BoardKeys
from firmware_host.store.outage.failures import FAILURES, describe_failure, failure_kind

__all__ = ["DEFAULT_TTL_S", "BoardIdInUse", "BoardLease", "LeaseClient", "LeaseState",
           "lease_key", "machine_id"]

log = logging.getLogger(__name__)

DEFAULT_TTL_S = 15.0
"""How long a lease outlives its last refresh (the watchdog pings every 5 s)."""

_FAILURES = FAILURES



class BoardIdInUse(StoreError):
    """Another live board holds the lease on this board id; the message is one line."""


class LeaseState(enum.Enum):
    """What :meth:`BoardLease.acquire` or :meth:`BoardLease.refresh` found."""

    HELD = "held"
    """This service holds the lease."""
    UNREACHABLE = "unreachable"
    """Redis did not answer or refused: tried again at the next refresh."""


class LeaseClient(Protocol):
    """The Redis commands the lease uses (redis-py's ``Redis``, or fakeredis)."""

    def set(self, name: str, value: str, *, nx: bool = ..., px: int | None = ...) -> object: ...

    def get(self, name: str) -> object: ...

    def pipeline(self, transaction: bool = ...) -> Any: ...


def lease_key(board_id: str) -> str:
    """The lease's key, beside the board's other keys."""
    return BoardKeys(board_id).lease


def machine_id(path: Path = Path("/etc/machine-id")) -> str:
    """This machine's id (systemd's), or the host name where there is none."""
    try:
        text = path.read_text().strip()
    except OSError:
        text = ""
    return text or socket.gethostname()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


class BoardLease:
    """The lease of one service on ``board_id``.

    ``machine``, ``host``, ``pid``, ``alive`` and ``clock`` are for tests; the defaults are this
    machine, this process and ``time.monotonic``.
    """

    def __init__(self, client: LeaseClient, board_id: str, *, ttl_s: float = DEFAULT_TTL_S,
                 machine: str | None = None, host: str | None = None, pid: int | None = None,
                 alive: Callable[[int], bool] = _alive,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if ttl_s <= 0:
            raise ValueError(f"ttl_s must be positive, got {ttl_s!r}")
        self.board_id = board_id
        self.key = lease_key(board_id)
        self.ttl_ms = max(1, round(ttl_s * 1000))
        self._client = client
        self._machine = machine if machine is not None else machine_id()
        self._host = host if host is not None else socket.gethostname()
        self._pid = pid if pid is not None else os.getpid()
        self._alive = alive
        self._clock = clock
        self.value = json.dumps({
            "token": secrets.token_hex(16), "machine": self._machine, "host": self._host,
            "pid": self._pid, "since": datetime.now(UTC).isoformat(timespec="seconds")})
        self.state: LeaseState | None = None
        self._last = float("-inf")
        self._said: str | None = None  # the failure last logged (one line per kind of failure)

    @classmethod
    def from_url(cls, url: str, board_id: str, *, ttl_s: float = DEFAULT_TTL_S) -> BoardLease:
        """A lease through its own connection to ``url`` (short timeouts: it is refreshed from
        the watchdog ping, which must never wait long)."""
        client = sync_client(url, socket_timeout=1.0, socket_connect_timeout=1.0,
                             decode_responses=True)
        return cls(client, board_id, ttl_s=ttl_s)

    def acquire(self) -> LeaseState:
        """Take the lease (at start).

        Raises:
            BoardIdInUse: another live board holds it.
        """
        self._last = self._clock()
        try:
            self.state = self._take()
        except _FAILURES as exc:
            self.state = self._failed(exc, "taken when it answers")
        return self.state

    def refresh(self) -> LeaseState:
        """Extend the lease; call it with every watchdog ping (it talks to Redis only once a
        third of the time-to-live has passed).

        Raises:
            BoardIdInUse: the lease expired (Redis was away) and another board took it.
        """
        now = self._clock()
        if self.state is LeaseState.HELD and now - self._last < self.ttl_ms / 3000:
            return self.state
        self._last = now
        try:
            extended = self._if_holder(self.value, lambda pipe: pipe.pexpire(self.key,
                                                                             self.ttl_ms))
            self.state = LeaseState.HELD if extended else self._take()
        except _FAILURES as exc:
            self.state = self._failed(exc, "refreshed when it answers")
        else:
            if self._said is not None:
                log.info("board lease: held again")
                self._said = None
        return self.state

    def _failed(self, exc: BaseException, then: str) -> LeaseState:
        """Redis failed the lease: say so once per kind of failure; try again later."""
        said, kind = describe_failure(exc), failure_kind(exc)
        if kind != self._said:
            hint = (f"; {self.key} is not the lease (another program wrote it): "
                    f"redis-cli DEL {self.key}" if "WRONGTYPE" in said else "")
            log.warning("board lease: Redis failed it (%s): %s%s", said, then, hint)
        self._said = kind
        return LeaseState.UNREACHABLE

    def release(self) -> None:
        """Give the lease back (at stop); never raises (a Redis that is away or refuses lets it
        expire)."""
        try:
            self._if_holder(self.value, lambda pipe: pipe.delete(self.key))
        except _FAILURES as exc:
            log.info("board lease: not released (%s): it expires by itself",
                     describe_failure(exc))
        except Exception as exc:  # never from __exit__: the stop must go on
            log.info("board lease: not released (%s): it expires by itself", exc)
        self.state = None

    def close(self) -> None:
        """Same as :meth:`release`."""
        self.release()

    def __enter__(self) -> BoardLease:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def _take(self) -> LeaseState:
        if self._client.set(self.key, self.value, nx=True, px=self.ttl_ms):
            return LeaseState.HELD
        current = _text(self._client.get(self.key))
        if current is None:  # expired between SET and GET
            return self._take()
        holder = self._holder(current)
        if self._is_my_dead_predecessor(holder) and self._if_holder(
                current, lambda pipe: pipe.set(self.key, self.value, px=self.ttl_ms)):
            log.info("board lease: taken over from this machine's previous run (pid %s)",
                     holder.get("pid"))
            return LeaseState.HELD
        raise BoardIdInUse(
            f"board id {self.board_id!r} is in use by another live board (host {self._host} "
            f"sees host {holder.get('host', '?')}, pid {holder.get('pid', '?')}, since "
            f"{holder.get('since', '?')}): give each board its own id (board.id in the config)")

    def _if_holder(self, value: str, act: Callable[[Any], object]) -> bool:
        """Do ``act`` (on a transaction) only if the lease's value is ``value`` when it runs:
        ``WATCH``, ``GET``, then ``MULTI``/``EXEC`` (refused if anyone wrote the key between);
        whether it was done."""
        with self._client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(self.key)
                if _text(pipe.get(self.key)) != value:
                    pipe.unwatch()
                    return False
                pipe.multi()
                act(pipe)
                pipe.execute()
            except redis.WatchError:
                return False
        return True

    @staticmethod
    def _holder(value: str) -> dict[str, object]:
        try:
            holder = json.loads(value)
        except ValueError:
            return {}
        return holder if isinstance(holder, dict) else {}

    def _is_my_dead_predecessor(self, holder: dict[str, object]) -> bool:
        pid = holder.get("pid")
        return (holder.get("machine") == self._machine and isinstance(pid, int)
                and pid != self._pid and not self._alive(pid))
