"""Every command exits with the one table (docs/architecture.md#errors-and-exit-codes): run with
a bad value, and with Redis down where it uses Redis, each says one line and gives the table's
code (issue 41: the same error exited 2 from one command and 1 from ``run``)."""

from __future__ import annotations

import argparse
import http.client
import io
import logging
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host import cli
from firmware_host.cli import firmware
from firmware_host.errors import EXIT_CODES, ExitCode, exit_codes_table
from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[3]
BAD = "chess"  # no variant of the board's

#: Each command with a bad value: what it is given, the exit code the table says.
BAD_VALUE: dict[str, list[str]] = {
    "analyse": ["analyse", "--variant", BAD],
    "annotate": ["annotate", "/nonexistent/game.pdn"],
    "bench": ["bench", "no-such-benchmark"],
    "calibrate": ["calibrate", "--variant", BAD, "--sensors", "sim"],
    "coach": ["coach", "status", "--store", "redis://127.0.0.1:notaport/0"],
    "demo": ["demo", "--variant", BAD],
    "doctor": ["doctor", "--language", "xx"],
    "egdb": ["egdb", "info", "/nonexistent/egdb_international.bin"],
    "engine": ["engine", "--variant", BAD],
    "firmware": ["firmware", "install", "--settings", "/nonexistent/settings.py"],
    "games": ["games", "list", "--store", "redis://127.0.0.1:notaport/0"],
    "moves": ["moves", "--variant", BAD],
    "perft": ["perft", "--variant", "international", "--depth", "-1"],
    "play": ["play", "--variant", BAD],
    "puzzles": ["puzzles", "list", "--variant", BAD],
    "round": ["round", "export", "--store", "memory"],
    "run": ["run", "--variant", BAD, "--store", "memory"],
    "selftest": ["selftest", "--variant", BAD, "--sensors", "sim"],
    "tune": ["tune", "fit", "--variant", "international", "/nonexistent/positions.jsonl"],
    "web": ["web", "--config", "/nonexistent/board.toml"],
}


def _down() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run one command in this process; the root logger as it was before, after (a command
    sends it to the stderr of its run, as its own process would)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        code = cli.main(argv)
    except SystemExit as stop:  # argparse's usage errors
        code = int(stop.code or 0)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return code, capsys.readouterr().err


def test_every_command_is_in_the_table() -> None:
    assert set(BAD_VALUE) == set(cli.command_names())


@pytest.mark.parametrize("name", sorted(BAD_VALUE))
def test_a_bad_value_exits_2(name: str, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(firmware, "mpremote_command", lambda: ["never-run"])
    code, err = _run(BAD_VALUE[name], capsys)
    assert code == ExitCode.BAD_INPUT, err
    if name != "doctor":  # the doctor's words go to stdout, its report
        assert len(err.strip().splitlines()) >= 1 and "Traceback" not in err


#: Each command with the boards' Redis down (a closed port), named by its configuration file
#: (``{config}``) or its store URL (``{store}``) where it takes one, and the code the table says:
#: what needs Redis to answer says it is unavailable (69), the doctor reports a failed check (1),
#: and what holds its writes on disk or never opens the store goes on (0). The commands that
#: take neither option cannot reach a store (``test_only_the_store_options_reach_redis``).
REDIS_DOWN: dict[str, tuple[list[str], ExitCode]] = {
    "analyse": (["analyse", "--config", "{config}", "--variant", "english", "--depth", "1"],
                ExitCode.OK),
    "annotate": (["annotate", "--depth", "1", "--quiet", "{game}"], ExitCode.OK),
    "bench": (["bench", "--list"], ExitCode.OK),
    "calibrate": (["calibrate", "--config", "{config}", "--sensors", "sim", "--leds", "sim",
                   "--script", "{calibration}"], ExitCode.OK),
    "coach": (["coach", "status", "--store", "{store}"], ExitCode.UNAVAILABLE),
    "demo": (["demo", "--config", "{config}", "--variant", "english", "--moves", "2", "--fast",
              "--games-dir", "{games}"], ExitCode.OK),
    "doctor": (["doctor", "--config", "{config}"], ExitCode.FAILURE),
    "egdb": (["egdb", "info", str(ROOT / "engine" / "data" / "egdb_czech.bin")], ExitCode.OK),
    "engine": (["engine", "--variant", "english"], ExitCode.OK),
    "firmware": (["firmware", "path"], ExitCode.OK),
    "games": (["games", "list", "--store", "{store}"], ExitCode.UNAVAILABLE),
    "moves": (["moves", "--variant", "english"], ExitCode.OK),
    "perft": (["perft", "--variant", "english", "--depth", "1"], ExitCode.OK),
    "play": (["play", "--config", "{config}", "--variant", "english", "--virtual-time",
              "--no-save"], ExitCode.OK),
    "puzzles": (["puzzles", "list", "--variant", "english"], ExitCode.OK),
    "round": (["round", "export", "--round", "1", "--store", "{store}"], ExitCode.UNAVAILABLE),
    "run": (["run", "--sensors", "sim", "--script", "{moves}", "--config", "{config}",
             "--games-dir", "{games}", "--store", "{store}"], ExitCode.OK),
    "selftest": (["selftest", "--config", "{config}", "--sensors", "sim", "--variant",
                  "english", "--seconds", "12", "--script", "{hand}"],
                 ExitCode.FAILURE),  # one square of 32 seen changing: the check fails
    "tune": (["tune", "forget", "--variant", "english", "--write", "{weights}"], ExitCode.OK),
    # web: a server; it serves with Redis down and stops with SIGTERM
    # (test_the_web_app_serves_with_redis_down_and_exits_0).
}


@pytest.fixture
def redis_down(tmp_path: Path) -> dict[str, str]:
    """The files and URL of the Redis-down runs: a store at a closed port."""
    store = _down()
    files = {"config": tmp_path / "board.toml", "calibration": tmp_path / "calibration.txt",
             "hand": tmp_path / "hand.txt", "moves": tmp_path / "moves.txt",
             "weights": tmp_path / "weights.py", "game": tmp_path / "game.pdn"}
    files["config"].write_text(f'[store]\nurl = "{store}"\nspool_dir = "{tmp_path / "spool"}"\n'
                               f'[web]\ntoken_file = "{tmp_path / "web.token"}"\n',
                               encoding="utf-8")
    files["calibration"].write_text("500 place 1\n900 lift 1\n1500 place 50\n1900 lift 50\n"
                                    "2500 place 26\n2900 lift 26\n", encoding="utf-8")
    files["hand"].write_text("10000 place 11\n10200 lift 11\n", encoding="utf-8")
    files["moves"].write_text("0 lift 32\n100 place 28\n", encoding="utf-8")
    files["weights"].write_bytes((ROOT / "engine" / "weights.py").read_bytes())
    files["game"].write_text('[GameType "21"]\n\n1. 11-15 23-19 *\n', encoding="utf-8")
    return {"store": store, "games": str(tmp_path / "games"),
            **{name: str(path) for name, path in files.items()}}


def test_every_command_runs_with_redis_down() -> None:
    assert set(REDIS_DOWN) | {"web"} == set(cli.command_names())


@pytest.mark.logs_errors  # an outage is said once, as an error of the journal
@pytest.mark.parametrize("name", sorted(REDIS_DOWN))
def test_redis_down_exits_as_the_table_says(name: str, redis_down: dict[str, str],
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    argv, expected = REDIS_DOWN[name]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"quit\n")))  # play, engine
    code, err = _run([arg.format(**redis_down) for arg in argv], capsys)
    assert code == expected, err
    if expected == ExitCode.UNAVAILABLE:
        assert len(err.strip().splitlines()) == 1 and "Redis at" in err, err
    assert "Traceback" not in err


