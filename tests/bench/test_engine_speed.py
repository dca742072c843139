"""bench/engine_speed.py: fixed-depth searches, and a baseline build in the left column."""

from __future__ import annotations

import pytest

from bench import engine_speed
from bench.engine_speed import _table, main, worker


def test_a_fixed_depth_search_is_the_same_tree_in_every_run() -> None:
    first, second = worker(1.0, True, depth=3), worker(1.0, True, depth=3)
    assert [row["depth"] for row in first["search"]] == [3] * len(engine_speed.POSITIONS)
    assert [row["nodes"] for row in first["search"]] == [row["nodes"] for row in second["search"]]
    assert all(row["nodes"] > 0 for row in first["search"])


def _figures(nodes: int) -> engine_speed.Figures:
    return {"build": "compiled", "engine": "x",
            "search": [{"variant": "russian", "label": "initial", "depth": 8, "nodes": nodes,
                        "cpu": 0.5}],
            "perft": [{"variant": "russian", "depth": 6, "leaves": 37986, "cpu": 0.01}]}


def test_the_table_names_the_left_build_and_points_at_different_trees() -> None:
    same = _table(_figures(1000), _figures(1000), "baseline")
    assert "baseline" in same[0] and "x 1.00" in same[2] and "nodes" not in same[2]
    differ = _table(_figures(1000), _figures(1500), "baseline")
    assert "(nodes 1,000 and 1,500)" in differ[2]


@pytest.mark.parametrize("depth", ["0", "31"])
def test_a_depth_out_of_range_is_refused(depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--depth", depth])
    assert "--depth must be 1 to 30" in capsys.readouterr().err
