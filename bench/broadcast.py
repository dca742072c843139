"""Benchmark: how fast ``/broadcast.pdn`` answers a relay's poll, a hall of long games in play.

A relay (lidraughts' ``RelayFetch``) polls a round's PDN every few seconds and gives up on an
answer after 4 s (docs/broadcast.md). A real ``redis-server`` is started (AOF, as on the Pi) and
``draughtsboard web`` runs as its own process on it; ``--boards`` boards (default 64, a relay's
most games a file) each play a clocked game of ``--plies`` plies (default 120, a long game),
recorded through the board's own store, all of one round. Then the broadcast is fetched
``--polls`` times while one board moves between two polls (as in a round), and the answer's
time is printed: the first poll (nothing cached), the others p50 / max, for the hall's file and
the round's.

Run: ``.venv/bin/python bench/broadcast.py [--boards 64] [--plies 120] [--polls 20]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board
from firmware_host.store import MoveRecord, RedisStore
from tests.redis_server import RedisServer, free_port


class Player:
    """One board's game of the round, recorded as the session records it."""

    def __init__(self, client: redis.Redis, board_id: str, rng: random.Random) -> None:
        self.store = RedisStore(client, board_id, background=False)
        self.rng = rng
        self.board = Board("international")
        self.game_id = self.store.new_game(
            {"White": f"White {board_id}", "Black": f"Black {board_id}", "Round": "1",
             "Event": "Bench open", "TimeControl": "5400+30"}, "international", None, "record")
        self.clock = [5400.0, 5400.0]

    def move(self) -> bool:
        """Play and store one random legal move (False: the game is over)."""
        moves = list(self.board.legal_moves)
        if not moves or self.board.is_game_over():
            return False
        move = moves[self.rng.randrange(len(moves))]
        pdn = self.board.move_notation(move)
        self.clock[self.board.turn] -= self.rng.uniform(5, 60)
        self.board.push(move)
        self.store.append_move(self.game_id, MoveRecord(
            len(self.board.move_stack), pdn, self.board.fen(), time.time(),
            clock_white=round(self.clock[0], 1), clock_black=round(self.clock[1], 1)))
        return True


def _get(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as reply:
        body = reply.read()
    return time.perf_counter() - started, len(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=64)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--polls", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        server = RedisServer(tmp / "redis")
        server.start()
        try:
            client = redis.Redis.from_url(server.url)
            players = [Player(client, f"b{n:02d}", rng) for n in range(1, args.boards + 1)]
            for _ in range(args.plies):
                for player in players:
                    player.move()
            binary = str(Path(sys.executable).parent / "draughtsboard")
            port = free_port()
            config = tmp / "web.toml"
            config.write_text(f'[web]\ntoken_file = "{tmp / "token"}"\n[log]\nlevel = "warning"\n')
            web = subprocess.Popen([binary, "web", "--config", str(config), "--store", server.url,
                                    "--listen", f"127.0.0.1:{port}"], stdout=subprocess.PIPE,
                                   text=True)
            try:
                assert web.stdout is not None
                if "pairing code" not in web.stdout.readline():
                    raise SystemExit("draughtsboard web did not start")
                for path in ("/broadcast.pdn", "/broadcast/round/1.pdn"):
                    first, size = _get(f"http://127.0.0.1:{port}{path}")
                    times = []
                    for poll in range(args.polls):
                        players[poll % len(players)].move()
                        took, size = _get(f"http://127.0.0.1:{port}{path}")
                        times.append(took)
                    print(f"{path}: {args.boards} games of {args.plies} plies, {size:,} bytes: "
                          f"first {first * 1000:.0f} ms, then p50 "
                          f"{statistics.median(times) * 1000:.0f} ms, max "
                          f"{max(times) * 1000:.0f} ms ({args.polls} polls, a move between two)")
            finally:
                web.terminate()
                web.wait(timeout=10)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
