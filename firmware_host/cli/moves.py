"""``draughtsboard moves``: list the legal moves of a position.

``draughtsboard moves --variant russian --fen "W:Wc3:Bd4" --json`` prints:

>>> from firmware_host.cli import main
>>> main(["moves", "--variant", "russian", "--fen", "W:Wc3:Bd4", "--json"])
[{"pdn": "c3:e5", "from": "c3", "to": "e5", "path": ["e5"], "captures": ["d4"]}]
0
>>> main(["moves", "--variant", "english"])                  # one PDN move a line
9-13
10-14
11-15
12-16
9-14
10-15
11-16
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Board, Move


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``moves``."""
    parser = subparsers.add_parser(
        "moves", help="list the legal moves of a position",
        description="List the legal moves (one per origin, destination and captured set).")
    parser.add_argument("--variant", metavar="NAME", required=True,
                        help="variant name, e.g. russian")
    parser.add_argument("--fen", metavar="FEN",
                        help="position (default: the variant's initial one)")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list of {pdn, from, to, path, captures}")
    parser.set_defaults(run=run)


def _describe(board: Board, move: Move) -> dict[str, object]:
    variant = board.variant

    def name(sq: int) -> int | str:
        text = variant.square_name(sq)
        return int(text) if variant.numeric_notation else text

    return {
        "pdn": board.move_notation(move),
        "from": name(move.origin),
        "to": name(move.destination),
        "path": [name(s) for s in move.path],
        "captures": [name(s) for s in move.captures],
    }


def run(args: argparse.Namespace) -> int:
    """Print the legal moves; bad input prints one error line and returns 2."""
    from engine import Board, DraughtsError

    try:
        board = Board(args.variant, args.fen)
    except (DraughtsError, ValueError) as exc:
        print(f"draughtsboard moves: {exc}", file=sys.stderr)
        return 2
    described = [_describe(board, m) for m in board.legal_moves]
    if args.json:
        print(json.dumps(described))
    else:
        for item in described:
            print(item["pdn"])
    return 0
