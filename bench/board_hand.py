"""Benchmark: what a Raspberry Pi owner feels at the board, idle and while the engine thinks.

The real service (``build_service``, as ``draughtsboard run`` wires it) on the simulated board,
on the wall clock, its scan loop in a thread of this process; a driver thread lifts and puts
back pieces as a hand does. Measured in one run, each figure idle and while the engine
searches (a depth-only search, ``engine.depth = 40`` at level 10: it never stops by itself,
the worst case before the search had a process of its own):

- **scan rate**: scans a second of the service's loop (its configured rate: 100);
- **sensor -> recogniser**: from a piece lifted on the board to the session holding the new
  occupancy (the 20 ms debounce included), median and p99;
- **shortest touch seen 20/20**: the shortest lift (30, 35, 40, 45, 50, 60 ms) the service saw
  every time in 20 tries;
- **reply latency** at levels 1, 5 and 10: from the human's move stored to the computer's move
  shown (level 10 also after a ponder hit: the human plays the reply the engine expected);
- **stopping a search for the reply**: a hint under way when the human moves, or a ponder
  search on another reply than the one played, is stopped; from the reply's submission to its
  ``go`` reaching the engine's process, and the same with nothing to stop;
- **memory**: resident size (now and peak) of the service's process and of the engine's.

Peer in the same run (``--peer``, on by default): the search in a thread of the service's own
process, as before (the service built the same, its worker's opponent swapped for the in-process
engine). The engine is the one this interpreter imports (``bench/build.py``: run a copy of
``bench/`` outside the checkout under a compiled venv for the compiled engine's figures).

``--footprint`` measures only the start-up and the memory (what an emulated Pi root can:
``systemd/emulate/pi-install.sh --bench``).

Run: ``.venv/bin/python bench/board_hand.py [--quick] [--no-peer] [--footprint]``
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.build import engine_build
from bench.build import warning as build_warning
from board_io.events import OccupancyChanged
from engine import Board, Move
from engine.search import SearchResult
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service
from firmware_host.config import Config
from firmware_host.game.types import State
from firmware_host.opponents.hub.process import HubProcess
from firmware_host.opponents.opponent import BuiltinOpponent, HubOpponent
from firmware_host.opponents.worker import ThreadEngineWorker
from firmware_host.terms.commands import Command
from firmware_host.terms.jobs import EngineJob, Purpose

#: Lift durations tried for the shortest touch seen every time (ms).
TOUCHES_MS = (30, 35, 40, 45, 50, 60)
TRIES = 20
#: Physical actions of a move, this far apart (s): longer than the debounce.
HAND_S = 0.08


def status_kb(pid: int, field_name: str) -> int:
    """A ``kB`` field of ``/proc/PID/status`` (0 if unreadable)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as file:
            for line in file:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Figures:
    """One condition's figures."""

    scans_hz: float = 0.0
    latency_ms: list[float] = field(default_factory=list)
    missed: int = 0
    shortest_ms: int | None = None
    seen: dict[int, int] = field(default_factory=dict)
    overruns: int = 0

    def line(self, label: str) -> str:
        lat = self.latency_ms
        latency = (f"{statistics.median(lat):.1f} / {pct(lat, 0.99):.1f} ms" if lat else "-")
        seen = ", ".join(f"{ms} ms {n}/{TRIES}" for ms, n in self.seen.items())
        shortest = f"{self.shortest_ms} ms" if self.shortest_ms is not None else "-"
        return (f"  {label:<30} scan {self.scans_hz:6.1f} Hz ({self.overruns} late), sensor->"
                f"recogniser median/p99 {latency} over {len(lat)} lifts ({self.missed} unseen), "
                f"shortest touch seen {TRIES}/{TRIES}: {shortest} ({seen})")


