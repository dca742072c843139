"""The ``max7219`` backend through luma.led_matrix with luma's no-op serial interface.

A subclass of ``luma.core.interface.serial.noop`` records the register writes that would go to
the chips; the tests read them as the MAX7219 datasheet defines them (register 1..8 = digit
0..7, one bit per segment line), independently of the backend's own pixel mapping.
"""

from __future__ import annotations

import sys

import pytest
from luma.core.interface.serial import noop

from board_io.clock import VirtualClock
from board_io.errors import ConfigError, DeviceClosed
from board_io.geometry import dark_squares
from board_io.leds.max7219 import Max7219
from board_io.registry import BackendContext, create_leds
from board_io.types import WHITE, YELLOW, Led, Pattern
from tests.board_io import fake_spidev

GREEN = (0, 255, 0)

INTENSITY, SHUTDOWN = 0x0A, 0x0C
# luma.led_matrix itself still calls Image.getdata().
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


def recorder(log: list[list[int]]) -> noop:
    class Recorder(noop):
        def data(self, data: list[int]) -> None:
            log.append(list(data))

    return Recorder()


def digits(log: list[list[int]]) -> dict[int, int]:
    """The last value written to each digit register 1..8 of a single chip."""
    values = {}
    for write in log:
        if len(write) == 2 and 1 <= write[0] <= 8:
            values[write[0]] = write[1]
    return values


def test_squares_light_their_digit_and_segment() -> None:
    log: list[list[int]] = []
    layout = dark_squares(8)
    clock = VirtualClock()
    leds = Max7219(32, clock=clock, addresses=[r * 8 + c for r, c in layout.coords],
                   brightness=0.5, serial_interface=recorder(log))
    assert [INTENSITY, 8] in log  # 0.5 * 255 = 128 -> intensity 8 of 15
    log.clear()
    # index 28 is square 29 = a1 (row 0, col 0); index 0 is square 1 = b8 (row 7, col 1).
    leds.show({28: Led(Pattern.ON, GREEN), 0: Led(Pattern.FAST, GREEN)})
    assert digits(log) == {1: 0b0000_0001, 2: 0b1000_0000, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}
    clock.advance(0.15)  # the fast blink is in its dark half
    leds.tick()
    assert digits(log) == {1: 0b0000_0001, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}
    log.clear()
    leds.close()
    assert [SHUTDOWN, 0] in log  # luma's cleanup puts the chip in shutdown
    leds.close()
    with pytest.raises(DeviceClosed):
        leds.show({})


def test_ten_by_ten_board_uses_four_chips() -> None:
    log: list[list[int]] = []
    layout = dark_squares(10)
    leds = Max7219(50, clock=VirtualClock(), width=16, height=16,
                   addresses=[r * 16 + c for r, c in layout.coords],
                   serial_interface=recorder(log))
    log.clear()
    leds.show({sq: Led(Pattern.ON, WHITE) for sq in range(50)})
    rows = [w for w in log if len(w) == 8]  # one (register, value) pair per chip
    assert len(rows) == 8 and {w[0] for w in rows} == set(range(1, 9))
    assert sum(bin(v).count("1") for w in rows for v in w[1::2]) == 50
    leds.close()


def test_bad_grid() -> None:
    with pytest.raises(ConfigError, match="multiples of 8"):
        Max7219(32, clock=VirtualClock(), width=10, height=8, serial_interface=noop())
    with pytest.raises(ConfigError, match=r"leds\.block_orientation"):
        Max7219(32, clock=VirtualClock(), block_orientation=45, serial_interface=noop())


def test_from_config_opens_spi(monkeypatch: pytest.MonkeyPatch) -> None:
    spidev = fake_spidev.module()
    monkeypatch.setitem(sys.modules, "spidev", spidev)
    config = {"leds.spi_bus": 1, "leds.spi_device": 2, "leds.brightness": 1.0}
    with BackendContext(dark_squares(12), VirtualClock()) as context:
        leds = create_leds({"board.leds": "max7219", **config}, context)
        assert isinstance(leds, Max7219) and leds.size == (16, 16) and not leds.rgb
        (device,) = spidev.SpiDev.opened
        assert device.bus_device == (1, 2) and device.max_speed_hz == 1_000_000
        written = len(device.written)
        leds.show({0: Led(Pattern.ON, YELLOW)})
        assert len(device.written) > written
        leds.close()
        assert device.closed
