"""Crash test: the service is killed with SIGKILL mid-game and restarted; nothing is lost.

Each case plays a random game, carried out by sloppy hands on the scripted simulated board, through
``draughtsboard run`` with a real redis-server (AOF, ``appendfsync always``). The process is killed
after a random number of moves has been announced. Then:

- the store holds exactly the moves made before the kill (write-ahead: an announced move is stored);
- the PDN file is valid PDN and holds those moves (or all but the last, if the kill fell between
  the store write and the file write);
- a restart, with the board as the player left it, resumes the game, and the rest of the game
  ends in the same PDN as an uninterrupted run of the same game.

Kills: ``sample_size(ci=6, full=54)`` across variants.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import Board, Move
from engine.pdn import read_games
from tests.conftest import sample_size
from tests.firmware_host.recorded_runs import stored_moves, write_config
from tests.firmware_host.sloppy_hands import Hands, sloppy_events
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

VARIANTS = ("international", "russian", "english", "brazilian", "italian", "turkish")
HANDS = Hands(adjust=0.0, think_ms=(100, 400), pause_ms=(40, 200))
PLIES = 24
KILLS = sample_size(ci=6, full=54)


@dataclass
class Game:
    """A random game and the physical events that carry out each of its moves."""

    variant: str
    moves: list[Move]
    notation: list[str]
    scripts: list[list[str]]  # per move: "<dt> lift|place <square>" lines, dt relative

    def fen_after(self, plies: int) -> str:
        board = Board(self.variant)
        for move in self.moves[:plies]:
            board.push(move)
        return board.fen()


def random_game(variant: str, seed: int) -> Game:
    rng = random.Random(seed)
    board = Board(variant)
    name = board.variant.square_name
    moves, notation, scripts = [], [], []
    for _ in range(PLIES):
        if board.is_game_over():
            break
        move = rng.choice(list(board.generate_moves(paths=True)))
        lines = []
        for event in sloppy_events(board, move, rng, HANDS):
            lines.append((event.dt_ms, f"{event.action} {name(event.square)}"))
        scripts.append([f"{dt} {text}" for dt, text in lines])
        notation.append(board.move_notation(move))
        moves.append(move)
        board.push(move)
    return Game(variant, moves, notation, scripts)


def write_script(game: Game, first: int, path: Path) -> None:
    """The events of moves ``first..`` with absolute times, as the scripted board reads them."""
    t, out = 500, []
    for lines in game.scripts[first:]:
        for line in lines:
            dt, text = line.split(" ", 1)
            t += int(dt)
            out.append(f"{t} {text}")
        t += 400
    path.write_text("\n".join(out) + "\n")


def start(config: Path, script: Path, fen: str | None) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(config),
            "--board", "sim", "--script", str(script), "--events", "json"]
    if fen is not None:
        args += ["--fen", fen]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def pdn_moves(games_dir: Path, board_id: str, game_id: str) -> list[str]:
    [game] = read_games((games_dir / f"{board_id}_{game_id}.pdn").read_text())
    return game.move_texts


def uninterrupted(tmp: Path, server: RedisServer, game: Game, tag: str) -> list[str]:
    config = write_config(tmp, server, f"ref-{tag}", game.variant)
    script = tmp / f"ref-{tag}.events"
    write_script(game, 0, script)
    process = start(config, script, None)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    game_id, moves = stored_moves(server, f"ref-{tag}")
    assert moves == game.notation
    return pdn_moves(tmp / "games", f"ref-{tag}", game_id)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> RedisServer:
    server = RedisServer(tmp_path_factory.mktemp("crash-redis"))
    server.start()
    yield server  # type: ignore[misc]
    server.stop()


@pytest.mark.parametrize("case", range(KILLS))
def test_sigkill_loses_nothing_and_resumes(tmp_path: Path, server: RedisServer,
                                           case: int) -> None:
    variant = VARIANTS[case % len(VARIANTS)]
    rng = random.Random(case)
    game = random_game(variant, seed=1000 + case)
    reference_pdn = uninterrupted(tmp_path, server, game, str(case))
    assert reference_pdn == game.notation

    board_id = f"crash-{case}"
    config = write_config(tmp_path, server, board_id, variant)
    script = tmp_path / "game.events"
    write_script(game, 0, script)
    kill_after = rng.randint(1, len(game.moves) - 1)
    process = start(config, script, None)
    announced = 0
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line)["event"] == "move":
            announced += 1
            if announced == kill_after:
                process.send_signal(signal.SIGKILL)
                break
    process.wait(timeout=30)
    process.stdout.close()
    process.stderr.close() if process.stderr else None

    game_id, stored = stored_moves(server, board_id)
    made = len(stored)
    assert made >= kill_after, "an announced move must already be in the store"
    assert stored == game.notation[:made]
    in_file = pdn_moves(tmp_path / "games", board_id, game_id)
    assert in_file in (game.notation[:made], game.notation[:made - 1])

    # The player may have finished one more move while the service was down: the restarted
    # service must read it from the board.
    on_board = made + (1 if made < len(game.moves) and rng.random() < 0.5 else 0)
    if on_board < len(game.moves):
        write_script(game, on_board, script)
    else:
        script.write_text("# nothing left to play\n")
    process = start(config, script, game.fen_after(on_board))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "resumed" in out
    resumed_id, final = stored_moves(server, board_id)
    assert resumed_id == game_id
    assert final == game.notation
    assert pdn_moves(tmp_path / "games", board_id, game_id) == reference_pdn
