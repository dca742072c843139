"""The ``ws2812-spi`` LED backend: WS2812/NeoPixel LEDs driven from the SPI MOSI pin.

A WS2812 reads one bit per 1.25 µs: a high pulse of about 0.4 µs is a 0, about 0.8 µs a 1,
and a low line for over 280 µs latches the frame. With the SPI clock at 2.4 MHz one SPI bit
lasts 0.417 µs, so every LED bit is sent as three SPI bits, ``100`` for 0 and ``110`` for 1;
24 colour bits become 9 SPI bytes. The SPI controller keeps the timing, so this works from
user space on the Pi 3, 4 and 5 (``/dev/spidev0.0``, MOSI = GPIO10), unlike PWM/DMA drivers.
Colour bytes go out in the strip's order (``GRB`` for WS2812B).

Example:
    >>> encode([(255, 0, 0)])[1:10].hex(" ")    # green 0x00, red 0xff, blue 0x00
    '92 49 24 db 6d b6 92 49 24'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from board_io.clock import Clock
from board_io.errors import BoardIOError, ConfigError
from board_io.extras import require
from board_io.leds.base import OFF, LedMatrix, Rgb, grid_addresses
from board_io.options import ConfigSource, read
from board_io.schema import (
    LED_BRIGHTNESS,
    LED_ORDER,
    LED_ORDERS,
    LED_SPI_BUS,
    LED_SPI_DEVICE,
    LED_WIRING,
    LED_WIRINGS,
    RGB,
)

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["RESET_BYTES", "SPI_HZ", "SpiWriter", "Ws2812Spi", "encode"]

SPI_HZ = 2_400_000
RESET_BYTES = 90  # 300 µs of low line at 2.4 MHz: the WS2812B-V5 latch needs over 280 µs
_BACKEND = "ws2812-spi"
ORDERS = LED_ORDERS
WIRINGS = LED_WIRINGS


def _three_bits(value: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = bits << 3 | (0b110 if value >> i & 1 else 0b100)
    return bits.to_bytes(3, "big")


_ENCODED: tuple[bytes, ...] = tuple(_three_bits(v) for v in range(256))


class SpiWriter(Protocol):
    """What this backend needs of a ``spidev.SpiDev`` (tests inject a fake)."""

    def writebytes2(self, data: bytes, /) -> None: ...

    def close(self) -> None: ...


def encode(pixels: Sequence[Rgb], order: str = "GRB") -> bytes:
    """Return the SPI bytes for ``pixels``: a low byte, 9 bytes per LED, the latch time low.

    Example:
        >>> len(encode([(0, 0, 0)] * 32))
        379

    Raises:
        ValueError: ``order`` is not a permutation of ``RGB``.
    """
    if order not in ORDERS:
        raise ValueError(f"colour order must be one of {', '.join(ORDERS)}, got {order!r}")
    index = ["RGB".index(channel) for channel in order]
    out = bytearray(b"\x00")  # MOSI may idle high: start from a low line
    for pixel in pixels:
        for i in index:
            out += _ENCODED[pixel[i]]
    out += bytes(RESET_BYTES)
    return bytes(out)


class Ws2812Spi(LedMatrix):
    """A WS2812 strip or matrix on SPI. ``spi`` injects an open device (not closed here).

    ``rgb=False`` draws every colour in white at its brightness (patterns only), as on
    single-colour boards.

    Raises:
        BoardIOError: the SPI device cannot be opened (SPI not enabled).
        MissingExtraError: spidev is not installed.
        ValueError: a bad ``order``, brightness or address.
    """

    def __init__(self, num_squares: int, *, clock: Clock, addresses: Sequence[int] | None = None,
                 num_leds: int | None = None, brightness: float = 1.0,
                 order: str = "GRB",
                 rgb: bool = True, spi: SpiWriter | None = None, spi_bus: int = 0,
                 spi_device: int = 0) -> None:
        super().__init__(num_squares, clock=clock, rgb=rgb, brightness=brightness,
                         addresses=addresses, num_leds=num_leds)
        encode([], order)  # checks the order before any hardware is touched
        self.order = order
        self._owns_spi = spi is None
        self._spi: Any = spi if spi is not None else _open_spi(spi_bus, spi_device)
        try:
            self._write((OFF,) * self.num_leds)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> Ws2812Spi:
        """Build from ``leds.*`` options (see docs/hardware.md).

        Raises:
            ConfigError: a bad option, named by its key.
        """
        layout = context.layout
        wiring = read(config, LED_WIRING)
        if wiring == "squares":
            addresses: Sequence[int] = range(layout.num_squares)
            num_leds = layout.num_squares
        else:
            addresses = grid_addresses(layout, serpentine=wiring == "grid-serpentine")
            num_leds = layout.rows * layout.cols
        return cls(layout.num_squares, clock=context.clock, addresses=addresses,
                   num_leds=num_leds,
                   brightness=read(config, LED_BRIGHTNESS), order=read(config, LED_ORDER),
                   rgb=read(config, RGB), spi_bus=read(config, LED_SPI_BUS),
                   spi_device=read(config, LED_SPI_DEVICE))

    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        self._spi.writebytes2(encode(pixels, self.order))

    def _close(self) -> None:
        try:
            self._spi.writebytes2(encode((OFF,) * self.num_leds, self.order))
        finally:
            if self._owns_spi:
                self._spi.close()


def _open_spi(bus: int, device: int) -> Any:
    spidev = require("spidev", backend=_BACKEND)
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except OSError as exc:
        raise BoardIOError(f"cannot open /dev/spidev{bus}.{device} ({exc}); "
                           "enable SPI with dtparam=spi=on") from exc
    try:
        spi.max_speed_hz = SPI_HZ
        spi.mode = 0
    except OSError as exc:
        spi.close()
        raise ConfigError("leds.spi_bus", f"SPI {bus}.{device} refuses {SPI_HZ} Hz: {exc}") from exc
    return spi
