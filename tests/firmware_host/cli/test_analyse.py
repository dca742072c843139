"""``draughtsboard analyse``: best move and figures, a JSON last line, clear errors."""

from __future__ import annotations

import json

import pytest

from engine import Board
from firmware_host.cli import main


def test_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--variant", "russian", "--depth", "4", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(lines[-1])
    assert set(summary) == {"move", "score", "depth", "nodes", "nps", "seconds", "engine"}
    assert summary["engine"] == "draughtsboard"
    assert summary["depth"] == 4 and summary["nodes"] > 0
    board = Board("russian")
    assert board.parse_move(summary["move"]) in board.legal_moves
    assert lines[0].startswith(f"best move {summary['move']}")


def test_finds_the_shot_from_a_fen(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "W:Wd2,d4,e1,f2,g1,h6:Bb6,b8,d6,f6,f8,h2"
    assert main(["analyse", "--variant", "russian", "--fen", fen, "--depth", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["move"] == "f2-g3"


def test_level_and_movetime(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--variant", "english", "--level", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["depth"] <= 2
    assert main(["analyse", "--variant", "english", "--movetime", "0.2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["seconds"] < 0.5


def test_game_over_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--variant", "english", "--fen", "W:W29:B22,25", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["move"] is None


@pytest.mark.parametrize("argv", [
    ["analyse", "--variant", "nonsense"],
    ["analyse", "--variant", "english", "--fen", "X:garbage"],
    ["analyse", "--variant", "english", "--level", "11"],
    ["analyse", "--variant", "english", "--movetime", "-1"],
])
def test_bad_input_is_one_clear_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("draughtsboard analyse:")
