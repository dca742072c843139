"""systemd/redis-hall.sh (install.sh's part for a hall's Redis hosts), run against a scratch
/etc with stand-ins for apt, chgrp and systemctl: what it writes, that a second run changes
nothing, and that redis-server starts with what it wrote (ACL users on)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from firmware_host.store.keys import BoardKeys
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]

HARNESS = r"""
set -euo pipefail
say() { echo "install.sh: $*"; }
install_if_changed() {
  if [ -f "$2" ] && cmp -s "$1" "$2"; then return 1; fi
  install -D -m "$3" "$1" "$2"; return 0
}
chgrp() { :; }
systemctl() { echo "systemctl $*"; }
apt-get() { echo "apt-get $*"; }
dpkg-query() { echo "install ok installed"; }
redis_changed=no
. "$SRC/systemd/redis-hall.sh"
echo "redis_changed=$redis_changed"
"""


def run_hall(etc: Path, build: Path, **variables: str) -> str:
    env = {**os.environ, "DRAUGHTSBOARD_ETC": str(etc), "SRC": str(ROOT), "build": str(build),
           "venv": str(Path(sys.executable).parent.parent), **variables}
    done = subprocess.run(["bash", "-c", HARNESS], env=env, capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def etc(tmp_path: Path) -> Path:
    (tmp_path / "etc" / "redis").mkdir(parents=True)
    (tmp_path / "etc" / "redis" / "redis.conf").write_text("port 6379\n")
    (tmp_path / "etc" / "redis" / "sentinel.conf").write_text("port 26379\nbind 127.0.0.1\n")
    (tmp_path / "build").mkdir()
    return tmp_path / "etc"


def test_a_replica_host_with_acl_and_sentinel(etc: Path, tmp_path: Path) -> None:
    variables = {"DRAUGHTSBOARD_REDIS_BIND": "10.0.0.2", "DRAUGHTSBOARD_REDIS_ACL": "b1 b2",
                 "DRAUGHTSBOARD_REDIS_REPLICAOF": "10.0.0.1",
                 "DRAUGHTSBOARD_SENTINEL": "hall 10.0.0.1 2"}
    out = run_hall(etc, tmp_path / "build", **variables)
    assert "redis_changed=yes" in out and "systemctl restart redis-sentinel" in out
    passwords = dict(line.split() for line in
                     (etc / "draughtsboard" / "redis-passwords").read_text().splitlines())
    assert {"default", "draughtsboard-web", "board-b1", "board-b2"} <= set(passwords)
    hall = (etc / "redis" / "redis-draughtsboard-hall.conf").read_text().splitlines()
    assert "bind 127.0.0.1 -::1 10.0.0.2" in hall
    assert {"maxmemory 1gb", "maxmemory-policy noeviction", "proto-max-bulk-len 1mb"} <= set(hall)
    assert f"masterauth {passwords['draughtsboard-replica']}" in hall
    main = (etc / "redis" / "redis.conf").read_text().splitlines()
    assert main[-2:] == [f"include {etc}/redis/redis-draughtsboard-hall.conf",
                         "replicaof 10.0.0.1 6379"]
    sentinel = (etc / "redis" / "sentinel.conf").read_text()
    assert "sentinel monitor hall 10.0.0.1 6379 2" in sentinel
    assert f"sentinel auth-pass hall {passwords['draughtsboard-sentinel']}" in sentinel
    assert sentinel.count("bind ") == 1 and "bind 127.0.0.1 -::1 10.0.0.2" in sentinel
    # Re-run: nothing changes, nothing restarts, the passwords are kept.
    again = run_hall(etc, tmp_path / "build", **variables)
    assert "redis_changed=no" in again and "restart" not in again
    assert dict(line.split() for line in (etc / "draughtsboard" / "redis-passwords")
                .read_text().splitlines()) == passwords


@pytest.mark.redis
def test_redis_starts_with_what_it_wrote(etc: Path, tmp_path: Path) -> None:
    run_hall(etc, tmp_path / "build", DRAUGHTSBOARD_REDIS_ACL="b1",
             DRAUGHTSBOARD_REDIS_MAXMEMORY="256mb")
    passwords = dict(line.split() for line in
                     (etc / "draughtsboard" / "redis-passwords").read_text().splitlines())
    server = RedisServer(tmp_path / "redis", extra_args=(
        "--include", str(etc / "redis" / "redis-draughtsboard-hall.conf")))
    server.start()
    try:
        board = redis.Redis(port=server.port, username="board-b1", password=passwords["board-b1"])
        board.set(BoardKeys("b1").session, "{}")
        with pytest.raises(redis.exceptions.NoPermissionError):
            board.set(BoardKeys("b2").session, "{}")
        board.close()
        admin = redis.Redis(port=server.port, username="default", password=passwords["default"])
        assert admin.config_get("maxmemory") == {"maxmemory": str(256 * 1024 * 1024)}
        assert admin.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
        admin.close()
    finally:
        server.stop()
