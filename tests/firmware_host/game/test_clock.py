"""The pure game clock: time controls, the arithmetic of a game's times, flag fall, saving."""

from __future__ import annotations

import pytest

from engine.types import Color
from firmware_host.game.clock import GameClock
from firmware_host.terms.timecontrol import TimeControlError, clk, parse_time_control

WHITE, BLACK = Color.WHITE, Color.BLACK


@pytest.mark.parametrize(("text", "pdn"), [
    ("3+2", "180+2"),
    ("5", "300"),
    ("90+30", "5400+30"),
    ("80+1", "4800+1"),          # M+S: one second a move
    ("80+1m", "4800+60"),        # the FMJD classical: one minute a move
    ("1h20m+1m", "4800+60"),
    ("0.5+1", "30+1"),
    ("40/90+30:30+30", "40/5400+30:1800+30"),
    ("40/120", "40/7200"),
    # The FMJD competition rules' rates of play (annex 3, 6.1): 2 hours for 50 moves, then
    # an hour for each 25 moves; 1 h 30 for 40 moves, then 1 hour to the end.
    ("50/2h:25/1h", "50/7200:25/3600"),
    ("40/1h30m:1h", "40/5400:3600"),
    (" 3 + 2 ", "180+2"),
])
def test_time_controls_are_read_and_written_in_seconds(text: str, pdn: str) -> None:
    assert parse_time_control(text).pdn() == pdn


@pytest.mark.parametrize(("text", "words"), [
    ("", "expected minutes"),
    ("fast", "is not a time"),
    ("3+two", "is not a time"),
    ("0+0", "gives no time"),
    ("0+2", "starts with no time"),
    ("90:40/30", "only the last period"),
    ("0/90", "number of moves"),
    ("2000", "more than a day"),
    ("1h20+5", "mixes numbers"),
])
def test_bad_time_controls_get_one_clear_message(text: str, words: str) -> None:
    with pytest.raises(TimeControlError, match=words):
        parse_time_control(text)


def test_fischer_increment_to_the_second() -> None:
    clock = GameClock(parse_time_control("3+2"))
    clock.start(WHITE, 0.0)
    assert clock.press(12.25) is WHITE          # 180 - 12.25 + 2
    assert clock.left(WHITE, 20.0) == 169.75
    assert clock.press(20.0) is BLACK           # 180 - 7.75 + 2
    assert clock.left(BLACK, 20.0) == 174.25
    assert (clk(clock.left(WHITE, 20.0)), clk(clock.left(BLACK, 20.0))) == ("0:02:49", "0:02:54")


def test_flag_falls_at_the_deadline_with_and_without_increment() -> None:
    plain = GameClock(parse_time_control("1"))
    plain.start(WHITE, 5.0)
    assert plain.deadline() == 65.0
    assert plain.flagged(64.9) is None and plain.flagged(65.0) is WHITE
    assert plain.press(65.0) is None  # too late: the move does not stop a fallen flag

    fischer = GameClock(parse_time_control("1+10"))
    fischer.start(WHITE, 0.0)
    fischer.press(30.0)                          # White 40 s, Black runs from 30 s
    assert fischer.deadline() == 90.0
    assert fischer.flagged(90.0) is BLACK


def test_fixed_moves_period_adds_the_next_period_after_its_last_move() -> None:
    clock = GameClock(parse_time_control("2/1:1"))
    clock.start(WHITE, 0.0)
    for at in (10.0, 20.0, 30.0, 40.0):          # W at 10 and 30, B at 20 and 40
        clock.press(at)
    assert clock.left(WHITE, 40.0) == 60 - 20 + 60
    assert clock.left(BLACK, 40.0) == 60 - 20 + 60
    clock.press(50.0)                            # White's third move: no new period
    assert clock.left(WHITE, 50.0) == 90.0


def test_the_fmjd_preferred_rate_gives_an_hour_after_the_50th_and_every_25th_move() -> None:
    control = parse_time_control("50/2h:25/1h")
    assert [control.bonus_after(n) for n in (49, 50, 51, 74, 75, 100)] == [
        0, 3600, 0, 0, 3600, 3600]


def test_repeating_fixed_moves_period() -> None:
    clock = GameClock(parse_time_control("1/1"))
    clock.start(WHITE, 0.0)
    clock.press(50.0)                            # every move completes a period
    assert clock.left(WHITE, 50.0) == 70.0


def test_pause_holds_both_times_and_resume_goes_on() -> None:
    clock = GameClock(parse_time_control("5"))
    clock.start(WHITE, 0.0)
    assert clock.pause(100.0) and not clock.pause(101.0)
    assert clock.deadline() is None and clock.flagged(10_000.0) is None
    assert clock.resume(1000.0)
    assert clock.left(WHITE, 1010.0) == 190.0


def test_saved_clock_runs_again_from_the_restart_downtime_to_nobody() -> None:
    clock = GameClock(parse_time_control("3+2"))
    clock.start(WHITE, 0.0)
    clock.press(10.0)
    saved = clock.to_data(25.0)                  # Black has used 15 s
    again = GameClock.from_data(saved, at=3.0)   # a new process: its own time
    assert again.running is BLACK and again.moves(WHITE) == 1
    assert (again.left(WHITE, 3.0), again.left(BLACK, 3.0)) == (172.0, 165.0)
    assert again.left(BLACK, 8.0) == 160.0


@pytest.mark.parametrize("broken", [
    {}, {"control": "3+2", "white": -1, "black": 10},
    {"control": "nonsense", "white": 1, "black": 1},
    {"control": "3+2", "white": True, "black": 1},
    {"control": "3+2", "white": 1, "black": 1, "moves": "x"},
])
def test_a_malformed_saved_clock_is_refused(broken: dict[str, object]) -> None:
    with pytest.raises(TimeControlError):
        GameClock.from_data(broken, at=0.0)


@pytest.mark.parametrize(("seconds", "text"), [
    (0.0, "0:00:00"), (59.999, "0:00:59"), (60.0, "0:01:00"), (3599.5, "0:59:59"),
    (4800.0, "1:20:00"), (36_000.0, "10:00:00"),
])
def test_clk_shows_whole_seconds_rounded_down(seconds: float, text: str) -> None:
    assert clk(seconds) == text
