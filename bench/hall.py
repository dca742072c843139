"""Benchmark: a whole hall on one Redis: 300 boards playing rounds, the web app, 20 viewers.

How it is built (one machine cannot hold 300 board services, each with its scan loop, engine
and threads, so the boards are simulated where it matters least and real where it counts):

- a real ``redis-server`` (AOF, ``appendfsync always``, as in the hall);
- ``--boards`` boards (300) played by one driver process: ``--workers`` threads, each owning
  a share of the boards with its own schedule. Every board records through its own
  :class:`~firmware_host.store.RedisStore` on its own connection, as the board service does:
  the move and the session snapshot in one MULTI/EXEC, then the ``move``, ``state`` and
  ``leds`` events (capped stream + pub/sub), a heartbeat every 5 s and its lease; random legal
  games of ``--plies`` plies;
- the pace of a real event, accelerated ``--speed`` times (default 20): a move every 5-60 s
  of play per board (uniform), the first 6 plies at 1-4 s (openings are quick), and every board
  starting its game at the same moment at each round's start (the burst); ``--rounds`` rounds,
  the next starting when the last game of the round ends;
- ``draughtsboard web`` as its own process, and ``--viewers`` hall pages (20): live hall feeds
  (``/feed``, what the hall page's EventSource reads) read by ``--viewer-processes`` processes.

Figures printed in one run: moves played and stored (lost, duplicated: each game's log read
back and compared with what was played), move-to-feed latency (from the move's write returning
to a viewer holding it; p50/p99/max over every viewer), the driver's lag behind its schedule,
Redis memory per finished game and per board (``MEMORY USAGE`` of each key) and in all
(``used_memory``), how many games a 1 GB Redis holds, and the web app's RSS and CPU.

Accelerated time is harsher than the real pace: ``--speed 20`` plays 20 times more moves per
second than the hall would; the latency figures hold a fortiori at the real pace.

Run: ``.venv/bin/python bench/hall.py [--boards 300] [--viewers 20] [--speed 20] [--rounds 2]``
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board
from firmware_host.store import MoveRecord, RedisStore
from firmware_host.store.keepalive import KeepAlive
from firmware_host.store.keys import BOARDS, BoardKeys
from firmware_host.store.lease import BoardLease
from firmware_host.store.publisher import EVENTS_MAXLEN, event_commands
from tests.redis_server import RedisServer, free_port

VARIANTS = ("international", "russian", "brazilian", "english")
GIB = 1024 ** 3


@dataclass
class HallBoard:
    """One board of the hall: its store (own connection), its game and what it played."""

    board_id: str
    store: RedisStore
    rng: random.Random
    variant: str
    plies: int = 0
    board: Board | None = None
    game_id: str = ""
    #: Every game played: game id -> the moves (PDN) as played.
    played: dict[str, list[str]] = field(default_factory=dict)

    def new_game(self, round_no: int, plies: int) -> None:
        self.board = Board(self.variant)
        self.plies = plies
        self.game_id = self.store.new_game(
            {"Event": "Hall bench", "Round": str(round_no), "White": f"W {self.board_id}",
             "Black": f"B {self.board_id}"}, self.variant, None, "record",
            session={"game_id": None, "ply": 0, "mode": "record"})
        self.played[self.game_id] = []
        self.store.publish({"event": "new_game", "game_id": self.game_id,
                            "variant": self.variant, "mode": "record", "at": 0.0})

    def move(self, stored: dict[tuple[str, int], float]) -> bool:
        """Play and store one move; return whether the game goes on."""
        assert self.board is not None
        moves = list(self.board.legal_moves)
        move = moves[self.rng.randrange(len(moves))]
        pdn = self.board.move_notation(move)
        self.board.push(move)
        ply = self.board.ply
        fen = self.board.fen()
        stuck = not list(self.board.legal_moves)
        over = stuck or ply >= self.plies
        record = MoveRecord(ply=ply, pdn=pdn, fen_after=fen, time=time.time())
        session = {"game_id": self.game_id, "ply": ply, "fen": fen, "mode": "record"}
        if over:
            result = "1/2-1/2" if not stuck else ("1-0" if fen.startswith("B") else "0-1")
            self.store.append_move(self.game_id, record, result=result, termination="bench",
                                   session=session)
        else:
            self.store.append_move(self.game_id, record, session=session)
        stored[(self.board_id, ply)] = time.time()
        self.played[self.game_id].append(pdn)
        self.store.publish({"event": "move", "ply": ply, "pdn": pdn, "by": "human",
                            "fen": fen, "at": 0.0})
        self.store.publish({"event": "state", "state": "over" if over else "human_to_move",
                            "at": 0.0})
        self.store.publish({"event": "leds", "frame": {}, "at": 0.0})
        return not over


class Worker(threading.Thread):
    """Plays its share of the boards on their schedules (accelerated by ``speed``)."""

    def __init__(self, boards: list[HallBoard], args: argparse.Namespace,
                 stored: dict[tuple[str, int], float], keepalives: list[KeepAlive],
                 round_no: int, start: float) -> None:
        super().__init__(daemon=True)
        self.round_no = round_no
        self.start_at = start
        self.boards = boards
        self.args = args
        self.stored = stored
        self.keepalives = keepalives
        self.lags: list[float] = []
        self.moves = 0
        self.errors: list[str] = []

    def run(self) -> None:
        self.play_round(self.round_no, self.start_at)

    def pause(self, board: HallBoard) -> float:
        """Seconds of play before the board's next move, accelerated."""
        assert board.board is not None
        low, high = (1.0, 4.0) if board.board.ply < 6 else self.args.pace
        return board.rng.uniform(low, high) / self.args.speed

    def play_round(self, round_no: int, start: float) -> None:
        schedule: list[tuple[float, int]] = []
        for index, board in enumerate(self.boards):
            board.new_game(round_no, board.rng.randint(*self.args.plies))
            schedule.append((start + self.pause(board), index))
        heapq.heapify(schedule)
        next_beat = time.monotonic()
        while schedule:
            due, index = heapq.heappop(schedule)
            now = time.monotonic()
            if now >= next_beat:  # the heartbeat, every 5 s of wall time as on a board
                for keepalive in self.keepalives:
                    keepalive.tick()
                next_beat = now + 5.0
            if due > now:
                time.sleep(due - now)
            self.lags.append(max(0.0, time.monotonic() - due))
            board = self.boards[index]
            try:
                goes_on = board.move(self.stored)
            except Exception as exc:  # counted and shown: the run goes on
                self.errors.append(f"{board.board_id}: {exc}")
                goes_on = False
            self.moves += 1
            if goes_on:
                heapq.heappush(schedule, (time.monotonic() + self.pause(board), index))


