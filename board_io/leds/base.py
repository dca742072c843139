"""The LED sink interface: show an LED frame (square -> pattern + colour); blinking is done here.

The caller shows a frame once; the sink renders it to pixels (each LED's colour on RGB
hardware; on single-colour hardware white at the colour's brightness, its brightest channel)
and re-renders on :meth:`LedMatrix.tick` when a blinking LED changes phase. Blink phases come
from the clock, so all blinking squares blink together and a new frame does not restart them.

A backend subclasses :class:`LedMatrix` and implements :meth:`LedMatrix._write`, which gets one
pixel per LED only when something changed.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.types import Led, Pattern
    >>> class Print(LedMatrix):
    ...     def _write(self, pixels):
    ...         print(pixels)
    >>> clock = VirtualClock()
    >>> leds = Print(2, clock=clock, rgb=True)
    >>> leds.show({1: Led(Pattern.SLOW, (255, 0, 0))})
    ((0, 0, 0), (255, 0, 0))
    >>> clock.advance(0.6); leds.tick()
    ((0, 0, 0), (0, 0, 0))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from board_io.clock import Clock
from board_io.device import Device
from board_io.geometry import Layout
from board_io.types import Led, LedFrame, Pattern, Rgb, Square

__all__ = ["BLINK_HZ", "OFF", "LedMatrix", "NoLeds", "Rgb", "grid_addresses", "pattern_lit",
           "scale", "single_colour"]

OFF: Rgb = (0, 0, 0)

#: Blink frequency per pattern; a blinking LED is lit in the first half of each period.
BLINK_HZ: Mapping[Pattern, float] = MappingProxyType({Pattern.SLOW: 1.0, Pattern.FAST: 4.0})


def pattern_lit(pattern: Pattern, now: float) -> bool:
    """Return whether an LED with ``pattern`` is lit at time ``now`` (seconds).

    Example:
        >>> pattern_lit(Pattern.FAST, 0.1), pattern_lit(Pattern.FAST, 0.2)
        (True, False)
    """
    if pattern is Pattern.ON:
        return True
    if pattern is Pattern.OFF:
        return False
    return (now * BLINK_HZ[pattern]) % 1.0 < 0.5


def grid_addresses(layout: Layout, *, serpentine: bool = False) -> tuple[int, ...]:
    """Per square, its LED index on a board-sized LED grid wired row by row from a1.

    ``serpentine``: odd rows run right to left (a zig-zag NeoPixel strip).

    Example:
        >>> from board_io.geometry import dark_squares
        >>> grid_addresses(dark_squares(8))[28], grid_addresses(dark_squares(8))[0]
        (0, 57)
    """
    result = []
    for row, col in layout.coords:
        if serpentine and row % 2:
            col = layout.cols - 1 - col
        result.append(row * layout.cols + col)
    return tuple(result)


def scale(colour: Rgb, factor: float) -> Rgb:
    """``colour`` at ``factor`` of its brightness (0..1), rounded to whole steps.

    Example:
        >>> scale((0, 60, 255), 0.25)
        (0, 15, 64)
    """
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


def single_colour(colour: Rgb) -> Rgb:
    """What a single-colour LED shows for ``colour``: white at its brightest channel.

    Example:
        >>> single_colour((0, 15, 64)), single_colour((255, 110, 0))
        ((64, 64, 64), (255, 255, 255))
    """
    level = max(colour)
    return (level, level, level)


class LedMatrix(Device, ABC):
    """An LED per square, addressed through ``addresses`` (per square, its LED index).

    Raises:
        ValueError: brightness outside 0..1, or an address outside ``0 .. num_leds-1``.
    """

    def __init__(self, num_squares: int, *, clock: Clock, rgb: bool = False,
                 brightness: float = 1.0, addresses: Sequence[int] | None = None,
                 num_leds: int | None = None) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness must be 0..1, not {brightness}")
        self._addresses = tuple(addresses) if addresses is not None else tuple(range(num_squares))
        if len(self._addresses) != num_squares:
            raise ValueError(f"{len(self._addresses)} LED addresses for {num_squares} squares")
        self.num_leds = num_leds if num_leds is not None else max(self._addresses, default=-1) + 1
        if any(not 0 <= a < self.num_leds for a in self._addresses):
            raise ValueError(f"LED addresses must be in 0..{self.num_leds - 1}")
        self.num_squares = num_squares
        self.rgb = rgb
        self.brightness = brightness
        self._clock = clock
        self._frame: dict[Square, Led] = {}
        self._pixels: tuple[Rgb, ...] | None = None
        super().__init__()
        # show() comes from the controller thread, tick() from the scan thread: one write at a
        # time reaches the hardware.

    @property
    def frame(self) -> Mapping[Square, Led]:
        """The frame being shown (read-only)."""
        return MappingProxyType(self._frame)

    @property
    def pixels(self) -> tuple[Rgb, ...]:
        """The pixels last written (all off before the first write)."""
        return self._pixels if self._pixels is not None else (OFF,) * self.num_leds

    def show(self, frame: LedFrame) -> None:
        """Show ``frame`` from now on (squares absent are off).

        Raises:
            DeviceClosed: after :meth:`close`.
            ValueError: a square outside the board.
        """
        bad = [sq for sq in frame if not 0 <= sq < self.num_squares]
        if bad:
            raise ValueError(f"LED frame names squares outside the board: {sorted(bad)}")
        with self._lock:
            self._check_open()
            self._frame = {sq: led for sq, led in frame.items() if led.pattern is not Pattern.OFF}
            self._render(self._clock.monotonic())

    def tick(self, now: float | None = None) -> None:
        """Advance blinking to ``now`` (default: the clock); writes only on a change.

        Raises:
            DeviceClosed: after :meth:`close`.
        """
        with self._lock:
            self._check_open()
            self._render(self._clock.monotonic() if now is None else now)

    def render(self, now: float) -> tuple[Rgb, ...]:
        """Return the pixels of the current frame at time ``now`` (no write)."""
        pixels = [OFF] * self.num_leds
        for sq, led in self._frame.items():
            if not pattern_lit(led.pattern, now):
                continue
            colour = led.colour if self.rgb else single_colour(led.colour)
            pixels[self._addresses[sq]] = scale(colour, self.brightness)
        return tuple(pixels)

    def _render(self, now: float) -> None:
        pixels = self.render(now)
        if pixels != self._pixels:
            self._pixels = pixels
            self._write(pixels)

    @abstractmethod
    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        """Backend hook: put ``pixels`` (one per LED index) on the hardware."""

    def _close(self) -> None:
        """Backend hook: switch the LEDs off if possible and release resources (called once)."""



class NoLeds(LedMatrix):
    """The ``none`` backend: a board without LEDs. Frames are accepted and dropped."""

    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        pass
