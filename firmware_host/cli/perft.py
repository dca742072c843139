"""``draughtsboard perft``: count the leaf nodes of the move tree (checks the rules engine).

``draughtsboard perft --variant international --depth 3 --json`` prints:

>>> from firmware_host.cli import main
>>> main(["perft", "--variant", "international", "--depth", "3", "--json"])  # doctest: +ELLIPSIS
658
{"variant": "international", "depth": 3, "nodes": 658, "seconds": ...}
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``perft``."""
    parser = subparsers.add_parser(
        "perft", help="count leaf nodes of the legal-move tree",
        description="Count the positions DEPTH plies below a position (perft).")
    parser.add_argument("--variant", metavar="NAME", required=True,
                        help="variant name, e.g. international")
    parser.add_argument("--depth", metavar="N", required=True, type=int,
                        help="plies to search (>= 0)")
    parser.add_argument("--fen", metavar="FEN",
                        help="start position (default: the variant's initial one)")
    parser.add_argument("--count", choices=("unique", "paths"), default="unique",
                        help="unique: moves with the same origin, destination and captured "
                             "set count once (default); paths: every capture path counts")
    parser.add_argument("--json", action="store_true", help="end with a JSON summary line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run perft; bad input prints one error line and returns 2."""
    from engine import Board, DraughtsError
    from engine.perft import perft

    try:
        if args.depth < 0:
            raise ValueError(f"--depth must be >= 0, not {args.depth}")
        board = Board(args.variant, args.fen)
    except (DraughtsError, ValueError) as exc:
        print(f"draughtsboard perft: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    nodes = perft(board, args.depth, paths=args.count == "paths")
    seconds = time.perf_counter() - start
    print(nodes)
    if args.json:
        print(json.dumps({"variant": board.variant.name, "depth": args.depth, "nodes": nodes,
                          "seconds": round(seconds, 6)}))
    return 0
