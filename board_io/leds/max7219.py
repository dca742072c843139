"""The ``max7219`` LED backend: single-colour LED matrices behind MAX7219 drivers (luma.led_matrix).

One MAX7219 drives an 8x8 grid of LEDs; chained modules cover 10x10 and 12x12 boards (a 16x16
block of four). The LED of the board square at ``(row, col)`` is luma pixel ``x = col,
y = row``: on the first module that is digit line ``DIG<col>`` and segment bit ``row``
(bit 0 = SEG G ... bit 7 = SEG DP in the MAX7219's no-decode mode). Patterns blink in
software; colours do not show here (the pattern alone; a LED lit at all is lit). ``brightness``
sets the chips' intensity register.

Example:
    >>> leds = Max7219(32, clock=MonotonicClock(), width=8, height=8,
    ...                addresses=addresses)                          # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from board_io.clock import Clock
from board_io.errors import BoardIOError, ConfigError
from board_io.extras import require
from board_io.leds.base import LedMatrix, Rgb
from board_io.options import ConfigSource, read
from board_io.schema import LED_BLOCK_ORIENTATION, LED_BRIGHTNESS, LED_SPI_BUS, LED_SPI_DEVICE

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["Max7219"]

_BACKEND = "max7219"
_SPI_HZ = 1_000_000  # well inside the MAX7219's 10 MHz, forgiving of long ribbon cables


def _blocks(size: int) -> int:
    return -(-size // 8) * 8


class Max7219(LedMatrix):
    """MAX7219 modules forming a ``width`` x ``height`` pixel grid (multiples of 8).

    ``addresses[sq]`` is the pixel ``y * width + x`` of square ``sq``. ``serial_interface`` is
    a luma serial interface (tests pass ``luma.core.interface.serial.noop()``); None opens
    SPI ``spi_bus``.``spi_device``.

    Raises:
        ConfigError: width/height not positive multiples of 8, or a bad block orientation.
        BoardIOError: the SPI device cannot be opened.
        MissingExtraError: luma.led_matrix (or spidev, for real SPI) is not installed.
    """

    def __init__(self, num_squares: int, *, clock: Clock, width: int = 8, height: int = 8,
                 addresses: Sequence[int] | None = None, brightness: float = 1.0,
                 block_orientation: int = 0, serial_interface: Any = None, spi_bus: int = 0,
                 spi_device: int = 0) -> None:
        if width < 8 or height < 8 or width % 8 or height % 8:
            raise ConfigError("leds", f"MAX7219 grid must be multiples of 8, not {width}x{height}")
        if block_orientation not in (0, 90, -90, 180):
            raise ConfigError("leds.block_orientation",
                              f"must be 0, 90, -90 or 180, got {block_orientation!r}")
        super().__init__(num_squares, clock=clock, rgb=False, brightness=brightness,
                         addresses=addresses, num_leds=width * height)
        device_module = require("luma.led_matrix.device", backend=_BACKEND,
                                package="luma.led_matrix")
        self._image = require("PIL.Image", backend=_BACKEND, package="pillow")
        if serial_interface is None:
            serial_interface = _open_spi(spi_bus, spi_device)
        self._device = device_module.max7219(serial_interface, width=width, height=height,
                                             block_orientation=block_orientation)
        self._device.contrast(min(255, round(brightness * 255)))
        self.size = (width, height)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> Max7219:
        """Build from ``leds.*`` options: a grid the size of the board, rounded up to 8s.

        Raises:
            ConfigError: a bad option, named by its key.
        """
        layout = context.layout
        width, height = _blocks(layout.cols), _blocks(layout.rows)
        return cls(layout.num_squares, clock=context.clock, width=width, height=height,
                   addresses=[row * width + col for row, col in layout.coords],
                   brightness=read(config, LED_BRIGHTNESS),
                   block_orientation=read(config, LED_BLOCK_ORIENTATION),
                   spi_bus=read(config, LED_SPI_BUS), spi_device=read(config, LED_SPI_DEVICE))

    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        image = self._image.new("1", self.size)
        image.putdata([255 if any(p) else 0 for p in pixels])
        self._device.display(image)

    def _close(self) -> None:
        self._device.cleanup()  # blank, shut the chips down and close the SPI device


def _open_spi(bus: int, device: int) -> Any:
    serial = require("luma.core.interface.serial", backend=_BACKEND, package="luma.led_matrix")
    spidev = require("spidev", backend=_BACKEND)
    try:
        return serial.spi(spi=spidev.SpiDev(), gpio=serial.noop(), port=bus, device=device,
                          bus_speed_hz=_SPI_HZ)
    except Exception as exc:  # luma raises its own DeviceNotFoundError, or OSError
        raise BoardIOError(f"cannot open /dev/spidev{bus}.{device} for the MAX7219 ({exc}); "
                           "enable SPI with dtparam=spi=on") from exc
