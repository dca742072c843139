"""Benchmark: the web service with a hall of boards playing on one Redis.

A real ``redis-server`` is started (AOF, ``appendfsync always``, as on the Pi) and ``draughtsboard
web`` runs as its own process on it. ``--boards`` boards (default 100) play random legal games,
each recorded through the board's own store (:class:`~firmware_host.store.RedisStore`: the move
in one MULTI/EXEC, then the ``move``, ``state`` and ``leds`` events, as the session publishes
them), one move every ``--interval`` seconds per board on average (default 2 s: 50 moves/s for
the hall, far beyond a real tournament's pace). Watching: the hall's live feed (what the hall
page's EventSource reads) and ``--pages`` board pages' feeds, plus the hall page loaded every
few seconds.

Measured:
  - move-to-browser latency: from the moment the move's write returned (stored) to the moment
    the feed delivers it, p50 / p99 / max, per feed kind;
  - the web service's RSS (peak, VmHWM) and CPU (user + system time over the run);
  - the hall page's load time (every board's card rendered from Redis).

Targets (issue 15): p99 <= 500 ms, RSS <= 80 MB.

With ``--browser`` the hall page is also open in headless chromium (selenium + chromium-driver)
and the time from a move's store to its card redrawn in the DOM is measured too (chromium then
competes for the same cores).

Run: ``.venv/bin/python bench/web.py [--boards 100] [--seconds 30] [--interval 2] [--browser]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.web_load import beat, load, proc_stats, raise_file_limit
from engine import Board
from firmware_host.store import MoveRecord, RedisStore
from tests.firmware_host.web.sse import SseClient
from tests.redis_server import RedisServer, free_port

VARIANTS = ("international", "russian", "english", "brazilian")
#: Messages of a feed whose old (HTML) size is drawn too (drawing them costs the bench's CPU).
OLD_SAMPLE = 400


class HallBoard:
    """One board of the hall: a random game recorded as the session records it."""

    def __init__(self, client: redis.Redis, board_id: str, rng: random.Random) -> None:
        self.store = RedisStore(client, board_id, background=False)
        self.client = client
        self.board_id = board_id
        self.rng = rng
        #: Unix time each ply of the current game was stored (for the browser's clock).
        self.stored_wall: dict[int, float] = {}
        self.variant = VARIANTS[rng.randrange(len(VARIANTS))]
        self._new_game()

    def _new_game(self) -> None:
        self.stored_wall = {}
        self.board = Board(self.variant)
        self.game_id = self.store.new_game({"White": f"W{self.board_id}",
                                            "Black": f"B{self.board_id}"},
                                           self.variant, None, "record")
        self.store.publish({"event": "new_game", "game_id": self.game_id,
                            "variant": self.variant, "mode": "record", "at": 0.0})

    def move(self, stored: dict[tuple[str, int], float]) -> None:
        """Play and store one move; ``stored[(board, ply)]``: when its write returned."""
        moves = list(self.board.legal_moves)
        if not moves or self.board.ply >= 120:
            self.store.finish(self.game_id, "1/2-1/2" if moves else "0-1", "bench")
            self._new_game()
            moves = list(self.board.legal_moves)
        move = moves[self.rng.randrange(len(moves))]
        pdn = self.board.move_notation(move)
        name = self.board.variant.square_name
        squares = {"from": name(move.origin), "to": name(move.destination)}
        self.board.push(move)
        ply = self.board.ply
        record = MoveRecord(ply=ply, pdn=pdn, fen_after=self.board.fen(), time=time.time())
        self.store.append_move(self.game_id, record)
        stored[(self.board_id, ply)] = self.stored_wall[ply] = time.time()
        self.store.publish({"event": "move", "ply": ply, "pdn": pdn, "by": "human",
                            "fen": self.board.fen(), "at": 0.0, **squares})
        self.store.publish({"event": "state", "state": "human_to_move", "at": 0.0})
        self.store.publish({"event": "leds", "frame": {}, "at": 0.0})


def _watch(base: str, path: str, ready: Any, stop: Any, out: Any, redis_url: str | None
           ) -> None:
    """A feed reader (a browser's EventSource) in a process of its own, so the bench's move
    driver does not delay it: puts ``([(board, ply, arrival Unix time), ...], bytes read,
    (old messages' bytes, moves in them))`` on ``out``. With ``redis_url``, the old figure
    instead (no latencies: drawing takes time): for the first :data:`OLD_SAMPLE` messages, the
    message the HTML feed (before the JSON feed) sent for the same batch, drawn the same moment
    by the same templates (web_old.py)."""
    from bench.web_old import OldFeed

    client = SseClient(base, path, timeout=60)
    old = OldFeed(redis_url, hall="board=" not in path) if redis_url else None
    ready.set()
    arrivals = []
    try:
        while not stop.is_set():
            _, data = client.next_event(keep_alive=True)
            now = time.time()
            moves = [(data["board"], int(m["ply"]), now) for m in data.get("moves", ())]
            arrivals += moves
            if old is not None and data and client.last_id and old.messages < OLD_SAMPLE:
                old.add(data["board"], client.last_id, len(moves))
    except (EOFError, OSError):
        pass
    out.put(([] if old else arrivals, client.bytes, (old.bytes, old.moves) if old else (0, 0)))


class Watcher:
    """One feed watched from another process."""

    def __init__(self, context: Any, base: str, path: str, redis_url: str | None = None
                 ) -> None:
        self.ready, self.stop, self.out = context.Event(), context.Event(), context.Queue()
        self.process = context.Process(target=_watch, args=(base, path, self.ready, self.stop,
                                                            self.out, redis_url), daemon=True)
        self.process.start()
        if not self.ready.wait(30):
            raise SystemExit(f"the feed {path} did not open")
        self.latencies: list[float] = []
        self.missing = 0
        self.bytes = 0
        self.moves = 0
        self.old: tuple[int, int] = (0, 0)

    def finish(self, stored: dict[tuple[str, int], float]) -> None:
        """Stop watching; the latency of every move that arrived."""
        self.stop.set()
        arrivals, self.bytes, self.old = self.out.get(timeout=60)
        self.moves = len(arrivals)
        for board, ply, at in arrivals:
            if (board, ply) in stored:
                self.latencies.append(at - stored[(board, ply)])
            else:
                self.missing += 1
        self.process.join(timeout=10)


class HallInBrowser:
    """The hall page open in headless chromium (selenium + chromium-driver): a MutationObserver
    notes when each card is redrawn and which move it then shows."""

    OBSERVE = """
        window.__seen = [];
        new MutationObserver(function (records) {
          var now = Date.now();
          records.forEach(function (r) {
            var card = r.target.closest && r.target.closest("article.card");
            var last = card && card.querySelector(".last-move");
            if (last) { window.__seen.push([card.dataset.board, last.textContent, now]); }
          });
        }).observe(document.getElementById("hall"), {childList: true, subtree: true});
    """

    def __init__(self, base: str) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.get(base + "/")
        self.driver.execute_script(self.OBSERVE)
        self._counted: set[tuple[str, int]] = set()

    def latencies(self, boards: dict[str, HallBoard]) -> list[float]:
        """Seconds from each move's store to its card's redraw, since the last call."""
        seen = self.driver.execute_script("var s = window.__seen; window.__seen = []; return s;")
        out = []
        for board_id, text, at_ms in seen:
            ply = text.split(".", 1)[0]
            if not ply.isdigit() or (board_id, int(ply)) in self._counted:
                continue  # one redraw makes several mutation records
            self._counted.add((board_id, int(ply)))
            stored = boards[board_id].stored_wall.get(int(ply))
            if stored is not None:
                out.append(at_ms / 1000 - stored)
        return out

    def close(self) -> None:
        self.driver.quit()


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=2.0,
                        help="mean seconds between two moves of one board")
    parser.add_argument("--pages", type=int, default=5, help="board pages watching")
    parser.add_argument("--feeds", type=int, default=0,
                        help="instead: hold this many live feeds open (half on the hall, half on "
                             "board pages; 20 an address, from 127.0.0.2 up) while the boards "
                             "play, and measure the pages' p99, the Redis connections the web "
                             "app holds and its RSS")
    parser.add_argument("--browser", action="store_true",
                        help="also open the hall page in headless chromium (selenium): "
                             "needs the cores for chromium too")
    args = parser.parse_args()
    rng = random.Random(15)
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp) / "redis")
        server.start()
        try:
            return _run(args, rng, server, Path(tmp))
        finally:
            server.stop()


def _run(args: argparse.Namespace, rng: random.Random, server: RedisServer, tmp: Path) -> int:
    client = redis.Redis.from_url(server.url)
    boards = [HallBoard(client, f"board{n:03d}", rng) for n in range(args.boards)]
    beat(boards)
    port = free_port()
    config = tmp / "web.toml"
    config.write_text(f'[web]\ntoken_file = "{tmp / "token"}"\n[log]\nlevel = "warning"\n')
    binary = str(Path(sys.executable).parent / "draughtsboard")

    raise_file_limit()  # the web app holds a socket per feed
    web = subprocess.Popen([binary, "web", "--config", str(config), "--store", server.url,
                            "--listen", f"127.0.0.1:{port}"], stdout=subprocess.PIPE, text=True)
    try:
        assert web.stdout is not None
        if "pairing code" not in web.stdout.readline():  # the banner: it listens
            raise SystemExit("draughtsboard web did not start")
        base = f"http://127.0.0.1:{port}"
        if args.feeds:

            return load(args, boards, web.pid, base, server.url, server.port)
        return _measure(args, rng, boards, web.pid, base, server.url)
    finally:
        web.terminate()
        web.wait(timeout=10)


def _measure(args: argparse.Namespace, rng: random.Random, boards: list[HallBoard], pid: int,
             base: str, redis_url: str) -> int:
    stored: dict[tuple[str, int], float] = {}
    started = time.monotonic()
    with urllib.request.urlopen(base + "/", timeout=60) as reply:
        reply.read()
    first_hall = time.monotonic() - started
    context = multiprocessing.get_context("spawn")
    with urllib.request.urlopen(base + "/", timeout=60) as reply:  # as the page does: with
        cursor = reply.read().decode().split('data-cursor="', 1)[1].split('"', 1)[0]  # its ids
    hall = Watcher(context, base, f"/feed?cursor={cursor}")
    pages = [Watcher(context, base, f"/feed?board={b.board_id}") for b in boards[:args.pages]]
    old_hall = Watcher(context, base, f"/feed?cursor={cursor}", redis_url)
    old_page = Watcher(context, base, f"/feed?board={boards[0].board_id}", redis_url)
    browser = HallInBrowser(base) if args.browser else None
    samples: list[float] = []
    cpu0, _, _ = proc_stats(pid)
    due = {b.board_id: time.monotonic() + rng.uniform(0, args.interval) for b in boards}
    by_id = {b.board_id: b for b in boards}
    end = time.monotonic() + args.seconds
    hall_times: list[float] = []
    next_hall = time.monotonic() + 3
    rss_samples: list[int] = []
    moves = 0
    while time.monotonic() < end:
        board_id = min(due, key=due.__getitem__)
        wait = due[board_id] - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        by_id[board_id].move(stored)
        if browser is not None and moves % 200 == 0:
            samples += browser.latencies(by_id)  # read as it goes: a card keeps its last move
        moves += 1
        due[board_id] = time.monotonic() + rng.expovariate(1 / args.interval)
        if time.monotonic() >= next_hall:
            beat(boards)
            t0 = time.monotonic()
            with urllib.request.urlopen(base + "/", timeout=60) as reply:
                reply.read()
            hall_times.append(time.monotonic() - t0)
            rss_samples.append(proc_stats(pid)[1])
            next_hall = time.monotonic() + 3
    wall = args.seconds
    time.sleep(1.0)  # the last moves reach the feeds
    for watcher in (hall, *pages, old_hall, old_page):
        watcher.finish(stored)
    cpu1, rss, peak = proc_stats(pid)
    print(f"boards {len(boards)}, {moves} moves in {wall:.0f} s ({moves / wall:.1f} moves/s), "
          f"{len(pages)} board pages and the hall watching")
    for label, watchers in (("hall feed", [hall]), ("board pages", pages)):
        values = [v for w in watchers for v in w.latencies]
        if not values:
            print(f"{label}: no move arrived")
            continue
        print(f"move-to-browser latency, {label}: {len(values)} moves, p50 "
              f"{statistics.median(values) * 1000:.0f} ms, p99 "
              f"{_percentile(values, 0.99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
              + (f" (of {moves} played; {hall.missing} unknown)" if label == "hall feed"
                 else ""))
    for label, watchers, old in (("hall feed", [hall], old_hall), ("board feeds", pages, old_page)):
        moves_in = sum(w.moves for w in watchers)
        old_bytes, old_moves = old.old
        if moves_in and old_moves:
            print(f"bytes per move, {label}: {sum(w.bytes for w in watchers) / moves_in:,.0f} "
                  f"(JSON of what changed; {moves_in} moves), the HTML feed before it "
                  f"{old_bytes / old_moves:,.0f} (drawn for {old_moves} of the same moves)")
    print(f"web service: RSS {rss / 1024:.1f} MB now, peak {peak / 1024:.1f} MB; CPU "
          f"{(cpu1 - cpu0) / wall * 100:.1f} % of one core over the run")
    if hall_times:
        print(f"hall page ({len(boards)} cards): first {first_hall * 1000:.0f} ms, during the "
              f"run p50 {statistics.median(hall_times) * 1000:.0f} ms")
    if browser is not None:
        samples += browser.latencies(by_id)
        browser.close()
        if samples:
            print(f"move-to-browser latency, the hall page in chromium (card redrawn in the "
                  f"DOM): {len(samples)} cards, p50 {statistics.median(samples) * 1000:.0f} ms, "
                  f"p99 {_percentile(samples, 0.99) * 1000:.0f} ms, max "
                  f"{max(samples) * 1000:.0f} ms")
    values = hall.latencies + samples
    ok = bool(values) and _percentile(values, 0.99) <= 0.5 and peak / 1024 <= 80
    print("targets (p99 <= 500 ms, RSS <= 80 MB):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
