"""bench/rereferee.py: stored games re-refereed under the current rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.rereferee import main, rereferee
from engine.search import Searcher

ISSUE_GAME = {"fen": "W:WK35:B24,K46", "opening": "", "white": "draughtsboard 1 s",
              "black": "peer", "result": "1/2-1/2", "reason": "fmjd-5-moves",
              "moves": ["35x13", "46-41", "13-4", "41-37", "4-15", "37-32", "15-4", "32-28",
                        "4-18", "28-23"]}


def test_a_draw_counted_one_ply_early_is_played_out() -> None:
    # White to move takes Black's last piece: 18x29.
    assert rereferee(ISSUE_GAME, Searcher("international"), depth=2) == ("1-0", "no_moves", 1, 0)


def test_a_game_the_rules_still_end_keeps_its_result() -> None:
    game = {**ISSUE_GAME, "moves": [*ISSUE_GAME["moves"], "18x29"], "result": "1-0",
            "reason": "no_moves"}
    assert rereferee(game, Searcher("international")) == ("1-0", "no_moves", 0, 0)
    capped = {**ISSUE_GAME, "reason": "ply cap 10"}
    assert rereferee(capped, Searcher("international")) == ("1/2-1/2", "ply cap 10", 0, 0)


def test_main_prints_both_tallies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.json"
    black = {**ISSUE_GAME, "white": "peer", "black": "draughtsboard 1 s"}
    path.write_text(json.dumps({"variant": "international", "games": [ISSUE_GAME, black]}))
    assert main([str(path), "--depth", "2"]) == 0
    out = capsys.readouterr().out
    # As stored: two draws; re-refereed: White wins both, once ours, once the peer's.
    assert "as stored +0 =2 -0" in out and "re-refereed +1 =0 -1" in out
    assert "game 1: 1/2-1/2 (fmjd-5-moves) -> 1-0 (no_moves, 1 plies more)" in out


def test_a_play_out_the_engine_chose_is_unsettled_and_tallied_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two kings each, drawn by an old count one move early: the play-out is the engine's
    # choice for both sides, so the game is not settled by the record.
    game = {"fen": "W:WK46,K50:BK1,K5", "opening": "", "white": "draughtsboard 1 s",
            "black": "peer", "result": "1/2-1/2", "reason": "an older rule", "moves": []}
    _result, _reason, played, chosen = rereferee(game, Searcher("international"), depth=2)
    assert played >= 1 and chosen >= 1
    path = tmp_path / "games.json"
    path.write_text(json.dumps({"variant": "international", "games": [ISSUE_GAME, game]}))
    assert main([str(path), "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 unsettled, the settled games +1 =0 -0" in out
    assert ", the engine chose" in out and ": unsettled)" in out


def test_main_refuses_a_file_that_is_not_a_games_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.json"
    path.write_text("[1, 2]")
    assert main([str(path)]) == 2
    assert "not a games file" in capsys.readouterr().err
