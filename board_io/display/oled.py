"""The ``ssd1306`` and ``sh1106`` display backends: a 128x64 OLED on I2C (luma.oled).

The screen is two halves side by side: each with its label at the top (small), its text in the
largest size that fits under it; the marked half's label is drawn inverted and underlined by a
bar. A banner takes the bottom line, inverted, across the screen. The module is on I2C
(``clock.display_i2c_port``, ``clock.display_i2c_address``, usually 0x3C); ``device`` is any
luma device of 128x64 pixels (tests pass luma.emulator's ``capture``).

Example:
    >>> from luma.core.device import dummy
    >>> oled = Oled(device=dummy(width=WIDTH, height=HEIGHT, mode="1"), threaded=False)
    >>> oled.show(Face("5:00", "4:59", mark=Half.RIGHT, labels=("White", "Black")))
    >>> oled._device.image.getbbox() is not None      # something is lit
    True
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from board_io.display.base import Display, Face, Half
from board_io.errors import BoardIOError
from board_io.extras import require
from board_io.options import ConfigSource, read
from board_io.schema import (
    DISPLAY_BRIGHTNESS,
    DISPLAY_I2C_ADDRESS,
    DISPLAY_I2C_PORT,
    DISPLAY_ROTATE,
)

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["Oled"]

WIDTH, HEIGHT = 128, 64
#: Characters a half shows (``1:29:59``).
HALF = 7
_LABEL, _BANNER = 11, 14  # heights of the label line and the banner line


@cache
def _font(size: int) -> Any:
    return require("PIL.ImageFont", backend="oled", package="pillow").load_default(size=size)


def _fitting(draw: Any, text: str, width: int, height: int) -> Any:
    """The largest built-in font in which ``text`` fits ``width`` x ``height``."""
    for size in range(height, 7, -1):
        font = _font(size)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        if right - left <= width and bottom - top <= height:
            return font
    return _font(8)


class Oled(Display):
    """A 128x64 OLED (``chip``: ``ssd1306`` or ``sh1106``).

    Raises:
        BoardIOError: the I2C bus cannot be opened.
        MissingExtraError: luma.oled is not installed.
    """

    def __init__(self, chip: str = "ssd1306", *, device: Any = None, brightness: float = 1.0,
                 i2c_port: int = 1, i2c_address: int = 0x3C, rotate: int = 0,
                 threaded: bool = True) -> None:
        self._canvas = require("luma.core.render", backend=chip, package="luma.oled").canvas
        if device is None:
            device_module = require("luma.oled.device", backend=chip, package="luma.oled")
            device = getattr(device_module, chip)(_open_i2c(chip, i2c_port, i2c_address),
                                                  width=WIDTH, height=HEIGHT, rotate=rotate)
        device.contrast(min(255, max(0, round(brightness * 255))))
        self._device = device
        super().__init__(HALF, threaded=threaded)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext,
                    chip: str = "ssd1306") -> Oled:
        """Build from the ``clock.display_*`` options.

        Raises:
            BoardIOError, MissingExtraError: as the constructor.
        """
        return cls(chip, brightness=read(config, DISPLAY_BRIGHTNESS),
                   i2c_port=read(config, DISPLAY_I2C_PORT),
                   i2c_address=read(config, DISPLAY_I2C_ADDRESS),
                   rotate=read(config, DISPLAY_ROTATE) // 90)

    def _draw(self, face: Face) -> None:
        half = WIDTH // 2
        bottom = HEIGHT - (_BANNER if face.banner else 0)
        with self._canvas(self._device) as draw:
            for index, (text, label) in enumerate(zip((face.left, face.right), face.labels,
                                                      strict=True)):
                x0 = index * half
                marked = face.mark is (Half.LEFT if index == 0 else Half.RIGHT)
                if label:
                    small = _font(_LABEL - 1)
                    if marked:
                        draw.rectangle((x0 + 1, 0, x0 + half - 2, _LABEL), fill="white")
                    draw.text((x0 + half // 2, _LABEL // 2 + 1), label, font=small, anchor="mm",
                              fill="black" if marked else "white")
                if marked:
                    draw.rectangle((x0 + 4, bottom - 3, x0 + half - 5, bottom - 2),
                                   fill="white")
                if text:
                    font = _fitting(draw, text, half - 4, bottom - _LABEL - 8)
                    draw.text((x0 + half // 2, (_LABEL + bottom - 4) // 2 + 1), text,
                              font=font, anchor="mm", fill="white")
            draw.line((half, 2, half, bottom - 4), fill="white")
            if face.banner:
                draw.rectangle((0, HEIGHT - _BANNER + 1, WIDTH - 1, HEIGHT - 1), fill="white")
                font = _fitting(draw, face.banner, WIDTH - 6, _BANNER - 3)
                draw.text((WIDTH // 2, HEIGHT - _BANNER // 2), face.banner, font=font,
                          anchor="mm", fill="black")

    def _release(self) -> None:
        self._device.cleanup()


def sh1106(config: ConfigSource, context: BackendContext) -> Oled:
    """The ``sh1106`` backend (the 1.3-inch modules)."""
    return Oled.from_config(config, context, chip="sh1106")


def _open_i2c(chip: str, port: int, address: int) -> Any:
    serial = require("luma.core.interface.serial", backend=chip, package="luma.oled")
    try:
        return serial.i2c(port=port, address=address)
    except Exception as exc:  # luma raises its own DeviceNotFoundError, or OSError
        raise BoardIOError(f"cannot open the {chip} at 0x{address:02X} on /dev/i2c-{port} "
                           f"({exc}); enable I2C with dtparam=i2c_arm=on") from exc
