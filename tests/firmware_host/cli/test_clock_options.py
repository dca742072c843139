"""``--time-control`` on ``run``, ``play`` and ``demo``: the game clock from the command line
(the clock itself: test_clock.py, test_session_clock.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main


def test_demo_plays_on_the_clock_given(tmp_path: Path) -> None:
    assert main(["demo", "--fast", "--moves", "2", "--variant", "international",
                 "--games-dir", str(tmp_path), "--time-control", "3+2"]) == 0
    (pdn,) = tmp_path.glob("*.pdn")
    text = pdn.read_text()
    assert '[TimeControl "180+2"]' in text and text.count("{[%clk 0:0") == 2


@pytest.mark.parametrize("command", ["run", "play", "demo"])
def test_a_time_control_that_is_not_one_is_one_clear_line(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["--fast"] if command == "demo" else []
    assert main([command, *extra, "--time-control", "3x2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "command line: clock.time_control = '3x2': '3x2' is not a time" in err
    assert "e.g. 3+2" in err