@pytest.mark.logs_errors
def test_the_service_holds_its_moves_with_redis_down(redis_down: dict[str, str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    argv, _ = REDIS_DOWN["run"]
    code, err = _run([arg.format(**redis_down) for arg in argv], capsys)
    assert code == ExitCode.OK, err  # the move waits in the spool: not an error
    assert list((Path(redis_down["config"]).parent / "spool").glob("*.jsonl"))


def _parser_of(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)parser that reads ``argv``'s options: ``coach status``'s, not ``coach``'s."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and argv and argv[0] in action.choices:
            return _parser_of(action.choices[argv[0]], argv[1:])
    return parser


def test_only_the_store_options_reach_redis() -> None:
    for name, (argv, _) in REDIS_DOWN.items():
        command = _parser_of(cli.build_parser(), argv)
        flags = {flag for action in command._actions for flag in action.option_strings}
        takes_store = bool(flags & {"--config", "--store"})
        assert takes_store == any(arg in ("{config}", "{store}") for arg in argv), name


def test_a_device_that_does_not_answer_exits_69_from_run(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    config = tmp_path / "board.toml"
    config.write_text(f'[board]\nsensors = "serial"\n[serial]\nport = "{tmp_path / "tty"}"\n'
                      f'connect_timeout_s = 0.2\n[store]\nspool_dir = "{tmp_path / "spool"}"\n',
                      encoding="utf-8")
    code, err = _run(["run", "--config", str(config), "--store", "memory",
                      "--games-dir", str(tmp_path / "games")], capsys)
    assert code == ExitCode.UNAVAILABLE, err
    assert len(err.strip().splitlines()) == 1


def test_the_table_is_documented() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert exit_codes_table() in page, "docs/architecture.md: regenerate the exit codes table"
    documented = {int(code) for code in re.findall(r"^\| (\d+) \|", page, re.MULTILINE)}
    assert {int(code) for code, _ in EXIT_CODES} <= documented


@pytest.mark.logs_errors
def test_the_web_app_serves_with_redis_down_and_exits_0(redis_down: dict[str, str]) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "web", "--config", redis_down["config"],
         "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        assert f"http://127.0.0.1:{port}/" in process.stdout.readline()  # it serves
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/")
        reply = connection.getresponse()
        page = reply.read().decode()
        connection.close()
        assert reply.status == 503 and "Redis" in page, (reply.status, page[:300])
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == ExitCode.OK
        assert "Traceback" not in process.communicate(timeout=5)[1]
    finally:
        process.kill()


def test_the_web_app_on_a_taken_port_exits_69_in_one_line(redis_down: dict[str, str],
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, err = _run(["web", "--config", redis_down["config"], "--listen",
                          f"127.0.0.1:{port}"], capsys)
    assert code == ExitCode.UNAVAILABLE, err
    assert err.splitlines() == [
        f"draughtsboard web: cannot listen on 127.0.0.1:{port}: address already in use "
        "(another program has that port: choose another with --listen 127.0.0.1:PORT)"]


def test_the_web_app_on_an_address_not_of_this_machine_exits_2(
        redis_down: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(["web", "--config", redis_down["config"], "--listen", "192.0.2.1:8080"],
                     capsys)  # TEST-NET-1: an address no machine here has
    assert code == ExitCode.BAD_INPUT, err
    assert err.splitlines() == ["draughtsboard web: cannot listen on 192.0.2.1:8080: cannot "
                                "assign requested address"]
