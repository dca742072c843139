"""The clock button: on a board that has one, the player who just moved presses it to switch
the clock; pressed when it is not the mover's to press, it does nothing and says why. Without
one, the move let go switches the clock (tests/firmware_host/game/test_session_clock.py)."""

from __future__ import annotations

import logging
from contextlib import ExitStack

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware_host.app.service import Wiring, build_service
from firmware_host.config.loader import Config
from tests.firmware_host.session_harness import Rig

#: One move of the rig: lift (0.1 s), place (0.1 s), let go after settle_ms (0.3 s).
MOVE_S = 0.5


def with_button(control: str = "3+2") -> Rig:
    return Rig("international", time_control=control, clock_button=True)


def test_a_move_let_go_leaves_the_movers_time_running_until_the_button() -> None:
    rig = with_button()
    rig.wait(10_000)
    rig.play("32-28")
    move = rig.last("move")
    assert (move["clock_white"], move["clock_black"]) == (180 - 10 - MOVE_S, 180)
    assert rig.last("clock")["running"] == "white"  # White has not pressed yet
    rig.wait(1_900)
    rig.press("clock")                             # 2 s after letting go, +2
    clock = rig.last("clock")
    assert (clock["running"], clock["clock_white"], clock["clock_black"]) == (
        "black", 180 - 10 - MOVE_S - 2 + 2, 180)
    rig.wait(30_000)
    assert rig.last("clock")["running"] == "black"


def test_the_button_pressed_when_it_is_not_the_movers_does_nothing_and_says_why(
        caplog: pytest.LogCaptureFixture) -> None:
    rig = with_button()
    caplog.set_level(logging.INFO, logger="firmware_host.game.timekeeper")
    rig.wait(5_000)
    rig.press("clock")                             # White has not moved: not White's to press
    refused = rig.last("command_refused")
    assert (refused["command"], refused["reason"]) == ("clock", "not_your_turn")
    assert "the side whose time runs has not moved yet" in caplog.text
    clock = rig.last("clock")
    assert (clock["running"], clock["clock_white"]) == ("white", 180)  # (no new clock event)
    rig.play("32-28")
    rig.press("clock")
    rig.press("clock")                             # pressed twice: Black has not moved
    assert rig.last("command_refused")["reason"] == "not_your_turn"
    assert rig.last("clock")["running"] == "black"


def test_without_a_clock_the_button_is_refused() -> None:
    rig = Rig("international", clock_button=True)
    rig.press("clock")
    assert rig.last("command_refused")["reason"] == "no_clock"


def test_a_mover_who_never_presses_loses_on_time() -> None:
    rig = with_button("1")
    rig.play("32-28")                              # White never presses
    rig.wait(60_000)
    result = rig.last("result")
    assert (result["termination"], result["winner"]) == ("time", "black")


def test_the_service_has_the_clock_button_only_when_the_board_has_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = {"board": {"sensors": "sim"}, "store": {"url": "memory"},
                "clock": {"time_control": "3+2"}}
    with ExitStack() as stack:  # the simulated board's buttons: no clock button
        service = build_service(Config.from_mapping(settings), stack, Wiring(virtual_time=True))
        assert service.session.config.clock_button is False
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    settings |= {"buttons": {"clock_pin": 26}}
    settings["board"] = {"sensors": "sim", "buttons": "gpio"}
    with ExitStack() as stack:
        service = build_service(Config.from_mapping(settings), stack, Wiring(virtual_time=True))
        assert service.session.config.clock_button is True
    factory.reset()
