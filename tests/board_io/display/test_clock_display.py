"""The clock displays: what the 7-segment digits say for a face, the OLED's drawing through
luma's own emulator, and the display's thread (a face drawn off the caller's thread, the
newest one only)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from luma.emulator.device import capture
from PIL import Image

from board_io.display.base import Face, Half, SimDisplay
from board_io.display.oled import HEIGHT, WIDTH, Oled
from board_io.display.seven_segment import SevenSegment, digits
from board_io.errors import DeviceClosed

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.mark.parametrize(("face", "shown"), [
    (Face("1h29", "59.59", mark=Half.LEFT), "1h29.59.59"),
    (Face("4.59", "0.45", mark=Half.RIGHT), " 4.59 0.45."),
    (Face("FLAG", "12.00"), "FLAG12.00"),
    (Face("123456", "7"), "3456   7"),             # a half never spills into the other
    (Face("1h29", "59.59", banner="PAUSE"), " PAUSE  "),
])
def test_the_eight_digits_are_two_halves_and_the_mark_is_a_point(face: Face,
                                                                 shown: str) -> None:
    assert digits(face) == shown


def _frame(path: Path) -> list[int]:
    return list(Image.open(path).convert("L").tobytes())


def test_the_seven_segment_module_draws_what_it_is_given(tmp_path: Path) -> None:
    device = capture(width=8, height=8, mode="1", transform="seven_segment", scale=2,
                     file_template=str(tmp_path / "seg-{0}.png"))
    with SevenSegment(device=device, threaded=False) as display:
        display.show(Face("1h29", "59.59"))
        display.show(Face("1h29", "59.59"))        # the same face: not drawn again
        display.show(Face("", "", banner="PAUSE"))
    first, second = _frame(tmp_path / "seg-1.png"), _frame(tmp_path / "seg-2.png")
    assert first != second and max(first) > 0
    assert not (tmp_path / "seg-4.png").exists()


def test_the_oled_marks_the_half_and_draws_the_banner(tmp_path: Path) -> None:
    device = capture(width=WIDTH, height=HEIGHT, mode="1", transform="none", scale=1,
                     file_template=str(tmp_path / "oled-{0}.png"))
    with Oled(device=device, threaded=False) as oled:
        oled.show(Face("5:00", "4:59", labels=("White", "Black")))
        oled.show(Face("5:00", "4:59", mark=Half.RIGHT, labels=("White", "Black")))
        oled.show(Face("5:00", "4:59", banner="PAUSE", labels=("White", "Black")))
    plain, marked, paused = (Image.open(tmp_path / f"oled-{n}.png").convert("L")
                             for n in (1, 2, 3))
    # The marked half's label is inverted: its top right corner lights; the left's does not.
    assert marked.getpixel((WIDTH - 4, 2)) > 0 and plain.getpixel((WIDTH - 4, 2)) == 0
    assert marked.getpixel((4, 2)) == 0
    # The banner takes the bottom line, inverted.
    assert paused.getpixel((2, HEIGHT - 2)) > 0 and plain.getpixel((2, HEIGHT - 2)) == 0


class _Slow:
    """A luma-like device that takes its time and tells when it drew."""

    def __init__(self) -> None:
        self.drawn: list[Any] = []
        self.go = threading.Event()
        self.done = threading.Event()
        self.width, self.height, self.mode = WIDTH, HEIGHT, "1"
        self.size = (WIDTH, HEIGHT)

    def contrast(self, value: int) -> None:
        pass

    def display(self, image: Any) -> None:
        self.go.wait(10)
        self.drawn.append(image.copy())
        self.done.set()

    def cleanup(self) -> None:
        pass


def test_a_face_is_drawn_on_the_displays_own_thread_and_only_the_newest(tmp_path: Path
                                                                       ) -> None:
    slow = _Slow()
    oled = Oled(device=slow)                       # threaded: show() never waits on the bus
    oled.show(Face("5:00", "5:00"))                # drawn while the next ones come
    for seconds in range(59, 49, -1):
        oled.show(Face("5:00", f"4:{seconds}"))
    slow.go.set()
    assert slow.done.wait(10)
    oled.close()
    assert 1 <= len(slow.drawn) <= 3               # not eleven: the superseded were skipped
    with pytest.raises(DeviceClosed):
        oled.show(Face("5:00", "4:49"))


def test_the_sim_display_keeps_every_face_and_the_none_display_nothing() -> None:
    display = SimDisplay()
    display.show(Face("5:00", "5:00"))
    display.show(Face("5:00", "5:00"))
    display.show(Face("4:59", "5:00", mark=Half.LEFT))
    assert [f.left for f in display.faces] == ["5:00", "4:59"]
