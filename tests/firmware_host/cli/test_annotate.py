"""``draughtsboard annotate``: a PDN file in, the same games annotated out, read by the other
libraries clubs use: pydraughts (this venv, the [test] extra) and py-draughts (its own venv,
``$DRAUGHTSBOARD_PY_DRAUGHTS``, set by .ci/test), on full games to their end."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from engine import Board
from engine.analysis import evaluations
from engine.pdn import read_games, write_board
from engine.selfplay import play_game
from firmware_host.cli import main

#: Full games, played to their end by two weak levels (so they have marks to write):
#: variant -> seed; and py-draughts' board class of each.
FULL_GAMES = {"international": 2, "russian": 0, "english": 0}
PY_DRAUGHTS_BOARDS = {"international": "StandardBoard", "russian": "RussianBoard",
                      "english": "AmericanBoard"}


def annotated_full_game(variant: str, folder: Path) -> tuple[Board, Path]:
    board = play_game(variant, FULL_GAMES[variant], (3, 4))
    assert board.outcome() is not None  # played to its end
    source, out = folder / "game.pdn", folder / "annotated.pdn"
    source.write_text(write_board(board, {"Event": "Club night"}))
    assert main(["annotate", str(source), "-o", str(out), "--depth", "2", "--quiet"]) == 0
    return board, out


@pytest.mark.parametrize("variant", sorted(FULL_GAMES))
def test_an_annotated_full_game_has_an_eval_after_every_move(variant: str,
                                                             tmp_path: Path) -> None:
    board, out = annotated_full_game(variant, tmp_path)
    [game] = read_games(out.read_text())
    assert game.moves == board.move_stack
    assert sorted(evaluations(game.comments)) == list(range(1, board.ply + 1))
    assert game.annotations and game.variations  # weak levels: marks and better lines
    assert game.headers["Event"] == "Club night"
    assert game.headers["Annotator"] == "draughtsboard, depth 2"
    assert game.result == write_board(board).split()[-1]


@pytest.mark.parametrize("variant", sorted(FULL_GAMES))
def test_pydraughts_reads_an_annotated_full_game(variant: str, tmp_path: Path) -> None:
    pdn = pytest.importorskip("draughts.PDN")
    board, out = annotated_full_game(variant, tmp_path)
    ours = read_games(out.read_text())[0]
    [theirs] = pdn.PDNReader(filename=str(out)).games
    assert theirs.moves == ours.move_texts
    assert theirs.game_ending == ours.result
    assert theirs.tags["Annotator"] == "draughtsboard, depth 2"
    from draughts import Board as PyBoard
    from draughts import Move as PyMove

    py = PyBoard(variant={"international": "standard"}.get(variant, variant))
    for text in theirs.moves:
        py.push(PyMove(py, pdn_move=text.replace(":", "x")))
    assert len(py.move_stack) == board.ply


@pytest.mark.parametrize("variant", sorted(PY_DRAUGHTS_BOARDS))
def test_py_draughts_replays_an_annotated_full_game(variant: str, tmp_path: Path) -> None:
    python = os.environ.get("DRAUGHTSBOARD_PY_DRAUGHTS")
    if not python:
        pytest.skip("set DRAUGHTSBOARD_PY_DRAUGHTS to the python of a py-draughts venv")
    board, out = annotated_full_game(variant, tmp_path)
    if variant == "english":
        # py-draughts 1.10.1's AmericanBoard starts with the men on 21-32 to move, where
        # English rules (and the GameType 21 the file names) have Black, on 1-12, move first:
        # it reads the game once told the start position, as its user would tell it.
        text = out.read_text()
        out.write_text(f'[FEN "{board.root().fen()}"]\n{text}')
    script = ("import sys, draughts\n"
              f"board = draughts.{PY_DRAUGHTS_BOARDS[variant]}.from_pdn(open(sys.argv[1]).read())\n"
              "print(len(board._moves_stack), board.fen)\n")
    done = subprocess.run([python, "-c", script, str(out)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    count, fen = done.stdout.split(maxsplit=1)
    assert int(count) == board.ply
    found = re.search(r'"([^"]+)"', fen)
    their_fen = found.group(1) if found else fen.strip()
    assert Board(variant, fen=their_fen).fen() == board.fen()


def test_every_game_of_a_file_is_annotated(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "two.pdn"
    source.write_text('[White "Ann"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 *\n\n'
                      '[White "Bob"]\n[GameType "21"]\n\n1. 11-15 {[%clk 0:05:00]} 23-19 *\n')
    assert main(["annotate", str(source), "--depth", "1"]) == 0
    out, err = capsys.readouterr()
    games = read_games(out)
    assert [g.headers["White"] for g in games] == ["Ann", "Bob"]
    assert [len(evaluations(g.comments)) for g in games] == [2, 2]
    assert games[1].comments[1][0] == "[%clk 0:05:00]"  # the game's own comments stay
    assert "game 1/2: 2 moves; Ann " in err and "game 2/2: 2 moves; Bob " in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere.pdn"], "No such file"),
        (["bad.pdn"], "illegal"),
        (["empty.pdn"], "no game in"),
        (["good.pdn", "--depth", "0"], "--depth must be 1 or more"),
        (["good.pdn", "--movetime", "nan"], "--movetime must be more than 0"),
        (["good.pdn", "-o", "no/such/folder/out.pdn"], "No such file"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.pdn").write_text('[GameType "20"]\n1. 32-26 *\n')
    (tmp_path / "empty.pdn").write_text("\n")
    (tmp_path / "good.pdn").write_text('[GameType "20"]\n1. 32-28 *\n')
    monkeypatch.chdir(tmp_path)
    assert main(["annotate", *args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard annotate: ") and message in err
    assert err.count("\n") == 1
