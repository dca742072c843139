"""bench/match.py --peer ponder at the smallest size: level 10 as the board runs it, pondering
against not, a short game each way, counted by the match's own tally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.match import main, tally_games


def test_the_ponder_match_plays_and_counts(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ponder.json"
    assert main(["--peer", "ponder", "--movetime", "0.02", "--games", "2", "--max-plies", "16",
                 "--no-pydraughts", "--out", str(out), "--commit", "f00d"]) == 0
    printed = capsys.readouterr().out
    assert "level 10 pondering v not, 0.02 s CPU:" in printed
    assert "moves answered after a ponder hit" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    ours = "draughtsboard level 10 pondering 0.02 s"
    assert {g["white"] for g in data["games"]} == {ours, "level 10 without pondering 0.02 s"}
    assert data["players"][ours]["ponder"] is True
    # The machine's state beside the games: its cores, its load at the start and after each.
    assert data["cores"] >= 1 and data["load_at_start"] >= 0
    assert all(isinstance(g["load"], float | int) and g["load"] >= 0 for g in data["games"])
    ((pair, tally),) = tally_games(data["games"]).items()
    assert pair == (ours, "level 10 without pondering 0.02 s") and tally.games == 2


def test_our_side_as_the_board_runs_it_against_a_peer(tmp_path: Path) -> None:
    """``--ours board``: against Scan and TurboEngine our side is level 10 in its own process
    behind the engine worker, pondering (as the board plays); the default is the search in
    this process, as before."""
    import argparse

    from bench.match import _settings
    from bench.players import EnginePlayer, WorkerPlayer

    for ours, kind in (("board", WorkerPlayer), ("search", EnginePlayer)):
        args = argparse.Namespace(
            movetime=0.05, pi_factor=None, variant="international", seed=1, ours=ours,
            clock="engine", turbo_movetime=None, turbo_python=str(tmp_path / "python"),
            stderr_log=None)
        (setting,) = _settings(args, "turbo")
        player = setting.ours()
        try:
            assert isinstance(player, kind) and player.name.startswith("draughtsboard")
            if isinstance(player, WorkerPlayer):
                assert player.ponder is True
        finally:
            player.close()


def test_ours_board_refuses_another_clock(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--peer", "turbo", "--ours", "board", "--clock", "thread"])
    assert stop.value.code == 2 and "--ours board" in capsys.readouterr().err
