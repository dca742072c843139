"""The store URL: checked in full when the configuration loads, and shown without its password.

``store.url`` is ``memory`` or a Redis URL as redis-py reads it: ``redis://[[user]:password@]
host[:port][/db]``, ``rediss://`` (TLS) the same, ``unix://[[user]:password@]/path/to.sock``, or
a primary watched by Redis Sentinel: ``redis+sentinel://[[user]:password@]HOST:PORT[,HOST:PORT...]/SERVICE[/DB]``
(the sentinels' addresses, port 26379 if left out; the user and password are those of the Redis
servers, ``?password=`` may give the password instead; ``?sentinel_password=`` is the
sentinels' own, when they require one): see :func:`parse_sentinel_url`.
A mistake is found at start, in one sentence that never shows the password; the store would
otherwise fail on its first write, or not at all until Redis is needed.

Example:
    >>> redact_url("redis://:hunter2@pi.local:6379/0")
    'redis://:***@pi.local:6379/0'
    >>> print(store_url_problem("redis://pi.local:6379/0"))
    None
    >>> store_url_problem("redis://:hunter2@pi.local:99999/0")
    "must have a port from 1 to 65535, not 99999 (in 'redis://:***@pi.local:99999/0')"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["SCHEMES", "SENTINEL_PORT", "SENTINEL_SCHEME", "SentinelUrl", "parse_sentinel_url",
           "redact_url", "store_url_problem"]

SENTINEL_SCHEME = "redis+sentinel"
SCHEMES = ("redis", "rediss", "unix", SENTINEL_SCHEME)
#: The port of a sentinel given without one.
SENTINEL_PORT = 26379
_QUERY_KEYS = ("password", "sentinel_password", "sentinel_username")

_HOST = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?"
                   r"(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?")


def redact_url(url: str) -> str:
    """Return ``url`` with any password replaced by ``***``, for logs and messages.

    Works on malformed URLs too: everything between ``user:`` and the last ``@`` is hidden.

    Example:
        >>> redact_url("redis://:p@ss/w0rd@[::1")
        'redis://:***@[::1'
        >>> redact_url("redis://10.0.0.2:6379/0")
        'redis://10.0.0.2:6379/0'
    """
    scheme, sep, rest = url.partition("://")
    rest = re.sub(r"((?:^|[?&])(?:sentinel_)?password=)[^&#]*", r"\1***", rest)
    if not sep or "@" not in rest:
        return scheme + sep + rest
    userinfo, _, host = rest.rpartition("@")
    user, colon, _ = userinfo.partition(":")
    if not colon:
        return scheme + sep + rest
    return f"{scheme}://{user}:***@{host}"


@dataclass(frozen=True)
class SentinelUrl:
    """A ``redis+sentinel://`` URL taken apart: where the sentinels are, which primary they
    watch (``service``), and how to log in to it."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_username: str | None = None
    sentinel_password: str | None = None


def parse_sentinel_url(url: str) -> SentinelUrl:
    """The parts of a ``redis+sentinel://`` URL.

    Example:
        >>> parsed = parse_sentinel_url("redis+sentinel://board7:pw@10.0.0.1,10.0.0.2:26380"
        ...                             "/hall/0?sentinel_password=s")
        >>> parsed.sentinels, parsed.service, parsed.db, parsed.username, parsed.password
        ((('10.0.0.1', 26379), ('10.0.0.2', 26380)), 'hall', 0, 'board7', 'pw')
        >>> parsed.sentinel_password
        's'

    Raises:
        ValueError: the URL is not one, with words that follow ``store.url``.
    """
    shown = repr(redact_url(url))
    scheme, sep, rest = url.partition("://")
    if scheme != SENTINEL_SCHEME or not sep:
        raise ValueError(f"must start with {SENTINEL_SCHEME}:// (in {shown})")
    rest = rest.partition("#")[0]
    rest, _, query = rest.partition("?")
    netloc, slash, path = rest.partition("/")
    userinfo, at, hosts = netloc.rpartition("@")
    if "@" in path:
        raise ValueError(f"is not a valid URL (in {shown}): a / ? # or @ in the password must "
                         "be percent-encoded (%2F %3F %23 %40)")
    username = password = None
    if at:
        user, colon, secret = userinfo.partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon else None
    sentinels = tuple(_sentinel(part, shown) for part in hosts.split(","))
    segments = path.split("/") if slash else []
    if not segments or not segments[0]:
        raise ValueError(f"must name the service the sentinels watch, as in "
                         f"{SENTINEL_SCHEME}://10.0.0.1:26379/hall/0 (in {shown})")
    if len(segments) > 2 or (len(segments) == 2 and not (
            segments[1].isascii() and segments[1].isdigit())):
        raise ValueError(f"must end in /SERVICE or /SERVICE/DB with a database number such as "
                         f"/hall/0 (in {shown})")
    options = {key: values[-1] for key, values in parse_qs(query).items()}
    unknown = sorted(set(options) - set(_QUERY_KEYS))
    if unknown:
        raise ValueError(f"takes only ?{'=, ?'.join(_QUERY_KEYS)}=, not ?{unknown[0]}= "
                         f"(in {shown})")
    return SentinelUrl(
        sentinels, unquote(segments[0]), int(segments[1]) if len(segments) == 2 and
        segments[1] else 0, username, password or options.get("password"),
        options.get("sentinel_username"), options.get("sentinel_password"))


