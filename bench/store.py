"""Benchmark: the cost of recording one move — store write plus PDN file — in milliseconds.

A real ``redis-server`` is started (AOF, ``appendfsync always``, as on the Pi) and random games
are recorded move by move exactly as the session does: ``RedisStore.append_move`` (one
MULTI/EXEC, durable when it returns) followed by the PDN file rewritten by atomic replace (temp
file, fsync, rename, directory fsync).

Peers measured in the same run: the same writes with ``appendfsync everysec`` (what durability
costs) and with the in-memory store (``--store memory``, fakeredis: what Redis itself costs).

Run: ``.venv/bin/python bench/store.py [--games N] [--plies N]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import fakeredis
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board
from firmware_host.store import MoveRecord, RedisStore
from firmware_host.store.pdnfiles import PdnFiles
from firmware_host.store.pdnrender import render_game
from tests.redis_server import RedisServer


def random_games(games: int, plies: int, seed: int) -> list[tuple[str, list[tuple[str, str]]]]:
    """Random games as (variant, [(move text, fen after)])."""
    rng = random.Random(seed)
    out = []
    for number in range(games):
        variant = ("international", "russian", "english")[number % 3]
        board, moves = Board(variant), []
        for _ in range(plies):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            text = board.move_notation(move)
            board.push(move)
            moves.append((text, board.fen()))
        out.append((variant, moves))
    return out


def record(client: redis.Redis, games_dir: Path,
           games: list[tuple[str, list[tuple[str, str]]]], pdn: bool = True) -> list[float]:
    """Record every move; return the milliseconds each took (store + PDN file)."""
    files = PdnFiles(games_dir, render_game)
    store = RedisStore(client, "bench", on_change=files.write if pdn else None)
    timings = []
    for variant, moves in games:
        game_id = store.new_game({"Event": "bench"}, variant, None, "record")
        for ply, (text, fen) in enumerate(moves, 1):
            started = time.perf_counter()
            store.append_move(game_id, MoveRecord(ply, text, fen, time.time()))
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def summary(name: str, timings: list[float]) -> float:
    ordered = sorted(timings)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name:38} median {median:7.2f} ms   p99 {p99:7.2f} ms   ({len(ordered)} moves)")
    return median


def with_server(fsync: str, work: Callable[[redis.Redis], list[float]]) -> list[float]:
    with tempfile.TemporaryDirectory() as directory:
        server = RedisServer(Path(directory) / "redis")
        server.start()
        try:
            client = redis.Redis.from_url(server.url)
            client.config_set("appendfsync", fsync)
            return work(client)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args()
    games = random_games(args.games, args.plies, seed=1)
    with tempfile.TemporaryDirectory() as games_dir:
        always = with_server("always", lambda c: record(c, Path(games_dir) / "a", games))
        store_only = with_server(
            "always", lambda c: record(c, Path(games_dir) / "s", games, pdn=False))
        everysec = with_server("everysec", lambda c: record(c, Path(games_dir) / "b", games))
        memory = record(fakeredis.FakeRedis(), Path(games_dir) / "c", games)
    base = summary("redis, appendfsync always (the Pi)", always)
    summary("  of which the Redis write alone", store_only)
    summary("redis, appendfsync everysec (peer)", everysec)
    summary("in-memory store, fakeredis (peer)", memory)
    print(f"a game of 80 plies spends {base * 80 / 1000:.2f} s recording; a move is durable "
          f"{base:.1f} ms after the board shows it")


if __name__ == "__main__":
    main()
