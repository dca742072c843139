"""The ``shift-register`` backend against a model of a 74HC165 chain.

The model follows the datasheet: SH/LD low copies the parallel inputs into the registers (and
keeps copying while low), a rising CLK edge shifts every register one place towards Q7, each
chip's DS takes the next chip's Q7, and the last chip's DS is tied to ground. The bit-banged
path drives it through gpiozero MockFactory pins; the SPI path through a fake SPI device whose
clock is the model's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from board_io.clock import VirtualClock
from board_io.errors import BoardIOError, ConfigError, DeviceClosed, MissingExtraError
from board_io.geometry import dark_squares
from board_io.registry import BackendContext, create_scanner, create_sensors
from board_io.sensors.shift_register import ShiftRegisterChain
from board_io.types import Reading
from tests.board_io import fake_spidev

LOAD, CLOCK, DATA = 25, 11, 9


class Hc165Chain:
    """``chips`` 74HC165; ``inputs[i]`` is the level on chip ``i // 8``, pin ``D(i % 8)``."""

    def __init__(self, chips: int) -> None:
        self.chips = chips
        self.inputs = [True] * (8 * chips)  # pull-ups: every switch open
        self.register: list[bool] = [False] * (8 * chips)  # in output order, Q7 first
        self.loading = False
        self.loads = 0
        self.data_pin: MockPin | None = None

    def set_closed(self, *inputs: int) -> None:
        self.inputs = [i not in inputs for i in range(8 * self.chips)]

    def q7(self) -> bool:
        return self.register[0]

    def load(self, level: bool) -> None:
        self.loading = not level
        if self.loading:
            self.loads += 1
            # chip k's Q7 shows D7 first: output order is D7..D0 of chip 0, then chip 1, ...
            self.register = [self.inputs[8 * (k // 8) + 7 - k % 8] for k in range(8 * self.chips)]
        self._drive()

    def clock_edge(self) -> None:
        if not self.loading:
            self.register = [*self.register[1:], False]  # DS of the last chip is grounded
        self._drive()

    def _drive(self) -> None:
        if self.data_pin is not None and self.data_pin.function == "input":
            if self.q7():
                self.data_pin.drive_high()
            else:
                self.data_pin.drive_low()


class LoadPin(MockPin):
    chain: Hc165Chain | None = None

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.chain is not None:
            self.chain.load(value)
        return changed


class ClockPin(MockPin):
    chain: Hc165Chain | None = None

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and value and self.chain is not None:
            self.chain.clock_edge()
        return changed


class FakeSpi:
    """An SPI controller in mode 0 wired to the chain: samples MISO, then clocks."""

    def __init__(self, chain: Hc165Chain) -> None:
        self.chain = chain
        self.closed = False
        self.reads: list[int] = []

    def readbytes(self, n: int) -> list[int]:
        self.reads.append(n)
        out = []
        for _ in range(n):
            byte = 0
            for _ in range(8):
                byte = byte << 1 | int(self.chain.q7())
                self.chain.clock_edge()
            out.append(byte)
        return out

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def _wire(factory: MockFactory, chips: int) -> Hc165Chain:
    chain = Hc165Chain(chips)
    load = factory.pin(LOAD, pin_class=LoadPin)
    clock = factory.pin(CLOCK, pin_class=ClockPin)
    load.chain = clock.chain = chain
    chain.data_pin = factory.pin(DATA)
    return chain


def _occupied(frame: tuple[Reading, ...]) -> list[int]:
    return [i for i, r in enumerate(frame) if r is Reading.OCCUPIED]


def test_bitbang_reads_every_input(factory: MockFactory) -> None:
    chain = _wire(factory, 4)
    with ShiftRegisterChain(4, load_pin=LOAD, clock_pin=CLOCK, data_pin=DATA,
                            interface="bitbang", pin_factory=factory) as sensors:
        assert (sensors.rows, sensors.cols, sensors.interface) == (1, 32, "bitbang")
        assert _occupied(sensors.read()) == []
        chain.set_closed(0, 7, 8, 19, 31)
        assert _occupied(sensors.read()) == [0, 7, 8, 19, 31]
        assert chain.loads == 2  # one latch per scan
        for i in range(32):
            chain.set_closed(i)
            assert _occupied(sensors.read()) == [i]


def test_spi_reads_every_input(factory: MockFactory) -> None:
    chain = _wire(factory, 7)  # 56 inputs: 10x10 board
    spi = FakeSpi(chain)
    with ShiftRegisterChain(7, load_pin=LOAD, spi=spi, pin_factory=factory) as sensors:
        assert (sensors.cols, sensors.interface) == (56, "spi")
        chain.set_closed(*range(0, 50, 3))
        assert _occupied(sensors.read()) == list(range(0, 50, 3))
        assert spi.reads == [7] and chain.loads == 1
    assert not spi.closed  # an injected device belongs to the caller


def test_inputs_latched_before_shifting(factory: MockFactory) -> None:
    chain = _wire(factory, 1)
    spi = FakeSpi(chain)
    with ShiftRegisterChain(1, load_pin=LOAD, spi=spi, pin_factory=factory) as sensors:
        chain.set_closed(3)
        assert sensors.read_bytes() == bytes([0b1111_0111])
        assert not chain.loading  # SH/LD back high, or the clock would not shift


def test_active_high_inputs_and_rows(factory: MockFactory) -> None:
    chain = _wire(factory, 2)
    with ShiftRegisterChain(2, load_pin=LOAD, clock_pin=CLOCK, data_pin=DATA, rows=2,
                            active_low=False, interface="bitbang", pin_factory=factory) as s:
        assert (s.rows, s.cols) == (2, 8)
        chain.set_closed(5)  # closed -> low; active-high sensors read low as empty
        assert _occupied(s.read()) == [i for i in range(16) if i != 5]


def test_auto_without_spidev_bitbangs(factory: MockFactory,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    chain = _wire(factory, 1)
    with ShiftRegisterChain(1, load_pin=LOAD, clock_pin=CLOCK, data_pin=DATA,
                            pin_factory=factory) as sensors:
        assert sensors.interface == "bitbang"
        chain.set_closed(6)
        assert _occupied(sensors.read()) == [6]
    with pytest.raises(MissingExtraError, match="spidev"):
        ShiftRegisterChain(1, load_pin=LOAD, interface="spi", pin_factory=factory)
    with pytest.raises(MissingExtraError, match="spidev"):
        ShiftRegisterChain(1, load_pin=LOAD, pin_factory=factory)  # no pins to fall back on


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"chips": 0}, ConfigError, "shift_register.chips: must be 1..32"),
        ({"chips": 1, "rows": 3}, ConfigError, "rows: 8 inputs do not split into 3 rows"),
        ({"chips": 1, "interface": "i2c"}, ConfigError, "interface: must be auto, spi or"),
        ({"chips": 1, "clock_pin": CLOCK, "interface": "bitbang"}, ConfigError,
         "shift_register.data_pin: bit-banging the chain needs clock_pin and data_pin"),
        ({"chips": 1, "clock_pin": LOAD, "data_pin": DATA, "interface": "bitbang"},
         ConfigError, "shift_register.clock_pin: pin 25 is also given as shift_register.load"),
        ({"chips": 1, "clock_pin": CLOCK, "data_pin": 77, "interface": "bitbang"},
         ConfigError, "shift_register.data_pin: pin 77 does not exist"),
    ],
)
def test_bad_config(factory: MockFactory, kwargs: dict[str, object], error: type[BoardIOError],
                    words: str) -> None:
    with pytest.raises(error, match=words):
        ShiftRegisterChain(load_pin=LOAD, pin_factory=factory, **kwargs)  # type: ignore[arg-type]