def _sentinel(hostport: str, shown: str) -> tuple[str, int]:
    if not hostport:
        raise ValueError(f"must list the sentinels as HOST:PORT[,HOST:PORT...] (in {shown})")
    if hostport.startswith("["):
        host, _, after = hostport[1:].partition("]")
        port = after[1:] if after.startswith(":") else None
    else:
        host, colon, port_text = hostport.partition(":")
        port = port_text if colon else None
        if not _HOST.fullmatch(host):
            raise ValueError(f"has a malformed sentinel host {host!r} (in {shown})")
    if port is None:
        return host, SENTINEL_PORT
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        number = int(port) if port.isascii() and port.isdigit() else port
        raise ValueError(f"must have a port from 1 to 65535, not {number!r} (in {shown})")
    return host, int(port)


def store_url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as ``store.url``, as words that follow the key, or None.

    Example:
        >>> store_url_problem("redis://h:abc/0")
        "must have a port from 1 to 65535, not 'abc' (in 'redis://h:abc/0')"
        >>> store_url_problem("redis://:pw@[::1")
        "is not a valid URL (in 'redis://:***@[::1'): an IPv6 host goes whole in [ ]"
    """
    if url == "memory":
        return None
    shown = repr(redact_url(url))
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in SCHEMES:
        return (f"must be 'memory' or a redis://, rediss://, unix:// or {SENTINEL_SCHEME}:// "
                f"URL, not {shown}")
    if scheme == SENTINEL_SCHEME:
        try:
            parse_sentinel_url(url)
        except ValueError as exc:
            return str(exc)
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return f"is not a valid URL (in {shown}): an IPv6 host goes whole in [ ]"
    if "@" in rest[len(parts.netloc):]:  # a password cut short by an unencoded / ? or #
        return (f"is not a valid URL (in {shown}): a / ? # or @ in the password must be "
                "percent-encoded (%2F %3F %23 %40)")
    if scheme == "unix":
        return None if parts.path.strip("/") else f"must name the socket's path (in {shown})"
    return _host_problem(parts.netloc.rpartition("@")[2], shown) or _db_problem(parts.path, shown)


def _host_problem(hostport: str, shown: str) -> str | None:
    if hostport.startswith("["):
        host, _, after = hostport[1:].partition("]")
        port = after[1:] if after.startswith(":") else None
        if after and port is None:
            return f"is not a valid URL (in {shown}): text after the [IPv6] host"
    else:
        host, colon, port_text = hostport.partition(":")
        port = port_text if colon else None
        if not host:
            return f"must name a host, as in redis://localhost:6379/0 (in {shown})"
        if not _HOST.fullmatch(host):
            return f"has a malformed host {host!r} (in {shown})"
    if port is not None and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        number = int(port) if port.isascii() and port.isdigit() else port
        return f"must have a port from 1 to 65535, not {number!r} (in {shown})"
    return None


def _db_problem(path: str, shown: str) -> str | None:
    db = path[1:] if path.startswith("/") else path
    if db and not (db.isascii() and db.isdigit()):
        return f"must end in a database number such as /0, not /{db} (in {shown})"
    return None
