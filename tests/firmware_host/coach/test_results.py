"""A stored analysis read back: what the analyst wrote round-trips; a value another program
wrote is refused field by field, never drawn unchecked."""

from __future__ import annotations

import json

import pytest

from engine.analysis import CEILING
from firmware_host.coach.results import AnalysisError, MoveMark, StoredAnalysis

GOOD = StoredAnalysis("b1", "g1", "international", 8, "draughtsboard 0.1.0 compiled", "0.00", (
    MoveMark("32-28", "0.10"), MoveMark("17-22", "1.05", "??", 0.41, ("19-23", "28x19")),
    MoveMark("28x17", "#3", "!", 0.0)))


def test_round_trip() -> None:
    assert StoredAnalysis.parse(GOOD.to_json()) == GOOD
    assert [m.white_value() for m in GOOD.moves] == [10, 105, CEILING]


def _with(**change: object) -> str:
    data = json.loads(GOOD.to_json())
    move = change.pop("move", None)
    if isinstance(move, dict):
        data["moves"][1].update(move)
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(("raw", "says"), [
    ("not json", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    ("[]", "not an analysis"),
    (_with(v=2), "not an analysis"),
    (_with(board="<script>"), "board: not a name"),
    (_with(engine="x" * 81), "engine: not a name"),
    (_with(depth=True), "depth"),
    (_with(depth=-1), "depth"),
    (_with(start="1e9"), "start"),
    (_with(moves={"a": 1}), "moves: not a list"),
    (_with(moves=[{}] * 2001), "moves: not a list"),
    (_with(move={"mark": "!!!"}), "move 2: '!!!' is no mark"),
    (_with(move={"loss": float("nan")}), "loss"),
    (_with(move={"loss": 7}), "loss"),
    (_with(move={"pdn": "<img src=x>"}), "move 2: '<img src=x>' is no move"),
    (_with(move={"eval": "0.1"}), "no evaluation"),
    (_with(move={"better": ["19-23"] * 41}), "better is not a line"),
    (_with(move={"better": ["19-23", 5]}), "better line: '5' is no move"),
])
def test_a_value_out_of_shape_is_refused(raw: str | bytes, says: str) -> None:
    with pytest.raises(AnalysisError, match=says.replace("(", r"\(")):
        StoredAnalysis.parse(raw)
