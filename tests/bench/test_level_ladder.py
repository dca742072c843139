"""bench/level_ladder.py end to end at the smallest size: games played, the file the fit reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.level_ladder import main, parse_pairs, parse_scan_pairs
from bench.rating import fit, load
from engine import Board


def test_a_tiny_ladder_writes_a_file_the_fit_reads(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.json"
    assert main(["--variant", "english", "--games", "2", "--pairs", "1-2,2-3", "--time-scale",
                 "1", "--max-plies", "40", "--out", str(out), "--commit", "f00d"]) == 0
    printed = capsys.readouterr().out
    assert "L2 -L1" in printed and "L3 -L2" in printed and "anchor L1 = 0" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["commit"] == "f00d" and data["clock"] == "engine"  # the board's clock by default
    assert data["command"] == ("bench/level_ladder.py --variant english --games 2 --pairs 1-2,2-3 "
                               f"--time-scale 1 --max-plies 40 --out {out}")
    games = data["games"]
    assert len(games) == 4
    # Openings swapped: each opening is played twice, each level once with White.
    assert games[0]["opening"] == games[1]["opening"]
    assert (games[0]["white"], games[1]["white"]) == ("L2", "L1")
    for game in games:
        assert game["result"] in ("1-0", "0-1", "1/2-1/2")
        assert game["plies"] == len(game["moves"].split())
        assert set(game["sides"]) == {game["white"], game["black"]}
        board = Board.from_fen(game["opening"], "english")
        for text in game["moves"].split():  # the record replays: every move legal
            board.push(board.parse_move(text))
        if game["termination"] != "max_plies" and game["result"] != "1/2-1/2":
            assert board.outcome() is not None
    assert data["players"]["L1"]["depth"] == 1 and data["players"]["L1"]["mean_depth"] <= 1
    ladder = load([out])["english"]
    assert fit(ladder.games, anchor="L1").games == {"L1": 2, "L2": 4, "L3": 2}


@pytest.mark.parametrize("ponder", [True, False])
def test_a_ladder_as_the_board_runs_it_plays_in_the_engine_s_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ponder: bool) -> None:
    """``--as-board``: each level through the service's engine worker and the engine's own
    process (the board's way), pondering unless ``--no-ponder``; the file says so."""
    out = tmp_path / "ladder.json"
    argv = ["--variant", "international", "--games", "2", "--pairs", "4-5", "--time-scale",
            "0.05", "--max-plies", "12", "--as-board", "--out", str(out), "--commit", "f00d"]
    assert main(argv + ([] if ponder else ["--no-ponder"])) == 0
    printed = capsys.readouterr().out
    assert ("as the board runs it, pondering" if ponder else "not pondering") in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["as_board"], data["ponder"]) == (True, ponder)
    assert [g["plies"] for g in data["games"]] == [12, 12]
    for name in ("L4", "L5"):
        player = data["players"][name]
        assert player["mean_depth"] > 0 and player["mean_nodes"] > 0
        if not ponder:
            assert player["ponder_hits"] == 0
    for game in data["games"]:
        board = Board.from_fen(game["opening"], "international")
        for text in game["moves"].split():
            board.push(board.parse_move(text))


def test_pairs_are_parsed_and_bad_ones_refused() -> None:
    assert parse_pairs("1-2, 10-5") == [("L2", "L1"), ("L10", "L5")]
    assert parse_scan_pairs("4:1,10:6") == [("L4", "scan-d1"), ("L10", "scan-d6")]
    for bad in ("1-1", "0-2", "3", "a-b", "2-11"):
        with pytest.raises(ValueError, match=r"pair|itself"):
            parse_pairs(bad)
    for bad in ("4", "11:2", "4:0"):
        with pytest.raises(ValueError, match="Scan pair"):
            parse_scan_pairs(bad)


def test_bad_flags_get_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--pairs", "1-1"], ["--scan-pairs", "4:1"], ["--games", "0"],
                 ["--variant", "chess"], ["--no-ponder"], ["--as-board", "--clock", "thread"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        assert "Traceback" not in capsys.readouterr().err
