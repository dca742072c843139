"""Benchmark: the evaluation against the old hand-weighted one, same search, equal node budgets.

Both sides are the built-in :class:`engine.search.Searcher` with ``--nodes`` nodes a move (no
noise, so a game is a function of its opening); one evaluates with
:class:`engine.evaluate.Evaluator` (the tuned weights), the other with the evaluator as it was
before them (bench/_eval_reference.py), or with ``--against-priors`` the same evaluator with its
hand-set priors (what the fitted weights add), or with ``--against-weights FILE`` the linear
terms with the weights of a JSON file and no region patterns (international: what the patterns
and the weights fitted with them add to the weights shipped before them,
bench/data/weights-ce2ffa3-international.json).
Games come in pairs from the same opening with colours swapped; openings are those of
bench/level_ladder.py (ACF ballots for English, random balanced plies otherwise). A game that
reaches ``--max-plies`` is a draw. The line per variant reads ``+W =D -L score%`` from the new
evaluation's side, with the Elo difference that score means.

The number of games comes from ``DRAUGHTSBOARD_SAMPLE`` (``ci``: 10 per variant, ``full``: 100)
unless ``--games`` is given. Node budgets make the result independent of the machine's load.

Run: ``DRAUGHTSBOARD_SAMPLE=full .venv/bin/python bench/eval_match.py --variants international``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _eval_reference import ReferenceEvaluator
from level_ladder import opening
from tally import Tally

from engine import Board, Variant, find_variant
from engine.evaluate import Evaluator, Weights, prior_weights_for, weights_for
from engine.search import Limit, Searcher

_SIZES = {"ci": 10, "full": 100}


def play(start: Board, players: dict[int, Searcher], limit: Limit, max_plies: int) -> int | None:
    """Play a game out: the winner's colour, or None for a draw (``max_plies`` reached too)."""
    board = start.copy()
    for ply in range(max_plies):
        # The draw rules replay the whole game: checked every few plies (a draw is seen at most
        # 7 plies late); the end by lack of moves is seen at once.
        if ply % 8 == 0 or not board.legal_moves:
            outcome = board.outcome()
            if outcome is not None:
                return None if outcome.winner is None else int(outcome.winner)
        move = players[int(board.turn)].search(board, limit).move
        if move is None:
            break
        board.push(move)
    outcome = board.outcome()
    return None if outcome is None or outcome.winner is None else int(outcome.winner)


def opponent(variant: Variant, against_priors: bool = False,
             against: Weights | None = None) -> Evaluator:
    """The old side's evaluator: the linear terms with ``against`` and no region patterns, the
    priors (``against_priors``), or the evaluator before the tuned terms.

    Example:
        >>> from engine import find_variant
        >>> v = find_variant("international")
        >>> old = opponent(v, against=weights_for(v).with_terms({"man": 100, "king": 320}))
        >>> (old.weights.king, old.patterns)
        (320, None)
    """
    if against is not None:
        return Evaluator(variant, against, shipped_patterns=False)
    if against_priors:
        return Evaluator(variant, prior_weights_for(variant))
    # The old evaluator has the same methods; the pure search takes it as one.
    return cast("Evaluator", ReferenceEvaluator(variant))


def match(variant: str, games: int, nodes: int, max_plies: int, seed: int,
          priors: bool = False, against_priors: bool = False,
          against: Weights | None = None) -> Tally:
    """``games`` games new against old, in colour-swapped pairs from the same opening.

    ``priors``: the new evaluation plays its hand-set priors instead of the fitted weights (the
    new terms without the tuning). ``against_priors``: the opponent is the new evaluation with
    its priors instead of the old evaluator (what the fitted weights add to the same terms).
    ``against``: the opponent is the linear terms with these weights, without region patterns.
    """
    v = find_variant(variant)
    weights: Weights = prior_weights_for(v) if priors else weights_for(v)
    tally = Tally()
    rng = random.Random(f"eval-match:{seed}:{v.name}")
    start = opening(v.name, rng)
    limit = Limit(nodes=nodes)
    for game in range(games):
        if game % 2 == 0:
            start = opening(v.name, rng)
        new_colour = game % 2
        players = {
            new_colour: Searcher(v, seed=seed, tt_mb=4, evaluator=Evaluator(v, weights)),
            1 - new_colour: Searcher(v, seed=seed, tt_mb=4,
                                     evaluator=opponent(v, against_priors, against)),
        }
        winner = play(start, players, limit, max_plies)
        if winner is None:
            tally.draws += 1
        elif winner == new_colour:
            tally.wins += 1
        else:
            tally.losses += 1
        print(f"  {v.name} game {game + 1}/{games}: {tally}", file=sys.stderr, flush=True)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="international,russian,english")
    parser.add_argument("--games", type=int, help="games per variant (default: by the sample)")
    parser.add_argument("--nodes", type=int, default=1000, help="nodes a move (default 1000)")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--priors", action="store_true",
                        help="play the hand-set priors, not the fitted weights")
    parser.add_argument("--against-priors", action="store_true",
                        help="the opponent: the same terms with their priors, not the old "
                             "evaluator")
    parser.add_argument("--against-weights", type=Path, metavar="FILE",
                        help="the opponent: the linear terms with these weights (JSON: term -> "
                             "weight), no region patterns")
    args = parser.parse_args()
    against: dict[str, Weights] = {}
    if args.against_weights is not None:
        try:
            terms = json.loads(args.against_weights.read_text())
            for name in args.variants.split(","):
                against[name] = weights_for(find_variant(name)).with_terms(terms)
        except (OSError, ValueError, AttributeError) as exc:
            parser.error(f"--against-weights {args.against_weights}: {exc}")
    sample = os.environ.get("DRAUGHTSBOARD_SAMPLE", "ci")
    if sample not in _SIZES:
        parser.error(f"DRAUGHTSBOARD_SAMPLE must be 'ci' or 'full', not {sample!r}")
    games = args.games if args.games is not None else _SIZES[sample]
    if args.priors and args.against_priors:
        parser.error("--priors against --against-priors would play the priors against themselves")
    which = "priors" if args.priors else "fitted weights"
    rival = ("its priors" if args.against_priors else
             f"{args.against_weights.name}, no patterns" if args.against_weights else "old")
    print(f"new evaluation ({which}) v {rival}: {games} games per variant at {args.nodes} nodes "
          f"a move, "
          f"draw after {args.max_plies} plies, seed {args.seed}")
    started = time.process_time()
    for name in args.variants.split(","):
        tally = match(name, games, args.nodes, args.max_plies, args.seed, args.priors,
                      args.against_priors, against.get(name))
        print(f"{find_variant(name).name:<15}{tally}", flush=True)
    print(f"CPU time {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
