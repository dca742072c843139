"""The ``perft`` and ``moves`` subcommands (contracts used by outside checks)."""

from __future__ import annotations

import json

import pytest

from firmware_host.cli import main


def test_perft_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "international", "--depth", "4", "--json"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert data["variant"] == "international" and data["depth"] == 4
    assert data["nodes"] == 4265 and data["seconds"] >= 0


def test_perft_alias_fen_and_counting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "checkers", "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip() == "302"
    fen = "W:WK23:B10,11,18,19"  # English king that can go round four men either way
    assert main(["perft", "--variant", "english", "--depth", "1", "--fen", fen]) == 0
    assert capsys.readouterr().out.strip() == "1"
    assert main(["perft", "--variant", "english", "--depth", "1", "--fen", fen,
                 "--count", "paths"]) == 0
    assert capsys.readouterr().out.strip() == "2"


def test_moves_json_numeric_and_letters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--variant", "international", "--fen", "W:W28:B23", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"pdn": "28x19", "from": 28, "to": 19, "path": [19], "captures": [23]}
    ]
    assert main(["moves", "--variant", "russian", "--fen", "W:Wc3:Bd4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"pdn": "c3:e5", "from": "c3", "to": "e5", "path": ["e5"], "captures": ["d4"]}
    ]


@pytest.mark.parametrize("argv", [
    ["moves", "--variant", "chess", "--json"],
    ["moves", "--variant", "russian", "--fen", "W:Wz9:B", "--json"],
    ["perft", "--variant", "international", "--depth", "-1"],
    ["perft", "--variant", "international", "--depth", "2", "--fen", "nonsense"],
])
def test_bad_input_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
