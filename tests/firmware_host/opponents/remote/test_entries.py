"""What a board reads of its partner's stream is checked before it is played."""

from __future__ import annotations

import pytest

from firmware_host.opponents.remote.entries import END, Ended, Played, Started, decode, encode


@pytest.mark.parametrize("entry", [
    Started(3, "club-a", "club-b", "international", "20261206-120000-ab12"),
    Played(3, 17, "28x19", "B:W19,31-50:B1-18,20", None),
    Ended(3, "0-2", "resignation", "White resigned"),
])
def test_an_entry_reads_back_as_written(entry: Started | Played | Ended) -> None:
    assert decode(*encode(entry)) == entry


@pytest.mark.parametrize(("entry_id", "fields", "said"), [
    ("1-3", {"kind": "start", "white": "a", "black": "b", "variant": "x", "local": "g"},
     "no entry of a duel"),                                # a start not at seq 0
    (f"1-{END}", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "no entry"),
    ("1-1", {"kind": "move", "pdn": "32-28", "fen": "W", "left": "-5"}, "not a time left"),
    ("1-1", {"kind": "move", "pdn": "32-28", "fen": "W", "left": "soon"}, "not a number"),
    ("1-1", {"kind": "move", "pdn": "x" * 300, "fen": "W", "left": ""}, "at most 200"),
    ("1-1", {"kind": "move", "pdn": "32-28\x1b[2J", "fen": "W", "left": ""}, "at most 200"),
    ("0-1", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "1.."),
    ("1", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "no entry"),
])
def test_an_entry_that_is_none_is_refused_with_why(entry_id: str, fields: dict[str, str],
                                                   said: str) -> None:
    with pytest.raises(ValueError, match=said):
        decode(entry_id, fields)
