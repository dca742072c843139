"""Doctor checks: Redis is reachable at ``store.url`` and makes every write durable.

The store is write-ahead: a move is durable before its LEDs change, which holds only when Redis
keeps an append-only file fsynced on every write (``appendonly yes``, ``appendfsync always``:
``systemd/redis-draughtsboard.conf``).
"""

from __future__ import annotations

import json

from firmware_host.config.loader import redact_url
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import RedisProbe, System
from firmware_host.store.lease import lease_key

__all__ = ["check_redis"]

_WANTED = {"appendonly": "yes", "appendfsync": "always"}


def _aof(client: RedisProbe, url: str) -> Check:
    name = "Redis makes every write durable"
    try:
        found = {key: str(client.config_get(key).get(key, "?")) for key in _WANTED}
    except Exception as exc:  # redis-py's ResponseError: CONFIG renamed or not allowed
        return Check(name, False, f"cannot read its settings: {exc}",
                     "check appendonly yes and appendfsync always in its redis.conf by hand")
    wrong = {key: value for key, value in found.items() if value != _WANTED[key]}
    settings = ", ".join(f"{key} {value}" for key, value in found.items())
    if wrong:
        return Check(name, False, settings,
                     "include systemd/redis-draughtsboard.conf in /etc/redis/redis.conf (install.sh"
                     " does) and restart redis-server; now: redis-cli config set appendonly yes "
                     "&& redis-cli config set appendfsync always")
    return Check(name, True, settings)


def _lease(client: RedisProbe, board_id: str, system: System) -> Check:
    name = "no other live board has this board id"
    try:
        value = client.get(lease_key(board_id))
    except Exception as exc:  # redis-py's errors
        return Check(name, False, f"cannot read the lease: {exc}", "check Redis")
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
                 "give each board its own board.id in /etc/draughtsboard/draughtsboard.toml "
                 "(unset, it is the host name: give the Pis different host names)")


def check_redis(url: str, system: System, board_id: str = "board1") -> list[Check]:
    """Reachable (PING), then the AOF settings and the board-id lease; a ``memory`` store fails
    (nothing is kept)."""
    name = "Redis is reachable"
    if url == "memory":
        return [Check(name, False, "store.url is 'memory': every game is lost at a restart",
                      'set store.url = "redis://127.0.0.1:6379/0" in the config')]
    try:
        client = system.redis(url)
        client.ping()
    except Exception as exc:  # redis-py's ConnectionError, AuthenticationError, TimeoutError
        return [Check(name, False, f"{redact_url(url)}: {exc}",
                      "sudo systemctl enable --now redis-server (or check store.url, its "
                      "password, and that the Redis machine listens on the network)")]
    return [Check(name, True, redact_url(url)), _aof(client, url),
            _lease(client, board_id, system)]
