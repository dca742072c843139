"""Benchmark: search speed and depth reached in one second, beside a plain alpha-beta peer.

For the initial position and a middle-game position of international, Russian and English
draughts, the built-in :class:`engine.search.Searcher` gets one second and we print the depth of
its last finished iteration, its nodes and nodes/s. The peer, measured in the same run, is the
search a straightforward program would write on the public API: negamax alpha-beta with
iterative deepening over ``Board.legal_moves``/``push``/``pop`` and a material count, no
transposition table, no move ordering, no quiescence. The ratios compare the two.

Times are CPU seconds of this process (``time.process_time``; the searcher takes its clock as an
argument) so that other jobs on a shared machine do not skew the figures; wall-clock nodes/s is
printed too. Targets: >= 100,000 nodes/s and depth >= 10 in 1 s from the international start.

Also the stop latency: how long a search takes to return once another thread asks it to stop.

Run: ``.venv/bin/python bench/search.py [--seconds S]``
"""

from __future__ import annotations

import argparse
import time

from engine import Board
from engine.search import Limit, Searcher

#: (variant, label, FEN or None for the initial position). The middle-game positions come from
#: the searcher playing itself at depth 5 from the start (34, 20 and 20 plies).
POSITIONS: tuple[tuple[str, str, str | None], ...] = (
    ("international", "initial", None),
    ("international", "middle game", "W:W32-36,40,42,45-50:B1-6,8,13,14,16,18,21,24"),
    ("russian", "initial", None),
    ("russian", "middle game", "W:Wa1,a3,b4,c1,e1,e3,f2,g3,h2:Ba7,b8,c5,d6,e5,f8,h4,h6,h8"),
    ("english", "initial", None),
    ("english", "middle game", "B:W13,19,21-24,27,29-31:B1,3,4,6,9-12,14,20"),
)


class _Deadline(Exception):
    pass


def peer_search(board: Board, seconds: float) -> tuple[int, int]:
    """Plain iterative-deepening alpha-beta; returns (depth finished, nodes)."""
    nodes = 0
    stop_at = time.process_time() + seconds

    def material(b: Board) -> int:
        white, black, kings = b.bitboards()
        score = (white.bit_count() - black.bit_count()) * 100 + (
            (white & kings).bit_count() - (black & kings).bit_count()) * 200
        return score if int(b.turn) == 0 else -score

    def negamax(b: Board, depth: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if nodes % 256 == 0 and time.process_time() > stop_at:
            raise _Deadline
        moves = list(b.legal_moves)
        if not moves:
            return -10_000
        if depth == 0:
            return material(b)
        for move in moves:
            b.push(move)
            score = -negamax(b, depth - 1, -beta, -alpha)
            b.pop()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    finished = 0
    work = board.copy()
    for depth in range(1, 64):
        try:
            negamax(work, depth, -100_000, 100_000)
        except _Deadline:
            break
        finished = depth
    return finished, nodes


def stop_latency(runs: int = 20) -> list[float]:
    """Seconds from a stop request (set from another thread) to the search returning."""
    import threading

    from engine.search import StopToken

    latencies = []
    for _ in range(runs):
        token = StopToken()
        running = threading.Event()
        done: list[float] = []

        def work(token: StopToken = token, running: threading.Event = running,
                 done: list[float] = done) -> None:
            Searcher("international", clock=time.monotonic).search(
                Board(), Limit(), stop=token, on_iteration=lambda result: running.set())
            done.append(time.perf_counter())

        thread = threading.Thread(target=work)
        thread.start()
        running.wait(10)
        asked = time.perf_counter()
        token.stop()
        thread.join()
        latencies.append(done[0] - asked)
    return sorted(latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per search")
    args = parser.parse_args()
    header = (f"{'variant':<14}{'position':<13}{'depth':>6}{'nodes':>9}{'nodes/s':>10}"
              f"{'wall n/s':>10}{'move':>8} | {'peer depth':>10}{'peer n/s':>10}"
              f"{'x depth':>8}{'x n/s':>7}")
    print(header)
    print("-" * len(header))
    for variant, label, fen in POSITIONS:
        board = Board(variant, fen)
        searcher = Searcher(variant, clock=time.process_time)
        wall = time.perf_counter()
        result = searcher.search(board, Limit(movetime=args.seconds))
        wall = time.perf_counter() - wall
        nps = result.nodes / max(result.seconds, 1e-9)
        peer_depth, peer_nodes = peer_search(board, args.seconds)
        peer_nps = peer_nodes / args.seconds
        move = board.move_notation(result.move) if result.move else "-"
        print(f"{variant:<14}{label:<13}{result.depth:>6}{result.nodes:>9}{nps:>10.0f}"
              f"{result.nodes / wall:>10.0f}{move:>8} | {peer_depth:>10}{peer_nps:>10.0f}"
              f"{result.depth / max(peer_depth, 1):>8.1f}{nps / max(peer_nps, 1):>7.1f}")
    latencies = stop_latency()
    print(f"\nstop request to return (international, 20 runs): median "
          f"{latencies[len(latencies) // 2] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
