"""The ``max7219`` display backend: an 8-digit 7-segment module behind a MAX7219 (luma.led_matrix).

The eight digits are two halves of four: the left four and the right four. A half's text is put
right-aligned in its four digits, a ``.`` lighting the decimal point of the digit before it
(luma's ``dot_muncher``), so ``"59.59"`` takes four digits; the marked half lights the decimal
point of its last digit. A banner fills the eight digits instead (centred), as 7 segments can
draw it (``PAUSE``, ``FLAg``). The module is on SPI (``clock.display_spi_bus`` /
``_device``: a chip select of its own when the LEDs are MAX7219s too); ``device`` is any luma
device of 8x8 pixels (tests pass luma.emulator's ``capture``).

Example:
    >>> digits(Face("59.59", "4.32", mark=Half.RIGHT))
    '59.59 4.32.'
    >>> digits(Face("", "", banner="PAUSE"))
    ' PAUSE  '
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from board_io.display.base import Display, Face, Half
from board_io.errors import BoardIOError
from board_io.extras import require
from board_io.options import ConfigSource, read
from board_io.schema import DISPLAY_BRIGHTNESS, DISPLAY_SPI_BUS, DISPLAY_SPI_DEVICE

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["SevenSegment", "digits"]

_BACKEND = "max7219"
#: Digits a half has.
HALF = 4


def _half(text: str, marked: bool) -> str:
    """``text`` right-aligned in :data:`HALF` digits (a ``.`` takes none), marked by the last
    digit's point."""
    shown = text[-(HALF * 2):]
    while len(shown.replace(".", "")) > HALF:
        shown = shown[1:]
    pad = " " * (HALF - len(shown.replace(".", "")))
    return pad + shown + ("." if marked else "")


def digits(face: Face) -> str:
    """The text the eight digits show for ``face`` (``.``: the point of the digit before)."""
    if face.banner:
        return face.banner[:HALF * 2].center(HALF * 2)
    return (_half(face.left, face.mark is Half.LEFT)
            + _half(face.right, face.mark is Half.RIGHT))


class SevenSegment(Display):
    """An 8-digit 7-segment display on a MAX7219.

    Raises:
        BoardIOError: the SPI device cannot be opened.
        MissingExtraError: luma.led_matrix (or spidev, for real SPI) is not installed.
    """

    def __init__(self, *, device: Any = None, brightness: float = 1.0, spi_bus: int = 0,
                 spi_device: int = 1, threaded: bool = True) -> None:
        virtual = require("luma.core.virtual", backend=_BACKEND, package="luma.led_matrix")
        mapper = require("luma.led_matrix.segment_mapper", backend=_BACKEND,
                         package="luma.led_matrix")
        if device is None:
            device_module = require("luma.led_matrix.device", backend=_BACKEND,
                                    package="luma.led_matrix")
            device = device_module.max7219(_open_spi(spi_bus, spi_device), cascaded=1)
        device.contrast(min(255, max(0, round(brightness * 255))))
        self._device = device
        self._segments = virtual.sevensegment(device, segment_mapper=mapper.dot_muncher)
        super().__init__(HALF, threaded=threaded)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> SevenSegment:
        """Build from the ``clock.display_*`` options.

        Raises:
            BoardIOError, MissingExtraError: as the constructor.
        """
        return cls(brightness=read(config, DISPLAY_BRIGHTNESS),
                   spi_bus=read(config, DISPLAY_SPI_BUS),
                   spi_device=read(config, DISPLAY_SPI_DEVICE))

    def _draw(self, face: Face) -> None:
        self._segments.text = digits(face)

    def _release(self) -> None:
        self._device.cleanup()


def _open_spi(bus: int, device: int) -> Any:
    serial = require("luma.core.interface.serial", backend=_BACKEND, package="luma.led_matrix")
    spidev = require("spidev", backend=_BACKEND)
    try:
        return serial.spi(spi=spidev.SpiDev(), gpio=serial.noop(), port=bus, device=device,
                          bus_speed_hz=1_000_000)
    except Exception as exc:  # luma raises its own DeviceNotFoundError, or OSError
        raise BoardIOError(f"cannot open /dev/spidev{bus}.{device} for the clock's MAX7219 "
                           f"({exc}); enable SPI with dtparam=spi=on") from exc
