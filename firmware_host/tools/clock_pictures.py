"""The clock display's pictures in the docs: the running, low-time, flag and paused states,
drawn by luma's own emulator on an OLED and on a 7-segment module.

``python -m firmware_host.tools.clock_pictures docs`` writes ``docs/clock-<display>-<state>.png``;
``tests/board_io/display/test_clock_display.py`` draws them again and compares, so the pictures stay
those of the code. Needs luma.emulator (the ``[test]`` extra, with pygame).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from board_io.display.base import Display, Face
from board_io.display.oled import HEIGHT, WIDTH, Oled
from board_io.display.seven_segment import SevenSegment
from engine.types import Color
from firmware_host.feedback.clockface import clock_face
from firmware_host.game.clock import GameClock
from firmware_host.terms.timecontrol import parse_time_control

__all__ = ["DISPLAYS", "STATES", "draw", "faces"]

#: The states pictured: a moment of a 90+30 game in each.
STATES = ("running", "low-time", "flag", "paused")


def _state(name: str) -> tuple[GameClock, float, bool, Color | None]:
    """A clock in state ``name``: (clock, the moment, held, the side whose flag fell)."""
    clock = GameClock(parse_time_control("90+30"))
    clock.start(Color.WHITE, at=0.0)
    clock.press(at=1520.3)                       # White's move after 25 min
    if name == "running":
        return clock, 1520.3 + 754.0, False, None  # Black thinking for 12 min
    clock.add(Color.BLACK, -(clock.left(Color.BLACK, 1520.3) - 75.0), at=1520.3)
    if name == "low-time":
        return clock, 1520.3 + 29.7, False, None  # Black under a minute
    if name == "flag":
        clock.stop(at=1520.3 + 75.0)
        return clock, 1520.3 + 75.0, False, Color.BLACK
    clock.pause(at=1520.3 + 20.0)                 # the hall's pause
    return clock, 1520.3 + 20.0, True, None


def faces(width: int) -> Iterator[tuple[str, Face]]:
    """Each state's face on halves of ``width`` characters (the mark shown)."""
    for name in STATES:
        clock, at, held, flag = _state(name)
        yield name, clock_face(clock, at, width=width, held=held, flag=flag)


def _oled(path: Path) -> Display:
    from luma.emulator.device import capture

    device = capture(width=WIDTH, height=HEIGHT, mode="1", transform="scale2x", scale=2,
                     file_template=str(path))
    return Oled(device=device, threaded=False)


def _seven_segment(path: Path) -> Display:
    from luma.emulator.device import capture

    device = capture(width=8, height=8, mode="1", transform="seven_segment", scale=2,
                     file_template=str(path))
    return SevenSegment(device=device, threaded=False)


#: The displays pictured: name -> how to open it writing its frame to a path.
DISPLAYS: dict[str, Callable[[Path], Display]] = {"oled": _oled, "7seg": _seven_segment}


def draw(directory: Path) -> list[Path]:
    """Draw every state on every display into ``directory``; return the pictures."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    written = []
    for display_name, opened in DISPLAYS.items():
        for state, face in faces(4 if display_name == "7seg" else 7):
            path = directory / f"clock-{display_name}-{state}.png"
            with tempfile.TemporaryDirectory() as scratch:
                frame = Path(scratch) / "frame.png"
                display: Any = opened(frame)
                with display:
                    display.show(face)
                path.write_bytes(frame.read_bytes())
            written.append(path)
    return written


def main(argv: list[str]) -> int:
    """``python -m firmware_host.tools.clock_pictures DIR``."""
    if len(argv) != 1:
        print("usage: python -m firmware_host.tools.clock_pictures DIR", file=sys.stderr)
        return 2
    for path in draw(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
