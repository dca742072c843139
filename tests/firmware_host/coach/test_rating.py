"""Glicko-2 against the worked example of Glickman's paper, and what a puzzle attempt does."""

from __future__ import annotations

import pytest

from firmware_host.coach.rating import MIN_RD, START, Rating, update


def test_the_papers_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system" (2013): a player of 1500, RD 200, volatility
    # 0.06 beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), tau 0.5.
    # The paper's result: 1464.06, RD 151.52, volatility 0.05999 (it rounds as it goes: the
    # rating is within 0.02 of it).
    after = update(Rating(1500.0, 200.0, 0.06), [(Rating(1400.0, 30.0), 1.0),
                                                 (Rating(1550.0, 100.0), 0.0),
                                                 (Rating(1700.0, 300.0), 0.0)], tau=0.5)
    assert after.r == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_makes_the_rating_less_sure() -> None:
    # The paper's step 6 alone: RD' = sqrt(RD^2 + (vol * 173.7178)^2) on the Glicko scale.
    after = update(Rating(1500.0, 200.0, 0.06), [])
    assert (after.r, after.vol) == (1500.0, 0.06)
    assert after.rd == pytest.approx((200.0 ** 2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert update(START, []).rd == START.rd  # never unsurer than a new player


def test_a_solved_puzzle_raises_a_failed_one_lowers_and_surprise_counts() -> None:
    hard, easy = Rating(1900.0, 100.0), Rating(1100.0, 100.0)
    assert update(START, [(hard, 1.0)]).r - 1500 > update(START, [(easy, 1.0)]).r - 1500 > 0
    assert update(START, [(easy, 0.0)]).r < update(START, [(hard, 0.0)]).r < 1500


def test_the_deviation_is_kept_from_falling_below_the_floor() -> None:
    rating = Rating(1500.0, 45.2, 0.001)
    assert update(rating, [(Rating(1500.0, 50.0), 1.0)], min_rd=MIN_RD).rd == MIN_RD
    assert update(rating, [(Rating(1500.0, 50.0), 1.0)]).rd < MIN_RD


@pytest.mark.parametrize(("rating", "games"), [
    (START, [(START, 1.5)]),
    (Rating(1500.0, 0.0), [(START, 1.0)]),
    (START, [(Rating(1500.0, -1.0), 0.0)]),
])
def test_impossible_input_is_refused(rating: Rating, games: list[tuple[Rating, float]]) -> None:
    with pytest.raises(ValueError):
        update(rating, games)