class Bench:
    """The service on the simulated board, running, and a hand."""

    def __init__(self, stack: ExitStack, games: str, *, in_process: bool = False,
                 **engine: Any) -> None:
        config = Config.from_mapping({
            "game": {"mode": "play", "variant": "international"},
            "engine": {"ponder": "off", **engine},
            "board": {"sensors": "sim", "leds": "sim", "buttons": "sim"},
            "store": {"url": "memory", "games_dir": games}}, source="bench/board_hand.py")
        self.service: Service = build_service(config, stack, Wiring(
            resume=False, notifier=Notifier(environ={}), pdn_files=False))
        self.controller = self.service.controller
        self.session = self.controller.session
        assert self.service.sim is not None
        self.sim = self.service.sim
        worker = self.service.worker
        assert isinstance(worker, ThreadEngineWorker)
        self.worker = worker
        if in_process:  # the peer: the search in a thread of this process, as before
            hub = worker.opponent
            worker.opponent = BuiltinOpponent(seed=0)
            hub.close()
        self.results: list[SearchResult] = []
        opponent = worker.opponent
        best_move = opponent.best_move

        def keep(board: Board, limit: Any, stop: Any = None) -> SearchResult:
            result = best_move(board, limit, stop)
            self.results.append(result)
            return result

        opponent.best_move = keep  # type: ignore[method-assign]
        self.scans: list[float] = []
        poll = self.service.scanner.poll

        def timed_poll(now: float) -> Any:
            self.scans.append(time.perf_counter())
            return poll(now)

        self.service.scanner.poll = timed_poll  # type: ignore[method-assign]
        self.seen: list[tuple[float, frozenset[int]]] = []
        handle = self.session.handle

        def timed_handle(event: Any) -> None:
            if isinstance(event, OccupancyChanged):
                self.seen.append((time.perf_counter(), frozenset(event.occupied)))
            handle(event)

        self.session.handle = timed_handle  # type: ignore[method-assign]
        self.events: list[tuple[float, dict[str, Any]]] = []
        self._changed = threading.Condition()
        self.session.subscribe(self._event)
        self.submitted: list[tuple[float, EngineJob]] = []
        submit = worker.submit

        def timed_submit(job: EngineJob) -> None:
            self.submitted.append((time.perf_counter(), job))
            submit(job)

        worker.submit = timed_submit  # type: ignore[method-assign]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.service.serve, args=(self.stop,),
                                       name="scan", daemon=True)
        self.thread.start()
        stack.callback(self.close)
        self.wait_for(lambda: self.session.state is State.HUMAN_TO_MOVE, 30)

    def _event(self, event: dict[str, Any]) -> None:
        with self._changed:
            self.events.append((time.perf_counter(), event))
            self._changed.notify_all()

    def wait_for(self, done: Callable[[], bool], timeout: float) -> None:
        with self._changed:
            if not self._changed.wait_for(done, timeout):
                raise RuntimeError(f"timed out in state {self.session.state}")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)

    # -- the hand -------------------------------------------------------------------------
    def carry_out(self, board: Board, move: Move) -> None:
        self.sim.lift(move.origin)
        time.sleep(HAND_S)
        for captured in move.captures:
            self.sim.lift(captured)
            time.sleep(HAND_S)
        self.sim.place(move.destination)

    def play(self, move: Move) -> float:
        """Play the human's ``move``; the time its ``move`` event came (stored)."""
        count = self._count("move")
        self.carry_out(self.session.board, move)
        self.wait_for(lambda: self._count("move") > count, 10)
        return self._last("move")

    def carry_out_computer_move(self) -> None:
        pending = self.session.pending
        assert pending is not None
        count = self._count("move")
        self.carry_out(self.session.board, pending)
        self.wait_for(lambda: self._count("move") > count, 10)
        self.wait_for(lambda: self.session.state is State.HUMAN_TO_MOVE, 10)

    def wait_events(self, kind: str, after: int, timeout: float) -> None:
        """Wait until more than ``after`` events of ``kind`` have come."""
        self.wait_for(lambda: self._count(kind) > after, timeout)

    def wait_jobs(self, after: int, timeout: float) -> None:
        """Wait until more than ``after`` engine jobs were submitted."""
        self.wait_for(lambda: len(self.submitted) > after, timeout)

    def pondering(self, timeout: float) -> bool:
        """Whether the engine's process thinks on the human's time within ``timeout`` (not
        after a forced reply: it expects nothing then)."""
        opponent = self.worker.opponent
        assert isinstance(opponent, HubOpponent)
        deadline = time.perf_counter() + timeout
        while not opponent.engine.pondering:  # no event says so: look every 5 ms
            if time.perf_counter() > deadline:
                return False
            time.sleep(0.005)
        return True

    def _count(self, kind: str) -> int:
        return sum(1 for _, e in self.events if e["event"] == kind)

    def _last(self, kind: str) -> float:
        return next(float(at) for at, e in reversed(self.events) if e["event"] == kind)

    def touch(self, square: int, seconds: float) -> tuple[bool, float | None]:
        """Lift ``square`` for ``seconds`` and put it back: (seen, latency of the lift)."""
        mark = len(self.seen)
        lifted = time.perf_counter()
        self.sim.lift(square)
        time.sleep(seconds)
        self.sim.place(square)
        time.sleep(0.12)  # let the scanner settle before the next touch
        for at, occupied in self.seen[mark:]:
            if square not in occupied:
                return True, (at - lifted) * 1000
        return False, None

    def measure(self, square: int, seconds: float, lifts: int, touches: bool) -> Figures:
        figures = Figures()
        overruns = self.controller.overruns
        mark = len(self.scans)
        started = time.perf_counter()
        time.sleep(seconds)
        figures.scans_hz = (len(self.scans) - mark) / (time.perf_counter() - started)
        for _ in range(lifts):
            seen, latency = self.touch(square, 0.1)
            if seen and latency is not None:
                figures.latency_ms.append(latency)
            else:
                figures.missed += 1
        if touches:
            for ms in TOUCHES_MS:
                figures.seen[ms] = sum(self.touch(square, ms / 1000)[0] for _ in range(TRIES))
            figures.shortest_ms = next((ms for ms, n in figures.seen.items() if n == TRIES),
                                       None)
        figures.overruns = self.controller.overruns - overruns
        return figures


