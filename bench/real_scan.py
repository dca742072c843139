"""A real Scan through our Hub client: not part of the test suite (CI never needs Scan).

Scan is not in this repository; build it from its public sources (``make`` in its ``src/``) and
give this script its program and its directory (``scan.ini`` and ``data/`` live there)::

    .venv/bin/python bench/real_scan.py --scan /opt/scan/scan [--cwd /opt/scan]
    DRAUGHTSBOARD_SCAN=/opt/scan/scan draughtsboard bench real_scan

What it checks, each line ``ok`` or ``FAIL`` with its figures (exit status 1 on a failure):

- every ``level`` form we send is obeyed: ``depth=N`` (the last ``info`` reports depth N),
  ``nodes=N`` (Scan stops within a few thousand nodes of N), ``move-time=S`` (it answers in
  about S seconds) - sent through the board's own settings (``engine.hub_depth``,
  ``hub_nodes``, ``hub_movetime_s``), with ``engine.level`` left at its default;
- a full game, Scan against the built-in engine, every move legal by our rules, to its end;
  30 plies of international giveaway (Scan's ``losing``);
- ``draughtsboard analyse --hub`` and a hint (teach mode's worker) answered by Scan;
- ``stop`` from a stop token ends a deep search with a legal move;
- Scan killed mid-game is restarted by the next move request, its parameters sent again;
- the demo (the whole service on the simulated board) against Scan, its PDN naming it.

Scan is given ``book = false`` (a book move has no search information) and a 2^20-entry hash
table; ``--param NAME=VALUE`` adds or changes Scan parameters.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from board_io.clock import MonotonicClock  # noqa: E402
from engine import Board  # noqa: E402
from engine.pdn import read_games  # noqa: E402
from engine.search import Limit, StopToken  # noqa: E402
from firmware_host.cli import main as cli  # noqa: E402
from firmware_host.config.loader import Config  # noqa: E402
from firmware_host.opponents.build import build_opponent  # noqa: E402
from firmware_host.opponents.hub.protocol import SearchInfo  # noqa: E402
from firmware_host.opponents.opponent import BuiltinOpponent, HubOpponent  # noqa: E402
from firmware_host.opponents.worker import SyncEngineWorker  # noqa: E402
from firmware_host.terms.jobs import EngineJob, Purpose  # noqa: E402
from firmware_host.tools.demo import DemoOptions, run_demo  # noqa: E402

FAILURES: list[str] = []


def report(ok: bool, what: str, figures: str) -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {figures}", flush=True)
    if not ok:
        FAILURES.append(what)


def config_for(args: argparse.Namespace, **engine: Any) -> Config:
    params = {"book": "false", "tt-size": "20"}
    for item in args.param:
        name, _, value = item.partition("=")
        params[name] = value
    section: dict[str, Any] = {"kind": "hub", "hub_command": [args.scan, "hub"],
                               "hub_params": params, **engine}
    if args.cwd:
        section["hub_cwd"] = args.cwd
    return Config.from_mapping({"engine": section}, source="bench/real_scan.py")


def hub(config: Config, variant: str = "international") -> tuple[HubOpponent, Limit]:
    opponent, limit = build_opponent(config, Board(variant).variant)
    assert isinstance(opponent, HubOpponent)
    return opponent, limit


def middle_game() -> Board:
    """A middle-game position: the built-in engine against itself at depth 3 for 20 plies."""
    board = Board("international")
    with BuiltinOpponent(seed=5) as builtin:
        for _ in range(20):
            result = builtin.best_move(board, Limit(depth=3))
            assert result.move is not None
            board.push(result.move)
    return board


def check_levels(args: argparse.Namespace) -> None:
    board = middle_game()
    for engine, what in (({"hub_depth": args.depth}, f"level depth={args.depth}"),
                         ({"hub_nodes": args.nodes}, f"level nodes={args.nodes}"),
                         ({"hub_movetime_s": args.movetime},
                          f"level move-time={args.movetime}")):
        opponent, limit = hub(config_for(args, **engine))
        infos: list[SearchInfo] = []
        with opponent:
            started = time.monotonic()
            played = opponent.engine.play(board, limit, on_info=infos.append)
            wall = time.monotonic() - started
        last = played.info
        legal = played.move in board.legal_moves
        figures = (f"sent {limit_text(limit)}; Scan: depth {last.depth}, nodes {last.nodes}, "
                   f"time {last.time} s, {len(infos)} info lines, answered in {wall:.2f} s, "
                   f"move {board.move_notation(played.move)}")
        if "hub_depth" in engine:
            ok = last.depth == args.depth
        elif "hub_nodes" in engine:
            ok = last.nodes is not None and last.nodes <= args.nodes * 1.05 + 5000
        else:
            ok = 0.5 * args.movetime <= wall <= args.movetime + 1.0
        report(ok and legal and not played.stopped, what, figures)


def limit_text(limit: Limit) -> str:
    from firmware_host.opponents.hub.client import limit_to_level

    return repr(limit_to_level(limit, 1.0).to_message().format())


def check_game(args: argparse.Namespace) -> None:
    opponent, limit = hub(config_for(args, hub_depth=args.depth))
    board = Board("international")
    plies = 0
    with opponent, BuiltinOpponent(seed=1) as builtin:
        while not board.is_game_over() and plies < args.max_plies:
            player = opponent if plies % 2 == 0 else builtin
            result = player.best_move(board, limit if player is opponent else Limit(depth=4))
            if result.move not in board.legal_moves:
                report(False, "full game", f"ply {plies}: {result.move} is not legal")
                return
            board.push(result.move)
            plies += 1
        outcome = board.outcome()
        result_text = "unfinished" if outcome is None else outcome.result(
            board.variant.pdn_gametype)
        report(outcome is not None, "full game (Scan white at depth "
               f"{args.depth}, built-in black at depth 4)",
               f"{plies} plies, every move legal, result {result_text}, "
               f"{opponent.engine.starts} start(s) of {opponent.name}")


def check_giveaway(args: argparse.Namespace) -> None:
    """Scan's ``losing`` is our international giveaway: a game started in it restarts Scan with
    ``variant=losing``; 30 plies, every move legal."""
    opponent, limit = hub(config_for(args, hub_depth=args.depth), "international-giveaway")
    board = Board("international-giveaway")
    with opponent, BuiltinOpponent(seed=3) as builtin:
        while not board.is_game_over() and len(board.move_stack) < 30:
            player = opponent if len(board.move_stack) % 2 == 0 else builtin
            result = player.best_move(board, limit if player is opponent else Limit(depth=3))
            if result.move not in board.legal_moves:
                report(False, "international giveaway", f"{result.move} is not legal")
                return
            board.push(result.move)
        report(True, "international giveaway (Scan's losing)",
               f"{len(board.move_stack)} plies, every move legal, {opponent.engine.starts} "
               "start(s)")


def check_analyse_and_hint(args: argparse.Namespace) -> None:
    board = middle_game()
    out = io.StringIO()
    params = [a for p in args.param for a in ("--hub-param", p)]
    argv = ["analyse", "--variant", "international", "--fen", board.fen(), "--depth",
            str(args.depth), "--json", "--hub", f"{args.scan} hub", "--hub-param", "book=false",
            "--hub-param", "tt-size=20", *params]
    if args.cwd:
        argv += ["--hub-cwd", args.cwd]
    with redirect_stdout(out):
        status = cli(argv)
    lines = out.getvalue().strip().splitlines()
    summary = json.loads(lines[-1]) if status == 0 else {}
    ok = (status == 0 and summary.get("depth") == args.depth
          and board.parse_move(summary["move"]) in board.legal_moves)
    report(ok, "draughtsboard analyse --hub", " | ".join(lines))

    shot = Board("international", fen="W:W33,48:B28,17,5")
    opponent, _ = hub(config_for(args))
    results: list[Any] = []
    worker = SyncEngineWorker(opponent, Limit(depth=args.depth), MonotonicClock())
    worker.post = results.append
    with opponent:
        worker.submit(EngineJob(1, Purpose.HINT, shot))
    (hint,) = results
    kinds = [r.kind for r in hint.reasons]
    report(hint.move is not None and shot.move_notation(hint.move) == "33x11"
           and "captures" in kinds, "hint from Scan (teach mode's worker)",
           f"{shot.fen()}: {shot.move_notation(hint.move) if hint.move else None}, "
           f"reasons {kinds}")


def check_stop(args: argparse.Namespace) -> None:
    board = middle_game()
    opponent, _ = hub(config_for(args))
    token = StopToken()
    infos: list[SearchInfo] = []

    def on_info(info: SearchInfo) -> None:
        infos.append(info)
        if (info.depth or 0) >= 14:
            token.stop()

    with opponent:
        started = time.monotonic()
        played = opponent.engine.play(board, Limit(depth=60), token, on_info)
        wall = time.monotonic() - started
    report(played.stopped and played.move in board.legal_moves,
           "stop from a stop token (level depth=60)",
           f"stopped after info depth {infos[-1].depth if infos else None}, answered "
           f"{board.move_notation(played.move)} in {wall:.2f} s")


def check_restart(args: argparse.Namespace) -> None:
    opponent, limit = hub(config_for(args, hub_depth=args.depth))
    board = Board("international")
    with opponent, BuiltinOpponent(seed=2) as builtin:
        pids = []
        for ply in range(12):
            if ply == 6:  # kill Scan mid-game, just before its move is asked for
                pid = opponent.engine.pid
                assert pid is not None
                os.kill(pid, signal.SIGKILL)
            player = opponent if ply % 2 == 0 else builtin
            result = player.best_move(board, limit if player is opponent else Limit(depth=3))
            assert result.move in board.legal_moves
            board.push(result.move)
            pids.append(opponent.engine.pid)
        starts = opponent.engine.starts
    report(starts == 2 and len(set(pids)) == 2, "restart after Scan was killed (SIGKILL)",
           f"12 plies, {starts} starts, pids {sorted(set(p for p in pids if p))}")


def check_demo(args: argparse.Namespace) -> None:
    games = tempfile.mkdtemp(prefix="real-scan-demo-")
    out = io.StringIO()
    status = run_demo(DemoOptions(plies=args.demo_plies, fast=True, games_dir=games,
                                  hub=config_for(args, hub_depth=args.depth)), out)
    lines = out.getvalue().strip().splitlines()
    ok = status == 0 and lines[-1].startswith("done: PDN written to ")
    black = None
    if ok:
        [game] = read_games(Path(lines[-1].removeprefix("done: PDN written to ")).read_text())
        black = game.headers.get("Black")
        ok = black is not None and black.startswith("Scan") and len(game.moves) == args.demo_plies
    report(ok, "demo against Scan (the whole service, sim board)",
           f"exit {status}, {lines[-3] if len(lines) >= 3 else lines}, PDN Black {black!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scan", default=os.environ.get("DRAUGHTSBOARD_SCAN"),
                        help="Scan's program, started as PROGRAM hub (default: the "
                             "DRAUGHTSBOARD_SCAN environment variable)")
    parser.add_argument("--cwd", help="Scan's directory (default: its program's)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--depth", type=int, default=8, help="depth for the level check")
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--movetime", type=float, default=1.0)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--demo-plies", type=int, default=8)
    args = parser.parse_args(argv)
    if not args.scan:  # `draughtsboard bench` runs every script: without Scan there is no check
        print("no Scan given (--scan PATH or DRAUGHTSBOARD_SCAN): nothing checked")
        return 0
    args.scan = str(Path(args.scan).resolve())
    opponent, _ = hub(config_for(args))
    with opponent:
        print(f"{opponent.name} ({args.scan}), parameters {dict(opponent.engine.config.params)}")
    for check in (check_levels, check_game, check_giveaway, check_analyse_and_hint, check_stop,
                  check_restart, check_demo):
        check(args)
    print(f"{'all checks passed' if not FAILURES else 'FAILED: ' + ', '.join(FAILURES)}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
