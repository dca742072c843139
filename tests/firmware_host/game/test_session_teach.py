"""Teach mode: legal destinations of a lifted piece, pieces that must capture, explanations."""

from __future__ import annotations

from engine.types import Color
from firmware_host.feedback.roles import Role
from firmware_host.feedback.texts import render
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def teach_rig(computer: list[str], fen: str | None = None, **settings: object) -> Rig:
    settings.setdefault("human_side", Color.BLACK)
    return Rig("english", mode=Mode.TEACH, fen=fen, computer=computer, **settings)


def test_a_lifted_piece_shows_where_it_may_go() -> None:
    rig = teach_rig([])
    rig.lift("11")
    assert rig.leds(Role.LEGAL) == {"15", "16"}
    rig.place("11")  # touch-move is off in teach mode: another piece may be chosen
    rig.lift("9")
    assert rig.leds(Role.LEGAL) == {"13", "14"}


def test_play_mode_does_not_show_destinations() -> None:
    rig = Rig("english", mode=Mode.PLAY, human_side=Color.BLACK)
    rig.lift("11")
    assert rig.leds(Role.LEGAL) == set()


def test_pieces_that_must_capture_blink_at_the_start_of_the_turn() -> None:
    rig = teach_rig(["23-19"], fen="B:W18,23,30:B14,15,1")
    assert rig.state == "human_to_move"
    assert rig.leds(Role.MUST) == {"15"}  # 14 cannot jump 18: 23 is occupied


def test_a_refused_move_is_explained_in_one_line() -> None:
    rig = teach_rig([], fen="B:W18,30:B14,1")
    rig.lift("1")
    rig.place("6")
    rig.wait(rig.config.settle_ms + 10)
    assert render(rig.last("refused")) == "a capture is compulsory: 14x23"
    assert rig.leds(Role.MUST) == {"14"}


def test_hints_are_available() -> None:
    rig = teach_rig(["10-14"])
    rig.press("hint")
    assert rig.last("hint")["pdn"] == "10-14"
    assert rig.leds(Role.HINT) == {"10", "14"}
