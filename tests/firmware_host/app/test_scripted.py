"""The scripted-run contract, end to end: ``draughtsboard run --board sim --script ...``.

A script of a real game carried out by sloppy hands (bounce, intermediate landings, captured
pieces removed in random order, adjusts) is played by the command in a subprocess; its JSON
events and the PDN file it writes must hold exactly that game.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Board
from engine.pdn import read_games
from tests.firmware_host.sloppy_hands import Hands, sloppy_events

HANDS = Hands(adjust=0.1, think_ms=(200, 800), pause_ms=(60, 400))


def write_script(variant: str, plies: int, seed: int, path: Path) -> Board:
    """Write a script of a random game of ``plies`` moves; return the game played."""
    rng = random.Random(seed)
    game = Board(variant)
    name = game.variant.square_name
    lines = ["# a random game carried out by sloppy hands"]
    t = 0
    for _ in range(plies):
        if game.is_game_over():
            break
        move = rng.choice(list(game.generate_moves(paths=True)))
        for event in sloppy_events(game, move, rng, HANDS):
            t += event.dt_ms
            if event.action == "adjust":
                lines.append(f"{t} press adjust")
            else:
                lines.append(f"{t} {event.action} {name(event.square)}")
        t += 400  # the player takes their hand away; the opponent thinks
        game.push(move)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "run", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


@pytest.mark.parametrize(("variant", "numeric"), [
    ("english", True), ("russian", False), ("international", True), ("brazilian", False),
])
def test_scripted_record_run_prints_moves_and_writes_the_pdn(
    tmp_path: Path, variant: str, numeric: bool
) -> None:
    script = tmp_path / "game.txt"
    game = write_script(variant, 30, seed=7, path=script)
    games_dir = tmp_path / "games"
    done = run_cli("--board", "sim", "--script", str(script), "--mode", "record",
                   "--variant", variant, "--store", "memory", "--games-dir", str(games_dir),
                   "--events", "json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    moves = [e for e in events if e["event"] == "move"]
    replay = Board(variant)
    name = replay.variant.square_name

    def expect(sq: int) -> int | str:
        return int(name(sq)) if numeric else name(sq)

    for ply, (event, move) in enumerate(zip(moves, game.move_stack, strict=True), start=1):
        assert event["ply"] == ply
        assert event["pdn"] == replay.move_notation(move)
        assert event["from"] == expect(move.origin)
        assert event["to"] == expect(move.destination)
        assert event["captures"] == [expect(sq) for sq in move.captures]
        replay.push(move)
    (pdn_file,) = games_dir.glob("*.pdn")
    (pdn,) = read_games(pdn_file.read_text(encoding="utf-8"))
    assert [m.key() for m in pdn.moves] == [m.key() for m in game.move_stack]


def test_bad_script_gives_one_clear_error(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("0 lift 99\n", encoding="utf-8")
    done = run_cli("--board", "sim", "--script", str(script), "--variant", "english",
                   "--store", "memory", "--games-dir", str(tmp_path))
    assert done.returncode == 2
    assert "99" in done.stderr
    assert "Traceback" not in done.stderr


def test_unknown_variant_gives_one_clear_error(tmp_path: Path) -> None:
    script = tmp_path / "empty.txt"
    script.write_text("", encoding="utf-8")
    done = run_cli("--board", "sim", "--script", str(script), "--variant", "chess",
                   "--store", "memory", "--games-dir", str(tmp_path))
    assert done.returncode == 2
    assert "chess" in done.stderr and "Traceback" not in done.stderr


def test_without_events_json_a_scripted_run_prints_what_happens(tmp_path: Path) -> None:
    # Issue 24: "run --script prints nothing".
    script = tmp_path / "game.events"
    script.write_text("500 lift 22\n700 place 18\n1000 lift 18\n1100 place 22\n"
                      "3000 lift 11\n3200 place 15\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "run", "--sensors", "sim", "--leds", "sim",
         "--store", "memory", "--games-dir", str(tmp_path), "--script", str(script),
         "--mode", "record", "--variant", "english"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "new game (english, record mode)"
    assert "1. 11-15" in lines
