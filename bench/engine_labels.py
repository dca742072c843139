"""Tuning data: quiet positions labelled by the built-in engine's own deeper search.

For the variants no outside engine plays (Scan plays international only), the teacher is the
engine itself searching far beyond the node budget the positions were played at: each distinct
quiet position of the positions files (``draughtsboard tune selfplay``, ``--positions``) and
game records (``--games``, the JSON of bench/level_ladder.py and bench/match.py) gets the score
of a ``--nodes`` search from a cleared transposition table (so a label depends on its position
only), turned into White's probability as Scan's are
(:func:`firmware_host.tools.tuning.teacher.label`), and the file is written for
``draughtsboard tune fit``. The same inputs and engine give the same file; run it with the
compiled engine (a copy of ``bench/`` outside the checkout, README's compiled engine): it is a
pure function of the node budget, only faster.

Run: ``python bench/engine_labels.py --variant english --positions
firmware_host/tools/tuning/data/english-400.txt.gz --nodes 3000 --limit 15000 --out FILE``
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board, find_variant
from engine.search import Limit, Searcher
from firmware_host.tools.tuning import dataset, teacher


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, help="variant name, e.g. english")
    parser.add_argument("--games", nargs="*", type=Path, default=[], help="game records (JSON)")
    parser.add_argument("--positions", nargs="*", type=Path, default=[],
                        help="positions files (.txt.gz)")
    parser.add_argument("--nodes", type=int, default=3000,
                        help="nodes of the teacher's search per position (default 3000)")
    parser.add_argument("--limit", type=int, default=0,
                        help="label at most this many positions, evenly spread (default: all)")
    parser.add_argument("--out", type=Path, required=True, help="positions file to write")
    args = parser.parse_args(argv)
    try:
        variant = find_variant(args.variant).name
        found = teacher.file_positions(variant, args.games, args.positions)
        fens = teacher.quiet_positions(variant, found)
    except (ValueError, OSError) as exc:
        parser.error(str(exc))
    if args.nodes < 1:
        parser.error("--nodes must be positive")
    if 0 < args.limit < len(fens):
        fens = [fens[i * len(fens) // args.limit] for i in range(args.limit)]
    searcher = Searcher(variant, tt_mb=8)
    limit = Limit(nodes=args.nodes)

    def score(board: Board) -> float | None:
        searcher.new_game()
        return float(searcher.search(board, limit).score)

    samples = teacher.label(variant, fens, score)
    header = teacher.header(
        variant, f"the built-in engine, {args.nodes} nodes", samples,
        [*args.games, *args.positions],
        f"bench/engine_labels.py --variant {variant} --nodes {args.nodes} --limit {args.limit} "
        f"--games {' '.join(p.name for p in args.games)} "
        f"--positions {' '.join(p.name for p in args.positions)}")
    dataset.write(args.out, header, samples)
    print(f"engine_labels: {len(fens)} quiet positions, {len(samples)} labelled -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
