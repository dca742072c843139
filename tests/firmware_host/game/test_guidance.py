"""The tournament profile: in record mode during a round (``board.guidance = "auto"``), or
with ``board.guidance = "off"``, no light guides a move (no destinations, no piece that must
capture); the correction, result and clock lights stay."""

from __future__ import annotations

import fakeredis

from firmware_host.feedback.texts import render, said_everywhere
from firmware_host.store import RedisStore
from firmware_host.tournament.pairing import PairingSource, read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.session_harness import Rig

#: White to move must capture 28x19 (a man of Black on 23, White's on 28).
CAPTURE = "W:W28,38:B23,12"


def quiet_move(rig: Rig) -> None:
    """White plays 38-33 although 28 must capture: refused once let go."""
    rig.lift("38")
    rig.place("33")
    rig.wait(3_000)
    assert rig.last("refused")["reason"] == "capture_compulsory"


def test_guidance_off_shows_no_destination_nor_must_capture_but_the_correction() -> None:
    rig = Rig("international", fen=CAPTURE, guidance="off", touch_move="strict")
    rig.lift("28")                               # touched: its destinations are not shown
    assert rig.session.obligation == rig.sq("28")
    assert rig.leds_of("legal") == set() and rig.leds_of("to") == set()
    assert rig.leds_of("remove") == set()
    rig.place("28")
    quiet = Rig("international", fen=CAPTURE, guidance="off")
    quiet_move(quiet)
    assert quiet.leds_of("must") == set()        # not which piece must capture ...
    assert quiet.leds_of("missing") == {"38"} and quiet.leds_of("extra") == {"33"}  # but what


def test_a_rated_games_refusal_names_the_rule_not_the_move() -> None:
    """Issue 38: with guidance off the lights were quiet, but the board still said (and the
    phone and the voice too) "a capture is compulsory: 28x19": the move an arbiter may not
    give away."""
    quiet = Rig("international", fen=CAPTURE, guidance="off", language="fr")
    quiet.lift("28")                             # the man that must capture, moved quietly
    quiet.place("22")
    quiet.wait(3_000)
    refused = quiet.last("refused")
    assert refused["reason"] == "capture_compulsory"
    assert not {"capture", "pdn", "count"} & refused.keys()
    assert refused["text"] == "coup illégal : la prise est obligatoire"
    assert render(refused) == "illegal move: a capture is compulsory"
    assert said_everywhere(refused)["ru"] == "ход невозможен: бить обязательно"
    most = Rig("international", fen="W:W33:B28,18,29,5", guidance="off")
    most.lift("33")                              # takes one man where two must go
    most.lift("29")
    most.place("24")
    most.wait(3_000)
    assert most.last("refused")["text"] == "illegal move: you must take the maximum"
    guided = Rig("international", fen=CAPTURE, guidance="on")
    quiet_move(guided)
    assert guided.last("refused")["text"] == "a capture is compulsory: 28x19"


def test_guidance_on_shows_them_as_before() -> None:
    rig = Rig("international", fen=CAPTURE, guidance="on", touch_move="strict")
    rig.lift("28")
    assert rig.leds_of("to") == {"19"} and rig.leds_of("remove") == {"23"}
    quiet = Rig("international", fen=CAPTURE, guidance="on")
    quiet_move(quiet)
    assert quiet.leds_of("must") == {"28"}


def test_record_mode_in_a_round_turns_guidance_off_by_itself() -> None:
    """Issue 38: "in tournament (record) mode the lights show every lifted piece's
    destinations and blink the piece that must capture"."""
    client = fakeredis.FakeRedis()
    pairings, _ = read_pairings("board,white,black,round,event\n"
                                "hall-1,Ann Smit,Bob de Vries,3,Club night\n")
    import_round(client, pairings, "test")
    rig = Rig("international", store=RedisStore(client, "hall-1", name="test"), start=False,
              touch_move="strict")
    rig.session.game.pairing = PairingSource(client, "hall-1")
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)
    rig.play("32-28")                            # the game takes its round: rated
    rig.play("19-23")
    rig.lift("37")                               # refused: 28 must capture 23
    rig.place("32")
    rig.wait(3_000)
    assert rig.last("refused")["reason"] == "capture_compulsory"
    assert rig.leds_of("must") == set()
    assert rig.leds_of("missing") == {"37"} and rig.leds_of("extra") == {"32"}
    rig.lift("32")
    rig.place("37")
    rig.lift("28")                               # White touches the man that must capture
    assert rig.session.obligation == rig.sq("28")
    assert rig.leds_of("legal") == set() and rig.leds_of("to") == set()
