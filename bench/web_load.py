"""``bench/web.py --feeds N``: N live feeds held open on the web app while the boards play.

The feeds are held by a process of their own (asyncio: one connection each, half on the hall,
half on the board pages, 20 from each loopback address from 127.0.0.2 up, under the web app's
per-address limit), each read to the end and counted. Meanwhile the hall page and a board page
are loaded again and again and timed, and every second the Redis connections the web app holds
(its sockets to the Redis port, from /proc) and its RSS are read.

Targets (issue 25): pages 200 with p99 <= 500 ms, <= 10 Redis connections, RSS <= 160 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import statistics
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import redis

from firmware_host.store.keys import BoardKeys

#: Feeds from one loopback address (the web app allows 32).
PER_ADDRESS = 20


class Beating(Protocol):
    """A board of the bench's hall, as far as its heartbeat goes."""

    board_id: str

    @property
    def client(self) -> redis.Redis: ...


def proc_stats(pid: int) -> tuple[float, int, int]:
    """``(cpu seconds, rss kB, peak rss kB)`` of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return cpu, int(status["VmRSS"].split()[0]), int(status["VmHWM"].split()[0])


def beat(boards: Sequence[Beating]) -> None:
    """Write every board's heartbeat (docs/events.md), as each board's service does."""
    if not boards:
        return
    pipe = boards[0].client.pipeline(transaction=False)
    now = time.time()
    for board in boards:
        pipe.set(BoardKeys(board.board_id).alive,
                 json.dumps({"time": now, "state": "running", "pid": os.getpid()}),
                 px=7 * 86400 * 1000)
    pipe.execute()


def raise_file_limit() -> None:
    """Let this process and its children (the web app) hold a few thousand sockets."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


def redis_connections(pid: int, redis_port: int) -> int:
    """How many TCP connections process ``pid`` has to ``redis_port``."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if remote_port == redis_port and fields[9] in inodes and fields[3] == "01":
                count += 1
    return count


async def _feed(port: int, address: str, path: str, stats: dict[str, int],
                stop: asyncio.Event, gate: asyncio.Semaphore) -> None:
    async with gate:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(address, 0))
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            status = await reader.readline()
        except OSError:
            stats["failed"] += 1
            return
    if b" 200 " not in status:
        stats["refused"] += 1
        writer.close()
        return
    stats["open"] += 1
    while not stop.is_set():
        try:
            chunk = await asyncio.wait_for(reader.read(65536), 1.0)
        except TimeoutError:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            stats["ended"] += 1  # the server closed it before the end
            break
        stats["bytes"] += len(chunk)
    writer.close()


def _hold(port: int, paths: list[str], ready: Any, stop: Any, out: Any) -> None:
    raise_file_limit()

    async def main() -> dict[str, int]:
        stats = dict.fromkeys(("open", "refused", "failed", "ended", "bytes"), 0)
        done = asyncio.Event()
        gate = asyncio.Semaphore(50)  # connect 50 at a time: the listen backlog is 128
        tasks = [asyncio.create_task(_feed(port, f"127.0.0.{2 + n // PER_ADDRESS}", path,
                                           stats, done, gate))
                 for n, path in enumerate(paths)]
        while stats["open"] + stats["refused"] + stats["failed"] < len(paths):
            await asyncio.sleep(0.05)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
        done.set()
        await asyncio.gather(*tasks)
        return stats

    out.put(asyncio.run(main()))


def _get(url: str) -> tuple[int, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            reply.read()
            status = reply.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, time.monotonic() - started


def load(args: argparse.Namespace, boards: list[Any], pid: int, base: str, redis_url: str,
         redis_port: int) -> int:
    """Hold ``args.feeds`` feeds open for ``args.seconds`` while the boards play; print the
    figures; 0 if the targets are met."""
    rng = random.Random(25)
    paths = [("/feed" if n % 2 else f"/feed?board={boards[n // 2 % len(boards)].board_id}")
             for n in range(args.feeds)]
    context = multiprocessing.get_context("spawn")
    ready, stop, out = context.Event(), context.Event(), context.Queue()
    port = int(base.rsplit(":", 1)[1])
    holder = context.Process(target=_hold, args=(port, paths, ready, stop, out), daemon=True)
    started = time.monotonic()
    holder.start()
    if not ready.wait(300):
        raise SystemExit("the feeds did not open")
    opened_in = time.monotonic() - started
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    connections, rss = [], []
    due = {b.board_id: time.monotonic() + rng.uniform(0, args.interval) for b in boards}
    by_id = {b.board_id: b for b in boards}
    stored: dict[tuple[str, int], float] = {}
    end = time.monotonic() + args.seconds
    next_page = next_sample = next_beat = time.monotonic()
    moves = 0
    pages = ["/", f"/board/{boards[0].board_id}"]
    cpu0 = proc_stats(pid)[0]
    while time.monotonic() < end:
        now = time.monotonic()
        board_id = min(due, key=due.__getitem__)
        if due[board_id] <= now:
            by_id[board_id].move(stored)
            moves += 1
            due[board_id] = now + rng.expovariate(1 / args.interval)
        if now >= next_page:
            status, took = _get(base + pages[len(latencies) % 2])
            statuses[status] = statuses.get(status, 0) + 1
            latencies.append(took)
            next_page = time.monotonic() + 0.1
        if now >= next_sample:
            connections.append(redis_connections(pid, redis_port))
            rss.append(proc_stats(pid)[1])
            next_sample = now + 1.0
        if now >= next_beat:
            beat(boards)
            next_beat = now + 5.0
        time.sleep(max(0.0, min(due[board_id], next_page) - time.monotonic()))
    stop.set()
    stats = out.get(timeout=120)
    holder.join(timeout=30)
    cpu1, _, peak = proc_stats(pid)
    p99 = sorted(latencies)[int(0.99 * (len(latencies) - 1))]
    print(f"{args.feeds} live feeds ({stats['open']} open in {opened_in:.1f} s, "
          f"{stats['refused']} refused, {stats['failed']} failed to connect, {stats['ended']} "
          f"ended early), {len(boards)} boards, {moves} moves in {args.seconds:.0f} s")
    print(f"pages while they are open: {len(latencies)} loads, statuses {statuses}, p50 "
          f"{statistics.median(latencies) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max "
          f"{max(latencies) * 1000:.0f} ms")
    print(f"Redis connections held by the web app: max {max(connections)} "
          f"(median {statistics.median(connections):.0f})")
    print(f"web service: RSS max {max(rss) / 1024:.1f} MB, peak {peak / 1024:.1f} MB; the feeds "
          f"read {stats['bytes'] / 1e6:.1f} MB; CPU {(cpu1 - cpu0) / args.seconds * 100:.0f} % "
          f"of one core")
    ok = (set(statuses) == {200} and p99 <= 0.5 and max(connections) <= 10
          and peak / 1024 <= 160 and stats["open"] == args.feeds)
    print("targets (every feed open, pages 200 with p99 <= 500 ms, <= 10 Redis connections, "
          "RSS <= 160 MB):", "met" if ok else "NOT met")
    return 0 if ok else 1
