"""bench/engine_labels.py: the built-in engine's search labels the quiet positions, each from a
cleared table (so a label depends on its position only), on the teacher's scale."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import bench.engine_labels as engine_labels
from engine import Board
from engine.search import Limit, Searcher
from firmware_host.tools.tuning import dataset
from firmware_host.tools.tuning.selfplay import Sample
from firmware_host.tools.tuning.teacher import SCALE

# English, quiet (no capture for either side): the start, its mirror turn, and a man up.
QUIET = ["B:W21-32:B1-12", "W:W21-32:B1-12", "B:W21-32:B1-11"]
# A capture for White: never labelled.
LOUD = "W:W22:B18"


def _score(fen: str, nodes: int) -> float:
    return float(Searcher("english", tt_mb=8).search(Board("english", fen), Limit(nodes=nodes))
                 .score)


def test_it_labels_the_quiet_positions_by_a_fresh_search(tmp_path: Path) -> None:
    positions = tmp_path / "positions.txt.gz"
    dataset.write(positions, {"variant": "english"},
                  [Sample(f, 0.5) for f in [*QUIET, LOUD, QUIET[0]]])
    out = tmp_path / "labels.txt.gz"
    assert engine_labels.main(["--variant", "english", "--positions", str(positions),
                               "--nodes", "200", "--out", str(out)]) == 0
    header, samples = dataset.read(out)
    assert header["teacher"] == "the built-in engine, 200 nodes"
    assert header["command"].startswith("bench/engine_labels.py --variant english --nodes 200")
    assert [s.fen for s in samples] == QUIET  # the capture and the repeat left out
    for sample in samples:
        board = Board("english", sample.fen)
        score = _score(sample.fen, 200)
        white = score if int(board.turn) == 0 else -score
        assert sample.result == pytest.approx(1 / (1 + math.exp(-SCALE * white)), abs=5e-4)
    # The same inputs write the same bytes (every label from a cleared table).
    again = tmp_path / "again.txt.gz"
    engine_labels.main(["--variant", "english", "--positions", str(positions), "--nodes", "200",
                        "--out", str(again)])
    assert again.read_bytes() == out.read_bytes()


def test_limit_keeps_an_even_spread_and_bad_arguments_exit(tmp_path: Path) -> None:
    positions = tmp_path / "positions.txt.gz"
    dataset.write(positions, {"variant": "english"}, [Sample(f, 0.5) for f in QUIET])
    out = tmp_path / "labels.txt.gz"
    engine_labels.main(["--variant", "english", "--positions", str(positions), "--nodes", "50",
                        "--limit", "2", "--out", str(out)])
    assert [s.fen for s in dataset.read(out)[1]] == [QUIET[0], QUIET[1]]
    for bad in (["--variant", "nowhere"], ["--variant", "english", "--nodes", "0"]):
        with pytest.raises(SystemExit):
            engine_labels.main([*bad, "--positions", str(positions), "--out", str(out)])
