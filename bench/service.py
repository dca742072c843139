"""Benchmark: start-up time and resident memory of the board service (issue 7's targets).

1. Start-up: ``draughtsboard run --board sim --store memory --games-dir TMP`` is started with
   ``NOTIFY_SOCKET`` pointing at an AF_UNIX datagram socket this script binds; the figure is the
   time from starting the process to receiving ``READY=1`` (median of ``--runs``). Then SIGTERM,
   and the time to a clean exit (issue 7: within 2 s). Target: READY within 1.5 s.
2. Memory mid-game: ``draughtsboard run --board sim --mode play --script EVENTS`` plays a long
   game against the built-in engine (``--depth``, default 4 as in scripted runs): this script
   computes the game beforehand (the human's moves by a weak engine level, the computer's
   replies by the same engine and seed the service uses) and writes the physical lifts and
   placements of both sides. VmRSS is sampled from ``/proc/PID/status`` while it plays; the peak
   is the kernel's own (``ru_maxrss`` of the child, from ``wait4``). Every move being accepted
   (checked from the ``--events json`` output) proves the game really was played. Target:
   <= 60 MB.

Peer measured in the same run: the interpreter floor, ``python -c`` that sends ``READY=1`` and
waits (start-up time and RSS), and ``python -c pass`` (start to exit).

Run: ``.venv/bin/python bench/service.py [--runs N] [--plies N]``
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board
from engine.levels import level
from engine.search import Limit
from firmware_host.app.service import VIRTUAL_TIME_DEPTH as SCRIPTED_DEPTH
from firmware_host.config.schema import options_by_path
from firmware_host.opponents.opponent import BuiltinOpponent

START_TARGET_S = 1.5
RSS_TARGET_MB = 60.0
STOP_TARGET_S = 2.0
FLOOR_READY = ("import os, signal, socket\n"
               "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
               "s.sendto(b'READY=1', os.environ['NOTIFY_SOCKET'])\n"
               "signal.pause()\n")


def service_argv() -> list[str]:
    """The console script next to this interpreter, as systemd starts it."""
    script = Path(sys.executable).parent / "draughtsboard"
    return [str(script)] if script.exists() else [sys.executable, "-m", "firmware_host.cli"]


def status_kb(pid: int, field: str) -> int | None:
    """A ``kB`` field of ``/proc/PID/status`` (None once the process is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as file:
            for line in file:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def start_to_ready(argv: list[str], workdir: Path) -> tuple[float, int, float]:
    """Start ``argv``; return (seconds to READY=1, VmRSS kB at READY, seconds to exit on TERM).

    Raises:
        RuntimeError: no READY=1 within 30 s.
    """
    address = str(workdir / f"notify-{time.monotonic_ns()}.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.settimeout(0.05)
        env = dict(os.environ, NOTIFY_SOCKET=address)
        env.pop("WATCHDOG_USEC", None)
        start = time.monotonic()
        proc = subprocess.Popen(argv, env=env, cwd=workdir, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            ready = _wait_ready(sock, proc, start)
            rss = status_kb(proc.pid, "VmRSS") or 0
            stop = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
            return ready - start, rss, time.monotonic() - stop
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def _wait_ready(sock: socket.socket, proc: subprocess.Popen[bytes], start: float) -> float:
    while time.monotonic() - start < 30:
        try:
            message = sock.recv(4096).decode(errors="replace")
        except TimeoutError:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"{proc.args} exited with {proc.returncode} before READY") from None
            continue
        if "READY=1" in message.split("\n"):
            return time.monotonic()
    raise RuntimeError(f"{proc.args}: no READY=1 within 30 s")


#: The level the service plays at unless configured (the schema's default).
DEFAULT_LEVEL = int(options_by_path()["engine.level"].default)


def played_game(variant: str, plies: int, seed: int,
                depth: int) -> list[tuple[str, Board, object]]:
    """A game: the human (white) by a weak level, the computer as the scripted service plays."""
    human = BuiltinOpponent(seed=seed, options=level(2).options)
    # Scripted runs build the computer as the service does (engine.level 5 by default, seed 0).
    computer = BuiltinOpponent(seed=0, options=level(DEFAULT_LEVEL).options)
    board = Board(variant)
    game: list[tuple[str, Board, object]] = []
    while len(game) < plies and not board.is_game_over():
        human_turn = board.turn == board.variant.first_mover
        side, opponent = ("human", human) if human_turn else ("computer", computer)
        limit = Limit(depth=2) if human_turn else Limit(depth=depth)
        move = opponent.best_move(board, limit).move
        game.append((side, board.copy(), move))
        board.push(move)
    return game


def script_for(game: list[tuple[str, Board, object]]) -> str:
    """The physical events carrying out every move, with a pause for the settle time."""
    lines, t = [], 500
    for side, board, move in game:
        t += 700 if side == "human" else 400  # the computer's reply is shown at once
        name = board.variant.square_name
        lines.append(f"{t} lift {name(move.origin)}")
        for captured in move.captures:
            t += 60
            lines.append(f"{t} lift {name(captured)}")
        t += 80
        lines.append(f"{t} place {name(move.destination)}")
    return "\n".join(lines) + "\n"


def mid_game_memory(variant: str, plies: int, depth: int, workdir: Path) -> dict[str, float]:
    """Play a long scripted game in play mode; return RSS figures (MB) and moves accepted."""
    game = played_game(variant, plies, seed=3, depth=depth)
    script = workdir / "game.script"
    script.write_text(script_for(game), encoding="ascii")
    config = workdir / "bench.toml"
    config.write_text(f"[engine]\ndepth = {depth}\n", encoding="ascii")
    argv = [*service_argv(), "run", "--config", str(config), "--board", "sim", "--mode", "play",
            "--variant", variant, "--store", "memory", "--games-dir", str(workdir / "games"),
            "--script", str(script), "--events", "json"]
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, cwd=workdir)
        samples: list[int] = []
        high_water: list[int] = []
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                value = status_kb(proc.pid, "VmRSS")
                if value:
                    samples.append(value)
                    high_water.append(status_kb(proc.pid, "VmHWM") or 0)
                done.wait(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
        seconds = time.monotonic() - start
        out.seek(0)
        events = [json.loads(line) for line in out.read().decode().splitlines() if line]
    moves = [e for e in events if e.get("event") == "move"]
    expected = [board.move_notation(move) for _, board, move in game]
    if proc.returncode != 0 or [e["pdn"] for e in moves] != expected:
        raise RuntimeError(f"the scripted game was not played as computed (exit "
                           f"{proc.returncode}, {len(moves)}/{len(expected)} moves matched)")
    return {"plies": len(moves), "sampled_mb": max(samples, default=0) / 1024,
            "peak_mb": max(usage.ru_maxrss, *high_water, *samples) / 1024,
            "seconds": seconds}


def pass_time() -> float:
    """Seconds for ``python -c pass`` to start and exit."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.monotonic() - start


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="start-ups to time (median)")
    parser.add_argument("--plies", type=int, default=60, help="length of the mid-game game")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--depth", type=int, default=SCRIPTED_DEPTH,
                        help="the computer's search depth in the mid-game game (deeper fills "
                             "more of its hash table)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="draughtsboard-bench-") as tmp:
        work = Path(tmp)
        service = [*service_argv(), "run", "--board", "sim", "--store", "memory",
                   "--games-dir", str(work / "games")]
        floor_argv = [sys.executable, "-c", FLOOR_READY]
        runs = [start_to_ready(service, work) for _ in range(args.runs)]
        floors = [start_to_ready(floor_argv, work) for _ in range(args.runs)]
        passes = [pass_time() for _ in range(args.runs)]
        memory = mid_game_memory(args.variant, args.plies, args.depth, work)
    ready = statistics.median(r[0] for r in runs)
    floor_ready = statistics.median(f[0] for f in floors)
    idle_mb = statistics.median(r[1] for r in runs) / 1024
    floor_mb = statistics.median(f[1] for f in floors) / 1024
    stop = max(r[2] for r in runs)
    print(f"start-up to READY=1 (median of {args.runs}): {ready:.3f} s   "
          f"[runs: {', '.join(f'{r[0]:.3f}' for r in runs)}]")
    print(f"  interpreter floor (python -c: send READY=1): {floor_ready:.3f} s; "
          f"python -c pass: {statistics.median(passes):.3f} s; "
          f"ratio service/floor x{ready / floor_ready:.1f}")
    print(f"  target <= {START_TARGET_S} s: {verdict(ready <= START_TARGET_S)}")
    print(f"stop on SIGTERM (slowest of {args.runs}): {stop:.3f} s   "
          f"target <= {STOP_TARGET_S} s: {verdict(stop <= STOP_TARGET_S)}")
    print(f"RSS at READY (idle, no game yet): {idle_mb:.1f} MB; floor {floor_mb:.1f} MB "
          f"(x{idle_mb / floor_mb:.1f})")
    print(f"RSS mid-game ({args.variant}, play mode, {memory['plies']} plies vs the engine at "
          f"depth {args.depth}, {memory['seconds']:.1f} s): peak {memory['peak_mb']:.1f} MB "
          f"(max sampled VmRSS {memory['sampled_mb']:.1f} MB); floor {floor_mb:.1f} MB "
          f"(x{memory['peak_mb'] / floor_mb:.1f})")
    print(f"  target <= {RSS_TARGET_MB:.0f} MB: {verdict(memory['peak_mb'] <= RSS_TARGET_MB)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
