"""bench/move_loss.py: the engine's moves judged against an oracle's scores, by phase."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.move_loss import PhaseRow, judge_moves, label, main, sample_positions
from engine import Board

#: White to move, with two moves (the scores below are an oracle's, made up).
TWO_MOVES = "W:W33:B19"


def test_a_move_is_judged_by_the_best_moves_score() -> None:
    table = {TWO_MOVES: {"33-28": 0.0, "33-29": -150.0},
             "W:W31-50:B1-20": {"31-26": 10.0, "32-28": 5000.0, "34-30": None}}
    rows = judge_moves(table, {TWO_MOVES: "33-29", "W:W31-50:B1-20": "31-26"})
    # The opening's best is capped at 2000, so the loss is capped at 300.
    assert rows == [PhaseRow("30-40", 1, 300.0, 1), PhaseRow("2-11", 1, 150.0, 1)]
    assert judge_moves(table, {TWO_MOVES: "33-28"}) == [PhaseRow("2-11", 1, 0.0, 0)]


def test_positions_with_one_scored_move_are_left_out() -> None:
    assert judge_moves({TWO_MOVES: {"33-28": 0.0, "33-29": None}}, {TWO_MOVES: "33-28"}) == []


def test_label_scores_every_move_for_the_side_that_made_it() -> None:
    def material(board: Board) -> float:  # for the side to move: its pieces minus the other's
        white, black, _ = board.bitboards()
        ours, theirs = (white, black) if int(board.turn) == 0 else (black, white)
        return 100.0 * (ours.bit_count() - theirs.bit_count())

    table = label(["W:W36,37:B4,K1"], material)
    # Nothing is taken: after each move Black, to move, has as many pieces as White (0), and
    # White's score of it is minus Black's.
    assert set(table["W:W36,37:B4,K1"]) == {"36-31", "37-31", "37-32"}
    assert table == label(["W:W36,37:B4,K1"], lambda b: 0.0)
    uneven = label(["W:W36,37:B4,K1,K2"], material)["W:W36,37:B4,K1,K2"]
    assert set(uneven.values()) == {-100.0}


def test_a_move_that_ends_the_game_is_a_win() -> None:
    table = label(["W:W28:B23"], lambda board: 0.0)
    assert table == {"W:W28:B23": {"28x19": 2000.0}}


def test_positions_are_ours_with_a_choice_and_distinct() -> None:
    game = {"white": "draughtsboard 0.25 s", "black": "Scan depth 8", "opening": "32-28 19-23",
            "moves": ["28x19", "14x23", "37-32", "10-14", "32-28", "23x32", "38x27"]}
    fens = sample_positions([game], count=10, seed=1, skip=0)
    # White is to move at plies 0, 2, 4 and 6 of the moves; at 0 (28x19) and 6 (38x27) it has
    # one capture and no choice, so the positions before 37-32 and 32-28 are kept.
    board = Board()
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        board.push(board.parse_move(text))
    assert board.fen() in fens
    assert all(Board("international", fen).turn == board.turn for fen in fens)
    assert len(fens) == len(set(fens)) == 2


def test_judge_prints_a_table_by_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    oracle = tmp_path / "oracle.json"
    # 33-29 loses the man to 24x33: the engine at depth 3 sees it and plays 33-28.
    oracle.write_text(json.dumps({"positions": {"W:W33:B24": {"33-28": 0.0, "33-29": -100.0}}}))
    assert main(["judge", str(oracle), "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "1 positions: mean loss 0.0, blunders 0" in out
    assert "| 2-11 | 1 | 0.0 | 0 |" in out


def test_judge_refuses_a_file_that_is_not_an_oracle(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "games.json"
    bad.write_text(json.dumps({"games": []}))
    assert main(["judge", str(bad), "--depth", "3"]) == 2
    assert "not an oracle file" in capsys.readouterr().err
    assert main(["judge", str(tmp_path / "missing.json"), "--depth", "3"]) == 2


def test_forced_replies_are_played_out_before_the_oracle_scores() -> None:
    # 23-28 leaves Black one move, 22x33, which takes White's last piece: a loss, however an
    # oracle would score the position where Black has that one capture (Scan 2.0 says 0).
    table = label(["W:WK23:B22,27,30,K35,43"], lambda board: 0.0)
    assert table["W:WK23:B22,27,30,K35,43"]["23-28"] == -2000.0
    # 23-29 leaves Black a choice: the oracle's score of it stands.
    assert table["W:WK23:B22,27,30,K35,43"]["23-29"] == 0.0


def test_the_docstring_example_runs() -> None:
    import doctest

    import bench.move_loss

    failures, tried = doctest.testmod(bench.move_loss)
    assert tried and not failures
