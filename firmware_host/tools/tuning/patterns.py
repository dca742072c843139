"""Fit the region patterns (:mod:`engine.patterns`) and the linear terms together.

The model: White's score is the linear terms (:meth:`engine.evaluate.Evaluator.features_bits`
times the weights) plus, per pattern table, the weight of the block's pattern minus the weight of
the mirrored block's (:func:`engine.patterns.indices`); White's probability is
``sigmoid(K * score)`` with K fixed at the teacher's scale (``ln 3 / 100``: a man up is 3 to 1),
so the score comes out in the teacher's hundredths of a man. The loss is the mean cross-entropy
against the labels (a teacher's probabilities, :mod:`.teacher`), with an L2 pull of the pattern
weights towards 0 (``l2 * (K * w) ** 2 / 2`` each: a pattern seen a few times stays near 0); the
linear weights are free. The last ``holdout`` of each file is held out and scored, not fitted.
The optimiser is SciPy's L-BFGS-B on a sparse design matrix: numpy and scipy come with the
``tune`` extra (``pip install 'draughtsboard[tune]'``), imported only here.

Example:
    >>> from engine import find_variant
    >>> from firmware_host.tools.tuning.selfplay import Sample
    >>> samples = [Sample("W:W31-50:B1-20", 0.5)] * 4
    >>> result = fit_patterns(find_variant("international"), [samples], l2=0.001)
    >>> result.terms["side_to_move"] == 0 and not result.table.weights
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Board, Variant
from engine.evaluate import FEATURES, Evaluator
from engine.patterns import PATTERNS, TABLES, PatternTable, indices
from firmware_host.errors import DraughtsboardError
from firmware_host.tools.tuning.selfplay import Sample
from firmware_host.tools.tuning.teacher import SCALE

__all__ = ["PatternFit", "PatternFitError", "fit_patterns", "settled"]


class PatternFitError(DraughtsboardError, ValueError):
    """Nothing to fit, or numpy/scipy missing (the ``tune`` extra)."""


@dataclass(frozen=True)
class PatternFit:
    """The fitted linear terms and pattern table, with the mean losses per position."""

    variant: str
    terms: dict[str, int]
    table: PatternTable
    train: int
    held_out: int
    train_loss: float
    held_out_loss: float
    #: The linear terms alone, fitted the same way: what the patterns add.
    linear_held_out_loss: float
    #: The labels' own entropy on the held-out positions: the least loss any model can reach.
    floor: float

    def summary(self) -> str:
        return (f"{self.variant}: {self.train} positions fitted, {self.held_out} held out; "
                f"{len(self.table.weights)} patterns; loss train {self.train_loss:.4f}, "
                f"held out {self.held_out_loss:.4f} (linear terms alone "
                f"{self.linear_held_out_loss:.4f}; the labels' entropy {self.floor:.4f})")


def settled(variant: Variant, samples: Sequence[Sample], depth: int,
            margin: int) -> list[Sample]:
    """The samples whose position the engine's own search to ``depth`` plies scores within
    ``margin`` hundredths of its static evaluation (both for the side to move, with the
    evaluation shipped now): the others hold a shot or a threat a few plies deep, which the
    teacher's label counts and no static term can see, and the search resolves them before it
    evaluates. Positions that do not parse are dropped too.

    Example:
        >>> from engine import find_variant
        >>> quiet = Sample("W:W31-50:B1-20", 0.5)
        >>> shot = Sample("B:W31-36,38-50:B1-11,13-17,19,20,23", 0.055)  # Black has a shot
        >>> [s.fen for s in settled(find_variant("international"), [quiet, shot], 3, 50)]
        ['W:W31-50:B1-20']
    """
    from engine.search import Limit, Searcher

    evaluator = Evaluator(variant)
    kept: list[Sample] = []
    for sample in samples:
        try:
            board = Board(variant, sample.fen)
        except ValueError:
            continue
        searched = Searcher(variant, tt_mb=1, evaluator=evaluator).search(board, Limit(depth=depth))
        if abs(searched.score - evaluator.evaluate(board)) <= margin:
            kept.append(sample)
    return kept


def fit_patterns(variant: Variant, files: Sequence[Sequence[Sample]], l2: float = 0.001,
                 holdout: float = 0.2) -> PatternFit:
    """Fit on the positions of ``files`` (each file's last ``holdout`` held out).

    Positions the evaluation scores by rule (dead draws) and FENs that do not parse are left out.

    Raises:
        PatternFitError: no position to fit, or numpy/scipy are not installed.
    """
    try:
        import numpy as np
        import scipy.sparse as sparse
        from scipy.optimize import minimize
    except ImportError:
        raise PatternFitError(
            "fitting patterns needs numpy and scipy: pip install 'draughtsboard[tune]'") from None
    evaluator = Evaluator(variant)
    linear: list[list[int]] = []
    own: list[tuple[int, ...]] = []
    mirrored: list[tuple[int, ...]] = []
    labels: list[float] = []
    test: list[bool] = []
    for samples in files:
        cut = len(samples) - int(len(samples) * holdout)
        for i, sample in enumerate(samples):
            try:
                board = Board(variant, sample.fen)
            except ValueError:
                continue
            white, black, kings = board.bitboards()
            if evaluator.dead_draw_bits(white, black, kings):
                continue
            linear.append(evaluator.features_bits(white, black, kings, int(board.turn)))
            a, b = indices(board)
            own.append(a)
            mirrored.append(b)
            labels.append(sample.result)
            test.append(i >= cut)
    if not labels or all(test):
        raise PatternFitError(f"no {variant.name} position to fit")
    n = len(labels)
    y = np.array(labels)
    held = np.array(test)
    x_lin = np.array(linear, dtype=float)
    # Each linear feature in units of its spread, so that one step size fits them all.
    spread = x_lin.std(axis=0)
    spread[spread == 0] = 1.0
    rows = np.repeat(np.arange(n), TABLES)
    offsets = np.arange(TABLES)[None, :] * PATTERNS
    shape = (n, TABLES * PATTERNS)
    ones = np.ones(n * TABLES)
    x_pat = (sparse.csr_matrix((ones, (rows, (offsets + np.array(own)).ravel())), shape=shape)
             - sparse.csr_matrix((ones, (rows, (offsets + np.array(mirrored)).ravel())),
                                 shape=shape))
    k = SCALE
    n_lin = len(FEATURES)

    def solve(x: sparse.csr_matrix, free: int) -> np.ndarray:
        x_train, y_train = x[~held], y[~held]
        pull = np.full(x.shape[1], l2 * k * k)
        pull[:free] = 0.0

        def loss_and_gradient(w: np.ndarray) -> tuple[float, np.ndarray]:
            z = np.clip(k * (x_train @ w), -50.0, 50.0)
            loss = np.mean(np.logaddexp(0.0, z) - y_train * z)
            p = 1.0 / (1.0 + np.exp(-z))
            gradient = k * (x_train.T @ (p - y_train)) / len(y_train)
            return float(loss + 0.5 * np.sum(pull * w * w)), gradient + pull * w

        found = minimize(loss_and_gradient, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B",
                         options={"maxiter": 5000, "ftol": 1e-12, "gtol": 1e-9})
        return np.asarray(found.x)

    def mean_loss(x: sparse.csr_matrix, w: np.ndarray, rows_: np.ndarray) -> float:
        z = np.clip(k * (x[rows_] @ w), -50.0, 50.0)
        return float(np.mean(np.logaddexp(0.0, z) - y[rows_] * z)) if rows_.any() else 0.0

    x_linear = sparse.csr_matrix(x_lin / spread)
    w_linear = solve(x_linear, n_lin)
    x_all = sparse.hstack([x_linear, x_pat]).tocsr()
    w_all = solve(x_all, n_lin)
    terms = {name: round(float(w / s)) for name, w, s in zip(FEATURES, w_all[:n_lin], spread,
                                                            strict=True)}
    patterns = w_all[n_lin:].reshape(TABLES, PATTERNS)
    weights = {(int(t), int(p)): round(float(patterns[t, p]))
               for t, p in zip(*np.nonzero(np.abs(patterns) >= 0.5), strict=True)}
    clipped = np.clip(y[held], 1e-9, 1 - 1e-9)
    floor = float(np.mean(-(clipped * np.log(clipped) + (1 - clipped) * np.log(1 - clipped)))
                  ) if held.any() else 0.0
    return PatternFit(variant.name, terms, PatternTable(variant, weights), int((~held).sum()),
                      int(held.sum()), mean_loss(x_all, w_all, ~held),
                      mean_loss(x_all, w_all, held), mean_loss(x_linear, w_linear, held), floor)
