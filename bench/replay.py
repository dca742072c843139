"""Benchmark: virtual-time replay rate of whole recorded games (games/s), per board size.

A random legal game is carried out by sloppy hands (bounce, captured pieces removed in random
order, intermediate landings, occasional adjusts) on the simulated board and replayed through the
whole pipeline in virtual time: sensors -> scanner (debounce) -> controller -> session -> store
(in memory). A whole recorded game must replay in well under a second (docs/design.md#data-flow).

Peer measured in the same run: the same games fed to the session directly as stable
occupancies (no sensor scan, no debouncer), which is the floor the pipeline cannot beat; the
ratio shows what scanning at 100 Hz in virtual time costs. "x real time" is virtual game time
over CPU time of this process (a shared machine does not skew it).

``--voice``: the same with the voice on (firmware_host/voice, issue 30), every recorded move
spoken too (more than a board says: the worst case), through espeak-ng into /dev/null: the
scan loop's rate must not change, the speech runs on its own thread and processes.

Run: ``.venv/bin/python bench/replay.py [--games N] [--plies N] [--voice]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# The rigs and the sloppy hands are the test suite's: run from anywhere, import them from the repo.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board_io.events import ButtonPressed, OccupancyChanged
from engine import Board
from firmware_host.feedback.texts import render
from firmware_host.i18n import ENGLISH
from firmware_host.store import open_store
from firmware_host.voice import Speaker, voice_listener
from tests.firmware_host.session_harness import ListStore, Rig, SimRig
from tests.firmware_host.sloppy_hands import Hands, replay, sloppy_events

HANDS = Hands(adjust=0.05, think_ms=(300, 2000))


def random_game(variant: str, plies: int, seed: int) -> list[tuple[Board, Any, list[Any]]]:
    """A random game as (position, move, hand events) per ply."""
    rng = random.Random(seed)
    board = Board(variant)
    game = []
    for _ in range(plies):
        if board.is_game_over():
            break
        move = rng.choice(list(board.generate_moves(paths=True)))
        game.append((board.copy(), move, sloppy_events(board, move, rng, HANDS)))
        board.push(move)
    return game


#: The voice of a ``--voice`` run (None: silent).
VOICE: list[Any] = []


def _to_null(command: Any) -> object:
    """Run espeak-ng as the board would, its sound into /dev/null (no audio device here)."""
    return subprocess.run([*command[:1], "--stdout", *command[1:]], check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _voiced(rig: Any) -> None:
    if not VOICE:
        return
    speaker = VOICE[0]
    rig.session.subscribe(voice_listener(speaker, ENGLISH))
    rig.session.subscribe(lambda e: speaker.say(str(render(e))) if e["event"] == "move" else None)


def through_pipeline(variant: str, game: list[tuple[Board, Any, list[Any]]],
                     store: Any = None) -> tuple[int, float]:
    """Replay on the simulated board; return (moves recorded, virtual seconds)."""
    rig = SimRig(variant, store=store)
    _voiced(rig)
    rig.run_for(100)
    for _, _, events in game:
        rig.hands(events)
        rig.run_for(rig.config.settle_ms + 60)
    return len(rig.store.load_game(rig.session.game_id).moves), rig.now


def direct(variant: str, game: list[tuple[Board, Any, list[Any]]]) -> int:
    """Feed the stable occupancies straight to the session; return moves recorded."""
    rig = Rig(variant, store=ListStore())
    for position, _, events in game:
        steps = list(replay(position.occupied_squares(), events))
        for i, (_, occupied, event) in enumerate(steps):
            rig.wait(event.dt_ms)
            if event.action == "adjust":
                rig.session.handle(ButtonPressed("adjust", rig.now))
                continue
            following = steps[i + 1][2].dt_ms if i + 1 < len(steps) else None
            if following is None or following > 10:  # bounce: what the debouncer removes
                rig.session.handle(OccupancyChanged(occupied, None, rig.now))
        rig.wait(rig.config.settle_ms + 60)
    return len(rig.moves())


def measure(variant: str, games: int, plies: int) -> None:
    played = [random_game(variant, plies, seed) for seed in range(games)]
    start = time.process_time()
    virtual = 0.0
    recorded = 0
    per_game = []
    for game in played:
        t0 = time.process_time()
        moves, seconds = through_pipeline(variant, game)
        per_game.append(time.process_time() - t0)
        recorded += moves
        virtual += seconds
    pipeline = time.process_time() - start
    start = time.process_time()
    redis_moves = sum(through_pipeline(variant, game, open_store("memory", f"bench{i}"))[0]
                      for i, game in enumerate(played))
    with_redis = time.process_time() - start
    start = time.process_time()
    direct_moves = sum(direct(variant, game) for game in played)
    floor = time.process_time() - start
    expected = sum(len(g) for g in played)
    ok = "ok" if recorded == expected == direct_moves == redis_moves else "MISMATCH"
    print(f"{variant:14} {games:5} {expected / games:6.1f} {games / pipeline:9.2f} "
          f"{statistics.median(per_game) * 1000:8.0f} {max(per_game) * 1000:8.0f} "
          f"{virtual / pipeline:10.0f} {games / with_redis:9.2f} {games / floor:9.2f} "
          f"{floor / pipeline:6.2f}  {ok}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--voice", action="store_true",
                        help="with the voice on (espeak-ng into /dev/null)")
    args = parser.parse_args()
    if args.voice:
        VOICE.append(Speaker("en", runner=_to_null))
    print(f"{'variant':14} {'games':>5} {'plies':>6} {'games/s':>9} {'med ms':>8} {'max ms':>8} "
          f"{'x realtime':>10} {'fakeredis':>9} {'direct/s':>9} {'ratio':>6}")
    for variant in ("english", "russian", "international", "canadian"):
        measure(variant, args.games, args.plies)
    print("games/s: whole pipeline (in-memory list store); med/max ms: CPU time per game;\n"
          "x realtime: virtual game time / CPU time; fakeredis: games/s with the service's\n"
          "`--store memory` (fakeredis: every event round-trips through a Redis emulation);\n"
          "direct/s: the peer, the session fed stable occupancies directly (no scanner);\n"
          "ratio: pipeline speed as a fraction of the peer's")
    if VOICE:
        VOICE[0].close()
        print(f"voice on: {VOICE[0].dropped} sentences dropped (the queue keeps the newest)")


if __name__ == "__main__":
    main()
