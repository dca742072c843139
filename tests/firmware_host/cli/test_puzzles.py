"""``draughtsboard puzzles``: build a collection from recorded and self-play games, list one."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.pdn import write_board
from engine.puzzles import load, read_collection
from firmware_host.cli import main
from tests.engine.test_analysis import DROPPED_SHOT, game


def test_build_finds_the_shot_in_a_recorded_game(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    recorded = tmp_path / "club.pdn"
    recorded.write_text(write_board(game(DROPPED_SHOT)))
    out = tmp_path / "puzzles.pdn"
    assert main(["puzzles", "build", "--variant", "international", "--games", "0",
                 "--pdn", str(recorded), "-o", str(out)]) == 0
    [puzzle] = read_collection(out.read_text())
    assert puzzle.board().move_notation(puzzle.solution) == "31-27"
    assert puzzle.number == "international-001"
    assert puzzle.source == "club.pdn game 1, ply 9"
    err = capsys.readouterr().err
    assert "international: 1 games, 14 plies, 1 puzzles (100 per 100 games)" in err


def test_build_from_self_play_writes_a_collection_it_can_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "russian.pdn"
    assert main(["puzzles", "build", "--variant", "russian", "--games", "2", "--levels", "3,4",
                 "--most", "3", "--quiet", "-o", str(out)]) == 0
    puzzles = read_collection(out.read_text())
    assert 1 <= len(puzzles) <= 3
    assert all(p.source.startswith("self-play, levels ") for p in puzzles)
    assert main(["puzzles", "list", "--variant", "russian", "--file", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [p.number for p in puzzles]


def test_list_shows_the_shipped_collection(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "list", "--variant", "english"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(load("english"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "--variant", "russian-giveaway"], "giveaway"),
        (["build", "--variant", "nowhere"], "nowhere"),
        (["build", "--variant", "russian", "--levels", "4"], "--levels takes two levels"),
        (["build", "--variant", "russian", "--levels", "4,10"], "--levels are 1-9"),
        (["build", "--variant", "russian", "--depth", "0"], "--depth must be 1 or more"),
        (["build", "--variant", "russian", "--pdn", "nowhere.pdn"], "No such file"),
        (["list", "--variant", "russian", "--file", "nowhere.pdn"], "No such file"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["puzzles", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard puzzles: ") and message in err
    assert err.count("\n") == 1
