"""Fixtures of the firmware_host tests: a real Redis server for the integration tests, a small
real filesystem that fills up."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import RedisServer


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One real redis-server for the session (flush it in tests that need it empty)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real redis-server of this test alone, which the test may stop and restart."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (root only): a real filesystem that fills up and can turn read-only."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        if os.environ.get("CI"):  # CI runs as root: no skipping there
            pytest.fail(f"cannot mount a tmpfs: {done.stderr!r}")
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
