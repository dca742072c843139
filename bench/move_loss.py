"""Where the engine loses points: its moves judged by a deeper Scan 2.0, by phase of the game.

``label`` samples positions where our engine was to move in stored match games (bench/match.py
``--out`` files), evenly with a seed, and asks Scan 2.0 (fixed depth, book off, its bitbases on,
through its first Hub protocol) for its score of every legal move's resulting position: an
oracle file, whose ``positions`` are ``{fen: {move: score for the side to move}}``. ``judge``
lets this interpreter's engine search each position at a limit and prints, by the number of
pieces on the board, the mean loss of its moves (the best move's score minus its own, in
hundredths of a man, scores capped at ±2000 and losses at 300) and the moves that lose a man or
more. The same oracle file judges every candidate engine on the same positions, so two of them
are compared move for move, and a run takes minutes where a match takes hours.

Run: ``python bench/move_loss.py label --scan PATH/scan --depth 14 --positions 500 --out
oracle.json bench/data/match-*-scan8-0.25s*.json``, then ``python bench/move_loss.py judge
oracle.json --movetime 0.25`` (from the compiled engine, as bench/match.py).

Example:
    >>> table = {"W:W28:B19": {"28x14": 2000.0}, "W:W33:B19": {"33-28": 0.0, "33-29": -150.0}}
    >>> [(row.phase, row.positions, row.mean_loss, row.blunders)
    ...  for row in judge_moves(table, {"W:W33:B19": "33-29"})]
    [('2-11', 1, 150.0, 1)]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board
from engine.clock import SearchClock
from engine.endgame import EndgameTable
from engine.search import Limit, Searcher

__all__ = ["PhaseRow", "judge_moves", "label", "sample_positions"]

#: Scores beyond this are wins or losses whatever their distance; losses beyond LOSS_CAP count
#: as that much (one lost game should not outweigh a hundred inaccuracies).
SCORE_CAP, LOSS_CAP = 2000.0, 300.0
#: Forced moves played out before a position is scored, at most.
MAX_FORCED = 40
#: A move that loses this much or more (a man) is a blunder.
BLUNDER = 100.0
#: Phases by the number of pieces on the board: (name, fewest pieces).
PHASES = (("30-40", 30), ("20-29", 20), ("12-19", 12), ("2-11", 2))

#: An oracle file: for each position, each legal move and Scan's score after it.
Oracle = Mapping[str, Mapping[str, float | None]]


@dataclass(frozen=True)
class PhaseRow:
    """The judged moves of one phase."""

    phase: str
    positions: int
    mean_loss: float
    blunders: int


def sample_positions(games: Iterable[Mapping[str, object]], count: int, seed: int,
                     ours: str = "draughtsboard", skip: int = 6) -> list[str]:
    """FENs of distinct positions where ``ours`` was to move with a choice, after the first
    ``skip`` plies past the opening and with more than the tables' 4 pieces, ``count`` of them
    chosen with ``seed``."""
    found: dict[str, None] = {}
    for game in games:
        ours_white = str(game["white"]).startswith(ours)
        board = Board("international", str(game["fen"])) if game.get("fen") else Board()
        for text in str(game.get("opening", "")).split():
            board.push(board.parse_move(text))
        moves = game["moves"]
        assert isinstance(moves, list)
        for index, text in enumerate(moves):
            white, black, _ = board.bitboards()
            if (index >= skip and (int(board.turn) == 0) == ours_white
                    and len(board.legal_moves) > 1 and (white | black).bit_count() > 4):
                found[board.fen()] = None
            board.push(board.parse_move(str(text)))
    fens = sorted(found)
    random.Random(seed).shuffle(fens)
    return fens[:count]


def label(fens: Iterable[str],
          score: Callable[[Board], float | None]) -> dict[str, dict[str, float | None]]:
    """Each position's legal moves with the score of the side to move after each: ``score``
    is the oracle's score of a position for its own side to move (None: it gave none). Forced
    replies are played out first (an engine plays a lone legal move at once and scores it 0,
    Scan 2.0 too), and a move after which the game ends is a win."""
    table: dict[str, dict[str, float | None]] = {}
    for fen in fens:
        board = Board("international", fen)
        children: dict[str, float | None] = {}
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            theirs = _score_forced(child, score)
            children[board.move_notation(move)] = None if theirs is None else -theirs
        table[fen] = children
    return table


def _score_forced(board: Board, score: Callable[[Board], float | None]) -> float | None:
    """``score`` of ``board`` for its side to move, after the forced moves from it."""
    sign = 1.0
    for _ in range(MAX_FORCED):
        moves = list(board.legal_moves)
        if not moves:
            return -sign * SCORE_CAP
        if len(moves) > 1:
            found = score(board)
            return None if found is None else sign * found
        board.push(moves[0])
        sign = -sign
    return None


def judge_moves(table: Oracle, chosen: Mapping[str, str]) -> list[PhaseRow]:
    """The losses of the ``chosen`` moves (FEN -> move) by phase; positions with fewer than two
    scored moves, or not in ``chosen``, are left out."""
    totals = {name: [0, 0.0, 0] for name, _ in PHASES}
    for fen, move in chosen.items():
        scores = {m: min(max(s, -SCORE_CAP), SCORE_CAP)
                  for m, s in table.get(fen, {}).items() if s is not None}
        if len(scores) < 2 or move not in scores:
            continue
        loss = min(max(scores.values()) - scores[move], LOSS_CAP)
        white, black, _ = Board("international", fen).bitboards()
        pieces = (white | black).bit_count()
        name = next(n for n, fewest in PHASES if pieces >= fewest)
        total = totals[name]
        total[0] += 1
        total[1] += loss
        total[2] += loss >= BLUNDER
    return [PhaseRow(name, int(n), round(float(s) / n, 1), int(b))
            for name, (n, s, b) in totals.items() if n]


def _play(table: Oracle, limit: Limit) -> tuple[dict[str, str], int, float]:
    """The engine's move in each position (a fresh searcher each, the tables shared), its nodes
    and depth a move."""
    chosen: dict[str, str] = {}
    nodes = depth = 0
    # One copy of the tables for every search, as a game keeps its searcher's: a fresh load
    # would decompress each signature again inside the position's time.
    tables = EndgameTable.load("international")
    for fen in table:
        board = Board("international", fen)
        result = Searcher("international", clock=SearchClock(), tables=tables).search(board, limit)
        assert result.move is not None  # sampled positions have a choice of moves
        chosen[fen] = board.move_notation(result.move)
        nodes += result.nodes
        depth += result.depth
    count = max(len(chosen), 1)
    return chosen, nodes // count, depth / count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("label", help="write an oracle file from match games and Scan")
    make.add_argument("games", nargs="+", type=Path, help="bench/match.py games files")
    make.add_argument("--scan", default=os.environ.get("DRAUGHTSBOARD_SCAN"),
                      help="Scan 2.0 (default: $DRAUGHTSBOARD_SCAN)")
    make.add_argument("--depth", type=int, default=14, help="Scan's depth (14)")
    make.add_argument("--positions", type=int, default=500)
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--out", type=Path, required=True)
    play = sub.add_parser("judge", help="judge this engine's moves against an oracle file")
    play.add_argument("oracle", type=Path)
    play.add_argument("--movetime", type=float, help="seconds a move (the board's clock)")
    play.add_argument("--depth", type=int)
    play.add_argument("--nodes", type=int)
    play.add_argument("--out", type=Path, help="write the chosen moves here (JSON)")
    args = parser.parse_args(argv)
    if args.command == "label":
        return _label(args)
    try:
        table = json.loads(args.oracle.read_text(encoding="utf-8"))["positions"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"{args.oracle}: not an oracle file ({exc})", file=sys.stderr)
        return 2
    limit = Limit(movetime=args.movetime, depth=args.depth, nodes=args.nodes)
    if not (limit.timed or limit.depth or limit.nodes):
        print("judge needs --movetime, --depth or --nodes", file=sys.stderr)
        return 2
    started = time.process_time()
    chosen, nodes, depth = _play(table, limit)
    rows = judge_moves(table, chosen)
    count = sum(row.positions for row in rows)
    mean = sum(row.mean_loss * row.positions for row in rows) / max(count, 1)
    print(f"{count} positions: mean loss {mean:.1f}, blunders {sum(r.blunders for r in rows)}, "
          f"{nodes:,} nodes and depth {depth:.2f} a move, "
          f"{time.process_time() - started:.0f} CPU s")
    print("| pieces | positions | mean loss | blunders (a man or more) |")
    print("|---|---|---|---|")
    for row in rows:
        print(f"| {row.phase} | {row.positions} | {row.mean_loss} | {row.blunders} |")
    if args.out is not None:
        args.out.write_text(json.dumps(chosen, indent=0), encoding="utf-8")
    return 0


def _label(args: argparse.Namespace) -> int:
    from bench.players import scan_hub1

    if not args.scan:
        print("label needs Scan 2.0: --scan PATH or $DRAUGHTSBOARD_SCAN", file=sys.stderr)
        return 2
    games: list[Mapping[str, object]] = []
    for path in args.games:
        try:
            games.extend(json.loads(path.read_text(encoding="utf-8"))["games"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"{path}: not a games file of bench/match.py ({exc!r})", file=sys.stderr)
            return 2
    fens = sample_positions(games, args.positions, args.seed)
    scan = scan_hub1(args.scan, args.depth)
    try:
        table = label(fens, scan.score_or_none)
    finally:
        scan.close()
    args.out.write_text(json.dumps({"scan": scan.identity, "depth": args.depth,
                                    "positions": table}, indent=0), encoding="utf-8")
    print(f"{args.out}: {len(table)} positions, Scan depth {args.depth}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
