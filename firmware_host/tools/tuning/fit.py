"""Logistic ("Texel") fitting of the evaluation's integer weights on labelled positions.

The evaluation of a position from White's side is the dot product of its features
(:meth:`engine.evaluate.Evaluator.features_bits`) with the weights; the model says White wins with
probability ``sigmoid(K * eval)``. First ``K`` is fitted with the starting weights (the hand-set
priors, so that a fit depends on its positions only), then coordinate descent moves one integer
weight at a time by a step (32, 16, ... 1) while the log loss on the training positions falls; the
man stays at 100 (it fixes the scale), and :func:`bounds_for` keeps each weight in a range the game
allows. A ridge pull towards the hand-set priors, measured in what a change does to the model's
logit (``l2 * (K * (w - prior))^2 * mean(feature^2)``), keeps rarely seen terms near them:
positions of one game share its result, so a few hundred games are fewer facts than their thousands
of positions suggest. The last ``holdout`` share of the positions (the last games) is kept out of
the fit; its loss is reported before and after, with ``l2=None`` it chooses the pull from
:data:`L2_GRID`, and when no fit beats the starting weights on those games the starting weights are
kept.

Example:
    >>> from engine import find_variant
    >>> from firmware_host.tools.tuning.selfplay import Sample
    >>> samples = [Sample("W:W21-32:B1-11", 1.0), Sample("B:W22-32:B1-12", 0.0)] * 5
    >>> result = fit(find_variant("english"), samples, passes=2, l2=0.1, holdout=0.0)
    >>> result.positions, result.loss_after <= result.loss_before
    (10, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine import Board, Variant
from engine.evaluate import FEATURES, Evaluator, Weights, prior_weights_for
from firmware_host.errors import DraughtsboardError
from firmware_host.tools.tuning.selfplay import Sample

__all__ = ["FitError", "FitResult", "bounds_for", "features", "fit", "fit_k", "log_loss"]

#: The pulls ``fit(l2=None)`` tries, keeping the one with the lowest held-out loss.
L2_GRID = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0)
#: Positional terms stay within this many hundredths of a man either side of zero ...
TERM_CAP = 150
#: ... and within this many per standard deviation of their feature: material comes first, and
#: a term no position sees much of cannot swing the score by men.
SPREAD_CAP = 50
#: Terms whose sign the game fixes: a blocked man, a trapped king are never good; a runaway man,
#: winning the race, kings on the move and a guarded back rank never bad.
_SIGN = {"blocked": -1, "trapped_king": -1, "runaway": 1, "runaway_rank": 1, "race": 1,
         "king_mobility": 1, "back_guard": 1, "sole_king": 1}
#: Coordinate-descent step sizes, largest first.
_STEPS = (32, 16, 8, 4, 2, 1)
#: Not fitted: the man fixes the scale; the king keeps its prior (see :func:`bounds_for`).
_FIXED = frozenset({"man", "king"})


class FitError(DraughtsboardError, ValueError):
    """Nothing to fit: no usable positions, or a variant whose evaluation is not tuned."""


@dataclass(frozen=True)
class FitResult:
    """The fitted weights with K and the losses (mean log loss per position)."""

    variant: str
    l2: float
    weights: Weights
    start: Weights
    prior: Weights
    k: float
    positions: int
    loss_before: float
    loss_after: float
    holdout_positions: int
    holdout_before: float
    holdout_after: float
    #: Per feature, the range the fit kept the weight in (:func:`bounds_for`).
    bounds: tuple[tuple[int, int], ...] = ()

    def changed(self) -> dict[str, int]:
        """Every feature's fitted weight, by name (what engine/weights.py stores)."""
        return dict(zip(FEATURES, self.weights.vector(), strict=True))

    def summary(self) -> str:
        """A table of the weights (prior, start, fitted) and the losses."""
        lines = [f"{self.variant}: {self.positions} positions, K = {self.k:.5f}, l2 = {self.l2}, "
                 f"loss {self.loss_before:.4f} -> {self.loss_after:.4f}"]
        if self.holdout_positions:
            lines.append(f"held out: {self.holdout_positions} positions, "
                         f"loss {self.holdout_before:.4f} -> {self.holdout_after:.4f}")
        lines.append(f"{'feature':<16}{'prior':>7}{'start':>7}{'fitted':>7}")
        for name, p, s, f in zip(FEATURES, self.prior.vector(), self.start.vector(),
                                 self.weights.vector(), strict=True):
            lines.append(f"{name:<16}{p:>7}{s:>7}{f:>7}")
        return "\n".join(lines)


