"""Benchmark: the recogniser's cost per stable-occupancy change.

What it recognises: docs/design.md#how-a-board-change-becomes-a-move.

Mid-game positions with captures are taken from seeded random games (8x8 and 10x10, plus 12x12).
For each, a capture (a random path, multi-captures preferred) is carried out as a player does:
origin lifted, captured pieces removed in random order before or after landing, the piece put
down on some intermediate landings. The occupancy after every change is resolved with the
position's prebuilt :class:`MoveIndex` (what the session does), and, as the peer measured in the
same run, by a straightforward resolver giving the same answers (finished move, settle flag, what
is left to do) by scanning every legal move on each change (slides and bounces left out).

Figures: median and 99th percentile per change in microseconds, the ratio peer/index, and the
one-off cost of building the index per position (paid once per move, not per change; it includes
the engine's legal-move generation, shown next to it).

Run: ``.venv/bin/python bench/recogniser.py [--positions N] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterable
from functools import partial

from engine import Board, Move
from firmware_host.recognition.recogniser import (
    Complete,
    Illegal,
    InProgress,
    InSync,
    MoveIndex,
    RefusalReason,
    Resolution,
)

VARIANTS = ("international", "brazilian", "russian", "english", "canadian")


def midgame_positions(
    variant: str, count: int, rng: random.Random, captures: bool = True
) -> list[Board]:
    """Positions between plies 16 and 80 of random games (where the side to move must capture)."""
    found: list[Board] = []
    while len(found) < count:
        board = Board(variant)
        for _ in range(rng.randint(16, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        moves = list(board.legal_moves)
        if moves and (not captures or any(m.is_capture for m in moves)):
            found.append(board.copy())
    return found


def changes(board: Board, move: Move, rng: random.Random) -> list[frozenset[int]]:
    """Every stable occupancy on the way from the position to the move's result."""
    occ = set(board.occupied_squares())
    out = []
    pending = list(move.captures)
    rng.shuffle(pending)

    def step() -> None:
        out.append(frozenset(occ))

    occ.discard(move.origin)
    step()
    for landing in move.path:
        if pending and rng.random() < 0.4:
            occ.discard(pending.pop())
            step()
        if landing != move.destination and rng.random() < 0.5 and landing not in occ:
            occ.add(landing)
            step()
            occ.discard(landing)
            step()
    occ.add(move.destination)
    step()
    while pending:
        occ.discard(pending.pop())
        step()
    return out


def _consistent(m: Move, occ: frozenset[int], s: frozenset[int]) -> bool:
    gone, new = occ - s, s - occ
    return (
        gone <= {m.origin, *m.captures} and len(new) <= 1 and new <= {m.origin, *m.path}
        and (m.origin in gone or not new)
    )


def naive_resolve(moves: list[Move], occ: frozenset[int], s: frozenset[int]) -> Resolution:
    """The peer: the same answers, found by scanning every legal move on each change."""
    if s == occ:
        return InSync()
    for m in moves:
        if (occ - {m.origin} - set(m.captures)) | {m.destination} == s:
            settle = any(o.key() != m.key() and _consistent(o, occ, s) for o in moves)
            return Complete(m, settle)
    cands = tuple(m for m in moves if _consistent(m, occ, s))
    if not cands:
        return Illegal(RefusalReason.NO_SUCH_MOVE, occ - s, s - occ)
    remove = frozenset(c for m in cands for c in m.captures if c in s)
    land = frozenset(m.destination for m in cands if m.destination not in s)
    return InProgress(cands, remove, land, len(cands) == 1)


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best of ``repeat`` runs of ``fn``, in microseconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        best = min(best, time.perf_counter_ns() - t0)
    return best / 1000.0


def pct(values: Iterable[float], q: float) -> float:
    data = sorted(values)
    return data[min(len(data) - 1, int(q * len(data)))]


def run(variant: str, positions: int, rng: random.Random, captures: bool) -> dict[str, float]:
    per_index: list[float] = []
    per_naive: list[float] = []
    build: list[float] = []
    movegen: list[float] = []
    for board in midgame_positions(variant, positions, rng, captures):
        paths = list(board.generate_moves(paths=True))
        move = max(paths, key=lambda m: (len(m.captures), rng.random()))
        fresh = Board(variant, board.fen())  # no cached move list
        movegen.append(timed(partial(list, fresh.generate_moves()), repeat=1))
        build.append(timed(partial(MoveIndex, fresh), repeat=1))
        index = MoveIndex(board)
        legal = list(board.legal_moves)
        occ = board.occupied_squares()
        for s in changes(board, move, rng):
            per_index.append(timed(partial(index.resolve, s)))
            per_naive.append(timed(partial(naive_resolve, legal, occ, s)))
    return {
        "changes": len(per_index),
        "med": statistics.median(per_index),
        "p99": pct(per_index, 0.99),
        "naive_med": statistics.median(per_naive),
        "naive_p99": pct(per_naive, 0.99),
        "build_med": statistics.median(build),
        "build_p99": pct(build, 0.99),
        "movegen_med": statistics.median(movegen),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60, help="positions per variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    head = (f"{'variant':14} {'board':>5} {'changes':>7} {'median':>7} {'p99':>7} "
            f"{'scan med':>8} {'scan p99':>8} {'x faster':>8} {'index build med/p99':>20} "
            f"{'movegen med':>11}")
    for captures in (True, False):
        kind = "capture positions" if captures else "positions, captures or not"
        print(f"recogniser: cost per stable-occupancy change, {args.positions} mid-game {kind} "
              "per variant (microseconds)")
        print(head)
        for variant in VARIANTS:
            r = run(variant, args.positions, random.Random(args.seed), captures)
            size = {"international": "10x10", "canadian": "12x12"}.get(variant, "8x8")
            print(f"{variant:14} {size:>5} {r['changes']:>7.0f} {r['med']:>7.1f} "
                  f"{r['p99']:>7.1f} {r['naive_med']:>8.1f} {r['naive_p99']:>8.1f} "
                  f"{r['naive_med'] / r['med']:>8.1f} "
                  f"{r['build_med']:>10.0f} / {r['build_p99']:>7.0f} {r['movegen_med']:>11.0f}")
        print()


if __name__ == "__main__":
    main()
