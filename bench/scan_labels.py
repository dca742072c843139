"""Tuning data: quiet positions from game records, labelled by Scan 2.0's search score.

Reads game records (the JSON of bench/match.py and bench/level_ladder.py, ``--games``) and
positions files (``draughtsboard tune selfplay``, ``--positions``), keeps the distinct quiet
positions (:func:`firmware_host.tools.tuning.teacher.quiet_positions`), asks Scan 2.0 (book off,
its bitbases on, through its first Hub protocol, bench/players.py) for its score of each at
``--depth`` (Scan 2.0 prints its score from depth 12 on), and writes them as a positions file
whose results are White's probabilities (:mod:`firmware_host.tools.tuning.teacher`), for
``draughtsboard tune fit``. The same inputs, Scan
build and depth give the same file. Without Scan (``--scan`` or ``$DRAUGHTSBOARD_SCAN``) it says
so and writes nothing.

Run: ``.venv/bin/python bench/scan_labels.py --scan PATH/scan --games bench/data/ladder-*.json
--positions firmware_host/tools/tuning/data/international.txt.gz --limit 12000 --out FILE``
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.players import scan_hub1
from firmware_host.tools.tuning import dataset, teacher


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scan", default=os.environ.get("DRAUGHTSBOARD_SCAN"),
                        help="Scan 2.0, run from its own directory (default: $DRAUGHTSBOARD_SCAN)")
    parser.add_argument("--games", nargs="*", type=Path, default=[], help="game records (JSON)")
    parser.add_argument("--positions", nargs="*", type=Path, default=[],
                        help="positions files (.txt.gz)")
    parser.add_argument("--depth", type=int, default=12,
                        help="Scan's search depth (default 12: Scan 2.0 prints no score below)")
    parser.add_argument("--limit", type=int, default=0,
                        help="label at most this many positions, evenly spread (default: all)")
    parser.add_argument("--exclude", nargs="*", type=Path, default=[],
                        help="positions files whose positions are labelled already: left out")
    parser.add_argument("--shard", default="0/1", metavar="K/N",
                        help="label every N-th position from the K-th (0-based; default 0/1)")
    parser.add_argument("--first", type=int, default=0,
                        help="then label the first this many of them (default: all)")
    parser.add_argument("--out", type=Path, help="positions file to write")
    args = parser.parse_args(argv)
    if not args.scan or args.out is None:
        print("scan_labels: needs --scan PATH (or $DRAUGHTSBOARD_SCAN) and --out FILE: "
              "nothing labelled")
        return 0
    try:
        k, n = (int(x) for x in args.shard.split("/"))
        if not 0 <= k < n:
            raise ValueError
    except ValueError:
        parser.error(f"--shard {args.shard!r}: K/N with 0 <= K < N")
    found = teacher.file_positions("international", args.games, args.positions)
    fens = teacher.quiet_positions("international", found)
    if args.exclude:
        known = {s.fen for path in args.exclude for s in dataset.read(path)[1]}
        fens = [fen for fen in fens if fen not in known]
    if 0 < args.limit < len(fens):
        fens = [fens[i * len(fens) // args.limit] for i in range(args.limit)]
    fens = fens[k::n]
    if args.first > 0:
        fens = fens[:args.first]
    scan = scan_hub1(args.scan, args.depth)
    try:
        samples = teacher.label("international", fens, scan.score_or_none)
    finally:
        scan.close()
    header = teacher.header(
        "international", f"{scan.engine_name or 'Scan'}, depth {args.depth}, book off", samples,
        [*args.games, *args.positions],
        f"bench/scan_labels.py --depth {args.depth} --limit {args.limit} --shard {k}/{n} "
        f"--first {args.first} --games {' '.join(p.name for p in args.games)} "
        f"--positions {' '.join(p.name for p in args.positions)} "
        f"--exclude {' '.join(p.name for p in args.exclude)}")
    dataset.write(args.out, header, samples)
    print(f"scan_labels: {len(fens)} quiet positions, {len(samples)} labelled -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