def hand_report(idle: Figures, searching: Figures, label: str) -> str:
    """Both conditions' lines and the two checks: the scan rate searching / idle (at least
    0.97) and the p99's difference (within 5 ms)."""
    rate = searching.scans_hz / idle.scans_hz
    p99 = pct(searching.latency_ms, 0.99) - pct(idle.latency_ms, 0.99)
    return "\n".join((idle.line("idle"), searching.line(label),
                      f"  searching / idle: scan rate {rate:.3f}; sensor->recogniser p99 "
                      f"{p99:+.1f} ms"))


def computer_moves(rig: Bench) -> int:
    return sum(1 for _, e in rig.events if e["event"] == "computer_move")


@contextmanager
def bench(**kwargs: Any) -> Iterator[Bench]:
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="board-hand-") as games:
        yield Bench(stack, games, **kwargs)


def hand_figures(args: argparse.Namespace, in_process: bool) -> tuple[Figures, Figures]:
    """Idle, then while a search runs: (idle, searching). The engine's own process gets a
    depth-only search (it never ends by itself); the peer in the service's thread a search on
    the clock (a compiled depth-only one there holds the interpreter for whole iterations:
    this bench's own hand could not lift a piece on time)."""
    engine = {"level": 10, "movetime_ms": 600_000} if in_process else {"level": 10, "depth": 40}
    with bench(in_process=in_process, **engine) as rig:
        square = rig.sim.layout.parse("46")
        idle = rig.measure(square, args.seconds, args.lifts, touches=not args.quick)
        board = rig.session.board
        rig.play(board.parse_move("32-28"))
        rig.wait_for(lambda: rig.session.state is State.ENGINE_THINKING, 10)
        searching = rig.measure(square, args.seconds, args.lifts, touches=not args.quick)
        assert rig.session.state is State.ENGINE_THINKING, "the search ended under way"
    return idle, searching


