"""Benchmark: perft leaves per second, our engine beside pydraughts, measured in the same run.

Our perft uses bulk counting (the last ply is counted, not played: quiet men moves with
``int.bit_count``). pydraughts has no perft, so its figure is a plain perft written on its public
API (``legal_moves``/``push``/``pop``), which is how a program would use it. Depths differ (it is
about 1000 times slower); leaves/s is the comparable figure. Times are CPU seconds of this process
(``time.process_time``) so that other jobs on a shared machine do not skew the ratio; wall-clock
seconds are printed too. Target: >= 1,000,000 leaves/s for international.

Run: ``.venv/bin/python bench/perft.py [--quick]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from engine import Board
from engine.perft import perft

CASES = {  # variant: (our depth, pydraughts name, pydraughts depth, published leaves)
    "international": (7, "standard", 3, {3: 658, 7: 1049442, 6: 167140}),
    "russian": (8, "russian", 4, {4: 1469, 8: 929899, 7: 190146}),
    "english": (8, "english", 4, {4: 1469, 8: 845931, 7: 179740}),
}


def _timed(fn: Callable[[], int]) -> tuple[int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    nodes = fn()
    return nodes, time.process_time() - cpu, time.perf_counter() - wall


def pydraughts_perft(variant: str, depth: int) -> int:
    """Plain perft on pydraughts' public API (its legal_moves already lists distinct moves)."""
    from draughts import Board as PyBoard

    board = PyBoard(variant)

    def walk(d: int) -> int:
        moves = board.legal_moves()
        if d == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += walk(d - 1)
            board.pop()
        return total

    return walk(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one ply less for us")
    args = parser.parse_args()
    print(f"{'variant':14} {'engine':10} {'depth':>5} {'leaves':>9} {'cpu s':>7} {'wall s':>7} "
          f"{'leaves/s':>11}")
    for name, (depth, py_name, py_depth, published) in CASES.items():
        depth -= args.quick
        nodes, cpu, wall = _timed(partial(perft, Board(name), depth))
        assert nodes == published[depth], (name, depth, nodes)
        ours = nodes / cpu
        print(f"{name:14} {'ours':10} {depth:5} {nodes:9} {cpu:7.2f} {wall:7.2f} {ours:11,.0f}")
        nodes, cpu, wall = _timed(partial(pydraughts_perft, py_name, py_depth))
        assert nodes == published[py_depth], (py_name, py_depth, nodes)
        theirs = nodes / cpu
        print(f"{'':14} {'pydraughts':10} {py_depth:5} {nodes:9} {cpu:7.2f} {wall:7.2f} "
              f"{theirs:11,.0f}   ratio x{ours / theirs:,.0f}")
    print("target: international >= 1,000,000 leaves/s (ours)")


if __name__ == "__main__":
    main()
