"""bench/analysis.py: a mark holds when a deeper search still finds its worth lost; the
dropped two-for-one of tests/engine/test_analysis.py holds."""

from __future__ import annotations

from bench.analysis import Judged, _summary, deep_loss
from engine.search import Limit
from tests.engine.test_analysis import DROP, DROPPED_SHOT, game


def test_a_mark_holds_at_its_own_worth() -> None:
    assert Judged(1, "??", 0.4, 0.2, None).held()  # a blunder that is still a mistake
    assert not Judged(1, "?", 0.25, 0.19, None).held()
    assert Judged(1, "?!", 0.12, 0.1, 0.05).held()
    assert Judged(1, "?!", 0.12, 0.1, 0.05).scan_held() is False


def test_the_dropped_shot_holds_deeper() -> None:
    board = game(DROPPED_SHOT[:DROP])
    move = board.parse_move(DROPPED_SHOT[DROP])
    assert deep_loss(board, move, Limit(depth=5)) >= 0.3


def test_summary_counts() -> None:
    games: list[dict[str, object]] = [{"plies": 100, "seconds": 2.0}, {"plies": 60,
                                                                      "seconds": 1.0}]
    marks = [Judged(1, "??", 0.4, 0.3, None), Judged(2, "?", 0.2, 0.1, None),
             Judged(3, "?!", 0.1, 0.1, None)]
    summary = _summary(games, marks)
    assert (summary["seconds_per_game"], summary["pi_seconds_per_game"]) == (1.5, 6.0)
    assert (summary["mistakes"], summary["mistakes_held"]) == (2, 1)
    assert (summary["inaccuracies"], summary["inaccuracies_held"]) == (1, 1)
    assert summary["marks_per_game"] == 1.5
