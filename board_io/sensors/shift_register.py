"""The ``shift-register`` sensor backend: a chain of 74HC165 parallel-in/serial-out registers.

Every square has its own input (a reed switch to ground with a pull-up: no matrix, no diodes),
eight per 74HC165. A scan pulses the shared ``SH/LD`` (PL) line low to latch all inputs at
once, then clocks the bits out of the ``Q7`` of the register nearest the Pi; each register's
``DS`` takes the ``Q7`` of the next one down the chain.

Input ``i`` is chip ``i // 8`` (chip 0 is the one whose ``Q7`` goes to the Pi), parallel input
``D(i % 8)`` (``D0`` = pin 11 "A", ``D7`` = pin 6 "H"). The frame is ``rows`` x ``8*chips/rows``
of these inputs in order, so the standard cell map for a chain reads square ``i`` on input ``i``.

The bits are read with the SPI controller (``spidev``, SCLK -> CLK, MISO <- Q7) when it is
available, else bit-banged through gpiozero on ``clock_pin`` and ``data_pin``.

Example:
    >>> chain = ShiftRegisterChain(4, load_pin=25)            # doctest: +SKIP
    >>> chain.rows, chain.cols, chain.interface                # doctest: +SKIP
    (1, 32, 'spi')
"""

from __future__ import annotations

import logging
from contextlib import ExitStack
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, Protocol

from board_io.errors import BoardIOError, ConfigError, MissingExtraError
from board_io.extras import require
from board_io.options import ConfigSource, read
from board_io.pins import PinSpec, open_pins
from board_io.schema import (
    CHAIN_ACTIVE_LOW,
    CHAIN_CHIPS,
    CHAIN_CLOCK_PIN,
    CHAIN_DATA_PIN,
    CHAIN_LOAD_PIN,
    CHAIN_SPI_BUS,
    CHAIN_SPI_DEVICE,
    CHAIN_SPI_HZ,
    CHAIN_USE_SPI,
)
from board_io.sensors.base import SensorMatrix
from board_io.types import Frame, Reading

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["ShiftRegisterChain", "SpiDevice", "unpack"]

log = logging.getLogger(__name__)

_BACKEND = "shift-register"
_SECTION = "shift_register"
_LOAD, _CLOCK, _DATA = (f"{_SECTION}.{key}" for key in ("load_pin", "clock_pin", "data_pin"))
Interface = Literal["auto", "spi", "bitbang"]


class SpiDevice(Protocol):
    """What this backend needs of a ``spidev.SpiDev`` (tests inject a fake)."""

    def readbytes(self, n: int, /) -> list[int]: ...

    def close(self) -> None: ...


def unpack(data: bytes | list[int], inputs: int, *, active_low: bool = True) -> Frame:
    """Turn the bytes clocked out of a chain (first bit = MSB) into one reading per input.

    Example:
        >>> unpack([0b1111_1110, 0b0111_1111], 16)[:2], unpack([0xFE, 0x7F], 16)[15]
        ((<Reading.OCCUPIED: 1>, <Reading.EMPTY: 0>), <Reading.OCCUPIED: 1>)
    """
    frame = []
    for i in range(inputs):
        bit = (data[i >> 3] >> (i & 7)) & 1
        frame.append(Reading.OCCUPIED if bit != active_low else Reading.EMPTY)
    return tuple(frame)


