"""The LED sink interface: show an LED frame (square -> pattern + role); blinking is done here.

The caller shows a frame once; the sink renders it to pixels (colours from :data:`ROLE_COLOURS`
on RGB hardware, white on single-colour hardware) and re-renders on :meth:`LedMatrix.tick`
when a blinking LED changes phase. Blink phases come from the clock, so all blinking squares
blink together and a new frame does not restart them.

A backend subclasses :class:`LedMatrix` and implements :meth:`LedMatrix._write`, which gets one
pixel per LED only when something changed.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.types import Led, Pattern, Role
    >>> class Print(LedMatrix):
    ...     def _write(self, pixels):
    ...         print(pixels)
    >>> clock = VirtualClock()
    >>> leds = Print(2, clock=clock, rgb=True)
    >>> leds.show({1: Led(Pattern.SLOW, Role.REMOVE)})
    ((0, 0, 0), (255, 0, 0))
    >>> clock.advance(0.6); leds.tick()
    ((0, 0, 0), (0, 0, 0))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TypeAlias

from board_io.clock import Clock
from board_io.device import Device
from board_io.geometry import Layout
from board_io.types import Led, LedFrame, Pattern, Role, Square

Rgb: TypeAlias = tuple[int, int, int]

OFF: Rgb = (0, 0, 0)
WHITE: Rgb = (255, 255, 255)

#: RGB colour of each role (docs/design.md#led-roles). Single-colour boards ignore it.
ROLE_COLOURS: Mapping[Role, Rgb] = MappingProxyType({
    Role.FROM: (0, 255, 0),
    Role.TO: (0, 255, 0),
    Role.PATH: (160, 0, 255),
    Role.REMOVE: (255, 0, 0),
    Role.LEGAL: (255, 255, 255),
    Role.MUST: (255, 110, 0),
    Role.HINT: (255, 220, 0),
    Role.MISSING: (0, 255, 0),
    Role.EXTRA: (255, 0, 0),
    Role.ADJUST: (0, 60, 255),
    Role.CROWN: (255, 170, 0),
    Role.RESULT: (255, 255, 255),
    Role.FAULT: (255, 0, 192),
    Role.CLOCK: (0, 60, 255),  # the adjust colour (serial boards get it as adjust), blinking
})

#: Roles drawn dimmed, and by how much.
DIM_ROLES: Mapping[Role, float] = MappingProxyType({Role.ADJUST: 0.25, Role.CLOCK: 0.25})

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


def _scale(colour: Rgb, factor: float) -> Rgb:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


class LedMatrix(Device, ABC):
    """An LED per square, addressed through ``addresses`` (per square, its LED index).

    Raises:
        ValueError: brightness outside 0..1, or an address outside ``0 .. num_leds-1``.
    """

    def __init__(self, num_squares: int, *, clock: Clock, rgb: bool = False,
                 brightness: float = 1.0, colours: Mapping[Role, Rgb] | None = None,
                 addresses: Sequence[int] | None = None, num_leds: int | None = None) -> None:
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
        self._colours = dict(ROLE_COLOURS) | dict(colours or {})
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
            colour = self._colours[led.role] if self.rgb else WHITE
            factor = self.brightness * DIM_ROLES.get(led.role, 1.0)
            pixels[self._addresses[sq]] = _scale(colour, factor)
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
