"""How Redis fails the store: which failures are an outage, which refuse a write for good.

Every failure (refused, timed out, wrong password, an error reply: OOM, MISCONF, READONLY, ...)
is one of :data:`FAILURES` and takes the store's one outage path. An error reply that refuses the
write itself (``WRONGTYPE``, a command Redis does not know) is *poison*: no retry passes it, so a
spool flush sets it aside instead of retrying it for ever.

>>> is_poison(redis.ResponseError("WRONGTYPE Operation against a key holding the wrong kind"))
True
>>> is_poison(redis.ResponseError("MISCONF Redis is configured to save RDB snapshots"))
False
>>> is_poison(redis.exceptions.NoPermissionError("this user has no permissions",
...                                              status_code="NOPERM"))
False
"""

from __future__ import annotations

import redis

from firmware_host.errors import ExitCode

__all__ = ["FAILURES", "describe_failure", "exit_code_of", "failure_kind", "is_poison"]

#: Every way Redis can fail a write: all take the same outage path.
FAILURES: tuple[type[BaseException], ...] = (
    redis.ConnectionError, redis.TimeoutError, redis.ResponseError, OSError)

#: Error replies that say Redis cannot take writes now: an outage, retried until it can.
_TRANSIENT = ("OOM", "MISCONF", "READONLY", "NOAUTH", "NOPERM", "LOADING", "BUSY", "MASTERDOWN",
              "NOREPLICAS", "TRYAGAIN", "CLUSTERDOWN", "WRONGPASS")


def failure_kind(exc: BaseException) -> str:
    """The error code of an error reply (redis-py keeps it apart from the message), else the
    exception's class name: what a one-line-per-kind log compares.

    >>> failure_kind(redis.exceptions.ReadOnlyError("You can't write", status_code="READONLY"))
    'READONLY'
    >>> failure_kind(redis.ResponseError("WRONGTYPE Operation against a key")), failure_kind(
    ...     redis.ConnectionError("Error 111"))
    ('WRONGTYPE', 'ConnectionError')
    """
    code = getattr(exc, "status_code", None)
    if isinstance(code, str) and code:
        return code
    words = str(exc).split()
    if isinstance(exc, redis.ResponseError) and words and words[0].isupper():
        return words[0]
    return type(exc).__name__


def describe_failure(exc: BaseException) -> str:
    """One line saying how Redis failed (never a password: redis-py's messages hold none).

    >>> describe_failure(redis.TimeoutError("Timeout reading from socket"))
    'timed out (Timeout reading from socket)'
    >>> describe_failure(redis.exceptions.ReadOnlyError("You can't write against a read only "
    ...                                                 "replica.", status_code="READONLY"))
    "it answers with an error: READONLY You can't write against a read only replica."
    """
    text = (str(exc).strip().splitlines() or [""])[0]
    code = getattr(exc, "status_code", None)
    if isinstance(code, str) and code and not text.startswith(code):
        text = f"{code} {text}"
    if isinstance(exc, redis.AuthenticationError) or "WRONGPASS" in text or "NOAUTH" in text:
        return f"authentication failed, check the password in store.url ({text})"
    if isinstance(exc, redis.TimeoutError):
        return f"timed out ({text})"
    if isinstance(exc, redis.ResponseError):
        return f"it answers with an error: {text}"
    return text or type(exc).__name__


def exit_code_of(exc: BaseException) -> ExitCode:
    """A command's exit code for Redis failing it (docs/architecture.md#errors-and-exit-codes):
    unavailable (69) when it is down, times out or cannot take the command now (the outage of
    :data:`FAILURES`), a problem found (1) when it refuses the command itself.

    >>> exit_code_of(redis.ConnectionError("Error 111")), exit_code_of(
    ...     redis.ResponseError("WRONGTYPE Operation against a key"))
    (<ExitCode.UNAVAILABLE: 69>, <ExitCode.FAILURE: 1>)
    """
    return ExitCode.FAILURE if is_poison(exc) else ExitCode.UNAVAILABLE


def is_poison(exc: BaseException) -> bool:
    """Whether an error reply refuses the write itself (no retry will pass it)."""
    if not isinstance(exc, redis.ResponseError) or isinstance(
            exc, (redis.exceptions.OutOfMemoryError, redis.exceptions.ReadOnlyError)):
        return False
    words = [failure_kind(exc), *str(exc).replace(":", " ").split()]
    return not any(word in _TRANSIENT for word in words)
