"""The drills of the physical rules as scripted scenarios in virtual time: the simulated board,
scanner, controller and session; the drill's position set up by the lights (the ``setup``
command, the hand following the lights); then a right hand and a wrong one for each drill, the
verdict judged from what the scanner saw and said in the viewer's language."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from firmware_host.coach.drills import DRILLS, Drill, DrillWatch, Hand, Verdict, judge, said
from firmware_host.i18n import translator
from firmware_host.terms.commands import Command
from tests.firmware_host.session_harness import SimRig
from tests.firmware_host.set_up_hand import follow_set_up_lights


def follow_the_lights(rig: SimRig) -> None:
    """The hand follows the lights until the board says the position is set (once more than
    before)."""
    count = sum(e["event"] == "position_set" for e in rig.events)
    follow_set_up_lights(lambda: rig.session.frame, rig.board.lift, rig.board.place,
                         lambda: rig.run_for(60), steps=300,
                         until=lambda: sum(e["event"] == "position_set"
                                           for e in rig.events) > count)


def drilled(key: str) -> tuple[SimRig, list[Verdict]]:
    """A board at the start position, the drill's position set up by the lights."""
    drill = DRILLS[key]
    rig = SimRig(drill.variant)
    verdicts: list[Verdict] = []
    watch = DrillWatch(drill, verdicts.append)
    rig.controller.scanner = watch.poller(rig.controller.scanner)
    rig.session.subscribe(watch.listener())
    rig.run_for(100)
    rig.session.handle(Command("setup", rig.now, value=drill.fen))
    rig.run_for(100)
    follow_the_lights(rig)
    assert watch.hand is not None, "the position was not set"
    return rig, verdicts


def hand(rig: SimRig, steps: Iterable[str]) -> None:
    """``-28`` lifts the piece on 28, ``+22`` puts one there; then the board settles."""
    parse = rig.session.board.variant.parse_square
    for step in steps:
        if step.startswith("-"):
            rig.board.lift(parse(step[1:]))
        else:
            rig.board.place(parse(step[1:]))
        rig.run_for(150)
    rig.run_for(2000)


CASES = [  # (drill, a right hand, a wrong hand, what the wrong one is told)
    ("take-off-after", "-33 +22 -28", "-33 -28 +22", "28 came off before your piece landed"),
    ("majority", "-32 +12 -27 -17", "-32 +23 -28", "Take the most"),
    ("coup-turc", "-15 +36 -31 -32 -33", "-15 -33 -43 -32 -31 +36",
     "may not be jumped twice"),
    ("crowning-ends", "-12 +3 -8", "-12 -8 -14 +20", "does not go on as a king"),
    ("crowning-goes-on", "-b6 +h4 -c7 -f6", "-b6 -c7 +d8", "becomes a king at once"),
    ("touch-move", "-32 +28", "-31 +31 -32 +28", "touched the piece on 31"),
]


@pytest.mark.parametrize(("key", "right", "wrong", "told"), CASES)
def test_each_drill_with_a_right_and_a_wrong_hand(key: str, right: str, wrong: str,
                                                  told: str) -> None:
    rig, verdicts = drilled(key)
    hand(rig, right.split())
    assert [v.right for v in verdicts] == [True], [said(v) for v in verdicts]
    assert said(verdicts[0]).startswith("Right: ")
    rig, verdicts = drilled(key)
    hand(rig, wrong.split())
    assert [v.right for v in verdicts] == [False]
    assert told in said(verdicts[0])


def test_a_verdict_is_said_in_the_viewers_language() -> None:
    drill = DRILLS["take-off-after"]
    sq = drill.board().variant.parse_square
    start = drill.board().occupied_squares()
    frames = [start, start - {sq("33")}, start - {sq("33"), sq("28")},
              start - {sq("33"), sq("28")} | {sq("22")}]
    verdict = judge(drill, frames)
    russian = said(verdict, translator("ru"))
    assert russian != said(verdict) and "33x22" in russian and "28" in russian
    right = judge(drill, [frames[0], frames[1], frames[1] | {sq("22")}, frames[3]])
    assert right.right and said(right, translator("fr")) != said(right)


def test_a_board_that_shows_no_move_is_told_so() -> None:
    drill: Drill = DRILLS["touch-move"]
    start = drill.board().occupied_squares()
    seen = Hand(start)
    seen.saw(start - {drill.board().variant.parse_square("45")})
    assert said(judge(drill, seen.frames)).startswith("The board shows no move")
