"""Benchmark: the cost of recording one move on the scan thread, in milliseconds and round trips.

A real ``redis-server`` is started (AOF, ``appendfsync always``, as on the Pi) and random games
are recorded move by move as the session does it. Two ways of calling the store are measured:

- **separate calls** (the session before issue 12): ``append_move``, then ``publish`` of the
  move, state and LED events, then ``save_session``: each a synchronous round trip;
- **one transaction**: ``append_move(game, record, session=snapshot)`` (the move and the session
  in one MULTI/EXEC, durable when it returns) while the events are queued for the store's
  ``store-events`` thread: the scan thread waits for one round trip.

Each also with the PDN file rewritten by atomic replace (temp file, fsync, rename, directory
fsync). Peers measured in the same run: ``appendfsync everysec`` (what durability costs) and the
in-memory store (``--store memory``, fakeredis: what Redis itself costs), and an outage: moves
to the fsynced spool while LED frames are dropped.

Run: ``.venv/bin/python bench/store.py [--games N] [--plies N]``
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fakeredis
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board
from firmware_host.store import MoveRecord, RedisStore, Spool
from firmware_host.store.pdnfiles import PdnFiles
from firmware_host.store.pdnrender import render_game
from tests.redis_server import RedisServer, free_port

Games = list[tuple[str, list[tuple[str, str]]]]
#: Whether this store writes a move and the session in one transaction (issue 12 and later).
ONE_TRANSACTION = "session" in inspect.signature(RedisStore.append_move).parameters


def random_games(games: int, plies: int, seed: int) -> Games:
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


class Trips:
    """Counts the round trips a client makes on the calling (scan) thread: one per command, one
    per pipeline execute; those of the ``store-events`` thread are not the scan thread's."""

    def __init__(self, client: Any) -> None:
        self.count = 0
        self.thread = threading.get_ident()
        original_command = client.execute_command
        original_pipeline = client.pipeline

        def command(*args: Any, **options: Any) -> Any:
            self.count += threading.get_ident() == self.thread
            return original_command(*args, **options)

        def pipeline(*args: Any, **options: Any) -> Any:
            pipe = original_pipeline(*args, **options)
            execute = pipe.execute

            def counted(*a: Any, **k: Any) -> Any:
                self.count += threading.get_ident() == self.thread
                return execute(*a, **k)

            pipe.execute = counted
            return pipe

        client.execute_command = command
        client.pipeline = pipeline


def snapshot(game_id: str, ply: int, fen: str) -> dict[str, Any]:
    return {"version": 1, "game_id": game_id, "fen": fen, "moves": [[ply, ply, [], [ply]]] * ply,
            "pending": None, "obligation": None, "over": False}


def record(client: Any, games_dir: Path, games: Games, *, pdn: bool = True,
           separate: bool = True, spool_dir: Path | None = None,
           before_move: Callable[[], None] | None = None) -> tuple[list[float], float]:
    """Record every move as the session does; return the ms each took and round trips a move."""
    files = PdnFiles(games_dir, render_game)
    trips = Trips(client)
    spool = Spool(spool_dir / "bench.jsonl") if spool_dir is not None else None
    options: dict[str, Any] = {} if not ONE_TRANSACTION else {
        "background": not separate and spool_dir is None}
    store = RedisStore(client, "bench", spool, on_change=files.write if pdn else None, **options)
    timings = []
    moves = 0
    counted = 0
    for variant, plays in games:
        game_id = store.new_game({"Event": "bench"}, variant, None, "record")
        for ply, (text, fen) in enumerate(plays, 1):
            if before_move is not None:
                before_move()
            start_trips = trips.count
            started = time.perf_counter()
            move = MoveRecord(ply, text, fen, time.time())
            state = snapshot(game_id, ply, fen)
            if separate:
                store.append_move(game_id, move)
            else:
                store.append_move(game_id, move, session=state)
            store.publish({"event": "move", "ply": ply, "pdn": text, "fen": fen})
            store.publish({"event": "state", "state": "human_to_move"})
            store.publish({"event": "leds", "frame": {"28": ["on", "to"]}})
            if separate:
                store.save_session(state)
            timings.append((time.perf_counter() - started) * 1000)
            counted += trips.count - start_trips
            moves += 1
    if hasattr(store, "drain_events"):
        store.drain_events()
    store.close()
    return timings, counted / max(moves, 1)


def summary(name: str, result: tuple[list[float], float]) -> float:
    timings, trips = result
    ordered = sorted(timings)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name:46} median {median:7.2f} ms   p99 {p99:7.2f} ms   "
          f"{trips:4.1f} round trips   ({len(ordered)} moves)")
    return median


def with_server(fsync: str, work: Callable[[redis.Redis], tuple[list[float], float]]
                ) -> tuple[list[float], float]:
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args()
    games = random_games(args.games, args.plies, seed=1)
    print(f"store: {'one transaction a move available' if ONE_TRANSACTION else 'before issue 12'}")
    with tempfile.TemporaryDirectory() as work:
        root = Path(work)
        separate = with_server("always", lambda c: record(c, root / "a", games))
        store_only = with_server("always", lambda c: record(c, root / "s", games, pdn=False))
        summary("separate calls, appendfsync always (the Pi)", separate)
        summary("  of which the Redis writes alone", store_only)
        if ONE_TRANSACTION:
            one = with_server("always", lambda c: record(c, root / "o", games, separate=False))
            one_store = with_server(
                "always", lambda c: record(c, root / "p", games, pdn=False, separate=False))
            summary("one transaction + events thread (the Pi)", one)
            summary("  of which the Redis writes alone", one_store)
            down = redis.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0",
                                        socket_connect_timeout=0.5)
            outage = record(down, root / "d", games, pdn=False, separate=False,
                            spool_dir=root / "spool")
            summary("outage: to the fsynced spool, LEDs dropped", outage)
        everysec = with_server("everysec", lambda c: record(c, root / "b", games))
        summary("separate calls, appendfsync everysec (peer)", everysec)
        memory = record(fakeredis.FakeRedis(), root / "c", games)
        summary("separate calls, in-memory fakeredis (peer)", memory)
    base = statistics.median(separate[0])
    print(f"a game of 80 plies spends {base * 80 / 1000:.2f} s recording with separate calls; "
          f"a move is durable {base:.1f} ms after the board shows it")


if __name__ == "__main__":
    main()
