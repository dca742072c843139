"""The rating fit of bench/rating.py against values worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench.rating import Game, elo_difference, expected, fit, load, main, markdown_table

#: 400 * log10(3): the Elo gap at which the stronger side is expected to score 75 %.
GAP_75 = 190.848501887865
#: 1 / (K * sqrt(n * p * (1 - p))) with K = ln 10 / 400, n = 4, p = 3/4: the standard error of
#: that gap measured over 4 games.
SE_4_GAMES_75 = 400 / math.log(10) / math.sqrt(4 * 0.75 * 0.25)


def _games(white: str, black: str, wins: int, draws: int, losses: int) -> list[Game]:
    return ([Game(white, black, 1.0)] * wins + [Game(white, black, 0.5)] * draws
            + [Game(black, white, 1.0)] * losses)


def test_expected_score_and_its_inverse() -> None:
    assert expected(0) == 0.5
    assert expected(400) == pytest.approx(10 / 11)
    assert expected(-400) == pytest.approx(1 / 11)
    assert elo_difference(10 / 11) == pytest.approx(400)
    assert elo_difference(0.5) == 0
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="no finite Elo"):
            elo_difference(bad)


def test_two_players_three_wins_in_four() -> None:
    result = fit(_games("a", "b", 3, 0, 1), anchor="b", prior_draws=0)
    assert result.ratings["b"] == 0
    assert result.ratings["a"] == pytest.approx(GAP_75, abs=1e-6)
    assert result.error("a") == pytest.approx(SE_4_GAMES_75, rel=1e-6)  # about 200.6
    assert result.error("b") == 0
    assert result.games == {"a": 4, "b": 4}


def test_draws_count_half_and_colour_does_not_matter() -> None:
    # +2 =2 -0 is also 75 %; a's games as Black score the same as its games as White.
    mixed = [Game("a", "b", 1.0), Game("b", "a", 0.0), Game("a", "b", 0.5), Game("b", "a", 0.5)]
    result = fit(mixed, anchor="b", prior_draws=0)
    assert result.ratings["a"] == pytest.approx(GAP_75, abs=1e-6)


def test_an_even_score_is_an_even_rating_whoever_is_the_anchor() -> None:
    games = _games("a", "b", 3, 4, 3)
    for anchor in ("a", "b"):
        result = fit(games, anchor=anchor, prior_draws=0)
        assert result.ratings["a"] == pytest.approx(0, abs=1e-9)
        assert result.ratings["b"] == pytest.approx(0, abs=1e-9)


def test_swapping_winner_and_loser_mirrors_the_ratings() -> None:
    one = fit(_games("a", "b", 7, 2, 1), anchor="b", prior_draws=0)
    other = fit(_games("a", "b", 1, 2, 7), anchor="b", prior_draws=0)
    assert one.ratings["a"] == pytest.approx(-other.ratings["a"], abs=1e-9)
    assert one.error("a") == pytest.approx(other.error("a"), rel=1e-9)


def test_a_chain_without_cross_games_adds_up_and_so_do_the_variances() -> None:
    games = _games("a", "b", 3, 0, 1) + _games("b", "c", 3, 0, 1)
    result = fit(games, anchor="c", prior_draws=0)
    assert result.ratings["b"] == pytest.approx(GAP_75, abs=1e-6)
    assert result.ratings["a"] == pytest.approx(2 * GAP_75, abs=1e-6)
    assert result.error("a") == pytest.approx(math.sqrt(2) * SE_4_GAMES_75, rel=1e-6)
    assert result.gap_error("a", "b") == pytest.approx(SE_4_GAMES_75, rel=1e-6)


def test_a_symmetric_cycle_rates_everyone_equal() -> None:
    # a beats b, b beats c, c beats a, each 3-1: no one is better than another.
    games = _games("a", "b", 3, 0, 1) + _games("b", "c", 3, 0, 1) + _games("c", "a", 3, 0, 1)
    result = fit(games, anchor="a", prior_draws=0)
    assert result.ratings["b"] == pytest.approx(0, abs=1e-6)
    assert result.ratings["c"] == pytest.approx(0, abs=1e-6)


def test_all_games_count_not_only_the_chain() -> None:
    # a-b and b-c are each 50 %, but a beat c 3-1: the fit puts a above c, and b between them,
    # where chaining the neighbour pairs alone would rate all three equal.
    games = _games("a", "b", 2, 0, 2) + _games("b", "c", 2, 0, 2) + _games("a", "c", 3, 0, 1)
    result = fit(games, anchor="c", prior_draws=0)
    assert result.ratings["a"] > result.ratings["b"] > result.ratings["c"] == 0
    # The maximum of the likelihood: the sum of each player's actual minus expected score is 0.
    for player in "abc":
        residual = 0.0
        for g in games:
            if player in (g.white, g.black):
                diff = result.ratings[g.white] - result.ratings[g.black]
                residual += (g.score - expected(diff)) * (1 if player == g.white else -1)
        assert residual == pytest.approx(0, abs=1e-9)


def test_virtual_draws_keep_a_perfect_score_finite() -> None:
    # 10-0 plus one virtual draw is 10.5 of 11: 400 * log10(10.5 / 0.5) = 400 * log10(21).
    result = fit(_games("a", "b", 10, 0, 0), anchor="b", prior_draws=1)
    assert result.ratings["a"] == pytest.approx(400 * math.log10(21), abs=1e-6)
    with pytest.raises(ValueError, match="diverge"):
        fit(_games("a", "b", 10, 0, 0), anchor="b", prior_draws=0)


@pytest.mark.parametrize(("games", "message"), [
    ([], "no games"),
    ([Game("a", "b", 1), Game("c", "d", 1)], "connect"),
    ([Game("a", "a", 1)], "itself"),
    ([Game("a", "b", 0.7)], "1, 1/2 or 0"),
])
def test_bad_input_is_refused(games: list[Game], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit(games, prior_draws=1)


def test_unknown_anchor_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor 'z'"):
        fit([Game("a", "b", 1)], anchor="z")


def _ladder_file(path: Path, variant: str, games: list[tuple[str, str, str]]) -> Path:
    data = {"variant": variant, "command": "bench/level_ladder.py --games 4", "commit": "abc123",
            "players": {"L1": {"description": "beginner", "mean_depth": 1, "mean_nodes": 12},
                        "L2": {"description": "novice", "mean_depth": 1.96, "mean_nodes": 1234}},
            "games": [{"white": w, "black": b, "result": r} for w, b, r in games]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_ladder_files_pool_by_variant_and_make_the_readme_table(tmp_path: Path) -> None:
    one = _ladder_file(tmp_path / "a.json", "english",
                       [("L2", "L1", "1-0"), ("L1", "L2", "0-1"), ("L2", "L1", "1-0")])
    two = _ladder_file(tmp_path / "b.json", "english", [("L1", "L2", "1-0")])
    ladders = load([one, two])
    assert list(ladders) == ["english"]
    ladder = ladders["english"]
    assert len(ladder.games) == 4
    result = fit(ladder.games, anchor="L1", prior_draws=0)
    assert result.ratings["L2"] == pytest.approx(GAP_75, abs=1e-6)
    table = markdown_table(ladder, result).splitlines()
    assert table[2] == "| 1 | 0 | 0 | (anchor) | beginner | depth 1.0, 12 nodes | 4 |"
    assert table[3] == "| 2 | 191 | 201 | +191 ± 201 | novice | depth 2.0, 1,234 nodes | 4 |"


def test_a_file_that_is_not_a_ladder_gets_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"variant\": \"english\"}", encoding="utf-8")
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json: not a ladder file" in err and "Traceback" not in err


def test_docstring_examples() -> None:
    import doctest

    import bench.rating

    failures, tried = doctest.testmod(bench.rating)
    assert tried > 0 and failures == 0


def test_depth_and_nodes_a_move_are_averaged_over_every_file(tmp_path: Path) -> None:
    paths = []
    for i, (moves, depth, nodes) in enumerate(((10, 40, 1000), (30, 60, 5000))):
        data = {"variant": "russian", "players": {"L2": {"mean_depth": 99}},
                "games": [{"white": "L2", "black": "L1", "result": "1-0",
                           "sides": {"L2": {"moves": moves, "depth": depth, "nodes": nodes}}}]}
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_text(json.dumps(data), encoding="utf-8")
    info = load(paths)["russian"].players["L2"]
    assert info["mean_depth"] == (40 + 60) / (10 + 30)
    assert info["mean_nodes"] == (1000 + 5000) / (10 + 30)
