"""Small value types, errors and clocks."""

from __future__ import annotations

import pytest

from board_io.clock import Clock, MonotonicClock, VirtualClock
from board_io.errors import (
    BoardIOError,
    ConfigError,
    LinkTimeout,
    MissingExtraError,
    ScriptError,
)
from board_io.types import Reading


def test_reading_occupied() -> None:
    assert [r.occupied for r in Reading] == [False, True, True, True, True, True]


def test_error_tree_and_messages() -> None:
    assert issubclass(LinkTimeout, TimeoutError) and issubclass(LinkTimeout, BoardIOError)
    error = MissingExtraError("max7219", "luma.led_matrix")
    assert str(error) == ("the 'max7219' backend needs the 'luma.led_matrix' package: "
                          "pip install 'draughtsboard[pi]'")
    assert isinstance(error, BoardIOError)
    assert ConfigError("a.b", "bad").key == "a.b" and str(ConfigError("a.b", "bad")) == "a.b: bad"
    assert isinstance(ScriptError(3, "x"), ValueError) and ScriptError(3, "x").line == 3


def test_clocks() -> None:
    clock = VirtualClock(1.0)
    clock.advance(0.5)
    clock.set(2.0)
    assert clock.monotonic() == 2.0
    with pytest.raises(ValueError):
        clock.advance(-0.1)
    with pytest.raises(ValueError):
        clock.set(1.0)
    real = MonotonicClock()
    assert isinstance(real, Clock) and isinstance(clock, Clock)
    assert real.monotonic() <= real.monotonic()