def test_close(factory: MockFactory) -> None:
    _wire(factory, 1)
    sensors = ShiftRegisterChain(1, load_pin=LOAD, clock_pin=CLOCK, data_pin=DATA,
                                 interface="bitbang", pin_factory=factory)
    sensors.close()
    sensors.close()
    with pytest.raises(DeviceClosed):
        sensors.read()
    # the pins are free again
    ShiftRegisterChain(1, load_pin=LOAD, clock_pin=CLOCK, data_pin=DATA, interface="bitbang",
                       pin_factory=factory).close()


def test_from_config_spi(factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", factory)
    spidev = fake_spidev.module(fill=0b1111_1101)  # input 1 of every chip closed
    monkeypatch.setitem(sys.modules, "spidev", spidev)
    with BackendContext(dark_squares(10), VirtualClock()) as context:
        sensors = create_sensors({"board.sensors": "shift-register",
                                  "shift_register.spi_device": 1}, context)
        assert isinstance(sensors, ShiftRegisterChain)
        assert (sensors.chips, sensors.rows, sensors.cols, sensors.interface) == (7, 1, 56, "spi")
        (device,) = spidev.SpiDev.opened
        assert device.bus_device == (0, 1) and device.mode == 0
        assert _occupied(sensors.read()) == [1, 9, 17, 25, 33, 41, 49]
        scanner = create_scanner({}, context.layout, sensors)
        # wiring order: White's first rank first, so square 50 (index 49) is input 4
        assert scanner.cell_map.cell(49) == (0, 4)
        sensors.close()
        assert device.closed


def test_from_config_bitbang(factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", factory)
    chain = Hc165Chain(4)
    load = factory.pin(5, pin_class=LoadPin)
    clock = factory.pin(6, pin_class=ClockPin)
    load.chain = clock.chain = chain
    chain.data_pin = factory.pin(13)
    config = {"board.sensors": "shift-register", "shift_register.use_spi": False,
              "shift_register.load_pin": 5, "shift_register.clock_pin": 6,
              "shift_register.data_pin": 13}
    with BackendContext(dark_squares(8), VirtualClock()) as context:
        sensors = create_sensors(config, context)
        chain.set_closed(31)
        assert _occupied(sensors.read()) == [31]
        sensors.close()
