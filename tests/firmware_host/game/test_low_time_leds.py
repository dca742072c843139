"""Under a minute on the clock: the side to move's home-row corner blinks slowly (the ``clock``
role), only on a frame nothing else lights; never without a time control."""

from __future__ import annotations

from board_io.serial import messages as msg
from board_io.types import Led, Pattern
from firmware_host.feedback.roles import Role
from tests.firmware_host.session_harness import Rig


def test_the_corner_of_the_side_to_move_blinks_once_it_has_under_a_minute() -> None:
    rig = Rig("international", time_control="3")
    rig.wait(119_000)
    assert Role.CLOCK not in {led for led in rig.session.frame.values()}
    rig.wait(1_100)                                 # 179.? s gone: White has under a minute
    assert rig.lit() == {"46": "clock"}             # White's left-hand corner, nothing else
    assert rig.session.frame[45].pattern is Pattern.SLOW
    assert rig.last("clock")["low"] == "white"
    rig.play("32-28")                               # Black to move, three minutes left
    assert rig.leds(Role.CLOCK) == set()
    rig.wait(120_500)
    assert rig.lit() == {"5": "clock"}              # Black's left-hand corner
    assert rig.last("clock")["low"] == "black"      # (said when Black came to 60.0 s)


def test_it_never_hides_a_correction_and_comes_back_after_it() -> None:
    rig = Rig("international", time_control="1")   # a minute: low from the start
    assert rig.lit() == {"46": "clock"}
    rig.place("25", "26")                           # two pieces too many: a wrong board
    rig.wait(rig.config.error_ms + 100)
    assert rig.leds(Role.EXTRA) == {"25", "26"} and rig.leds(Role.CLOCK) == set()
    rig.lift("25", "26")
    rig.wait(500)
    assert rig.lit() == {"46": "clock"}


def test_no_clock_no_corner_and_a_finished_game_shows_its_result() -> None:
    rig = Rig("international")
    rig.wait(600_000)
    assert rig.lit() == {}
    timed = Rig("international", time_control="1")
    timed.play("32-28")
    timed.wait(61_000)                              # Black's flag fell
    assert timed.last("result")["termination"] == "time"
    assert timed.leds(Role.CLOCK) == set() and timed.leds(Role.RESULT)


def test_a_serial_board_shows_it_in_the_adjust_colour_blinking() -> None:
    assert Role.CLOCK.led == Led(Pattern.SLOW, Role.ADJUST.led.colour)
    for version in (1, 2):  # older firmware: the palette's blue, at a quarter
        assert msg.Leds(1, 1, (Role.CLOCK.led,)).wire(version)[0] == msg.LEDS
        body = msg.Leds(1, 1, (Role.CLOCK.led,)).wire(version)[1]
        assert body[2] == 10 << 2 | msg.PATTERN_CODES[Pattern.SLOW]
