"""Glicko-2 ratings: a player's puzzle rating, and each puzzle's.

Mark Glickman's system ("Example of the Glicko-2 system", 2013), as lichess and lidraughts
rate puzzles: each attempt is a game between the player and the puzzle, a solved puzzle a win
for the player, a failed one a win for the puzzle, and both ratings move. A rating is three
numbers: the rating ``r`` (1500 to start), its deviation ``rd`` (how unsure it is: 350 to
start, smaller with every attempt, larger again after a long pause) and the volatility
``vol`` (how erratic the player is). Each attempt is one rating period of one game, as
lichess does for puzzles.

Two choices of ours, both lichess's too: the deviation never falls below :data:`MIN_RD`
(otherwise a rating would stop moving after a few hundred puzzles) and never rises above
:data:`START`'s; a rating is shown as *provisional* (``1620?``) while its deviation is over
:data:`PROVISIONAL_RD`.

>>> player, puzzle = Rating(), Rating(1700.0, 100.0)
>>> won = update(player, [(puzzle, 1.0)])
>>> round(won.r), round(won.rd), won.provisional
(1798, 269, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["MIN_RD", "PROVISIONAL_RD", "START", "TAU", "Rating", "update"]

#: Glicko-2's scale: a rating difference of 173.7178 is one unit of mu.
SCALE: Final = 173.7178
#: The system constant tau: how fast the volatility may change (Glickman: 0.3 to 1.2).
TAU: Final = 0.5
#: The convergence tolerance of the volatility's iteration (Glickman's epsilon).
EPSILON: Final = 0.000001
#: The deviation a rating never falls below (lichess's ``minDeviation`` is 45).
MIN_RD: Final = 45.0
#: A rating whose deviation is larger is provisional (shown with ``?``; lichess: 110).
PROVISIONAL_RD: Final = 110.0


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``r``, its deviation ``rd`` and volatility."""

    r: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06

    @property
    def provisional(self) -> bool:
        """Still unsure: the deviation is over :data:`PROVISIONAL_RD`."""
        return self.rd > PROVISIONAL_RD

    def shown(self) -> str:
        """The rating as a player reads it: whole, ``?`` after a provisional one.

        >>> Rating(1623.4, 80.0).shown(), Rating().shown()
        ('1623', '1500?')
        """
        return f"{round(self.r)}{'?' if self.provisional else ''}"


#: A new player's rating (Glickman's suggested start).
START: Final = Rating()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, vol: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the new volatility (the Illinois algorithm)."""
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(rating: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU,
           min_rd: float = 0.0, max_rd: float = START.rd) -> Rating:
    """``rating`` after one rating period of ``games``: each the opponent's rating and the
    score (1 won, 0.5 drawn, 0 lost). No games: only the deviation grows.

    ``min_rd``/``max_rd`` bound the new deviation (Glickman's paper: none; the puzzles pass
    :data:`MIN_RD`).

    Raises:
        ValueError: a score outside 0 to 1, or a deviation or volatility that is not positive.
    """
    if rating.rd <= 0 or rating.vol <= 0 or any(o.rd <= 0 for o, _ in games):
        raise ValueError(f"a rating's deviation and volatility are positive: {rating}")
    if any(not 0.0 <= score <= 1.0 for _, score in games):
        raise ValueError(f"a score is 0 to 1: {[score for _, score in games]}")
    mu, phi = (rating.r - 1500.0) / SCALE, rating.rd / SCALE
    if not games:
        grown = math.sqrt(phi * phi + rating.vol * rating.vol) * SCALE
        return Rating(rating.r, min(max(grown, min_rd), max_rd), rating.vol)
    opponents = [((o.r - 1500.0) / SCALE, o.rd / SCALE, score) for o, score in games]
    v_inverse = sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j)
                    * (1.0 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents)
    v = 1.0 / v_inverse
    improvement = sum(_g(phi_j) * (score - _expected(mu, mu_j, phi_j))
                      for mu_j, phi_j, score in opponents)
    vol = _volatility(phi, rating.vol, v, v * improvement, tau)
    phi_star = math.sqrt(phi * phi + vol * vol)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + 1500.0, min(max(new_phi * SCALE, min_rd), max_rd), vol)
