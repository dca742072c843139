"""The LED sink base: mono vs RGB rendering, brightness, dim colours, addressing, blinking,
close."""

from __future__ import annotations

import pytest

from board_io.clock import VirtualClock
from board_io.errors import DeviceClosed
from board_io.geometry import dark_squares
from board_io.leds.base import LedMatrix, Rgb, grid_addresses, pattern_lit
from board_io.types import WHITE, YELLOW, Led, Pattern

PURPLE, DIM_BLUE, GREEN = (160, 0, 255), (0, 15, 64), (0, 255, 0)


class Capture(LedMatrix):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.written: list[tuple[Rgb, ...]] = []
        self.closes = 0

    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        self.written.append(pixels)

    def _close(self) -> None:
        self.closes += 1


def test_an_led_is_white_unless_coloured() -> None:
    assert Led(Pattern.ON) == Led(Pattern.ON, WHITE)


def test_rgb_vs_mono_rendering() -> None:
    frame = {0: Led(Pattern.ON, PURPLE), 1: Led(Pattern.ON, DIM_BLUE)}
    rgb = Capture(3, clock=VirtualClock(), rgb=True)
    rgb.show(frame)
    assert rgb.written == [(PURPLE, DIM_BLUE, (0, 0, 0))]
    # A single-colour LED shows the colour's brightness: a dim colour is a dim light.
    mono = Capture(3, clock=VirtualClock(), rgb=False, brightness=0.5)
    mono.show(frame)
    assert mono.written == [((128, 128, 128), (32, 32, 32), (0, 0, 0))]


def test_colours_and_addresses() -> None:
    leds = Capture(2, clock=VirtualClock(), rgb=True, addresses=[5, 2], num_leds=8)
    leds.show({0: Led(Pattern.ON, (1, 2, 3))})
    assert leds.pixels[5] == (1, 2, 3) and leds.pixels.count((0, 0, 0)) == 7


def test_grid_and_serpentine_addresses() -> None:
    layout = dark_squares(8)
    assert grid_addresses(layout)[layout.parse("29")] == 0
    assert grid_addresses(layout)[layout.parse("25")] == 9  # b2
    assert grid_addresses(layout, serpentine=True)[layout.parse("25")] == 14  # row 1 reversed


def test_writes_only_on_change_and_blinks_by_clock() -> None:
    clock = VirtualClock()
    leds = Capture(2, clock=clock, rgb=False)
    leds.show({0: Led(Pattern.SLOW, YELLOW)})
    leds.tick(0.2)
    leds.tick(0.4)
    assert len(leds.written) == 1
    leds.tick(0.6)
    assert leds.written[-1] == ((0, 0, 0), (0, 0, 0))
    leds.tick(1.1)
    assert leds.written[-1][0] == (255, 255, 255) and len(leds.written) == 3
    # A new frame keeps the phase: at 1.7 the slow blink is in its off half.
    clock.set(1.7)
    leds.show({0: Led(Pattern.SLOW, YELLOW), 1: Led(Pattern.ON, YELLOW)})
    assert leds.written[-1] == ((0, 0, 0), (255, 255, 255))


@pytest.mark.parametrize(("pattern", "now", "lit"), [
    (Pattern.ON, 0.7, True), (Pattern.OFF, 0.1, False),
    (Pattern.SLOW, 0.0, True), (Pattern.SLOW, 0.49, True), (Pattern.SLOW, 0.5, False),
    (Pattern.SLOW, 0.99, False), (Pattern.FAST, 0.12, True), (Pattern.FAST, 0.13, False),
    (Pattern.FAST, 0.26, True)])
def test_pattern_phases(pattern: Pattern, now: float, lit: bool) -> None:
    assert pattern_lit(pattern, now) is lit


def test_bad_frames_and_settings() -> None:
    leds = Capture(4, clock=VirtualClock())
    with pytest.raises(ValueError, match=r"outside the board: \[4\]"):
        leds.show({4: Led(Pattern.ON, GREEN)})
    with pytest.raises(ValueError, match="brightness"):
        Capture(4, clock=VirtualClock(), brightness=1.5)
    with pytest.raises(ValueError, match="3 LED addresses for 4 squares"):
        Capture(4, clock=VirtualClock(), addresses=[0, 1, 2])
    with pytest.raises(ValueError, match=r"in 0\.\.1"):
        Capture(1, clock=VirtualClock(), addresses=[3], num_leds=2)


def test_close_is_idempotent_and_final() -> None:
    with Capture(4, clock=VirtualClock()) as leds:
        leds.show({})
    leds.close()
    assert leds.closes == 1 and leds.closed
    with pytest.raises(DeviceClosed):
        leds.show({})
    with pytest.raises(DeviceClosed):
        leds.tick()
