"""Benchmark: endgame tables — build time, sizes, probe rate, and the search with and without them.

In one run:

1. **Build**: the retrograde builder on the 3-piece tables of English, Russian and
   international draughts (CPU seconds, positions per second); the shipped files' sizes.
2. **Probe rate**: ``EndgameTable.probe`` on random positions inside the tables (probes per CPU
   second, first probe of each signature's decompression included).
3. **Right moves**: from random won positions of the 4-piece tables, the share of the moves
   the searcher picks (``--nodes`` a move) that keep the win, with and without the tables.
4. **Games**: positions just above the tables (5 and 6 pieces) played out, the searcher with
   tables against the same searcher without, each side in turn, ``--nodes`` a move, ended by
   the variant's rules (``Board.outcome``) or after ``--plies``.

Times are CPU seconds of this process (``time.process_time``), so that other jobs on a shared
machine do not skew them; the searchers are held to node counts.

Run: ``.venv/bin/python bench/endgame.py [--nodes N] [--samples N]``
"""

from __future__ import annotations

import argparse
import random
import time
from importlib import resources

from engine import Board
from engine.endgame import SHIPPED, WDL, EndgameTable, table_file_name
from engine.endgame_build import build, positions
from engine.search import Limit, Searcher, SearchOptions

#: Positions just above the tables: (variant, FEN), played from both sides.
GAMES: tuple[tuple[str, str], ...] = (
    ("english", "W:WK14,K22,27:BK5,10"),
    ("english", "B:WK26,K30,21:BK3,7"),
    ("english", "W:WK11,23,24:BK8,K17,1"),
    ("russian", "W:WKa1,Kc3,e3:BKh8,b6"),
    ("russian", "W:WKc1,Kg1,d2:BKh8,Kb8"),
    ("russian", "W:Wa3,c3,Ke1:Bb6,h6,Kh8"),
    ("international", "W:WK46,K48,33:BK5,14"),
    ("international", "W:WK47,36,38:BK4,13,15"),
    ("international", "W:WK50,K45,39:BK1,K6,12"),
)


def bench_build() -> None:
    print("1. build (3 pieces) and shipped files")
    for variant in ("english", "russian", "international"):
        started = time.process_time()
        table = build(variant, 3)
        seconds = time.process_time() - started
        count = sum(1 for sig in table.signatures for _ in positions(table.index, sig))
        print(f"  {variant:14} {count:9,} positions  {seconds:6.1f} s CPU  "
              f"{count / seconds:8,.0f} positions/s")
    for variant in SHIPPED:
        name = table_file_name(variant)
        data = resources.files("engine").joinpath("data", name).read_bytes()
        table = EndgameTable.from_bytes(data)
        entries = sum(2 * table.index.size(sig) for sig in table.signatures)
        print(f"  {name:28} {len(data):10,} bytes  {entries:11,} entries  "
              f"({table.info.pieces} pieces, {table.info.men_pieces} with men)  "
              f"{8 * len(data) / entries:.2f} bits/entry")


def _sample(table: EndgameTable, count: int, rng: random.Random,
            pieces: int) -> list[tuple[int, int, int, int]]:
    out = []
    sigs = [s for s in table.signatures if sum(s) == pieces]
    for sig in sigs:
        every = max(1, 2 * table.index.size(sig) * len(sigs) // count)
        for _entry, white, black, kings, colour in positions(table.index, sig, every,
                                                             rng.randrange(every)):
            out.append((white, black, kings, colour))
    return out


def bench_probe(samples: int) -> None:
    print("2. probe rate")
    rng = random.Random(1)
    for variant in ("english", "russian", "international"):
        table = EndgameTable.load(variant)
        probes = _sample(table, samples, rng, table.info.pieces)
        fresh = EndgameTable.load(variant)
        started = time.process_time()
        for white, black, kings, colour in probes:
            fresh.probe(white, black, kings, colour)
        first = time.process_time() - started
        started = time.process_time()
        for _ in range(5):
            for white, black, kings, colour in probes:
                fresh.probe(white, black, kings, colour)
        warm = time.process_time() - started
        print(f"  {variant:14} {len(probes):6} positions: first pass {first:.2f} s "
              f"(decompressing), then {5 * len(probes) / warm:10,.0f} probes/s")


def bench_right_moves(samples: int, nodes: int) -> None:
    print(f"3. moves that keep a table win ({nodes} nodes a move)")
    rng = random.Random(2)
    for variant in ("english", "russian", "international"):
        table = EndgameTable.load(variant)
        won = [p for p in _sample(table, samples * 8, rng, table.info.pieces)
               if table.probe(*p) is WDL.WIN]
        rng.shuffle(won)
        won = won[:samples]
        searchers = {
            "with tables": Searcher(variant),
            "without": Searcher(variant, options=SearchOptions(endgame_tables=False)),
        }
        for label, searcher in searchers.items():
            kept = 0
            for white, black, kings, colour in won:
                board = Board(variant, fen=_fen(table, white, black, kings, colour))
                searcher.new_game()
                move = searcher.search(board, Limit(nodes=nodes)).move
                assert move is not None
                board.push(move)
                after = table.probe(*board.bitboards(), int(board.turn))
                kept += after is WDL.LOSS or (after is None and board.outcome() is not None)
            print(f"  {variant:14} {label:12} {kept}/{len(won)} kept the win "
                  f"({100 * kept / max(1, len(won)):.0f}%)")


def _fen(table: EndgameTable, white: int, black: int, kings: int, colour: int) -> str:
    gen, v = table.index.gen, table.variant

    def side(mask: int) -> str:
        return ",".join(("K" if kings >> gen.sq2bit[sq] & 1 else "") + v.square_name(sq)
                        for sq in gen.mask_to_squares(mask))

    return f"{'WB'[colour]}:W{side(white)}:B{side(black)}"


def bench_games(nodes: int, plies: int) -> None:
    print(f"4. games from 5-6 pieces, tables against none ({nodes} nodes a move)")
    totals: dict[str, list[float]] = {}
    for variant, fen in GAMES:
        for tables_side in (0, 1):
            board = Board(variant, fen=fen)
            engines = {tables_side: Searcher(variant),
                       1 - tables_side: Searcher(variant,
                                                 options=SearchOptions(endgame_tables=False))}
            for _ in range(plies):
                if board.outcome() is not None:
                    break
                move = engines[int(board.turn)].search(board, Limit(nodes=nodes)).move
                assert move is not None
                board.push(move)
            outcome = board.outcome()
            points = 0.5 if outcome is None or outcome.winner is None else float(
                int(outcome.winner) == tables_side)
            totals.setdefault(variant, []).append(points)
            result = "unfinished" if outcome is None else (
                outcome.rule or outcome.termination.name.lower())
            print(f"  {variant:14} {fen:28} tables play {'WB'[tables_side]}: "
                  f"{points:.1f} ({result}, {board.ply} plies)")
    for variant, points in totals.items():
        print(f"  {variant:14} tables score {sum(points):.1f}/{len(points)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a move (default 3000)")
    parser.add_argument("--samples", type=int, default=60,
                        help="positions per variant for probes and right moves (default 60)")
    parser.add_argument("--plies", type=int, default=120, help="longest game (default 120)")
    args = parser.parse_args()
    bench_build()
    bench_probe(args.samples * 50)
    bench_right_moves(args.samples, args.nodes)
    bench_games(args.nodes, args.plies)


if __name__ == "__main__":
    main()
