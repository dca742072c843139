"""The ``ws2812-spi`` backend: SPI bytes checked bit by bit and against the WS2812B timing."""

from __future__ import annotations

import sys

import pytest

from board_io.clock import VirtualClock
from board_io.errors import ConfigError, DeviceClosed, MissingExtraError
from board_io.geometry import dark_squares
from board_io.leds.ws2812_spi import RESET_BYTES, SPI_HZ, Ws2812Spi, encode
from board_io.registry import BackendContext, create_leds
from board_io.types import WHITE, Led, Pattern
from tests.board_io import fake_spidev

GREEN = (0, 255, 0)
RED = (255, 0, 0)

# By hand: 0x00 -> 100 x8, 0xFF -> 110 x8, 0x81 -> 110 100 100 100 100 100 100 110.
BYTE_00 = bytes.fromhex("92 49 24")  # 10010010 01001001 00100100
BYTE_FF = bytes.fromhex("db 6d b6")  # 11011011 01101101 10110110
BYTE_81 = bytes.fromhex("d2 49 26")  # 11010010 01001001 00100110


class FakeSpi:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def test_encoding_is_bit_exact() -> None:
    data = encode([(0xFF, 0x00, 0x81), (0x00, 0x00, 0x00)])
    assert data == (b"\x00" + BYTE_00 + BYTE_FF + BYTE_81 + BYTE_00 * 3 + bytes(RESET_BYTES))


@pytest.mark.parametrize(("order", "first"), [("GRB", BYTE_00), ("RGB", BYTE_FF),
                                              ("BRG", BYTE_81)])
def test_colour_order(order: str, first: bytes) -> None:
    assert encode([(0xFF, 0x00, 0x81)], order)[1:4] == first
    with pytest.raises(ValueError, match="colour order must be one of"):
        encode([], "RGBW")


def _pulses(data: bytes) -> list[tuple[int, int]]:
    """(high, low) run lengths in SPI bits, for every bit sent to the strip."""
    bits = "".join(f"{b:08b}" for b in data)
    runs: list[tuple[int, int]] = []
    i = bits.index("1")
    while i < len(bits):
        high = len(bits[i:]) - len(bits[i:].lstrip("1"))
        rest = bits[i + high:]
        low = len(rest) - len(rest.lstrip("0"))
        runs.append((high, low))
        i += high + low
    return runs


def test_timing_meets_the_ws2812b_datasheet() -> None:
    data = encode([(0x5A, 0xC3, 0x0F)] * 3)
    bit = 1e6 / SPI_HZ  # microseconds per SPI bit
    runs = _pulses(data)
    assert len(runs) == 72
    for high, low in runs[:-1]:
        t_high = high * bit
        assert 0.25 <= t_high <= 0.55 or 0.65 <= t_high <= 0.95  # T0H / T1H +-150 ns
        assert 1.25 - 0.6 <= (high + low) * bit <= 1.25 + 0.6
    assert runs[-1][1] * bit >= 280  # the latch


def test_show_writes_colours_and_blinks() -> None:
    clock = VirtualClock()
    spi = FakeSpi()
    leds = Ws2812Spi(4, clock=clock, addresses=[3, 2, 1, 0], spi=spi)
    assert spi.writes == [encode([(0, 0, 0)] * 4)]  # switched off at start
    leds.show({0: Led(Pattern.SLOW, RED), 1: Led(Pattern.ON, GREEN)})
    # square 0 -> LED 3 red, square 1 -> LED 2 green; GRB on the wire.
    assert spi.writes[-1] == (b"\x00" + BYTE_00 * 6 + BYTE_FF + BYTE_00 * 2
                              + BYTE_00 + BYTE_FF + BYTE_00 + bytes(RESET_BYTES))
    clock.advance(0.6)
    leds.tick()
    assert spi.writes[-1] == encode([(0, 0, 0), (0, 0, 0), (0, 255, 0), (0, 0, 0)])
    writes = len(spi.writes)
    leds.tick()
    assert len(spi.writes) == writes  # nothing changed, nothing sent
    leds.close()
    leds.close()
    assert spi.writes[-1] == encode([(0, 0, 0)] * 4) and not spi.closed
    with pytest.raises(DeviceClosed):
        leds.show({})


def test_brightness_scales() -> None:
    spi = FakeSpi()
    leds = Ws2812Spi(1, clock=VirtualClock(), spi=spi, brightness=0.5)
    leds.show({0: Led(Pattern.ON, WHITE)})
    assert spi.writes[-1] == encode([(128, 128, 128)])


def test_from_config_without_spidev(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with BackendContext(dark_squares(8), VirtualClock()) as context, \
            pytest.raises(MissingExtraError, match="'ws2812-spi' backend needs the 'spidev'"):
        Ws2812Spi.from_config({"leds.wiring": "squares"}, context)


@pytest.mark.parametrize(
    ("wiring", "num_leds", "lit"),
    [("grid", 64, 57), ("grid-serpentine", 64, 62), ("squares", 32, 0)],
)
def test_from_config(monkeypatch: pytest.MonkeyPatch, wiring: str, num_leds: int,
                     lit: int) -> None:
    spidev = fake_spidev.module()
    monkeypatch.setitem(sys.modules, "spidev", spidev)
    config = {"board.leds": "ws2812-spi", "leds.wiring": wiring, "leds.brightness": 1.0,
              "leds.order": "RGB", "leds.spi_device": 1, "board.rgb": True}
    with BackendContext(dark_squares(8), VirtualClock()) as context:
        leds = create_leds(config, context)
        (device,) = spidev.SpiDev.opened
        assert (device.bus_device, device.max_speed_hz, device.mode) == ((0, 1), SPI_HZ, 0)
        # Square 1 (index 0) is b8: row 7, col 1 -> LED 7*8+1 in a grid; row 7 runs right to
        # left in a serpentine grid -> 7*8+6; LED 0 when LEDs follow the square numbers.
        leds.show({0: Led(Pattern.ON, RED)})
        expected = [(0, 0, 0)] * num_leds
        expected[lit] = (255, 0, 0)
        assert device.written[-1] == encode(expected, "RGB")
        leds.close()
        assert device.closed


def test_bad_order_in_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", fake_spidev.module())
    with BackendContext(dark_squares(8), VirtualClock()) as context, \
            pytest.raises(ConfigError, match=r"leds\.order = 'RGBW' is not one of"):
        create_leds({"board.leds": "ws2812-spi", "leds.order": "RGBW"}, context)


def test_single_colour_setting_draws_white(monkeypatch: pytest.MonkeyPatch) -> None:
    spidev = fake_spidev.module()
    monkeypatch.setitem(sys.modules, "spidev", spidev)
    config = {"board.leds": "ws2812-spi", "leds.brightness": 1.0, "board.rgb": False,
              "leds.wiring": "squares"}
    with BackendContext(dark_squares(8), VirtualClock()) as context:
        leds = create_leds(config, context)
        leds.show({3: Led(Pattern.ON, RED)})
        expected = [(0, 0, 0)] * 32
        expected[3] = (255, 255, 255)
        assert spidev.SpiDev.opened[0].written[-1] == encode(expected)
        leds.close()
