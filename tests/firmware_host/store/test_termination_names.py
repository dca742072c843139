"""A game lost on time: ``time`` in events and records, ``time forfeit`` in the PDN tag, and
records written with the older name ``time_forfeit`` still read."""

from __future__ import annotations

from engine.outcome import Termination
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord, apply_op, encode_op


def _record(termination: str) -> GameRecord:
    return GameRecord("g1", "hall-1", {"White": "Ann", "Black": "Bob"}, "international",
                      None, "record", 0.0, result="0-2", termination=termination)


def test_the_pdn_tag_says_time_forfeit_as_pgn_and_pdn_do() -> None:
    text = render_game(_record("time"))
    assert '[Termination "time forfeit"]' in text
    assert '[Termination "resignation"]' in render_game(_record("resignation"))


def test_an_older_record_that_says_time_forfeit_reads_as_time() -> None:
    start = encode_op("start", 1, {"game_id": "g1", "board_id": "hall-1", "headers": {},
                                   "variant": "international", "start_fen": None,
                                   "mode": "record", "created": 0.0})
    game = apply_op(None, start, "test")
    game = apply_op(game, encode_op("finish", 2, {"result": "0-2",
                                                  "termination": "time_forfeit"}), "test")
    assert game.termination == "time"
    saved = {**_record("x").to_json(), "termination": "time_forfeit"}
    assert GameRecord.from_json(saved).termination == "time"
    assert '[Termination "time forfeit"]' in render_game(game)
    assert Termination("time_forfeit") is Termination.TIME_FORFEIT
    assert Termination.TIME_FORFEIT.value == "time"
