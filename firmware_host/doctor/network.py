"""Whether the service's sandbox lets it reach its Redis, and the unit drop-in that does.

The unit allows only this machine's addresses (``IPAddressDeny=any``, ``IPAddressAllow=localhost``).
A ``store.url`` on another machine (a central Redis in a tournament hall) needs a drop-in that
allows that host, and, when the URL names the host rather than giving its address, the name
servers that resolve it. ``systemd/install.sh`` writes it with ``python -m
firmware_host.doctor.network --dropin CONFIG``; the doctor checks it is there.

Example:
    >>> redis_host("redis://10.0.0.5:6379/0"), redis_host("unix:///run/redis.sock")
    ('10.0.0.5', None)
    >>> print(dropin_text("redis://10.0.0.5:6379/0"), end="")
    # Written by systemd/install.sh from store.url in /etc/draughtsboard/draughtsboard.toml:
    # the Redis server is on another machine. Re-run install.sh when its address changes.
    [Service]
    IPAddressAllow=10.0.0.5
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from firmware_host.doctor.report import Check
from firmware_host.i18n import N_
from firmware_host.store.urls import parse_sentinel_url

__all__ = ["DROPIN", "Resolver", "allowed_addresses", "check_unit_allows_redis", "dropin_text",
           "is_local", "redis_host", "redis_hosts"]

DROPIN = Path("/etc/systemd/system/draughtsboard.service.d/remote-redis.conf")
"""Where install.sh writes the drop-in."""

Resolver = Callable[[str], list[str]]
"""A host name -> its IP addresses (tests inject a table)."""


def redis_host(url: str) -> str | None:
    """The host of a ``redis://`` or ``rediss://`` URL (the first sentinel's of a
    ``redis+sentinel://`` URL); None for ``memory`` and ``unix://``."""
    hosts = redis_hosts(url)
    return hosts[0] if hosts else None


def redis_hosts(url: str) -> list[str]:
    """Every host the service must reach for ``url``: the Redis host, or each sentinel's (the
    hall's Redis servers run beside their sentinels: docs/high-availability.md).

    >>> redis_hosts("redis+sentinel://10.0.0.1,10.0.0.2:26380/hall/0")
    ['10.0.0.1', '10.0.0.2']
    """
    if url.startswith("redis+sentinel://"):
        try:
            return [host for host, _ in parse_sentinel_url(url).sentinels]
        except ValueError:
            return []
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return []
    return [parts.hostname or "localhost"]


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_local(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost`` or a loopback address).

    Example:
        >>> is_local("localhost"), is_local("127.0.0.1"), is_local("::1"), is_local("hall.lan")
        (True, True, True, False)
    """
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    address = _address(host)
    return address is not None and address.is_loopback


def resolve(host: str) -> list[str]:
    """The addresses ``host`` resolves to here (the system resolver)."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except socket.gaierror:
        return []
    return sorted({str(info[4][0]) for info in infos})


def nameservers(resolv_conf: Path = Path("/etc/resolv.conf")) -> list[str]:
    """The non-loopback name servers of ``resolv_conf`` (the service must reach them too)."""
    try:
        lines = resolv_conf.read_text().splitlines()
    except OSError:
        return []
    found = [line.split()[1] for line in lines
             if line.startswith("nameserver") and len(line.split()) > 1]
    return [server for server in found if not is_local(server)]


def allowed_addresses(url: str, *, resolver: Resolver = resolve,
                      servers: Sequence[str] = ()) -> list[str]:
    """The addresses the unit must allow for ``url``: [] when the Redis is local.

    A host given by name is resolved now (``IPAddressAllow=`` takes addresses only), and the name
    servers are added so that the service can resolve it itself.

    Example:
        >>> allowed_addresses("redis://hall.lan/0", resolver=lambda h: ["192.168.1.20"],
        ...                   servers=["192.168.1.1"])
        ['192.168.1.20', '192.168.1.1']

    Raises:
        ValueError: the host name does not resolve.
    """
    found: list[str] = []
    named = False
    for host in redis_hosts(url):
        if is_local(host):
            continue
        if _address(host) is not None:
            addresses = [host]
        else:
            addresses = resolver(host)
            named = True
            if not addresses:
                raise ValueError(f"store.url: the Redis host {host!r} does not resolve on this "
                                 "machine")
        found += [a for a in addresses if a not in found]
    return [*found, *(s for s in servers if named and s not in found)]


def dropin_text(url: str, *, resolver: Resolver = resolve, servers: Sequence[str] = ()) -> str:
    """The drop-in for ``url``: empty when the Redis is local (no drop-in needed).

    Raises:
        ValueError: the host name does not resolve.
    """
    addresses = allowed_addresses(url, resolver=resolver, servers=servers)
    if not addresses:
        return ""
    return ("# Written by systemd/install.sh from store.url in "
            "/etc/draughtsboard/draughtsboard.toml:\n"
            "# the Redis server is on another machine. Re-run install.sh when its address "
            "changes.\n"
            "[Service]\n"
            f"IPAddressAllow={' '.join(addresses)}\n")


def _allowed_in(dropin: Path) -> set[str]:
    try:
        lines = dropin.read_text().splitlines()
    except OSError:
        return set()
    allowed: set[str] = set()
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "IPAddressAllow":
            allowed.update(value.split())
    return allowed


def check_unit_allows_redis(url: str, *, dropin: Path = DROPIN,
                            resolver: Resolver = resolve) -> Check:
    """PASS when the Redis of ``url`` is local or the unit's drop-in allows its addresses."""
    name = N_("the unit lets the service reach Redis")
    remote = [host for host in redis_hosts(url) if not is_local(host)]
    if not remote:
        return Check.said(name, True,
                          N_("store.url is on this machine (IPAddressAllow=localhost)"))
    host = ", ".join(remote)
    try:
        needed = allowed_addresses(url, resolver=resolver)
    except ValueError as exc:
        return Check.said(name, False, "{error}",
                          N_("use the Redis machine's IP address in store.url"), error=str(exc))
    missing = [address for address in needed if address not in _allowed_in(dropin)]
    if missing:
        return Check.said(name, False, N_("{host} ({addresses}) is not allowed by {dropin}"),
                          N_("re-run sudo systemd/install.sh: it writes the drop-in from "
                             "store.url"), host=host, addresses=", ".join(missing),
                          dropin=str(dropin))
    return Check.said(name, True, N_("{dropin} allows {host}"), dropin=str(dropin), host=host)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_host.doctor.network --dropin CONFIG``: print the drop-in, if any."""
    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.config.schema import STORE_URL

    parser = argparse.ArgumentParser(prog="python -m firmware_host.doctor.network")
    parser.add_argument("--dropin", metavar="CONFIG", required=True,
                        help="print the unit drop-in that store.url in CONFIG needs")
    args = parser.parse_args(argv)
    try:
        url = Config.load(args.dropin)[STORE_URL]
        text = dropin_text(url, servers=nameservers())
    except (ConfigError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
