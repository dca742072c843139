"""Benchmark: the game's end checked after every move, as the board does before it stores the
move (``Board.outcome``: no legal move, repetition and the variant's counting rules).

The longest games of the bench's match files are played again move by move; after each move a
copy of the board is asked for its outcome, as the session does. Peer in the same run: the same
question answered from a replay of the whole game from its root
(:func:`engine.draw.replay_history`), as every answer was before the replays were kept. Printed:
milliseconds a question at plies 50, 100, 150 and 200, and the whole game's total.

Run: ``.venv/bin/python bench/game_end.py [--games N] [FILE ...]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.build import engine_build
from engine import Board, draw
from engine.outcome import Outcome

DATA = Path(__file__).resolve().parent / "data"
#: The plies reported.
PLIES = (50, 100, 150, 200)


def longest_games(paths: list[Path], count: int) -> list[list[str]]:
    """The ``count`` longest international games of the match files ``paths``, each as its
    moves from the initial position (the opening's moves first)."""
    games = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("variant", "international") != "international":
            continue
        for game in data.get("games", []):
            moves = game.get("moves")
            opening = game.get("opening", "")
            if not isinstance(moves, list) or not isinstance(opening, str) or "/" in opening:
                continue
            games.append(opening.split() + [str(m) for m in moves])
    games.sort(key=len, reverse=True)
    return games[:count]


def from_root(board: Board) -> Outcome | None:
    """The outcome as it was answered before: the game replayed from its root every time."""
    return draw.outcome(board, kept=False)


def timed(moves: list[str], ask: Callable[[Board], Outcome | None]
          ) -> tuple[dict[int, float], float]:
    """Seconds of each question at :data:`PLIES`, and of all of the game's questions."""
    board = Board("international")
    at: dict[int, float] = {}
    total = 0.0
    for ply, text in enumerate(moves, start=1):
        board.push(board.parse_move(text))
        after = board.copy()
        started = time.perf_counter()
        ask(after)
        spent = time.perf_counter() - started
        total += spent
        if ply in PLIES:
            at[ply] = spent
    return at, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path,
                        help="match files (default: bench/data/match-*.json, ponder-*.json)")
    parser.add_argument("--games", type=int, default=10, help="the longest N games (10)")
    args = parser.parse_args(argv)
    paths = args.files or sorted([*DATA.glob("match-*.json"), *DATA.glob("ponder-*.json")])
    games = longest_games(paths, args.games)
    if not games:
        parser.error("no international games with their moves in those files")
    print(f"game_end bench: engine {engine_build()}, the {len(games)} longest games "
          f"({min(map(len, games))}-{max(map(len, games))} plies)", flush=True)
    for name, ask in (("kept replays (Board.outcome)", Board.outcome),
                      ("peer: replayed from the root", from_root)):
        per_ply: dict[int, list[float]] = {p: [] for p in PLIES}
        totals = []
        for moves in games:
            at, total = timed(moves, ask)
            totals.append(total)
            for ply, seconds in at.items():
                per_ply[ply].append(seconds)
        shown = ", ".join(f"ply {p} {statistics.median(v) * 1000:.2f}" for p, v in per_ply.items()
                          if v)
        print(f"  {name:<30} ms a move (median): {shown}; a whole game "
              f"{statistics.mean(totals):.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