def reply_latencies(level: int, moves: int, ponder: bool = False, think: float = 1.0
                    ) -> tuple[list[float], list[int], int, int, int]:
    """Play until ``moves`` replies were searched at ``level`` (a forced reply, one legal move,
    is played without a search and not counted): (their latencies in ms, their depths, ponder
    hits, this process's RSS kB, the engine process's peak RSS kB, both at the end). With
    ``ponder`` the human thinks ``think`` seconds and plays the reply the engine expected."""
    latencies: list[float] = []
    depths: list[int] = []
    with bench(level=level, ponder="on" if ponder else "off") as rig:
        opponent = rig.worker.opponent
        assert isinstance(opponent, HubOpponent)
        move = rig.session.board.parse_move("32-28")
        while len(latencies) < moves:
            count = computer_moves(rig)
            stored = rig.play(move)
            rig.wait_events("computer_move", count, 120)
            last = rig.results[-1]
            if last.nodes:
                latencies.append((rig._last("computer_move") - stored) * 1000)
                depths.append(last.depth)
            rig.carry_out_computer_move()
            board = rig.session.board
            if board.is_game_over():
                break
            if ponder and len(last.pv) > 1 and last.pv[1] in board.legal_moves:
                time.sleep(think)  # the human thinks: the engine ponders
                move = last.pv[1]
            else:
                move = sorted(board.legal_moves, key=board.move_notation)[0]
        pid = opponent.engine.pid or 0
        return latencies, depths, opponent.hits, status_kb(os.getpid(), "VmRSS"), \
            status_kb(pid, "VmHWM")


def stops(trials: int) -> dict[str, list[float]]:
    """From a reply's submission to its ``go think`` reaching the engine's process (ms), when a
    search must be stopped first and when none: ``hint`` (a hint under way, at level 10),
    ``miss`` (pondering on another reply than the one played: a depth-only search), ``none``."""
    sent: list[tuple[float, str]] = []
    original = HubProcess.send

    def timed_send(self: HubProcess, line: str) -> None:
        original(self, line)
        sent.append((time.perf_counter(), line))

    HubProcess.send = timed_send  # type: ignore[method-assign]
    figures: dict[str, list[float]] = {"hint": [], "miss": [], "none": []}
    try:
        for ponder in (False, True):
            with bench(level=10, movetime_ms=1000, ponder="on" if ponder else "off") as rig:
                for trial in range(2 * trials):
                    if ponder and len(figures["miss"]) >= trials:
                        break
                    kind = "miss" if ponder else ("hint" if trial % 2 == 0 else "none")
                    board = rig.session.board
                    moves = sorted(board.legal_moves, key=board.move_notation)
                    move = moves[trial % len(moves)]
                    if kind == "hint":
                        count = len(rig.submitted)
                        rig.controller.post(Command("hint", rig.service.clock.monotonic()))
                        rig.wait_jobs(count, 10)
                        time.sleep(0.3)  # the hint's search is under way
                    pondered = kind == "miss" and bool(rig.results) and rig.pondering(2.0)
                    if kind == "miss" and rig.results:  # never the reply it expects
                        expected = rig.results[-1].pv[1:2]
                        move = next((m for m in moves if m not in expected), move)
                    if pondered:
                        time.sleep(0.3)  # the ponder search is deep in its tree
                    mark = len(rig.submitted)
                    computer = computer_moves(rig)
                    rig.play(move)
                    rig.wait_events("computer_move", computer, 60)
                    at = next(at for at, job in rig.submitted[mark:]
                              if job.purpose is Purpose.REPLY)
                    go = next((t for t, line in sent if t > at and line == "go think"), None)
                    if go is not None and (kind != "miss" or pondered):
                        figures[kind].append((go - at) * 1000)
                    rig.carry_out_computer_move()
                    if rig.session.board.is_game_over():
                        break
        return figures
    finally:
        HubProcess.send = original  # type: ignore[method-assign]


def engine_start() -> tuple[float, int]:
    """Seconds from starting the engine's process to its ``ready``, and its RSS then (kB)."""
    from firmware_host.opponents.build import builtin_engine_config
    from firmware_host.opponents.hub.client import HubEngine

    engine = HubEngine(builtin_engine_config(Config.from_mapping({})))
    started = time.perf_counter()
    engine.start("international")
    seconds = time.perf_counter() - started
    rss = status_kb(engine.pid or 0, "VmRSS")
    engine.close()
    return seconds, rss


