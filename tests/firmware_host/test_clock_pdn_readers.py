"""The PDN of a clocked game (TimeControl tag, ``{[%clk H:MM:SS]}`` after every move) is read by
the other draughts libraries clubs use: pydraughts (in this venv, the [test] extra) and
py-draughts (its own venv, as bench/match.py uses it: ``$DRAUGHTSBOARD_PY_DRAUGHTS`` names its
python; the test is skipped without it). Both keep every move and the result."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from engine import Board
from firmware_host.store.pdnrender import render_game
from tests.firmware_host.session_harness import Rig

MOVES = ("32-28", "19-23", "28x19", "14x23", "37-32", "10-14")


def clocked_game_pdn() -> tuple[str, str]:
    """A game of international draughts on a 1+2 clock that White loses on time; its PDN and
    the final position's FEN."""
    rig = Rig("international", time_control="1+2")
    for text in MOVES:
        rig.wait(2_000)
        rig.play(text)
    rig.wait(70_000)
    assert rig.last("result")["termination"] == "time"
    text = render_game(rig.game())
    # Every clock command whole on its line (the writer wraps at 80 columns).
    assert len(re.findall(r"\{\[%clk \d:\d\d:\d\d\]\}", text)) == len(MOVES)
    assert '[Result "0-2"]' in text
    return text, rig.session.board.fen()


def test_pydraughts_reads_every_move_and_the_result() -> None:
    pdn = pytest.importorskip("draughts.PDN")
    text, _ = clocked_game_pdn()
    games = pdn.PDNReader(pdn_text=text).games
    assert len(games) == 1
    assert games[0].moves == list(MOVES)
    assert games[0].game_ending == "0-2"
    assert games[0].tags["TimeControl"] == "60+2"


def test_py_draughts_replays_the_game(tmp_path: Path) -> None:
    python = os.environ.get("DRAUGHTSBOARD_PY_DRAUGHTS")
    if not python:
        pytest.skip("set DRAUGHTSBOARD_PY_DRAUGHTS to the python of a py-draughts venv")
    text, fen = clocked_game_pdn()
    (tmp_path / "game.pdn").write_text(text)
    script = ("import sys, draughts\n"
              "board = draughts.StandardBoard.from_pdn(open(sys.argv[1]).read())\n"
              "print(len(board._moves_stack), board.fen)\n")
    done = subprocess.run([python, "-c", script, str(tmp_path / "game.pdn")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    count, their_fen = done.stdout.split(maxsplit=1)
    assert int(count) == len(MOVES)
    found = re.search(r'"([^"]+)"', their_fen)
    assert found is not None, their_fen
    assert Board("international", fen=found.group(1)).fen() == fen
