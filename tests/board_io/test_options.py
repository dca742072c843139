"""Declared options: validation, defaults, the one reader, and the one ConfigError."""

from __future__ import annotations

import pytest

from board_io.errors import ConfigError
from board_io.options import Option, read
from board_io.schema import CELL_MAP, LED_BRIGHTNESS, OPTIONS, SIM_DEAD_ROWS, STUCK_MS

PINS: Option[list[int]] = Option("x.pins", "list[int]", [], "Pins.", minimum=0, maximum=53)
TOKEN = Option("x.url", "str", "memory", "A URL.", secret=True,
               check=lambda v: "must not be empty" if not v else None)


def test_missing_key_takes_the_declared_default_as_a_fresh_copy() -> None:
    assert read({}, STUCK_MS) == 3000
    first = read({}, PINS)
    first.append(5)
    assert read({}, PINS) == [] and PINS.default == []


def test_integers_become_floats_and_lists_are_checked_entry_by_entry() -> None:
    assert read({"leds.brightness": 1}, LED_BRIGHTNESS) == 1.0
    assert isinstance(read({"leds.brightness": 1}, LED_BRIGHTNESS), float)
    assert read({"x.pins": (5, 6)}, PINS) == [5, 6]
    for value, key, words in (([5, 54], "x.pins[1]", "x.pins[1] = 54 is above 53"),
                              ([5, True], "x.pins[1]", "x.pins[1] must be an integer, not True"),
                              ("5,6", "x.pins", "x.pins must be a list of integers, not '5,6'")):
        with pytest.raises(ConfigError) as info:
            read({"x.pins": value}, PINS)
        assert info.value.key == key and str(info.value) == words


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_numbers_are_refused(value: float) -> None:
    with pytest.raises(ConfigError, match=r"leds\.brightness must be a finite number"):
        read({"leds.brightness": value}, LED_BRIGHTNESS)


def test_booleans_are_not_numbers_and_numbers_not_booleans() -> None:
    with pytest.raises(ConfigError, match=r"timing\.stuck_ms must be an integer, not True"):
        read({"timing.stuck_ms": True}, STUCK_MS)
    rgb = Option("board.rgb", "bool", False, "Colours.")
    with pytest.raises(ConfigError, match=r"board\.rgb must be true or false, not 'yes'"):
        read({"board.rgb": "yes"}, rgb)


def test_a_secret_is_never_shown_and_check_adds_its_words() -> None:
    with pytest.raises(ConfigError) as info:
        read({"x.url": 42}, TOKEN)
    assert str(info.value) == "x.url must be a string, not ***"
    with pytest.raises(ConfigError, match=r"^x\.url must not be empty$"):
        read({"x.url": ""}, TOKEN)


def test_allowed_in_words() -> None:
    assert (STUCK_MS.allowed(), CELL_MAP.allowed(), SIM_DEAD_ROWS.allowed()) == \
        ("100..600000", "0 or more", "0..11")
    assert Option("a.b", "int", 0, "x", choices=(0, 90)).allowed() == "one of: 0, 90"


def test_every_board_io_key_is_declared_once() -> None:
    paths = [option.path for option in OPTIONS]
    assert len(paths) == len(set(paths))


def test_config_error_forms() -> None:
    keyed = ConfigError("timing.stuck_ms", "must be 100..600000")
    assert (keyed.key, str(keyed)) == ("timing.stuck_ms", "timing.stuck_ms: must be 100..600000")
    in_file = keyed.in_file("board.toml")
    assert (in_file.key, in_file.source, str(in_file)) == (
        "timing.stuck_ms", "board.toml", "board.toml: timing.stuck_ms: must be 100..600000")
    assert in_file.in_file("other.toml") is in_file
    plain = ConfigError("board.toml: no such configuration file")
    assert plain.key is None and str(plain.in_file("x")) == "x: board.toml: no such " \
                                                            "configuration file"
