"""Where and how the doctor looks at the machine: paths and probes, injected by the tests.

Every check reads the machine only through a :class:`System`, so each failing case can be made
on purpose in a test (a fake ``/dev`` tree, a user without a group, a full disk, a clock that is
not synchronised) while the defaults read the real machine.

Example:
    >>> System().dev_path("/dev/spidev0.0")
    PosixPath('/dev/spidev0.0')
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shutil
import stat
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, cast

from board_io.pins import load_pin_factory
from firmware_host.store.lease import machine_id

__all__ = ["SERVICE_USER", "Node", "RedisProbe", "System", "node_info", "redis_probe",
           "timedatectl_synchronised", "user_groups"]

SERVICE_USER = "draughtsboard"


@dataclass(frozen=True)
class Node:
    """A device node as the permission check needs it (after following symlinks)."""

    path: str
    char: bool
    major: int
    uid: int
    gid: int
    mode: int
    """Permission bits (``0o660``)."""


def node_info(path: Path) -> Node | None:
    """``path`` followed to its node; None when it does not exist."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return Node(os.path.realpath(path), stat.S_ISCHR(info.st_mode), os.major(info.st_rdev),
                info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode))


def user_groups(name: str) -> tuple[int, frozenset[str]] | None:
    """``(uid, the names of the user's groups)``, primary included; None for no such user."""
    try:
        user = pwd.getpwnam(name)
    except KeyError:
        return None
    names = {group.gr_name for group in grp.getgrall() if name in group.gr_mem}
    with contextlib.suppress(KeyError):
        names.add(grp.getgrgid(user.pw_gid).gr_name)
    return user.pw_uid, frozenset(names)


def group_exists(name: str) -> bool:
    """Whether the group ``name`` exists."""
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def group_name(gid: int) -> str:
    """The name of group ``gid`` (its number when it has none)."""
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def timedatectl_synchronised() -> str | None:
    """``timedatectl show -p NTPSynchronized --value`` ("yes"/"no"); None when unavailable."""
    if shutil.which("timedatectl") is None:
        return None
    try:
        result = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                                capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


class RedisProbe(Protocol):
    """What the Redis checks ask of a client (redis-py's ``Redis``)."""

    def ping(self) -> object: ...

    def config_get(self, pattern: str) -> Mapping[str, str]: ...

    def get(self, name: str) -> object: ...


def redis_probe(url: str) -> RedisProbe:
    """A redis-py client for ``url`` with short timeouts."""
    from firmware_host.store.connect import sync_client

    return cast(RedisProbe, sync_client(url, socket_timeout=3, socket_connect_timeout=3,
                                        decode_responses=True))


@dataclass(frozen=True)
class System:
    """The machine as the doctor sees it; every field can be replaced in a test."""

    dev: Path = Path("/dev")
    proc: Path = Path("/proc")
    run: Path = Path("/run")
    unit_dropin: Path = Path("/etc/systemd/system/draughtsboard.service.d/remote-redis.conf")
    user: str = SERVICE_USER
    node: Callable[[Path], Node | None] = node_info
    groups_of: Callable[[str], tuple[int, frozenset[str]] | None] = user_groups
    has_group: Callable[[str], bool] = group_exists
    name_of_group: Callable[[int], str] = group_name
    pin_factory: Callable[[str], object] = load_pin_factory
    ntp: Callable[[], str | None] = timedatectl_synchronised
    disk_free: Callable[[Path], int] = field(default=lambda path: shutil.disk_usage(path).free)
    redis: Callable[[str], RedisProbe] = redis_probe
    machine: Callable[[], str] = machine_id
    """This machine's id, as the board-id lease records it."""
    resolve: Callable[[str], list[str]] | None = None
    """Host name -> addresses for the drop-in check; None: the system resolver."""

    def dev_path(self, node: str) -> Path:
        """Where the node (a ``/dev/...`` path or glob) is under :attr:`dev`."""
        return self.dev / node.removeprefix("/dev/")

    def proc_devices(self) -> dict[int, str]:
        """``/proc/devices``' character devices: major -> class name."""
        try:
            text = (self.proc / "devices").read_text()
        except OSError:
            return {}
        block = text.split("Block devices:")[0]
        majors: dict[int, str] = {}
        for line in block.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit():
                majors[int(parts[0])] = parts[1]
        return majors
