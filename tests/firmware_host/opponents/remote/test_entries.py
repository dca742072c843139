"""What a board reads of its partner's stream is checked before it is played."""

from __future__ import annotations

import pytest

from firmware_host.opponents.remote.entries import (
    END,
    Agreed,
    Asked,
    Ended,
    Entry,
    Offered,
    Played,
    Started,
    decode,
    encode,
)


@pytest.mark.parametrize("entry", [
    Started(3, "club-a", "club-b", "international", "20261206-120000-ab12"),
    Played(3, 17, "28x19", "B:W19,31-50:B1-18,20", None),
    Played(3, 17, "28x19", "B:W19,31-50:B1-18,20", 12.5, line=2),
    Offered(3, 17), Offered(3, 17, line=1),
    Asked(3, 18, 16), Asked(3, 18, 16, line=4),
    Agreed(3, 1, 16),
    Ended(3, "0-2", "resignation", "White resigned"),
])
def test_an_entry_reads_back_as_written(entry: Entry) -> None:
    assert decode(*encode(entry)) == entry


def test_a_game_s_entries_are_in_the_order_they_happen() -> None:
    """Redis keeps a stream in id order and refuses an id not above the last: a move, the
    draw offered after it, a takeback asked, the takeback agreed, the move played again."""
    happened = [Started(1, "a", "b", "international", "g"), Played(1, 1, "32-28", "W"),
                Offered(1, 1), Played(1, 3, "28-23", "W"), Asked(1, 4, 2),
                Agreed(1, 1, 2), Played(1, 3, "33-28", "W", line=1), Ended(1, "1-1", "x")]
    seqs = [int(entry.stream_id().split("-")[1]) for entry in happened]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


@pytest.mark.parametrize(("entry_id", "fields", "said"), [
    ("1-12", {"kind": "start", "white": "a", "black": "b", "variant": "x", "local": "g"},
     "no entry of a duel"),                                # a start not at seq 0
    (f"1-{END}", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "no entry"),
    ("1-4", {"kind": "move", "pdn": "32-28", "fen": "W", "left": "-5"}, "not a time left"),
    ("1-4", {"kind": "move", "pdn": "32-28", "fen": "W", "left": "soon"}, "not a number"),
    ("1-4", {"kind": "move", "pdn": "x" * 300, "fen": "W", "left": ""}, "at most 200"),
    ("1-4", {"kind": "move", "pdn": "32-28\x1b[2J", "fen": "W", "left": ""}, "at most 200"),
    ("1-5", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "no entry"),  # a slot
    ("0-4", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "1.."),
    ("1", {"kind": "move", "pdn": "32-28", "fen": "W", "left": ""}, "no entry"),
    ("1-4", {"kind": "offer"}, "no entry"),                # an offer in a move's slot
    ("1-18", {"kind": "ask", "to": "4"}, "from 0 to 3"),   # back to after the game's end
    ("1-10000", {"kind": "back", "ply": "-1"}, "whole number"),
    ("1-4", {"kind": "back", "ply": "1"}, "no entry"),     # a takeback in line 0
])
def test_an_entry_that_is_none_is_refused_with_why(entry_id: str, fields: dict[str, str],
                                                   said: str) -> None:
    with pytest.raises(ValueError, match=said):
        decode(entry_id, fields)
