"""The ``gpio`` button backend on gpiozero's MockFactory: pressing a mock pin posts an event."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from board_io.buttons.gpio import GpioButtons
from board_io.clock import VirtualClock
from board_io.errors import ConfigError
from board_io.events import ButtonPressed
from board_io.geometry import dark_squares
from board_io.registry import BackendContext


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_press_posts_button_pressed(factory: MockFactory) -> None:
    clock = VirtualClock(7.0)
    events: queue.Queue[ButtonPressed] = queue.Queue()
    with GpioButtons({"hint": 5, "takeback": 6}, clock=clock, bounce_ms=0,
                     pin_factory=factory) as buttons:
        buttons.when_pressed = events.put
        assert buttons.available == {"hint", "takeback"}
        pin = factory.pin(6)
        pin.drive_low()  # pressed: the button shorts the pulled-up pin to ground
        assert events.get(timeout=5) == ButtonPressed("takeback", 7.0)
        pin.drive_high()  # released: nothing
        clock.advance(1.0)
        factory.pin(5).drive_low()
        assert events.get(timeout=5) == ButtonPressed("hint", 8.0)
        assert events.empty()


def test_presses_wait_for_drain_without_handler(factory: MockFactory) -> None:
    with GpioButtons({"done": 13}, clock=VirtualClock(), pull_up=False,
                     bounce_ms=0, pin_factory=factory) as buttons:
        pin = factory.pin(13)
        pin.drive_high()  # pulled down: pressing connects to 3.3 V
        pin.drive_low()
        pin.drive_high()
        assert [e.button for e in buttons.drain()] == ["done", "done"]
        assert buttons.drain() == []


def test_close_releases_pins_and_stops_events(factory: MockFactory) -> None:
    buttons = GpioButtons({"hint": 5}, clock=VirtualClock(), pin_factory=factory)
    buttons.close()
    buttons.close()
    factory.pin(5).drive_low()
    assert buttons.drain() == []
    GpioButtons({"hint": 5}, clock=VirtualClock(), pin_factory=factory).close()


def test_from_config(factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", factory)
    config = {"buttons.adjust_pin": 20, "buttons.newgame_pin": 21, "buttons.hint_pin": -1}
    names = ("adjust", "hint", "newgame", "done")
    with BackendContext(dark_squares(8), VirtualClock(), buttons=names) as context, \
            GpioButtons.from_config(config, context) as buttons:
        assert buttons.available == {"adjust", "newgame"}
        factory.pin(21).drive_low()
        assert [e.button for e in buttons.drain()] == ["newgame"]


def test_the_clock_button_from_buttons_clock_pin(factory: MockFactory,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", factory)
    with BackendContext(dark_squares(8), VirtualClock(3.0), buttons=("hint", "clock")) as context, \
            GpioButtons.from_config({"buttons.clock_pin": 26}, context) as buttons:
        assert buttons.available == {"clock"}
        factory.pin(26).drive_low()
        assert buttons.drain() == [ButtonPressed("clock", 3.0)]


@pytest.mark.parametrize(
    ("pins", "words"),
    [
        ({}, "no button pins given"),
        ({"hint": 5, "done": 5}, "buttons.done_pin: pin 5 is also given as "
                                                   "buttons.hint_pin"),
        ({"hint": 64}, "buttons.hint_pin: pin 64 does not exist"),
    ],
)
def test_bad_pins(factory: MockFactory, pins: dict[str, int], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        GpioButtons(pins, clock=VirtualClock(), pin_factory=factory)
