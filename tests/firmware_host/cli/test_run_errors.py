"""``draughtsboard run``: every bad input is one clear line and a non-zero exit, no traceback;
``--events json`` prints only JSON on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.redis_server import RedisServer, free_port

ONE_MOVE = "0 lift 32\n100 place 28\n"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "run", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


def scripted(tmp_path: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    return run_cli("--board", "sim", "--script", str(path), "--variant", "international",
                   "--games-dir", str(tmp_path / "games"), *args)


def assert_one_line(done: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    for text in expected:
        assert text in last, done.stderr


def test_a_bad_fen_in_service_mode() -> None:
    done = run_cli("--board", "sim", "--store", "memory", "--fen", "W:W99:B1")
    assert_one_line(done, "--fen")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("time", ["²00", "99999999999999"])
def test_a_bad_script_time(tmp_path: Path, time: str) -> None:
    done = scripted(tmp_path, f"0 lift 32\n{time} place 28\n", "--store", "memory")
    assert_one_line(done, "line 2", "time")


def spool_config(tmp_path: Path) -> str:
    config = tmp_path / "board.toml"
    config.write_text(f'[store]\nspool_dir = "{tmp_path / "spool"}"\n', encoding="utf-8")
    return str(config)


def test_a_scripted_run_with_redis_down_plays_into_the_spool(tmp_path: Path) -> None:
    done = scripted(tmp_path, ONE_MOVE, "--config", spool_config(tmp_path), "--store",
                    f"redis://:pw@127.0.0.1:{free_port()}/0")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    [outage] = [line for line in done.stderr.splitlines() if "moves wait on disk" in line]
    assert "redis://:***@127.0.0.1" in outage and "pw" not in outage.replace("***", "")
    [spool] = (tmp_path / "spool").glob("*.jsonl")
    assert "32-28" in spool.read_text(encoding="utf-8")  # recorded, waiting for Redis
    [pdn] = (tmp_path / "games").glob("*.pdn")
    assert "32-28" in pdn.read_text(encoding="utf-8")


@pytest.mark.redis
def test_a_scripted_run_with_a_wrong_password(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", password="right")
    server.start()
    try:
        done = scripted(tmp_path, ONE_MOVE, "--config", spool_config(tmp_path), "--store",
                        f"redis://:wrong@127.0.0.1:{server.port}/0")
    finally:
        server.stop()
    assert "Traceback" not in done.stderr, done.stderr
    [outage] = [line for line in done.stderr.splitlines() if "moves wait on disk" in line]
    assert "authentication failed" in outage and "wrong" not in outage.replace("***", "")


def test_a_spool_dir_that_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    config = tmp_path / "board.toml"
    config.write_text(f'[store]\nspool_dir = "{tmp_path / "a-file" / "spool"}"\n',
                      encoding="utf-8")
    done = scripted(tmp_path, ONE_MOVE, "--config", str(config), "--store",
                    f"redis://127.0.0.1:{free_port()}/0")
    assert_one_line(done, "spool_dir", "a-file")


def test_events_json_prints_only_json_on_stdout(tmp_path: Path) -> None:
    done = scripted(tmp_path, ONE_MOVE, "--store", "memory", "--events", "json", "--verbose")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]  # every line is JSON
    assert any(e["event"] == "move" for e in events)
    assert "in memory" in done.stderr  # the logs went to stderr
