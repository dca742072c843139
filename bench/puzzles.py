"""Benchmark: how many puzzles the builder finds in games, and what it costs.

Plays ``--games`` seeded self-play games per variant (:mod:`engine.selfplay`, levels 4 and 6,
the default of ``draughtsboard puzzles build``) and runs the builder over them
(:func:`engine.puzzles.collect` at ``--depth``), then prints per variant: puzzles per 100
games, CPU seconds a game to play it and to search it for puzzles, and the puzzles' spread of
difficulty and motifs. ``--out FILE`` writes the figures, the command and the engine's commit
as JSON (``bench/data/coach-puzzles.json``); docs/coach.md#measured holds the results.

Run: ``python bench/puzzles.py --variants international,russian,english --games 20
[--out FILE]`` (a copy of ``bench/`` outside the checkout under the compiled engine's python).

Example:
    >>> spread([3, 1, 3])
    '1: 1, 3: 2'
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.build import engine_build, warning
from bench.match import engine_provenance
from engine.puzzles import DEPTH, Puzzle, collect
from engine.selfplay import play_games

__all__ = ["main", "spread"]


def spread(values: Iterable[object]) -> str:
    """``value: count`` pairs, in order."""
    counts = Counter(values)
    return ", ".join(f"{value}: {counts[value]}" for value in sorted(counts, key=str))



def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="russian")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--levels", default="4,6")
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=DEPTH)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    note = warning()
    if note:
        print(note, file=sys.stderr)
    first, second = (int(x) for x in args.levels.split(","))
    rows = []
    for variant in args.variants.split(","):
        started = time.process_time()
        games = list(play_games(variant, args.games, args.seed, (first, second)))
        played = time.process_time() - started
        started = time.process_time()
        found: list[Puzzle] = list(collect(
            ((board, f"seed {args.seed + i}") for i, board in enumerate(games)), args.depth))
        searched = time.process_time() - started
        row = {"variant": variant, "games": len(games),
               "plies": sum(board.ply for board in games), "puzzles": len(found),
               "per_100_games": round(100 * len(found) / max(1, len(games)), 1),
               "play_seconds_per_game": round(played / max(1, len(games)), 2),
               "build_seconds_per_game": round(searched / max(1, len(games)), 2),
               "difficulty": spread(p.difficulty for p in found),
               "motifs": spread(m for p in found for m in p.motifs) or "-"}
        rows.append(row)
        print(f"{variant}: {row['puzzles']} puzzles in {row['games']} games "
              f"({row['per_100_games']} per 100 games, {row['plies']} plies), "
              f"{row['build_seconds_per_game']} s a game to search, "
              f"{row['play_seconds_per_game']} s to play it ({engine_build()} engine); "
              f"difficulty {row['difficulty']}; motifs {row['motifs']}", flush=True)
    if args.out is not None:
        record = {"command": "python bench/puzzles.py " + " ".join(
                      argv if argv is not None else sys.argv[1:]),
                  **engine_provenance(), "engine_build": engine_build(), "depth": args.depth,
                  "levels": args.levels, "rows": rows}
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
