"""bench/game_end.py at the smallest size: one recorded game, both ways of asking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.game_end import from_root, main
from engine import Board


def test_the_game_end_bench_reads_a_match_file_and_prints_both_ways(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]
    path = tmp_path / "match-x.json"
    path.write_text(json.dumps({"variant": "international", "games": [
        {"opening": " ".join(moves[:2]), "moves": moves[2:]}]}), encoding="utf-8")
    assert main([str(path), "--games", "1"]) == 0
    printed = capsys.readouterr().out
    assert "the 1 longest games (7-7 plies)" in printed
    assert "kept replays (Board.outcome)" in printed and "peer: replayed from the root" in printed


def test_the_peer_answers_as_the_board_does() -> None:
    board = Board("international", fen="W:WK46,K47,K48:BK5")
    for _ in range(40):  # kings shuffling: the draw rules end it
        if board.outcome() is not None:
            break
        assert from_root(board) is None
        board.push(sorted(board.legal_moves, key=board.move_notation)[0])
    found = board.outcome()
    assert found is not None and from_root(board) is not None
    assert from_root(board).rule == found.rule  # type: ignore[union-attr]
