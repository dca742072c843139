"""Runs as the service, inside the draughtsboard unit's sandbox (ExecStart swapped for this file):
opens each device node given on the command line, reads what gpiozero reads in /proc, tries a
local and a remote TCP address, prints one JSON line and sends READY=1 to systemd.

Used by systemd/emulate/sandbox-nspawn.sh. An open that fails with ENXIO went through the
device policy (the kernel here has no driver behind the node); EPERM is the policy refusing it.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys


def open_result(path: str) -> str:
    try:
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, str(exc.errno))
    os.close(fd)
    return "opened"


def connect_result(host: str, port: int) -> str:
    try:
        with socket.create_connection((host, port), timeout=2):
            return "connected"
    except OSError as exc:
        if exc.errno is None:
            return type(exc).__name__
        return errno.errorcode.get(exc.errno, str(exc.errno))


def readable(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            file.read(64)
    except OSError:
        return False
    return True


def notify(message: str) -> None:
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())


def main(argv: list[str]) -> int:
    report = {
        "user": os.getuid(), "groups": sorted(os.getgroups()),
        "devices": {path: open_result(path) for path in argv},
        "/proc/cpuinfo readable": readable("/proc/cpuinfo"),
        "/proc/devices readable": readable("/proc/devices"),
        "redis 127.0.0.1:6379": connect_result("127.0.0.1", 6379),
        "remote 192.0.2.10:6379": connect_result("192.0.2.10", 6379),
    }
    print("PROBE " + json.dumps(report), flush=True)
    notify("READY=1\nSTATUS=probe done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
