"""PDN files when the games directory is full, read-only or gone: logged once, never fatal,
and the file is complete once the directory takes writes again (even if the game has ended)."""

from __future__ import annotations

import contextlib
import logging
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_host.store.pdnfiles import PdnFiles
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord, MoveRecord

pytestmark = pytest.mark.logs_errors


def game(plies: int, game_id: str = "g1", result: str = "*") -> GameRecord:
    pdns = ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]
    record = GameRecord(game_id, "board1", {"Event": "Club"}, "international", None, "record",
                        1_796_000_000.0, result=result)
    record.moves = [MoveRecord(n, pdns[n - 1], "", 0.0) for n in range(1, plies + 1)]
    return record


def test_a_full_games_directory(small_disk: Path, caplog: pytest.LogCaptureFixture) -> None:
    files = PdnFiles(small_disk / "games", render_game)
    assert files.write(game(1)) is not None
    filler = small_disk / "filler"
    with contextlib.suppress(OSError), open(filler, "wb") as file:
        while True:
            file.write(b"x" * 1024)
            file.flush()
    for plies in range(2, 7):
        assert files.write(game(plies)) is None
    assert caplog.text.count("cannot write") == 1
    finished = game(7, result="1-0")
    files.write(finished)  # the last move and the result, while the disk is still full
    filler.unlink()
    assert files.retry() and files.pending == 0
    text = files.path_for(finished).read_text(encoding="utf-8")
    assert "37x28" in text and text.rstrip().endswith("1-0")
    assert not list((small_disk / "games").glob(".*.tmp"))  # no temporary file left behind


def test_a_read_only_games_directory(small_disk: Path, caplog: pytest.LogCaptureFixture) -> None:
    files = PdnFiles(small_disk, render_game)
    files.write(game(1))
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        assert files.write(game(2)) is None
        assert files.write(game(3, "g2")) is None
        assert files.pending == 2
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    with caplog.at_level(logging.WARNING):
        assert files.write(game(4, "g3")) is not None
    assert files.pending == 0 and "writable again" in caplog.text
    assert "19-23" in files.path_for(game(2)).read_text(encoding="utf-8")
    assert files.path_for(game(3, "g2")).exists()


def test_a_games_directory_that_is_removed(tmp_path: Path) -> None:
    files = PdnFiles(tmp_path / "games", render_game)
    files.write(game(1))
    shutil.rmtree(tmp_path / "games")
    path = files.write(game(2))
    assert path is not None and "19-23" in path.read_text(encoding="utf-8")
    blocker = tmp_path / "blocked"
    blocker.write_text("", encoding="utf-8")
    stuck = PdnFiles(blocker / "games", render_game)  # a file where the directory should be
    assert stuck.write(game(1)) is None and stuck.pending == 1
    blocker.unlink()
    assert stuck.retry()
