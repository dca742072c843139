"""Every command exits with the one table (docs/architecture.md#errors-and-exit-codes): run with
a bad value, and with Redis down where it uses Redis, each says one line and gives the table's
code (issue 41: the same error exited 2 from one command and 1 from ``run``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host import cli
from firmware_host.cli import firmware
from firmware_host.errors import EXIT_CODES, ExitCode, exit_codes_table
from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
BAD = "chess"  # no variant of the board's

#: Each command with a bad value: what it is given, the exit code the table says.
BAD_VALUE: dict[str, list[str]] = {
    "analyse": ["analyse", "--variant", BAD],
    "bench": ["bench", "no-such-benchmark"],
    "calibrate": ["calibrate", "--variant", BAD, "--sensors", "sim"],
    "demo": ["demo", "--variant", BAD],
    "doctor": ["doctor", "--language", "xx"],
    "egdb": ["egdb", "info", "/nonexistent/egdb_international.bin"],
    "engine": ["engine", "--variant", BAD],
    "firmware": ["firmware", "install", "--settings", "/nonexistent/settings.py"],
    "games": ["games", "list", "--store", "redis://127.0.0.1:notaport/0"],
    "moves": ["moves", "--variant", BAD],
    "perft": ["perft", "--variant", "international", "--depth", "-1"],
    "play": ["play", "--variant", BAD],
    "round": ["round", "export", "--store", "memory"],
    "run": ["run", "--variant", BAD, "--store", "memory"],
    "selftest": ["selftest", "--variant", BAD, "--sensors", "sim"],
    "tune": ["tune", "fit", "--variant", "international", "/nonexistent/positions.jsonl"],
    "web": ["web", "--config", "/nonexistent/board.toml"],
}


def _down() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = cli.main(argv)
    except SystemExit as stop:  # argparse's usage errors
        code = int(stop.code or 0)
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


def test_redis_down_exits_69_where_redis_is_needed(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["games", "list", "--store", _down()],
                 ["round", "export", "--round", "1", "--store", _down()]):
        code, err = _run(argv, capsys)
        assert code == ExitCode.UNAVAILABLE, (argv, err)
        assert (len(err.strip().splitlines()) == 1 and "unreachable" in err) or "Error" in err


def test_redis_down_is_a_failed_check_for_the_doctor(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "board.toml"
    config.write_text(f'[store]\nurl = "{_down()}"\n', encoding="utf-8")
    code, _ = _run(["doctor", "--config", str(config)], capsys)
    assert code == ExitCode.FAILURE


@pytest.mark.logs_errors  # the outage is said once, as an error of the journal
def test_the_service_plays_on_with_redis_down(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    script, config = tmp_path / "moves.txt", tmp_path / "board.toml"
    script.write_text("0 lift 32\n100 place 28\n", encoding="utf-8")
    config.write_text(f'[store]\nspool_dir = "{tmp_path / "spool"}"\n', encoding="utf-8")
    code, err = _run(["run", "--sensors", "sim", "--script", str(script), "--config",
                      str(config), "--games-dir", str(tmp_path / "games"), "--store", _down()],
                     capsys)
    assert code == ExitCode.OK, err  # the move waits in the spool: not an error
    assert list((tmp_path / "spool").glob("*.jsonl"))


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