def _watch(base: str, count: int, ready: Any, stop: Any, out: Any) -> None:
    """``count`` hall viewers (one thread each) in this process, each as the hall page reads
    its feed: it keeps every board's cursor (the messages' ids) and, when the feed ends, comes
    back after the ``retry`` time (1 s) with the whole cursor (``?cursor=``). Puts
    ``([(board, ply, unix time), ...] per viewer, reconnections)`` on ``out`` when ``stop`` is
    set."""
    results: list[list[tuple[str, int, float]]] = [[] for _ in range(count)]
    reconnects = [0] * count
    opened = threading.Barrier(count + 1)
    host, port = base.rsplit("/", 1)[-1].split(":")

    def connect(cursor: dict[str, str]) -> tuple[http.client.HTTPConnection, Any]:
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        path = "/feed"
        if cursor:
            path += "?cursor=" + urllib.parse.quote(",".join(f"{b}={i}" for b, i in
                                                             sorted(cursor.items())))
        connection.request("GET", path, headers={"Accept": "text/event-stream"})
        return connection, connection.getresponse()

    def viewer(slot: int) -> None:
        cursor: dict[str, str] = {}
        connection, response = connect(cursor)
        opened.wait()
        while not stop.is_set():
            data: list[str] = []
            try:
                while not stop.is_set():
                    line = response.fp.readline().decode()
                    if not line:
                        break  # the feed ended: come back as a browser does
                    line = line.rstrip("\n")
                    if line.startswith("data: "):
                        data.append(line[6:])
                    elif line.startswith("id: "):
                        for pair in line[4:].split(","):
                            board, _, entry = pair.partition("=")
                            if entry:
                                cursor[board] = entry
                    elif not line and data:
                        now = time.time()
                        message = json.loads("\n".join(data))
                        data = []
                        for move in message.get("moves") or ():
                            results[slot].append((str(message.get("board")), int(move["ply"]),
                                                  now))
            except (OSError, ValueError, KeyError):
                pass
            if stop.is_set():
                return
            reconnects[slot] += 1
            connection.close()  # as a browser drops the old request
            time.sleep(1.0)
            try:
                connection, response = connect(cursor)
            except OSError:
                continue

    threads = [threading.Thread(target=viewer, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    opened.wait()
    ready.set()
    stop.wait()
    time.sleep(0.5)
    out.put((results, sum(reconnects)))


def _proc(pid: int) -> tuple[float, int, int]:
    """``(cpu seconds, rss kB, peak rss kB)`` of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return cpu, int(status["VmRSS"].split()[0]), int(status["VmHWM"].split()[0])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _pair(text: str) -> tuple[int, int]:
    low, _, high = text.partition(":")
    return int(low), int(high or low)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--viewers", type=int, default=20, help="hall pages watching")
    parser.add_argument("--viewer-processes", type=int, default=4)
    parser.add_argument("--speed", type=float, default=20.0,
                        help="how many times faster than real play")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--plies", type=_pair, default=(40, 90), help="MIN:MAX plies a game")
    parser.add_argument("--pace", type=_pair, default=(5, 60),
                        help="MIN:MAX seconds of play between two moves of one board")
    parser.add_argument("--workers", type=int, default=6, help="driver threads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp) / "redis")
        server.start()
        try:
            return _run(args, server, Path(tmp))
        finally:
            server.stop()


def _run(args: argparse.Namespace, server: RedisServer, tmp: Path) -> int:
    admin = redis.Redis.from_url(server.url)
    baseline = int(admin.info("memory")["used_memory"])
    rng = random.Random(26)
    boards = [HallBoard(f"hall{n:03d}", RedisStore(redis.Redis.from_url(server.url),
                                                   f"hall{n:03d}"), random.Random(rng.random()),
                        VARIANTS[n % len(VARIANTS)]) for n in range(args.boards)]
    # The hall's boards are known before the web app starts (as boards that recorded games
    # before: a hall page lists them at once).
    admin.sadd(BOARDS, *(board.board_id for board in boards))
    keepalives = []
    for board in boards:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        lease = BoardLease(client, board.board_id)
        lease.acquire()
        keepalives.append(KeepAlive(client, board.board_id, lease))
    port = free_port()
    config = tmp / "web.toml"
    config.write_text(f'[web]\ntoken_file = "{tmp / "token"}"\n[log]\nlevel = "warning"\n')
    binary = str(Path(sys.executable).parent / "draughtsboard")
    web = subprocess.Popen([binary, "web", "--config", str(config), "--store", server.url,
                            "--listen", f"127.0.0.1:{port}"], stdout=subprocess.PIPE, text=True)
    try:
        assert web.stdout is not None
        if "pairing code" not in web.stdout.readline():
            raise SystemExit("draughtsboard web did not start")
        return _measure(args, boards, keepalives, admin, baseline, web.pid,
                        f"http://127.0.0.1:{port}")
    finally:
        web.terminate()
        web.wait(timeout=10)


def _measure(args: argparse.Namespace, boards: list[HallBoard], keepalives: list[KeepAlive],
             admin: redis.Redis, baseline: int, pid: int, base: str) -> int:
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    watchers = []
    per = [args.viewers // args.viewer_processes + (1 if n < args.viewers % args.viewer_processes
                                                     else 0)
           for n in range(args.viewer_processes)]
    for count in (c for c in per if c):
        ready, out = context.Event(), context.Queue()
        process = context.Process(target=_watch, args=(base, count, ready, stop, out),
                                  daemon=True)
        process.start()
        if not ready.wait(60):
            raise SystemExit("the viewers' feeds did not open")
        watchers.append((process, out))
    shares = [boards[n::args.workers] for n in range(args.workers)]
    beats = [keepalives[n::args.workers] for n in range(args.workers)]
    cpu0, _, _ = _proc(pid)
    redis_pid = int(admin.info("server")["process_id"])
    redis_cpu0, _, _ = _proc(redis_pid)
    started = time.monotonic()
    workers: list[Worker] = []
    stored_by_round: list[dict[tuple[str, int], float]] = []
    for round_no in range(1, args.rounds + 1):
        stored_round: dict[tuple[str, int], float] = {}
        stored_by_round.append(stored_round)
        start = time.monotonic()
        workers = [Worker(share, args, stored_round, beat, round_no, start)
                   for share, beat in zip(shares, beats, strict=True)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        moves = sum(w.moves for w in workers)
        lags = [lag for w in workers for lag in w.lags]
        print(f"round {round_no}: {args.boards} games, {moves} moves in "
              f"{time.monotonic() - start:.0f} s ({moves / (time.monotonic() - start):.1f} "
              f"moves/s); driver lag p50 {statistics.median(lags) * 1000:.0f} ms, p99 "
              f"{_percentile(lags, 0.99) * 1000:.0f} ms", flush=True)
        errors = [e for w in workers for e in w.errors]
        if errors:
            print(f"  {len(errors)} store errors, first: {errors[0]}")
    wall = time.monotonic() - started
    cpu1, rss, peak = _proc(pid)
    redis_cpu1, _, _ = _proc(redis_pid)
    time.sleep(1.0)  # the last moves reach the feeds
    stop.set()
    arrivals = []
    reconnects = 0
    for _, out in watchers:
        viewers, again = out.get(timeout=60)
        arrivals += viewers
        reconnects += again
    for process, _ in watchers:
        process.join(timeout=10)
    for keepalive in keepalives:
        keepalive.close()
    print(f"hall viewers: {reconnects} reconnections (a feed that ended or said nothing for 60 "
          "s, taken up again with the whole cursor)")
    return _report(args, boards, admin, baseline, stored_by_round, arrivals, wall,
                   (cpu1 - cpu0, rss, peak), redis_cpu1 - redis_cpu0)


def _report(args: argparse.Namespace, boards: list[HallBoard], admin: redis.Redis,
            baseline: int, stored_by_round: list[dict[tuple[str, int], float]],
            arrivals: list[list[tuple[str, int, float]]], wall: float,
            web: tuple[float, int, int], redis_cpu: float) -> int:
    played = sum(len(moves) for b in boards for moves in b.played.values())
    lost = duplicated = 0
    for board in boards:
        for game_id, moves in board.played.items():
            got = [m.pdn for m in board.store.load_game(game_id).moves]
            lost += sum(1 for n, m in enumerate(moves) if n >= len(got) or got[n] != m)
            duplicated += max(0, len(got) - len(moves))
    print(f"hall: {args.boards} boards, {args.rounds} rounds, {played} moves played in "
          f"{wall:.0f} s at x{args.speed:g} (a move every {args.pace[0]}-{args.pace[1]} s of "
          f"play per board); stored: {lost} lost, {duplicated} duplicated")
    latencies: list[float] = []
    opening: list[float] = []  # plies 1-6: the burst at a round's start
    steady: list[float] = []  # the rest of the round
    seen = []
    last_round = stored_by_round[-1]
    for viewer in arrivals:
        count = 0
        for board_id, ply, at in viewer:
            # A ply number repeats across rounds: the latency is taken in the round it was
            # stored last (the viewers' arrivals of earlier rounds are matched there too).
            for stored in (last_round, *reversed(stored_by_round[:-1])):
                if (board_id, ply) in stored and at >= stored[(board_id, ply)]:
                    latencies.append(at - stored[(board_id, ply)])
                    (opening if ply <= 6 else steady).append(latencies[-1])
                    count += 1
                    break
        seen.append(count)
    if latencies:
        print(f"move-to-feed, {len(arrivals)} hall viewers: {len(latencies)} deliveries, p50 "
              f"{statistics.median(latencies) * 1000:.0f} ms, p99 "
              f"{_percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} "
              f"ms; each viewer got {min(seen)}-{max(seen)} of {played} moves as deltas (the "
              f"others inside whole cards: new game, result)")
        for label, values in (("the round-start burst (plies 1-6)", opening),
                              ("the rest of the rounds (plies 7-)", steady)):
            if values:
                print(f"  {label}: {len(values)} deliveries, p50 "
                      f"{statistics.median(values) * 1000:.0f} ms, p99 "
                      f"{_percentile(values, 0.99) * 1000:.0f} ms")
    else:
        print("move-to-feed: no move arrived at any viewer")
    memory = _memory(boards, admin, baseline)
    cpu, rss, peak = web
    print(f"web app: RSS {rss / 1024:.1f} MB, peak {peak / 1024:.1f} MB; CPU "
          f"{cpu / wall * 100:.1f} % of one core over the run; redis-server CPU "
          f"{redis_cpu / wall * 100:.1f} %")
    ok = (lost == 0 and duplicated == 0 and bool(latencies)
          and _percentile(latencies, 0.99) <= 0.5)
    print(f"targets (0 lost, p99 <= 500 ms): {'met' if ok else 'NOT met'}; {memory}")
    return 0 if ok else 1


def _memory(boards: list[HallBoard], admin: redis.Redis, baseline: int) -> str:
    """Redis memory per finished game, per board and in all; the games 1 GB holds."""
    pipe = admin.pipeline(transaction=False)
    games = [(b, g) for b in boards for g in b.played]
    for board, game_id in games:
        pipe.memory_usage(board.store.keys.game(game_id), samples=0)
    per_game_bytes = [int(v or 0) for v in pipe.execute()]
    per_board_keys = ("session", "events", "alive", "lease", "spool")
    pipe = admin.pipeline(transaction=False)
    for board in boards:
        for name in per_board_keys:
            pipe.memory_usage(getattr(board.store.keys, name), samples=0)
        pipe.memory_usage(board.store.keys.games, samples=0)
    values = [int(v or 0) for v in pipe.execute()]
    width = len(per_board_keys) + 1
    board_fixed = [sum(values[n * width:n * width + width - 1]) for n in range(len(boards))]
    index = [values[n * width + width - 1] for n in range(len(boards))]
    events = [values[n * width + 1] for n in range(len(boards))]
    used = int(admin.info("memory")["used_memory"])
    at_cap = _events_at_cap(admin)
    game = statistics.mean(per_game_bytes) + sum(index) / len(games)
    board = statistics.mean(board_fixed)
    plies = statistics.mean(len(moves) for b in boards for moves in b.played.values())
    total_games = len(games)
    board_at_cap = board - statistics.mean(events) + at_cap
    room = (GIB - baseline - board_at_cap * len(boards)) / game
    print(f"Redis memory: {used / 2**20:.1f} MB used ({(used - baseline) / 2**20:.1f} MB over "
          f"the empty server) for {len(boards)} boards and {total_games} finished games; per "
          f"finished game {game / 1024:.1f} kB (its log, {plies:.0f} plies, and its index "
          f"entry); per board {board / 1024:.1f} kB now (its events stream "
          f"{statistics.mean(events) / 1024:.1f} kB, session, heartbeat, lease), "
          f"{board_at_cap / 1024:.1f} kB once its events stream is full ({EVENTS_MAXLEN} "
          f"entries: {at_cap / 1024:.1f} kB)")
    return (f"a 1 GB Redis holds about {room:,.0f} finished games beside {len(boards)} boards "
            f"with full event streams (games of {plies:.0f} plies)")


def _events_at_cap(admin: redis.Redis) -> int:
    """``MEMORY USAGE`` of an events stream filled to its cap with the events of moves (as
    the boards publish them), probed on a key of its own and deleted."""
    key = BoardKeys("bench-probe").events
    board = Board("international")
    rng = random.Random(1)
    plies: list[tuple[int, str, str]] = []  # one game's moves, cycled
    while len(plies) < 60 and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        pdn = board.move_notation(move)
        board.push(move)
        plies.append((board.ply, pdn, board.fen()))
    pipe = admin.pipeline(transaction=False)
    for seq in range(EVENTS_MAXLEN + 200):
        ply, pdn, fen = plies[(seq // 3) % len(plies)]
        kind = ("move", "state", "leds")[seq % 3]
        event = ({"event": "move", "ply": ply, "pdn": pdn, "by": "human", "fen": fen,
                  "at": 0.0} if kind == "move" else
                 {"event": "state", "state": "human_to_move", "at": 0.0} if kind == "state"
                 else {"event": "leds", "frame": {}, "at": 0.0})
        commands, _ = event_commands(key, {"board": "bench-probe", "seq": seq,
                                           "time": time.time(), **event})
        name, args, kwargs = commands[0]
        getattr(pipe, name)(*args, **kwargs)
    pipe.execute()
    size = int(admin.memory_usage(key, samples=0) or 0)
    admin.delete(key)
    return size


if __name__ == "__main__":
    sys.exit(main())
