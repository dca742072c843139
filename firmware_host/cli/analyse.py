"""``draughtsboard analyse``: the best move for a position, from the built-in engine or a Hub
engine (Scan: ``--hub "/opt/scan/scan hub"``, or ``--config FILE`` whose engine is a Hub one).

``draughtsboard analyse --variant russian --depth 4 --json`` prints (the move, score and line
follow the evaluation's fitted weights, engine/weights.py):

>>> from firmware_host.cli import main
>>> main(["analyse", "--variant", "russian", "--depth", "4", "--json"])  # doctest: +ELLIPSIS
best move ...  score ...  depth 4  nodes ...  nodes/s ...  time ... s
line ...
{"move": "...", "score": ..., "depth": 4, "nodes": ..., "nps": ..., "seconds": ..., \
"engine": "draughtsboard"}
0

A Hub engine gets the limit the options give (``--depth`` is sent as ``level depth=N``,
``--nodes`` as ``level nodes=N``, ``--movetime`` as ``level move-time=S``), else its own
settings (``engine.hub_depth``, ``hub_nodes``, ``hub_movetime_s``); ``--level`` is the built-in
engine's only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from firmware_host.opponents.arguments import add_hub_arguments

if TYPE_CHECKING:
    from engine import Board, Move
    from engine.search import SearchResult


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``analyse``."""
    parser = subparsers.add_parser(
        "analyse", help="best move, score and search figures for a position",
        description="Search a position with the built-in engine, or a Hub engine such as Scan, "
                    "and print its best move.")
    parser.add_argument("--variant", metavar="NAME", required=True,
                        help="variant name, e.g. international")
    parser.add_argument("--fen", metavar="FEN",
                        help="position (default: the variant's initial one)")
    strength = parser.add_mutually_exclusive_group()
    strength.add_argument("--level", metavar="N", type=int,
                          help="strength level 1-10 (its own time; the built-in engine only)")
    strength.add_argument("--depth", metavar="N", type=int, help="search exactly this many plies")
    strength.add_argument("--nodes", metavar="N", type=int, help="search this many nodes")
    strength.add_argument("--movetime", metavar="SECONDS", type=float,
                          help="seconds to think (default 2; a Hub engine: its own setting)")
    parser.add_argument("--seed", metavar="N", type=int, default=0,
                        help="seed for the noisy levels")
    parser.add_argument("--json", action="store_true", help="end with a JSON summary line")
    add_hub_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the search; bad input prints one error line and returns 2 (a Hub engine that does
    not start or answer: 69)."""
    from engine import Board, DraughtsError
    from engine.levels import level
    from firmware_host.errors import ConfigError, say
    from firmware_host.opponents.arguments import hub_config

    try:
        board = Board(args.variant, args.fen)
        if any(v is not None and v < 1 for v in (args.depth, args.nodes)):
            raise ValueError("--depth and --nodes must be 1 or more")
        if args.movetime is not None and not 0 < args.movetime < 1e9:  # not nan, not inf
            raise ValueError(f"--movetime must be more than 0 seconds, not {args.movetime}")
        config = hub_config(args)
        if config is None and args.level is not None:
            level(args.level)  # 1-10
        if config is not None and args.level is not None:
            raise ValueError("--level is the built-in engine's: give a Hub engine --depth, "
                             "--nodes or --movetime (or engine.hub_* in its --config)")
    except (DraughtsError, ValueError) as exc:  # ConfigError is a ValueError
        print(f"draughtsboard analyse: {exc}", file=sys.stderr)
        return 2
    if config is None:
        result, name = _builtin(args, board), "draughtsboard"
    else:
        from firmware_host.opponents.hub.client import HubEngineError

        try:
            result, name = _hub(args, board, config)
        except (ConfigError, HubEngineError) as exc:
            return say(exc, "draughtsboard analyse")
    return _report(args, board, result, name)


def _builtin(args: argparse.Namespace, board: Board) -> SearchResult:
    from engine.levels import limit_for_level, searcher_for_level
    from engine.search import Limit, Searcher

    if args.level is not None:
        limit = limit_for_level(args.level)
        searcher = searcher_for_level(board.variant, args.level, seed=args.seed,
                                      clock=time.monotonic)
    else:
        searcher = Searcher(board.variant, seed=args.seed, clock=time.monotonic)
        if args.depth is not None:
            limit = Limit(depth=args.depth)
        elif args.nodes is not None:
            limit = Limit(nodes=args.nodes)
        else:
            limit = Limit(movetime=args.movetime if args.movetime is not None else 2.0)
    return searcher.search(board, limit)


def _hub(args: argparse.Namespace, board: Board, config: object) -> tuple[SearchResult, str]:
    from engine.search import Limit
    from firmware_host.config.loader import Config
    from firmware_host.opponents.build import build_opponent

    if not isinstance(config, Config):
        raise TypeError(f"a Config, not {type(config).__name__}")
    opponent, limit = build_opponent(config, board.variant, process=False)  # a tool: here
    try:
        if args.depth is not None:
            limit = Limit(depth=args.depth)
        elif args.nodes is not None:
            limit = Limit(nodes=args.nodes)
        elif args.movetime is not None:
            limit = Limit(movetime=args.movetime)
        return opponent.best_move(board, limit), opponent.name
    finally:
        opponent.close()


def _report(args: argparse.Namespace, board: Board, result: SearchResult, name: str) -> int:
    if result.move is None:
        print("no legal move: the game is over")
        if args.json:
            print(json.dumps({"move": None, "score": result.score, "depth": 0, "nodes": 0,
                              "nps": 0, "seconds": 0.0, "engine": name}))
        return 0
    move = board.move_notation(result.move)
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    pv = _pv_text(board, result.pv)
    print(f"best move {move}  score {result.score / 100:+.2f}  depth {result.depth}  "
          f"nodes {result.nodes}  nodes/s {nps}  time {result.seconds:.2f} s")
    if pv:
        print(f"line {pv}")
    if name != "draughtsboard":
        print(f"engine {name}")
    if args.json:
        print(json.dumps({"move": move, "score": result.score, "depth": result.depth,
                          "nodes": result.nodes, "nps": nps,
                          "seconds": round(result.seconds, 4), "engine": name}))
    return 0


def _pv_text(board: Board, pv: tuple[Move, ...]) -> str:
    probe = board.copy()
    words = []
    for move in pv:
        words.append(probe.move_notation(move))
        probe.push(move)
    return " ".join(words)