class ShiftRegisterChain(SensorMatrix):
    """``chips`` 74HC165 in a chain, ``8 * chips`` inputs, presence only.

    ``interface``: ``"spi"`` (spidev), ``"bitbang"`` (gpiozero on ``clock_pin``/``data_pin``)
    or ``"auto"`` (spi if spidev and the SPI device are there, else bit-bang). ``spi`` injects
    an already open SPI device. ``active_low``: an input reads 0 when its switch is closed.

    Raises:
        ConfigError: bad chips/rows/scan_hz, missing or repeated pins, SPI unavailable.
        MissingExtraError: gpiozero, or spidev for ``interface="spi"``, is not installed.
    """

    def __init__(self, chips: int, *, load_pin: PinSpec, clock_pin: PinSpec | None = None,
                 data_pin: PinSpec | None = None, interface: Interface = "auto",
                 spi_bus: int = 0, spi_device: int = 0, spi_hz: int = 500_000,
                 spi: SpiDevice | None = None, active_low: bool = True, rows: int = 1,
                 pin_factory: Any = None) -> None:
        if not 1 <= chips <= 32:
            raise ConfigError(f"{_SECTION}.chips", f"must be 1..32, got {chips!r}")
        if rows < 1 or (8 * chips) % rows:
            raise ConfigError(f"{_SECTION}.rows",
                              f"{8 * chips} inputs do not split into {rows} rows")
        if interface not in ("auto", "spi", "bitbang"):
            raise ConfigError(f"{_SECTION}.interface",
                              f"must be auto, spi or bitbang, got {interface!r}")
        gpiozero = require("gpiozero", backend=_BACKEND)
        super().__init__(rows, 8 * chips // rows)
        self.chips = chips
        self.active_low = active_low
        with ExitStack() as stack:
            self._spi = spi if spi is not None else self._open_spi(
                stack, interface, spi_bus, spi_device, spi_hz, clock_pin)
            self.interface = "spi" if self._spi is not None else "bitbang"
            specs: dict[str, tuple[Any, PinSpec]] = {_LOAD: (partial(
                gpiozero.DigitalOutputDevice, active_high=False, initial_value=False), load_pin)}
            if self._spi is None:
                if clock_pin is None or data_pin is None:
                    raise ConfigError(_CLOCK if clock_pin is None else _DATA,
                                      "bit-banging the chain needs clock_pin and data_pin")
                specs[_CLOCK] = (partial(gpiozero.DigitalOutputDevice, initial_value=False),
                                 clock_pin)
                specs[_DATA] = (partial(gpiozero.DigitalInputDevice, pull_up=None,
                                        active_state=True), data_pin)
            devices = open_pins(stack, _BACKEND, specs, pin_factory=pin_factory)
            self._stack = stack.pop_all()
        self._load = devices[_LOAD]
        self._clock = devices.get(_CLOCK)
        self._data = devices.get(_DATA)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> ShiftRegisterChain:
        """Build from ``shift_register.*`` options; ``chips`` 0 (default): one per 8 squares.

        Raises:
            ConfigError: a bad option, named by its key.
        """
        chips = read(config, CHAIN_CHIPS)
        return cls(
            chips or -(-context.layout.num_squares // 8),
            load_pin=read(config, CHAIN_LOAD_PIN),
            clock_pin=read(config, CHAIN_CLOCK_PIN),
            data_pin=read(config, CHAIN_DATA_PIN),
            interface="auto" if read(config, CHAIN_USE_SPI) else "bitbang",
            spi_bus=read(config, CHAIN_SPI_BUS),
            spi_device=read(config, CHAIN_SPI_DEVICE),
            spi_hz=read(config, CHAIN_SPI_HZ),
            active_low=read(config, CHAIN_ACTIVE_LOW),
        )

    @staticmethod
    def _open_spi(stack: ExitStack, interface: Interface, bus: int, device: int, hz: int,
                  clock_pin: PinSpec | None) -> SpiDevice | None:
        if interface == "bitbang":
            return None
        try:
            spidev = require("spidev", backend=_BACKEND)
            spi = spidev.SpiDev()
            spi.open(bus, device)
        except MissingExtraError:
            if interface == "spi" or clock_pin is None:
                raise
            log.info("spidev is not installed: bit-banging the 74HC165 chain")
            return None
        except OSError as exc:
            if interface == "spi" or clock_pin is None:
                raise BoardIOError(f"cannot open /dev/spidev{bus}.{device} ({exc}); "
                                   "enable SPI with dtparam=spi=on") from exc
            log.info("no SPI device %d.%d (%s): bit-banging the chain", bus, device, exc)
            return None
        stack.callback(spi.close)
        spi.max_speed_hz = hz
        spi.mode = 0  # CLK idles low; Q7 already holds the first bit after the latch
        opened: SpiDevice = spi
        return opened

    def read_bytes(self) -> bytes:
        """Latch the inputs and return the raw bytes clocked out (one per chip, MSB first)."""
        self._load.on()  # SH/LD low: copy the parallel inputs into the registers
        self._load.off()
        if self._spi is not None:
            return bytes(self._spi.readbytes(self.chips))
        clock, data_pin = self._clock, self._data
        if clock is None or data_pin is None:  # the constructor opens SPI or both pins
            raise BoardIOError("the 74HC165 chain has neither SPI nor clock and data pins")
        data = bytearray()
        for _ in range(self.chips):
            byte = 0
            for _ in range(8):
                byte = byte << 1 | int(data_pin.value)
                clock.on()  # the rising edge shifts the next bit onto Q7
                clock.off()
            data.append(byte)
        return bytes(data)

    def _read(self) -> Frame:
        return unpack(self.read_bytes(), self.cells, active_low=self.active_low)

    def _close(self) -> None:
        self._stack.close()
