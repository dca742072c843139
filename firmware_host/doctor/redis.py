"""Doctor checks: Redis is reachable at ``store.url`` (through the sentinels: which primary they
name), makes every write durable, and lets this board write its own keys only (ACL users).

The store is write-ahead: a move is durable before its LEDs change, which holds only when Redis
keeps an append-only file fsynced on every write (``appendonly yes``, ``appendfsync always``:
``systemd/redis-draughtsboard.conf``).
"""

from __future__ import annotations

import json
from typing import Protocol

import redis

from firmware_host.doctor.network import is_local, redis_host
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import RedisProbe, System
from firmware_host.i18n import N_
from firmware_host.store.connect import is_sentinel, primary_address
from firmware_host.store.keys import BoardKeys
from firmware_host.store.lease import lease_key
from firmware_host.store.urls import redact_url

__all__ = ["AclProbe", "check_acl", "check_redis"]

#: A board id no board has (the config's rule forbids the dots): the ACL probe's other board.
_NOBODY = "doctor.probe"


class AclProbe(Protocol):
    """What the ACL check asks of a client (redis-py's ``Redis``)."""

    def acl_whoami(self) -> object: ...

    def delete(self, *names: str) -> object: ...


def check_acl(client: AclProbe, board_id: str, *, local: bool) -> Check:
    """Whether this board logs in as a user that writes its own keys and no other board's.

    The probe deletes a key no one uses (``draughtsboard:<id>:doctor-probe``, then the same under
    a board id no board can have): harmless when allowed, ``NOPERM`` when the ACL refuses it.
    A Redis on this machine without ACL users passes (one board, nobody else writes to it).
    """
    name = N_("this board can write only its own keys in Redis")
    try:
        user = _text(client.acl_whoami())
    except redis.RedisError as exc:
        return Check(name, False, f"cannot ask Redis who this is: {exc}", N_("check Redis (6+)"))
    try:
        client.delete(BoardKeys(board_id).doctor_probe)
    except redis.exceptions.NoPermissionError:
        return Check(name, False, f"user {user!r} cannot write board {board_id!r}'s keys",
                     f"give the board its own user (board-{board_id}): re-run install.sh on "
                     "the Redis host with DRAUGHTSBOARD_REDIS_ACL (docs/high-availability.md)")
    except redis.RedisError as exc:
        return Check(name, False, f"cannot probe the ACL: {exc}", N_("check Redis"))
    try:
        client.delete(BoardKeys(_NOBODY).doctor_probe)
    except redis.exceptions.NoPermissionError:
        return Check(name, True, f"user {user!r}: its own keys only")
    except redis.RedisError as exc:
        return Check(name, False, f"cannot probe the ACL: {exc}", N_("check Redis"))
    if local:
        return Check(name, True, f"user {user!r} writes every key; Redis is on this machine "
                                 "only (a hall's Redis gives each board a user of its own)")
    return Check(name, False, f"user {user!r} can write every board's keys: whoever has this "
                              "login controls every board",
                 f"give each board its own Redis user: re-run install.sh on the Redis host with "
                 f"DRAUGHTSBOARD_REDIS_ACL, then store.url = \"redis://board-{board_id}:"
                 "PASSWORD@HOST:6379/0\" (docs/high-availability.md)")


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)

_WANTED = {"appendonly": "yes", "appendfsync": "always"}


def _aof(client: RedisProbe, url: str) -> Check:
    name = N_("Redis makes every write durable")
    try:
        found = {key: str(client.config_get(key).get(key, "?")) for key in _WANTED}
    except redis.exceptions.NoPermissionError:  # a board's ACL user: CONFIG is not its to read
        return Check(name, True, N_("not readable with this board's Redis user (ACL: no "
                                    "CONFIG); install.sh sets appendonly yes, appendfsync "
                                    "always on the Redis hosts: run draughtsboard doctor there "
                                    "to see them"))
    except Exception as exc:  # redis-py's ResponseError: CONFIG renamed or not allowed
        return Check(name, False, f"cannot read its settings: {exc}",
                     N_("check appendonly yes and appendfsync always in its redis.conf by "
                        "hand"))
    wrong = {key: value for key, value in found.items() if value != _WANTED[key]}
    settings = ", ".join(f"{key} {value}" for key, value in found.items())
    if wrong:
        return Check(name, False, settings,
                     N_("include systemd/redis-draughtsboard.conf in /etc/redis/redis.conf "
                        "(install.sh does) and restart redis-server; now: redis-cli config set "
                        "appendonly yes && redis-cli config set appendfsync always"))
    return Check(name, True, settings)


def _lease(client: RedisProbe, board_id: str, system: System) -> Check:
    name = N_("no other live board has this board id")
    try:
        value = client.get(lease_key(board_id))
    except Exception as exc:  # redis-py's errors
        return Check(name, False, f"cannot read the lease: {exc}", N_("check Redis"))
    if value is None:
        return Check(name, True, f"board.id {board_id!r} is free")
    try:
        holder = json.loads(value.decode() if isinstance(value, bytes) else str(value))
    except ValueError:
        holder = {}
    if not isinstance(holder, dict):
        holder = {}
    if holder.get("machine") == system.machine():
        return Check(name, True, f"board.id {board_id!r} is held by this machine's service")
    return Check(name, False, f"board.id {board_id!r} is held by host {holder.get('host', '?')} "
                              f"(since {holder.get('since', '?')})",
                 N_("give each board its own board.id in /etc/draughtsboard/draughtsboard.toml "
                    "(unset, it is the host name: give the Pis different host names)"))


def check_redis(url: str, system: System, board_id: str = "board1") -> list[Check]:
    """Reachable (PING), then the AOF settings and the board-id lease; a ``memory`` store fails
    (nothing is kept)."""
    name = N_("Redis is reachable")
    if url == "memory":
        return [Check(name, False, N_("store.url is 'memory': every game is lost at a restart"),
                      N_('set store.url = "redis://127.0.0.1:6379/0" in the config'))]
    try:
        client = system.redis(url)
        client.ping()
    except Exception as exc:  # redis-py's ConnectionError, AuthenticationError, TimeoutError
        return [Check(name, False, f"{redact_url(url)}: {exc}",
                      N_("sudo systemctl enable --now redis-server (or check store.url, its "
                         "password, and that the Redis machine listens on the network)"))]
    detail = redact_url(url)
    if is_sentinel(url) and isinstance(client, redis.Redis):
        try:
            detail += f": the sentinels name the primary {primary_address(client)}"
        except redis.RedisError as exc:
            detail += f": {exc}"
    host = redis_host(url)
    local = not is_sentinel(url) and (host is None or is_local(host))
    checks = [Check(name, True, detail), _aof(client, url), _lease(client, board_id, system)]
    if isinstance(client, redis.Redis):
        checks.append(check_acl(client, board_id, local=local))
    return checks
