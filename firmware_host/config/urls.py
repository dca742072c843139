"""The store URL: checked in full when the configuration loads, and shown without its password.

``store.url`` is ``memory`` or a Redis URL as redis-py reads it: ``redis://[[user]:password@]
host[:port][/db]``, ``rediss://`` (TLS) the same, ``unix://[[user]:password@]/path/to.sock``.
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
from urllib.parse import urlsplit

__all__ = ["SCHEMES", "redact_url", "store_url_problem"]

SCHEMES = ("redis", "rediss", "unix")

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
    if not sep or "@" not in rest:
        return url
    userinfo, _, host = rest.rpartition("@")
    user, colon, _ = userinfo.partition(":")
    if not colon:
        return url
    return f"{scheme}://{user}:***@{host}"


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
        return f"must be 'memory' or a redis://, rediss:// or unix:// URL, not {shown}"
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
