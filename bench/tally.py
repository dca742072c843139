"""A match's results from one side: +W =D -L, the score, and the Elo difference it predicts
with its 95 % interval. Shared by bench/match.py, bench/level_ladder.py and bench/eval_match.py.

Example:
    >>> tally = Tally(wins=6, draws=4, losses=2)
    >>> round(tally.score, 3), round(tally.elo)
    (0.667, 120)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Z95", "Tally", "elo_difference"]

#: z of a two-sided 95 % interval.
Z95 = 1.959964


def elo_difference(score: float) -> float:
    """The Elo difference that predicts ``score`` (0-1): ``-400 log10(1/score - 1)``.

    >>> elo_difference(0.5), round(elo_difference(0.75), 1)
    (0.0, 190.8)
    >>> elo_difference(1.0)
    inf
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never -0.0


@dataclass
class Tally:
    """Results from one side (ours, the stronger level's, the new evaluation's)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game, 0-1 (0.5 when no game has been played)."""
        if not self.games:
            return 0.5
        return (self.wins + self.draws / 2) / self.games

    @property
    def stderr(self) -> float:
        """Standard error of the mean per-game score."""
        n, s = self.games, self.score
        if not n:
            return 0.0
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2
                    + self.losses * s ** 2) / n
        return math.sqrt(variance / n)

    @property
    def elo(self) -> float:
        return elo_difference(self.score)

    @property
    def elo_error(self) -> float:
        """Half the width of the 95 % interval of :attr:`elo` (inf when a bound is 0 or 1)."""
        margin = Z95 * self.stderr
        return (elo_difference(self.score + margin) - elo_difference(self.score - margin)) / 2

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The 95 % interval of :attr:`elo` (a bound is infinite when it reaches 0 or 100 %)."""
        margin = Z95 * self.stderr
        return elo_difference(self.score - margin), elo_difference(self.score + margin)

    def add(self, points: float) -> None:
        """Count one game: 1 a win, 0.5 a draw, 0 a loss."""
        if points == 1:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        elif points == 0:
            self.losses += 1
        else:
            raise ValueError(f"a game scores 0, 0.5 or 1, not {points!r}")

    def __str__(self) -> str:
        """
        >>> str(Tally(3, 0, 1))
        '+3 =0 -1   75.0 %  Elo +191 (95 %: -126 .. +inf)'
        >>> str(Tally(2, 0, 0))
        '+2 =0 -0  100.0 %  Elo +inf'
        """
        text = f"+{self.wins} ={self.draws} -{self.losses}  {100 * self.score:5.1f} %  Elo "
        if math.isinf(self.elo):
            return text + ("+inf" if self.elo > 0 else "-inf")
        if math.isinf(self.elo_error):
            low, high = self.elo_interval
            return text + f"{self.elo + 0.0:+.0f} (95 %: {low + 0.0:+.0f} .. {high + 0.0:+.0f})"
        return text + f"{self.elo + 0.0:+.0f} +- {self.elo_error:.0f}"
