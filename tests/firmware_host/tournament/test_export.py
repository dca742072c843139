"""The round's export (tournament/export.py): the decisions report."""

from __future__ import annotations

import csv
import io

import fakeredis

from firmware_host.store.keys import AUDIT
from firmware_host.tournament.export import decisions_csv
from firmware_host.tournament.pairing import read_pairings
from firmware_host.tournament.rounds import audit_entry, import_round, load_round
from firmware_host.web.arbiter_words import audit_words

ROUND_3 = ("board,white,black,round,event\n"
           "hall-1,Ann Smit,Bob de Vries,3,Club night\n")


def test_the_decisions_report_says_what_each_board_answered_beside_its_decision() -> None:
    """Issue 38: the boards' answers are entries of the log of their own; the report listed
    them as decisions ("hall-1: answer") and its decisions without them."""
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_3)[0], "round import by eva", now=1000.0)
    stored = load_round(client, "3")
    client.rpush(AUDIT, audit_entry("Eva Kok", "add_time", "hall-1", "disturbed", 1100.0,
                                    side="black", seconds=60.0))
    decision = client.llen(AUDIT) - 1
    client.rpush(AUDIT, audit_entry("Eva Kok", "hold", "hall-1", "a claim", 1150.0))
    client.rpush(AUDIT, audit_entry("Eva Kok", "answer", "hall-1", "", 1101.0,
                                    of=str(decision), answers={"hall-1": {
                                        "answer": "refused", "reason": "game_over"}}))
    rows = list(csv.DictReader(io.StringIO(decisions_csv(client, stored, audit_words))))
    assert [(r["action"], r["what"]) for r in rows] == [
        ("import", "round 3 Club night imported"),
        ("add_time", "hall-1: +60 s for Black: refused by the board: game_over"),
        ("hold", "hall-1: clock held")]   # (its answer not logged: none said)


def test_the_decisions_report_has_the_hall_pauses_that_held_the_rounds_boards() -> None:
    """Issue 38's evening: the fire alarm's pause and resume held every board of the round,
    yet the round's decisions report left them out (their board is ``*``)."""
    client = fakeredis.FakeRedis()
    import_round(client, read_pairings(ROUND_3)[0], "round import by eva", now=1000.0)
    stored = load_round(client, "3")
    client.rpush(AUDIT, audit_entry("Eva Kok", "pause_all", "*", "fire alarm", 1100.0,
                                    boards=["hall-1", "hall-9"]))
    client.rpush(AUDIT, audit_entry("Eva Kok", "pause_all", "*", "the other hall", 1200.0,
                                    boards=["hall-9"]))
    rows = list(csv.DictReader(io.StringIO(decisions_csv(client, stored, audit_words))))
    assert [(r["action"], r["reason"]) for r in rows] == [("import", ""),
                                                          ("pause_all", "fire alarm")]
