"""Redis clients from ``store.url``: one Redis server, or the primary that Redis Sentinel names.

Everything that talks to Redis (the store, the board-id lease and the heartbeat, the command
reader, the web app, ``games``, ``doctor``) opens its client here, so a
``redis+sentinel://HOST:PORT[,HOST:PORT...]/SERVICE/DB`` URL works for all of them. A sentinel
client asks the sentinels for the primary at each new connection and drops its connections when
the server answers ``READONLY`` (an old primary turned replica by a failover): the next command
goes to the new primary. Until one is elected, a command fails as a Redis that is down does
(``redis.ConnectionError``), which the store turns into its outage path (the spool).

Every client tries a failed command once more at once, no more (:data:`RETRIES`): redis-py's
own default (ten tries with a growing back-off, some 4.6 s for a refused connection) would hold
the scan thread, the keep-alive and every web request that long at each failure, where the
store has its own retry (the spool, tried again every few seconds). The one retry is what
follows a failover: the dropped connection is opened again to the primary the sentinels name.

Example:
    >>> client = sync_client("redis+sentinel://127.0.0.1:1/hall/0", socket_timeout=1)
    >>> type(client.connection_pool).__name__
    'SentinelConnectionPool'
    >>> print(primary_address(sync_client("redis://10.0.0.2:6380/0")))
    10.0.0.2:6380
"""

from __future__ import annotations

from typing import TypedDict, Unpack, cast

import redis
import redis.asyncio
import redis.asyncio.retry
import redis.asyncio.sentinel
import redis.backoff
import redis.retry
import redis.sentinel

from firmware_host.store.urls import SENTINEL_SCHEME, SentinelUrl, parse_sentinel_url

__all__ = ["RETRIES", "ClientOptions", "async_client", "is_sentinel", "primary_address",
           "sync_client"]

#: How many times a command that failed on its connection is tried again (at once).
RETRIES = 1


def login_user(url: str) -> str | None:
    """The ACL user a Redis URL logs in as (None: the default user).

    >>> login_user("redis://board-b7:pw@10.0.0.1:6379/0"), login_user("redis://:pw@h:6379/0")
    ('board-b7', None)
    >>> login_user("redis+sentinel://board-b7:pw@10.0.0.1:26379/hall/0")
    'board-b7'
    """
    if is_sentinel(url):
        try:
            return parse_sentinel_url(url).username
        except ValueError:
            return None
    from urllib.parse import unquote, urlsplit

    try:
        user = urlsplit(url).username
    except ValueError:
        return None
    return unquote(user) if user else None


def is_sentinel(url: str) -> bool:
    """Whether ``url`` names its Redis through sentinels.

    >>> is_sentinel("redis+sentinel://h:26379/hall/0"), is_sentinel("redis://h/0")
    (True, False)
    """
    return url.startswith(SENTINEL_SCHEME + "://")


class _SentinelOptions(TypedDict, total=False):
    """The options a sentinel connection takes (the caller's timeouts, its own login)."""

    socket_timeout: float
    socket_connect_timeout: float
    retry: redis.retry.Retry | redis.asyncio.retry.Retry
    username: str
    password: str


class ClientOptions(_SentinelOptions, total=False):
    """The options of ``redis.Redis`` the clients here are opened with."""

    decode_responses: bool
    health_check_interval: float


class _PrimaryOptions(ClientOptions, total=False):
    db: int


def _sentinel_kwargs(parsed: SentinelUrl, kwargs: ClientOptions) -> _SentinelOptions:
    """How to talk to the sentinels themselves: their own login, the caller's timeouts."""
    own = _SentinelOptions()
    if "socket_timeout" in kwargs:
        own["socket_timeout"] = kwargs["socket_timeout"]
    if "socket_connect_timeout" in kwargs:
        own["socket_connect_timeout"] = kwargs["socket_connect_timeout"]
    if "retry" in kwargs:
        own["retry"] = kwargs["retry"]
    if parsed.sentinel_username is not None:
        own["username"] = parsed.sentinel_username
    if parsed.sentinel_password is not None:
        own["password"] = parsed.sentinel_password
    return own


def _primary_kwargs(parsed: SentinelUrl, kwargs: ClientOptions) -> _PrimaryOptions:
    own: _PrimaryOptions = {**kwargs, "db": parsed.db}
    if parsed.username is not None:
        own["username"] = parsed.username
    if parsed.password is not None:
        own["password"] = parsed.password
    return own


def sync_client(url: str, **kwargs: Unpack[ClientOptions]) -> redis.Redis:
    """A redis-py client for ``url`` (``kwargs`` as for ``redis.Redis``: timeouts,
    ``decode_responses``); no connection is made here.

    Raises:
        ValueError: the URL cannot be parsed.
    """
    kwargs.setdefault("retry", redis.retry.Retry(redis.backoff.NoBackoff(), RETRIES))
    if not is_sentinel(url):
        return redis.Redis.from_url(url, **kwargs)
    parsed = parse_sentinel_url(url)
    sentinel = redis.sentinel.Sentinel(  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2
        list(parsed.sentinels), sentinel_kwargs=_sentinel_kwargs(parsed, kwargs))
    primary = sentinel.master_for(  # type: ignore[no-untyped-call, unused-ignore]
        parsed.service, **_primary_kwargs(parsed, kwargs))
    return cast(redis.Redis, primary)


def async_client(url: str, **kwargs: Unpack[ClientOptions]) -> redis.asyncio.Redis:
    """The asyncio client of :func:`sync_client` (the web app's).

    Raises:
        ValueError: the URL cannot be parsed.
    """
    kwargs.setdefault("retry", redis.asyncio.retry.Retry(redis.backoff.NoBackoff(), RETRIES))
    if not is_sentinel(url):
        return redis.asyncio.Redis.from_url(url, **kwargs)
    parsed = parse_sentinel_url(url)
    sentinel = redis.asyncio.sentinel.Sentinel(  # type: ignore[no-untyped-call, unused-ignore]
        list(parsed.sentinels), sentinel_kwargs=_sentinel_kwargs(parsed, kwargs))
    primary = sentinel.master_for(
        parsed.service, **_primary_kwargs(parsed, kwargs))
    return cast(redis.asyncio.Redis, primary)


def primary_address(client: redis.Redis) -> str:
    """``host:port`` of the server ``client`` talks to: for a sentinel client, the primary the
    sentinels name now (asked here).

    Raises:
        redis.ConnectionError: no sentinel answers, or none knows a primary.
    """
    pool = client.connection_pool
    if isinstance(pool, redis.sentinel.SentinelConnectionPool):
        host, port = pool.get_master_address()  # type: ignore[no-untyped-call]
        return f"{host}:{port}"
    options = pool.connection_kwargs
    if "path" in options:
        return str(options["path"])
    return f"{options.get('host', 'localhost')}:{options.get('port', 6379)}"
