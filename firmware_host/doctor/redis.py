"""Doctor checks: Redis is reachable at ``store.url`` and makes every write durable.

The store is write-ahead: a move is durable before its LEDs change, which holds only when Redis
keeps an append-only file fsynced on every write (``appendonly yes``, ``appendfsync always``:
``systemd/redis-draughtsboard.conf``).
"""

from __future__ import annotations

from firmware_host.config.loader import redact_url
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import RedisProbe, System

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


def check_redis(url: str, system: System) -> list[Check]:
    """Reachable (PING), then the AOF settings; a ``memory`` store fails (nothing is kept)."""
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
    return [Check(name, True, redact_url(url)), _aof(client, url)]
