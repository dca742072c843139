"""Fault campaign in real time: the production service is SIGKILLed at random moments of games
played on the wall clock, and restarted with the board as the player left it.

Each game is a random game carried out by sloppy hands, played by ``draughtsboard run --board sim
--script FILE --realtime`` (the service's own threads, a real redis-server with ``appendfsync
always``, the spool). The player prints every physical event before doing it; the test kills the
process after a random number of them — wherever the service then is: mid-move, mid-write, in
the settle time — and restarts it with the board as it stands (``--occupied``) and the events
still to come. In the end the store must hold every move of the game exactly once, in order,
and the PDN file the same.

Games: ``sample_size(ci=2, full=24)``, each killed ``KILLS_PER_GAME`` (3) times.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import Board
from engine.pdn import read_games
from tests.conftest import sample_size
from tests.firmware_host.recorded_runs import stored_moves, write_config
from tests.firmware_host.sloppy_hands import BRISK, SETTLE_GAP_MS, sloppy_events
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

VARIANTS = ("international", "russian", "english")
PLIES = 10
GAMES = sample_size(ci=2, full=24)
KILLS_PER_GAME = 3


@dataclass(frozen=True)
class Played:
    """A random game: its moves as PDN and the physical events that carry them out."""

    variant: str
    notation: list[str]
    events: list[tuple[int, str, int]]  # (absolute ms, lift|place, square index)


def random_game(variant: str, seed: int) -> Played:
    rng = random.Random(seed)
    board = Board(variant)
    notation: list[str] = []
    events: list[tuple[int, str, int]] = []
    t = 300
    for _ in range(PLIES):
        if board.is_game_over():
            break
        move = rng.choice(list(board.generate_moves(paths=True)))
        for event in sloppy_events(board, move, rng, BRISK):
            t += event.dt_ms
            assert event.square is not None
            events.append((t, event.action, event.square))
        t += SETTLE_GAP_MS  # the move settles before the next hand comes
        notation.append(board.move_notation(move))
        board.push(move)
    return Played(variant, notation, events)


def write_script(game: Played, first: int, path: Path) -> None:
    """Events ``first..`` of ``game``, their times from 300 ms on (line N = event first+N-1)."""
    name = Board(game.variant).variant.square_name
    rest = game.events[first:]
    base = rest[0][0] - 300 if rest else 0
    path.write_text("".join(f"{t - base} {action} {name(square)}\n"
                            for t, action, square in rest))


def occupied_after(game: Played, done: int) -> list[str]:
    occupied = set(Board(game.variant).occupied_squares())
    for _, action, square in game.events[:done]:
        (occupied.discard if action == "lift" else occupied.add)(square)
    name = Board(game.variant).variant.square_name
    return [name(square) for square in sorted(occupied)]


def start(config: Path, script: Path, occupied: list[str] | None) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(config),
            "--board", "sim", "--script", str(script), "--realtime", "--events", "json"]
    if occupied is not None:
        args += ["--occupied", ",".join(occupied)]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("realtime-redis"))
    server.start()
    yield server
    server.stop()


@pytest.mark.parametrize("case", range(GAMES))
def test_kills_on_the_wall_clock_lose_and_repeat_nothing(tmp_path: Path, server: RedisServer,
                                                         case: int) -> None:
    variant = VARIANTS[case % len(VARIANTS)]
    rng = random.Random(case)
    game = random_game(variant, seed=2000 + case)
    board_id = f"realtime-{case}"
    config = write_config(tmp_path, server, board_id, variant)
    script = tmp_path / "game.events"
    kills = sorted(rng.sample(range(1, len(game.events)), KILLS_PER_GAME))
    done = 0  # physical events done on the board (the player announced them)
    occupied: list[str] | None = None
    for kill_at in [*kills, None]:
        write_script(game, done, script)
        process = start(config, script, occupied)
        assert process.stdout is not None
        for line in process.stdout:
            event = json.loads(line)
            if event["event"] == "script":
                done_now = done + int(event["line"])
                if kill_at is not None and done_now >= kill_at:
                    process.send_signal(signal.SIGKILL)
                    done = done_now
                    break
        else:
            done = len(game.events)
        _, err = process.communicate(timeout=60)
        if kill_at is None:
            assert process.returncode == 0, err
        occupied = occupied_after(game, done)
    assert done == len(game.events)
    game_id, moves = stored_moves(server, board_id)
    assert moves == game.notation
    [pdn] = read_games((tmp_path / "games" / f"{board_id}_{game_id}.pdn").read_text())
    assert pdn.move_texts == game.notation
