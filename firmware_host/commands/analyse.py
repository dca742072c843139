"""``draughtsboard analyse``: the built-in engine's best move for a position.

``draughtsboard analyse --variant russian --depth 4 --json`` prints:

>>> from firmware_host.cli import main
>>> main(["analyse", "--variant", "russian", "--depth", "4", "--json"])  # doctest: +ELLIPSIS
best move g3-f4  score +0.03  depth 4  nodes 258  nodes/s ...  time ... s
line g3-f4 d6-c5 f2-g3 e7-d6
{"move": "g3-f4", "score": 3, "depth": 4, "nodes": 258, "nps": ..., "seconds": ...}
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Board, Move


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``analyse``."""
    parser = subparsers.add_parser(
        "analyse", help="best move, score and search figures for a position",
        description="Search a position with the built-in engine and print its best move.")
    parser.add_argument("--variant", required=True, help="variant name, e.g. international")
    parser.add_argument("--fen", help="position (default: the variant's initial one)")
    strength = parser.add_mutually_exclusive_group()
    strength.add_argument("--level", type=int, help="strength level 1-10 (its own time)")
    strength.add_argument("--depth", type=int, help="search exactly this many plies")
    strength.add_argument("--movetime", type=float, help="seconds to think (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the noisy levels")
    parser.add_argument("--json", action="store_true", help="end with a JSON summary line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the search; bad input prints one error line and returns 2."""
    from engine import Board, DraughtsError
    from engine.levels import limit_for_level, searcher_for_level
    from engine.search import Limit, Searcher

    try:
        board = Board(args.variant, args.fen)
        if args.level is not None:
            limit = limit_for_level(args.level)
            searcher = searcher_for_level(board.variant, args.level, seed=args.seed,
                                          clock=time.monotonic)
        else:
            searcher = Searcher(board.variant, seed=args.seed, clock=time.monotonic)
            if args.depth is not None:
                limit = Limit(depth=args.depth)
            else:
                limit = Limit(movetime=args.movetime if args.movetime is not None else 2.0)
    except (DraughtsError, ValueError) as exc:
        print(f"draughtsboard analyse: {exc}", file=sys.stderr)
        return 2
    result = searcher.search(board, limit)
    if result.move is None:
        print("no legal move: the game is over")
        if args.json:
            print(json.dumps({"move": None, "score": result.score, "depth": 0, "nodes": 0,
                              "nps": 0, "seconds": 0.0}))
        return 0
    move = board.move_notation(result.move)
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    pv = _pv_text(board, result.pv)
    print(f"best move {move}  score {result.score / 100:+.2f}  depth {result.depth}  "
          f"nodes {result.nodes}  nodes/s {nps}  time {result.seconds:.2f} s")
    if pv:
        print(f"line {pv}")
    if args.json:
        print(json.dumps({"move": move, "score": result.score, "depth": result.depth,
                          "nodes": result.nodes, "nps": nps,
                          "seconds": round(result.seconds, 4)}))
    return 0


def _pv_text(board: Board, pv: tuple[Move, ...]) -> str:
    probe = board.copy()
    words = []
    for move in pv:
        words.append(probe.move_notation(move))
        probe.push(move)
    return " ".join(words)
