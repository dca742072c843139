"""Benchmark: static evaluations per second, the evaluator beside the old hand-weighted one.

For each variant, ``--positions`` positions (random games from a fixed seed, 0-80 plies in) are
evaluated ``--rounds`` times by :class:`engine.evaluate.Evaluator` and by the evaluator as it was
before the tuned terms (bench/_eval_reference.py), in the same run; the ratio is new / old. Then
what that costs the search: nodes per second of :class:`engine.search.Searcher` from the initial
position, ``--nodes`` nodes with each evaluator. Where a variant ships region patterns
(international), a third column is the evaluator without them (``shipped_patterns=False``): what
the patterns cost. Times are CPU seconds of this process (``time.process_time``), so other jobs
on the machine change the figures little.

Run: ``.venv/bin/python bench/evaluate.py [--variants international,russian,english]``; with a
compiled engine first on ``PYTHONPATH`` the old evaluator's search column prints ``-`` (the
compiled search takes its own evaluator only).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _eval_reference import ReferenceEvaluator

from engine import Board, find_variant
from engine.evaluate import Evaluator
from engine.search import Limit, Searcher

Position = tuple[int, int, int, int]


def positions(variant: str, count: int, seed: int) -> list[Position]:
    """``count`` positions from random games: raw bitboards and the side to move."""
    rng = random.Random(f"{seed}:{variant}")
    out: list[Position] = []
    while len(out) < count:
        board = Board(variant)
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append((*board.bitboards(), int(board.turn)))
    return out


def rate(evaluate: Callable[[int, int, int, int], int], sample: list[Position],
         rounds: int) -> float:
    """Evaluations per CPU second."""
    started = time.process_time()
    for _ in range(rounds):
        for white, black, kings, colour in sample:
            evaluate(white, black, kings, colour)
    return len(sample) * rounds / max(time.process_time() - started, 1e-9)


def search_rate(variant: str, evaluator: object, nodes: int) -> float:
    """Search nodes per CPU second from the initial position with ``evaluator``."""
    searcher = Searcher(variant, evaluator=evaluator)  # type: ignore[arg-type]
    started = time.process_time()
    result = searcher.search(Board(variant), Limit(nodes=nodes))
    return result.nodes / max(time.process_time() - started, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="international,russian,english,frisian,thai")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=20_000, help="search nodes (default 20000)")
    args = parser.parse_args()
    print(f"{'variant':<15}{'new evals/s':>14}{'old evals/s':>14}{'new/old':>9}"
          f"{'no patterns':>14}{'new/that':>9}")
    for name in args.variants.split(","):
        variant = find_variant(name)
        sample = positions(variant.name, args.positions, args.seed)
        new = Evaluator(variant)
        old = ReferenceEvaluator(variant)
        plain = Evaluator(variant, shipped_patterns=False) if new.patterns else None
        # Interleaved, twice each, best of two: a burst of load on the machine hits both.
        new_rate = old_rate = plain_rate = 0.0
        for _ in range(2):
            new_rate = max(new_rate, rate(new.evaluate_bits, sample, args.rounds))
            old_rate = max(old_rate, rate(old.evaluate_bits, sample, args.rounds))
            if plain is not None:
                plain_rate = max(plain_rate, rate(plain.evaluate_bits, sample, args.rounds))
        _row(variant.name, new_rate, old_rate, plain_rate)
    print(f"\n{'variant':<15}{'new nodes/s':>14}{'old nodes/s':>14}{'new/old':>9}"
          f"{'no patterns':>14}{'new/that':>9}")
    for name in args.variants.split(","):
        variant = find_variant(name)
        with_patterns = Evaluator(variant).patterns is not None
        new_rate = old_rate = plain_rate = 0.0
        for _ in range(2):
            new_rate = max(new_rate, search_rate(variant.name, Evaluator(variant), args.nodes))
            try:
                old_rate = max(old_rate, search_rate(variant.name, ReferenceEvaluator(variant),
                                                     args.nodes))
            except TypeError:
                # The compiled search takes its own Evaluator only (mypyc checks the type).
                old_rate = 0.0
            if with_patterns:
                plain_rate = max(plain_rate, search_rate(
                    variant.name, Evaluator(variant, shipped_patterns=False), args.nodes))
        _row(variant.name, new_rate, old_rate, plain_rate)


def _row(name: str, new: float, old: float, plain: float) -> None:
    """One line of a table; a rate not measured (0) prints as ``-``."""
    head = f"{old:>14,.0f}{new / old:>9.2f}" if old else f"{'-':>14}{'-':>9}"
    tail = f"{plain:>14,.0f}{new / plain:>9.2f}" if plain else f"{'-':>14}{'-':>9}"
    print(f"{name:<15}{new:>14,.0f}{head}{tail}", flush=True)


if __name__ == "__main__":
    main()
