"""Two boards left with one board id on one Redis: the second is refused at start, in one line;
a board restarted after a crash takes its own lease back at once (issue 11)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.firmware_host.recorded_runs import write_config
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


def _board(config: Path, script: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(config), "--board",
         "sim", "--script", str(script), "--realtime", "--events", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _started(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line)["event"] in ("new_game", "resumed"):
            return
    raise AssertionError(f"the board never started: {process.communicate()[1]}")


def test_a_second_board_with_the_same_id_is_refused(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        config = write_config(tmp_path, server, "club-1", "international")
        waiting = tmp_path / "wait.events"
        waiting.write_text("60000 press hint\n")  # the first board stays up meanwhile
        first = _board(config, waiting)
        try:
            _started(first)
            second = subprocess.run(
                [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(config),
                 "--board", "sim", "--script", str(waiting), "--realtime"],
                capture_output=True, text=True, timeout=60)
            assert second.returncode != 0
            lines = second.stderr.strip().splitlines()
            assert len(lines) == 1 and "club-1" in lines[0], second.stderr
            assert "Traceback" not in second.stderr
        finally:
            first.send_signal(signal.SIGKILL)  # a crash: the lease is left behind
            first.wait(timeout=30)
        again = _board(config, waiting)  # the same machine, its old process dead: taken over
        try:
            _started(again)
        finally:
            again.kill()
            again.wait(timeout=30)
    finally:
        server.stop()
