"""bench/eval_match.py: its examples, the opponent each option picks, a short match, bad input."""

from __future__ import annotations

import doctest
import json
import sys
from pathlib import Path

import pytest

import bench.eval_match as eval_match
from engine import find_variant
from engine.evaluate import Evaluator, weights_for

INTERNATIONAL = find_variant("international")


def test_doctests() -> None:
    assert doctest.testmod(eval_match).failed == 0


def test_the_weights_file_opponent_plays_those_weights_without_patterns() -> None:
    old = weights_for(INTERNATIONAL).with_terms({"man": 100, "king": 300, "outpost": -91})
    evaluator = eval_match.opponent(INTERNATIONAL, against=old)
    assert evaluator.weights == old and evaluator.patterns is None
    # The new side keeps its shipped patterns.
    assert Evaluator(INTERNATIONAL).patterns is not None


def test_a_short_match_counts_every_game() -> None:
    old = weights_for(INTERNATIONAL).with_terms(json.loads(
        (Path(__file__).resolve().parents[2] / "bench" / "data"
         / "weights-ce2ffa3-international.json").read_text()))
    tally = eval_match.match("international", 2, 30, 30, 0, against=old)
    assert tally.wins + tally.draws + tally.losses == 2


def test_a_bad_weights_file_is_one_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "weights.json"
    bad.write_text('{"queen": 900}')
    monkeypatch.setattr(sys, "argv", ["eval_match.py", "--variants", "international",
                                      "--against-weights", str(bad)])
    with pytest.raises(SystemExit) as stop:
        eval_match.main()
    assert stop.value.code == 2
    assert "not evaluation features: queen" in capsys.readouterr().err
