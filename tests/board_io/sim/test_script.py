"""Script times: ASCII digits only, and bounded, so a bad line is one clear error, never a hang."""

from __future__ import annotations

import pytest

from board_io.errors import ScriptError
from board_io.geometry import dark_squares
from board_io.sim.script import MAX_TIME_MS, parse_script


@pytest.mark.parametrize("token", ["²", "1²", "٣", "１"])
def test_a_time_in_other_digits_is_a_script_error(token: str) -> None:
    with pytest.raises(ScriptError, match=r"line 2: time .* is not a whole number"):
        parse_script(f"0 lift 32\n{token} place 28\n", dark_squares(10))


def test_a_time_past_a_day_is_refused_not_played_for_ever() -> None:
    with pytest.raises(ScriptError, match=r"line 1: time 99999999999999 ms is after"):
        parse_script("99999999999999 lift 32\n", dark_squares(10))
    [event] = parse_script(f"{MAX_TIME_MS} lift 32\n", dark_squares(10))
    assert event.time_ms == MAX_TIME_MS
