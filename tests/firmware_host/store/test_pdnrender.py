"""The PDN a rated game needs: the local date and time the game began (the round's start when
the arbiter started it), the draw rule named in ``Termination``, the players' facts from the
pairing program as tags, an arbiter's time award as a comment."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from engine.pdn import read_games
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import (
    GameRecord,
    MoveRecord,
    RecordError,
    apply_amendment,
    apply_op,
    arbiter_op,
    encode_op,
)

#: 2026-12-02 18:50:00 UTC: the board was set up; 20:01:42 in Amsterdam the game began.
SET_UP = 1796237400.0


@pytest.fixture
def amsterdam(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Europe/Amsterdam")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def game(headers: dict[str, str], moves: list[MoveRecord]) -> GameRecord:
    return GameRecord("20261202-185000-ab12", "hall-1", headers, "international", None,
                      "record", SET_UP, moves)


def tags(record: GameRecord) -> dict[str, str]:
    return read_games(render_game(record))[0].headers


def test_the_date_and_time_are_local_and_when_the_game_began(amsterdam: None) -> None:
    # White's first move let go 19:02:10 UTC with 5402 s left on a 5400+30 clock: its clock
    # ran 28 s, so the game began at 19:01:42 UTC. The board was set up 12 minutes before.
    first = MoveRecord(1, "32-28", "B:W28,31-50:B1-20", SET_UP + 730.0, clock_white=5402.0,
                       clock_black=5400.0)
    found = tags(game({"TimeControl": "5400+30"}, [first]))
    assert (found["Date"], found["Time"]) == ("2026.12.02", "20:01:42")
    # Started by the arbiter: the round's start, as the start gave it, stays.
    started = tags(game({"TimeControl": "5400+30", "Date": "2026.12.02", "Time": "20:00:00"},
                        [first]))
    assert (started["Date"], started["Time"]) == ("2026.12.02", "20:00:00")
    assert tags(game({}, []))["Time"] == "19:50:00"  # no move yet: when it was set up


def test_a_draw_by_a_counting_rule_names_the_rule() -> None:
    fen = "W:WK46,K50:BK5"
    texts = ["46-28", "5x32", "50-33", "32-14", "33-29", "14-9", "29-33", "9-3", "33-42",
             "3-26", "42-29", "26-17"]
    moves = [MoveRecord(ply, text, "", 0.0) for ply, text in enumerate(texts, start=1)]
    record = GameRecord("g", "hall-1", {}, "international", fen, "record", SET_UP, moves,
                        result="1-1", termination="draw_rule")
    assert tags(record)["Termination"] == "fmjd-5-moves"


def test_the_pairing_programs_facts_and_an_award_are_in_the_pdn() -> None:
    start = encode_op("start", 1, {
        "game_id": "g", "board_id": "hall-1", "variant": "international", "start_fen": None,
        "mode": "record", "created": SET_UP,
        "headers": {"White": "Hop, Hanna", "Black": "Smit, Ann", "WhiteRating": "1850",
                    "BlackRating": "2210", "WhiteFederation": "SUR", "BlackTitle": "GMI",
                    "BlackFmjdId": "16000001", "Site": "Utrecht NED"}})
    record = apply_op(None, start, "test")
    move = MoveRecord(1, "32-28", "B:W28", 0.0).to_json()
    record = apply_op(record, encode_op("move", 2, dict(move)), "test")
    record = apply_amendment(record, arbiter_op("note", {"ply": 1, "text": "arbiter: +60 s for "
                                                         "Black (disturbed)"}), "test")
    text = render_game(record)
    found = read_games(text)[0]
    assert {k: found.headers[k] for k in ("WhiteRating", "BlackRating", "WhiteFederation",
                                          "BlackTitle", "BlackFmjdId", "Site")} == {
        "WhiteRating": "1850", "BlackRating": "2210", "WhiteFederation": "SUR",
        "BlackTitle": "GMI", "BlackFmjdId": "16000001", "Site": "Utrecht NED"}
    assert found.comments == {1: ["arbiter: +60 s for Black (disturbed)"]}


def test_an_amendment_other_than_the_arbiters_names_or_note_is_not_applied() -> None:
    start = encode_op("start", 1, {"game_id": "g", "board_id": "hall-1", "headers": {},
                                   "variant": "international", "start_fen": None,
                                   "mode": "record", "created": SET_UP})
    record = apply_op(None, start, "test")
    forged = [{**encode_op("move", 2, dict(MoveRecord(1, "32-28", "B", 0.0).to_json())),
               "by": "arbiter"},
              {**encode_op("finish", 2, {"result": "2-0"}), "by": "arbiter"},
              arbiter_op("headers", {"Result": "2-0"}),
              {"op": "note", "data": '{"ply": 0, "text": "not the arbiter"}'}]
    for fields in forged:
        with pytest.raises(RecordError):
            apply_amendment(record, fields, "test")
    assert record.moves == [] and record.result == "*" and record.notes == []
