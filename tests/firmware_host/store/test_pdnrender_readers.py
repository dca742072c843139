"""The PDN of a clocked game (TimeControl tag, ``{[%clk H:MM:SS]}`` after every move) is read by
the other draughts libraries clubs use: pydraughts (in this venv, the [test] extra) and
py-draughts (its own venv, as bench/match.py uses it: ``$DRAUGHTSBOARD_PY_DRAUGHTS`` names its
python; .ci/test sets it). Both keep every move and the result of a full-length game: 64 plies,
past move 10, where pydraughts 0.6.7 misread the second mover's number written after a
comment (``11. 32-28 {[%clk 0:09:50]} 11... 19-23``: it strips every later ``1.`` it finds)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from engine import Board
from firmware_host.store.pdnrender import render_game
from tests.firmware_host.session_harness import Rig

#: A legal game of 64 plies (drawn by a seeded choice of legal moves): captures, a king
#: (``23x5``, then ``5-28``, ``28x6``, ``6-50``), no end before its flag falls.
MOVES = (
    "34-29", "19-24", "31-26", "14-19", "35-30", "24x35", "33-28", "10-14", "39-33", "5-10",
    "28-23", "19x39", "44x33", "35x44", "50x39", "17-22", "37-31", "22-28", "33x22", "18x27",
    "31x22", "20-25", "36-31", "12-18", "32-28", "18x36", "26-21", "16x27", "38-33", "8-12",
    "43-38", "25-30", "48-43", "15-20", "28-22", "27x18", "45-40", "11-16", "39-34", "30x37",
    "41x32", "2-8", "29-24", "20x29", "33x24", "14-20", "24x15", "18-23", "47-42", "23-28",
    "32x23", "13-19", "23x5", "16-21", "5-28", "36-41", "46x37", "6-11", "28x6", "21-27",
    "6-50", "9-14", "49-43", "14-20")


def clocked_game_pdn() -> tuple[str, str]:
    """A game of international draughts on a 5+2 clock that White loses on time; its PDN and
    the final position's FEN."""
    rig = Rig("international", time_control="5+2")
    for text in MOVES:
        rig.wait(2_000)
        rig.play(text)
    rig.wait(400_000)
    assert rig.last("result")["termination"] == "time"
    text = render_game(rig.game())
    # Every clock command whole on its line (the writer wraps at 80 columns).
    assert len(re.findall(r"\{\[%clk \d:\d\d:\d\d\]\}", text)) == len(MOVES)
    assert '[Result "0-2"]' in text
    return text, rig.session.board.fen()


def py_draughts_replay(python: str, path: Path) -> tuple[int, str]:
    """How many moves py-draughts (``python``: its venv's) replays of the PDN game in
    ``path``, and the FEN it ends with."""
    script = ("import sys, draughts\n"
              "board = draughts.StandardBoard.from_pdn(open(sys.argv[1]).read())\n"
              "print(len(board._moves_stack), board.fen)\n")
    done = subprocess.run([python, "-c", script, str(path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    count, fen = done.stdout.split(maxsplit=1)
    return int(count), fen


def test_pydraughts_reads_every_move_and_the_result() -> None:
    pdn = pytest.importorskip("draughts.PDN")
    text, _ = clocked_game_pdn()
    games = pdn.PDNReader(pdn_text=text).games
    assert len(games) == 1
    assert games[0].moves == list(MOVES)
    assert games[0].game_ending == "0-2"
    assert games[0].tags["TimeControl"] == "300+2"


def test_py_draughts_replays_the_game(tmp_path: Path) -> None:
    python = os.environ.get("DRAUGHTSBOARD_PY_DRAUGHTS")
    if not python:
        pytest.skip("set DRAUGHTSBOARD_PY_DRAUGHTS to the python of a py-draughts venv")
    text, fen = clocked_game_pdn()
    (tmp_path / "game.pdn").write_text(text)
    count, their_fen = py_draughts_replay(python, tmp_path / "game.pdn")
    assert count == len(MOVES)
    found = re.search(r'"([^"]+)"', their_fen)
    assert found is not None, their_fen
    assert Board("international", fen=found.group(1)).fen() == fen
