"""sd_notify against a real AF_UNIX datagram socket."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.app.notify import Notifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield sock, path
    sock.close()


def test_ready_watchdog_stopping(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    with Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"}) as notifier:
        assert notifier.enabled
        assert notifier.watchdog_interval == 5.0
        assert notifier.ready("board scanned")
        assert sock.recv(256) == b"READY=1\nSTATUS=board scanned"
        assert notifier.watchdog()
        assert sock.recv(256) == b"WATCHDOG=1"
        assert notifier.stopping()
        assert sock.recv(256) == b"STOPPING=1"


def test_abstract_socket() -> None:
    name = f"draughtsboard-test-{id(object())}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        with Notifier({"NOTIFY_SOCKET": "@" + name}) as notifier:
            assert notifier.ready()
            assert sock.recv(64) == b"READY=1"
    finally:
        sock.close()


def test_without_systemd_is_a_no_op() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready()
    assert notifier.watchdog_interval is None
    notifier.close()
    notifier.close()


def test_vanished_socket_is_not_an_error(tmp_path: Path) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.enabled
    assert not notifier.watchdog()