def features(variant: Variant, samples: Sequence[Sample]) -> tuple[list[list[int]], list[float]]:
    """Feature rows and results of the positions the linear evaluation scores.

    Positions the evaluation scores by rule (dead draws, a crowned breakthrough king) and FENs
    that do not parse are left out.
    """
    evaluator = Evaluator(variant)
    rows: list[list[int]] = []
    results: list[float] = []
    for sample in samples:
        try:
            board = Board(variant, sample.fen)
        except ValueError:
            continue
        white, black, kings = board.bitboards()
        if evaluator.dead_draw_bits(white, black, kings) or (variant.crown_wins and kings):
            continue
        rows.append(evaluator.features_bits(white, black, kings, int(board.turn)))
        results.append(sample.result)
    return rows, results


def _point_loss(k: float, score: float, result: float) -> float:
    x = max(-50.0, min(50.0, k * score))
    # log(1 + e^-x) and log(1 + e^x), computed without overflow.
    log_win = math.log1p(math.exp(-x)) if x > 0 else -x + math.log1p(math.exp(x))
    log_loss_ = log_win + x
    return result * log_win + (1.0 - result) * log_loss_


def log_loss(k: float, scores: Sequence[float], results: Sequence[float]) -> float:
    """Mean log loss of ``sigmoid(k * score)`` against the results (1, 0.5, 0 for White).

    Example:
        >>> round(log_loss(0.01, [0.0], [0.5]), 4)  # a coin: log 2
        0.6931
    """
    if not scores:
        return 0.0
    return sum(_point_loss(k, s, r) for s, r in zip(scores, results, strict=True)) / len(scores)


def fit_k(scores: Sequence[float], results: Sequence[float]) -> float:
    """The K that minimises :func:`log_loss` (golden-section search on log K).

    Example:
        >>> # +100 scores one win and one draw: sigmoid(100 K) = 3/4, so 100 K = ln 3.
        >>> round(100 * fit_k([100.0, -100.0, 100.0, -100.0], [1.0, 0.0, 0.5, 0.5]), 3)
        1.099
    """
    lo, hi = math.log(1e-5), math.log(1.0)
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = log_loss(math.exp(a), scores, results), log_loss(math.exp(b), scores, results)
    for _ in range(60):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = log_loss(math.exp(a), scores, results)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = log_loss(math.exp(b), scores, results)
    return math.exp((lo + hi) / 2)


def bounds_for(variant: Variant, spreads: Sequence[float] | None = None,
               spread_cap: int = SPREAD_CAP, term_cap: int = TERM_CAP) -> list[tuple[int, int]]:
    """Per feature, the range a fitted weight must stay in (``spreads``: the features' standard
    deviations on the training positions).

    A king would be worth 2-5 men where it flies and 1.2-2.5 where it steps, but it is not fitted
    at all (:data:`_FIXED`): self-play positions with kings come late in decided games, and left
    free the fit moves the king's value into ``sole_king`` (fewer extra kings win more games), so
    the search would then trade kings for two men, as matches against the old evaluation showed.
    The positional terms stay within
    ``term_cap`` and ``spread_cap`` per standard deviation, with the signs in
    :data:`_SIGN`.

    Example:
        >>> from engine import find_variant
        >>> dict(zip(FEATURES, bounds_for(find_variant("english"))))["king"]
        (120, 250)
    """
    out = []
    for i, name in enumerate(FEATURES):
        if name == "king":
            out.append((200, 500) if variant.flying_kings else (120, 250))
        elif name == "race" and variant.crown_wins:
            out.append((0, 1000))
        elif name == "man":
            out.append((100, 100))
        else:
            sign = _SIGN.get(name, 0)
            limit = term_cap
            if spreads is not None and spreads[i] > 0:
                limit = min(limit, max(1, round(spread_cap / spreads[i])))
            out.append((0 if sign > 0 else -limit, 0 if sign < 0 else limit))
    return out


