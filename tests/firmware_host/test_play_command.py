"""``draughtsboard play``: typed commands drive the simulated board through the whole pipeline."""

from __future__ import annotations

import io
import subprocess
import sys

from firmware_host.config.loader import Config
from firmware_host.tools.terminal import PlayOptions, play


def run_play(lines: str, **settings: object) -> str:
    game = {"variant": "english", "mode": "play", "human_side": "black"}
    game.update({k: v for k, v in settings.items() if k in ("variant", "mode", "human_side")})
    config = Config.from_mapping({"game": game, "store": {"url": "memory"}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=bool(settings.get("auto", True)),
                          colour=False, virtual_time=True)
    assert play(options, stdin=io.StringIO(lines), out=out) == 0
    return out.getvalue()


def test_typed_moves_are_played_and_the_reply_carried_out() -> None:
    text = run_play("11-15\nquit\n")
    assert "1. 11-15" in text
    assert "the computer plays" in text
    pdn = text.rsplit("[GameId", 1)[1]
    assert "1. 11-15 " in pdn and pdn.strip().endswith("*")


def test_lift_and_place_by_hand() -> None:
    text = run_play("lift 11\nplace 15\nquit\n", auto=False)
    assert "1. 11-15" in text
    assert "carry it out on the board" in text


def test_bad_input_is_explained_and_the_game_goes_on() -> None:
    text = run_play("11-19\nlift 5\nplace 5\nbanana\n11-15\nquit\n")
    assert "illegal move" in text.lower() or "not a move" in text.lower()
    assert "1. 11-15" in text


def test_record_mode_takes_both_sides() -> None:
    text = run_play("11-15\n23-19\nresign\nquit\n", mode="record")
    assert "1... 23-19" in text
    assert "game over: 1-0 (resignation)" in text


def test_command_line_entry() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "play", "--variant", "russian",
         "--side", "white", "--virtual-time", "--no-colour"],
        input="c3-d4\nquit\n", capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "1. c3-d4" in done.stdout


def test_a_bad_fen_gives_one_clear_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "play", "--fen", "nonsense",
         "--virtual-time"], input="quit\n", capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 2
    assert "FEN" in done.stderr and "Traceback" not in done.stderr
