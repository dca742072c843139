"""How Redis fails the store: which failures are an outage, which refuse a write for good.

Every failure (refused, timed out, wrong password, an error reply: OOM, MISCONF, READONLY, ...)
is one of :data:`FAILURES` and takes the store's one outage path. An error reply that refuses the
write itself (``WRONGTYPE``, a command Redis does not know) is *poison*: no retry passes it, so a
spool flush sets it aside instead of retrying it for ever.

>>> is_poison(redis.ResponseError("WRONGTYPE Operation against a key holding the wrong kind"))
True
>>> is_poison(redis.ResponseError("MISCONF Redis is configured to save RDB snapshots"))
False
"""

from __future__ import annotations

import redis

__all__ = ["FAILURES", "describe_failure", "is_poison"]

#: Every way Redis can fail a write: all take the same outage path.
FAILURES: tuple[type[BaseException], ...] = (
    redis.ConnectionError, redis.TimeoutError, redis.ResponseError, OSError)

#: Error replies that say Redis cannot take writes now: an outage, retried until it can.
_TRANSIENT = ("OOM", "MISCONF", "READONLY", "NOAUTH", "NOPERM", "LOADING", "BUSY", "MASTERDOWN",
              "NOREPLICAS", "TRYAGAIN", "CLUSTERDOWN", "WRONGPASS")


def describe_failure(exc: BaseException) -> str:
    """One line saying how Redis failed (never a password: redis-py's messages hold none).

    >>> describe_failure(redis.TimeoutError("Timeout reading from socket"))
    'timed out (Timeout reading from socket)'
    """
    text = (str(exc).strip().splitlines() or [""])[0]
    if isinstance(exc, redis.AuthenticationError) or "WRONGPASS" in text or "NOAUTH" in text:
        return f"authentication failed, check the password in store.url ({text})"
    if isinstance(exc, redis.TimeoutError):
        return f"timed out ({text})"
    if isinstance(exc, redis.ResponseError):
        return f"it answers with an error: {text}"
    return text or type(exc).__name__


def is_poison(exc: BaseException) -> bool:
    """Whether an error reply refuses the write itself (no retry will pass it)."""
    if not isinstance(exc, redis.ResponseError) or isinstance(
            exc, (redis.exceptions.OutOfMemoryError, redis.exceptions.ReadOnlyError)):
        return False
    words = str(exc).replace(":", " ").split()
    return not any(word in _TRANSIENT for word in words)
