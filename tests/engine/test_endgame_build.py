"""``draughtsboard egdb``: the shipped tables are what the command builds, bit for bit.

In CI the cheapest shipped files are rebuilt (``DRAUGHTSBOARD_SAMPLE=full``: all of them);
then the command's answers to bad input.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from engine.endgame import SHIPPED, table_file_name
from firmware_host.cli import main
from tests.conftest import SAMPLE

REBUILT = sorted(SHIPPED) if SAMPLE == "full" else ["italian", "czech"]


@pytest.mark.parametrize("variant", REBUILT)
def test_the_command_rebuilds_the_shipped_file(variant: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egdb", "build", variant, "--out", str(tmp_path), "--no-verify"]) == 0
    name = table_file_name(variant)
    shipped = resources.files("engine").joinpath("data", name).read_bytes()
    assert (tmp_path / name).read_bytes() == shipped
    assert name in capsys.readouterr().out


def test_build_verify_and_info_on_a_small_table(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egdb", "build", "english", "--pieces", "2", "--out", str(tmp_path)]) == 0
    path = tmp_path / "egdb_english.bin"
    assert main(["egdb", "verify", str(path)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["egdb", "info", str(path)]) == 0
    out = capsys.readouterr().out
    # One king against one king: 32 * 31 placements, each with either side to move.
    assert "up to 2 pieces" in out and "(0, 1, 0, 1):" in out
    line = next(line for line in out.splitlines() if "(0, 1, 0, 1)" in line)
    won, lost, drawn = (int(word) for word in line.split() if word.isdigit())
    assert won + lost + drawn == 2 * 32 * 31


@pytest.mark.parametrize(("argv", "message"), [
    (["egdb", "build", "nosuch", "--out", "x"], "unknown variant"),
    (["egdb", "build", "frisian", "--pieces", "2", "--out", "x"], "cannot describe"),
    (["egdb", "build", "canadian", "--out", "x"], "no shipped piece count"),
    (["egdb", "info", "/nonexistent/egdb.bin"], "No such file"),
])
def test_bad_input_is_one_line(argv: list[str], message: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a if a != "x" else str(tmp_path) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_damaged_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "egdb_english.bin"
    path.write_bytes(b"not a table")
    assert main(["egdb", "verify", str(path)]) == 2
    assert "bad magic" in capsys.readouterr().err