def footprint(moves: int, level: int = 10) -> None:
    """The service's process and the engine's through ``moves`` replies at ``level``,
    pondering: their resident memory, the service's at its start and at the end, the engine's
    peak."""
    start_kb = status_kb(os.getpid(), "VmRSS")
    times, depths, hits, service_kb, engine_kb = reply_latencies(level, moves, ponder=True)
    print(f"level {level} pondering: {len(times)} replies, median {statistics.median(times):.0f} "
          f"ms, depth {statistics.mean(depths):.1f}, {hits} ponder hits", flush=True)
    print(f"memory: the service's process (this one) RSS {start_kb / 1024:.1f} MB before the "
          f"service, {service_kb / 1024:.1f} MB after the game; the engine's process peak "
          f"{engine_kb / 1024:.1f} MB", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds of scans counted in each condition (default 5)")
    parser.add_argument("--lifts", type=int, default=100,
                        help="lifts of 100 ms timed in each condition (default 100)")
    parser.add_argument("--moves", type=int, default=4, help="replies timed a level (default 4)")
    parser.add_argument("--hints", type=int, default=8,
                        help="hints stopped for a reply, ponder searches stopped, and replies "
                             "with nothing to stop (default 8 each)")
    parser.add_argument("--quick", action="store_true",
                        help="no touch-length series, fewer moves")
    parser.add_argument("--no-peer", dest="peer", action="store_false",
                        help="leave out the search in the service's own thread")
    parser.add_argument("--footprint", action="store_true",
                        help="only the engine process's start-up and the memory of both "
                             "processes through a level-10 game, pondering (--moves replies; "
                             "what an emulated Pi root can measure)")
    args = parser.parse_args(argv)
    if args.quick:
        args.moves, args.hints, args.lifts = 2, 3, 20
        args.seconds = min(args.seconds, 2.0)
    logging.getLogger("firmware_host").setLevel(logging.ERROR)  # the figures, not the log
    logging.getLogger("draughtsboard").setLevel(logging.ERROR)
    load = os.getloadavg()
    print(f"board_hand bench: engine {engine_build()}, {os.cpu_count()} cores, load "
          f"{load[0]:.2f} at start", flush=True)
    if (hidden := build_warning()) is not None:
        print(hidden, flush=True)
    seconds, rss = engine_start()
    print(f"the engine's process: ready {seconds * 1000:.0f} ms after it was started, RSS "
          f"{rss / 1024:.1f} MB", flush=True)

    if args.footprint:
        footprint(args.moves)
        return 0

    print("the hand, idle and while a depth-only search runs in the engine's process "
          "(engine.depth = 40 at level 10):", flush=True)
    print(hand_report(*hand_figures(args, in_process=False), "searching (its own process)"),
          flush=True)

    stops_ms = stops(args.hints)
    print("reply latency, from the human's move stored to the computer's move shown:",
          flush=True)
    for level in (1, 5, 10):
        times, depths, _, _, _ = reply_latencies(level, args.moves)
        print(f"  level {level:>2}: median {statistics.median(times):7.0f} ms, max "
              f"{max(times):7.0f} ms, depth {statistics.mean(depths):.1f} "
              f"({len(times)} searched replies)", flush=True)
    for level in (5, 10):
        times, depths, hits, service_kb, engine_kb = reply_latencies(level, args.moves,
                                                                     ponder=True)
        print(f"  level {level:>2} pondering (the human thinks 1 s, plays the expected reply): "
              f"median {statistics.median(times):.0f} ms, depth {statistics.mean(depths):.1f}, "
              f"{hits} hits of {len(times)}", flush=True)
    print(f"memory after the level-10 game: the service's process (this one) RSS "
          f"{service_kb / 1024:.1f} MB, the engine's peak {engine_kb / 1024:.1f} MB", flush=True)

    print("a reply's search begun (submitted -> its go in the engine's process), median / max:",
          flush=True)
    for kind, words in (("hint", "after stopping a hint (level 10)"),
                        ("miss", "after stopping a ponder search (a miss)"),
                        ("none", "with nothing to stop")):
        times = stops_ms[kind]
        print(f"  {words:<42} {statistics.median(times):6.1f} / {max(times):6.1f} ms "
              f"({len(times)} replies)", flush=True)
    if args.peer:
        print("peer: the search in a thread of the service's process, as before (level 10, "
              "on its clock):", flush=True)
        print(hand_report(*hand_figures(args, in_process=True), "searching (in the service)"),
              flush=True)
    print(f"load {os.getloadavg()[0]:.2f} at the end", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