def fit(variant: Variant, samples: Sequence[Sample], passes: int = 30, l2: float | None = None,
        holdout: float = 0.2, spread_cap: int = SPREAD_CAP,
        term_cap: int = TERM_CAP) -> FitResult:
    """Fit the weights of ``variant`` on ``samples`` (see the module's text).

    Raises:
        FitError: a giveaway variant, no position the evaluation scores by its terms, or
            ``l2=None`` with nothing held out to choose it on.
    """
    if variant.giveaway:
        raise FitError(f"{variant.name} is a giveaway variant: its evaluation is not tuned")
    rows, results = features(variant, samples)
    cut = len(rows) - int(len(rows) * holdout)
    if cut <= 0:
        raise FitError(f"no positions to fit {variant.name} on")
    if l2 is None and cut == len(rows):
        raise FitError("choosing the pull (l2) needs held-out positions")
    train, train_y = rows[:cut], results[:cut]
    test, test_y = rows[cut:], results[cut:]
    # From the priors, not from the engine's current weights: a fit depends on its data only.
    start = prior = prior_weights_for(variant)
    first = [float(sum(w * x for w, x in zip(start.vector(), row, strict=True))) for row in train]
    k = fit_k(first, train_y)
    before = log_loss(k, first, train_y)

    def test_loss(w: Weights) -> float:
        vector = w.vector()
        scores = [sum(a * x for a, x in zip(vector, row, strict=True)) for row in test]
        return log_loss(k, scores, test_y)

    n = len(train)
    spreads = [math.sqrt(max(0.0, sum(r[i] ** 2 for r in train) / n
                             - (sum(r[i] for r in train) / n) ** 2)) for i in range(len(FEATURES))]
    bounds = bounds_for(variant, spreads, spread_cap, term_cap)
    best: FitResult | None = None
    for pull in L2_GRID if l2 is None else (l2,):
        scores = list(first)
        weights = _descend(k, train, train_y, scores, list(start.vector()), list(prior.vector()),
                           passes, pull, bounds)
        fitted = start.with_terms(dict(zip(FEATURES, weights, strict=True)))
        result = FitResult(variant.name, pull, fitted, start, prior, k, len(train), before,
                           log_loss(k, scores, train_y), len(test), test_loss(start),
                           test_loss(fitted), tuple(bounds))
        if best is None or result.holdout_after < best.holdout_after:
            best = result
    if best is None:
        raise ValueError("no L2 pull to try")
    if test and best.holdout_after >= best.holdout_before:
        # No pull beats the weights we started from on unseen games: keep them.
        return FitResult(variant.name, math.inf, start, start, prior, k, len(train), before,
                         before, len(test), best.holdout_before, best.holdout_before,
                         tuple(bounds))
    return best


def _descend(k: float, rows: list[list[int]], results: list[float], scores: list[float],
             weights: list[int], prior: list[int], passes: int, l2: float,
             bounds: list[tuple[int, int]]) -> list[int]:
    """Coordinate descent on integer weights; ``scores`` is kept equal to rows x weights."""
    n = len(rows)
    columns = [[(j, row[i]) for j, row in enumerate(rows) if row[i]] for i in range(len(weights))]
    free = [i for i, name in enumerate(FEATURES) if name not in _FIXED and columns[i]]
    moments = [sum(x * x for _, x in column) / n for column in columns]

    def penalty(i: int, value: int) -> float:
        return l2 * (k * (value - prior[i])) ** 2 * moments[i]

    for step in _STEPS:
        for _ in range(passes):
            improved = False
            for i in free:
                column = columns[i]
                base = sum(_point_loss(k, scores[j], results[j]) for j, _ in column)
                low, high = bounds[i]
                for delta in (step, -step):
                    value = weights[i] + delta
                    if not low <= value <= high:
                        continue
                    trial = sum(_point_loss(k, scores[j] + delta * x, results[j])
                                for j, x in column)
                    gain = (base - trial) / n + penalty(i, weights[i]) - penalty(i, value)
                    if gain > 1e-9:
                        weights[i] = value
                        for j, x in column:
                            scores[j] += delta * x
                        improved = True
                        break
            if not improved:
                break
    return weights
