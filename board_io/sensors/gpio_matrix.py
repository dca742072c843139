"""The ``gpio-matrix`` sensor backend: a diode row/column switch matrix scanned with gpiozero.

One reed switch (or digital hall sensor) per cell, in series with a diode, between its row
line and its column line. To scan, each row in turn is driven to its active level while the
others stay inactive; a column reads active where the switch on the driven row is closed. The
diodes stop current sneaking back through other closed switches ("ghosting"), so any number of
pieces read correctly.

The default wiring is active-high: the selected row is driven high, the columns use the Pi's
internal pull-downs and read high through a closed switch (diode anodes towards the rows).
``active_high=False`` is the mirror image: rows driven low, columns pulled up (diode cathodes
towards the rows). With external resistors, ``internal_pull=False``.

Example:
    >>> matrix = GpioMatrix(row_pins=[5, 6, 13, 19, 26, 12, 16, 20],
    ...                     column_pins=[4, 17, 27, 22])               # doctest: +SKIP
    >>> matrix.rows, matrix.cols                                       # doctest: +SKIP
    (8, 4)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import ExitStack
from functools import partial
from typing import TYPE_CHECKING, Any

from board_io.errors import ConfigError
from board_io.extras import require
from board_io.options import ConfigSource, read
from board_io.pins import PinSpec, open_pins
from board_io.schema import (
    MATRIX_ACTIVE_HIGH,
    MATRIX_COLUMN_PINS,
    MATRIX_INTERNAL_PULL,
    MATRIX_ROW_PINS,
    MATRIX_SETTLE_US,
)
from board_io.sensors.base import SensorMatrix
from board_io.types import Frame, Reading

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["GpioMatrix"]

_BACKEND = "gpio-matrix"
_SECTION = "gpio_matrix"


class GpioMatrix(SensorMatrix):
    """A row/column matrix: ``len(row_pins)`` x ``len(column_pins)`` cells, presence only.

    ``settle_us``: how long to wait after driving a row before reading the columns (the row
    line and the diodes' capacitance must settle). ``pin_factory`` is gpiozero's (a
    ``MockFactory`` in tests; None: gpiozero's default for this machine).

    Raises:
        ConfigError: no rows or columns, a pin given twice, a pin the board does not have or
            already in use, ``settle_us`` out of 0..10000; the message names the option.
        MissingExtraError: gpiozero is not installed.
    """

    def __init__(self, row_pins: Sequence[PinSpec], column_pins: Sequence[PinSpec], *,
                 active_high: bool = True, internal_pull: bool = True, settle_us: int = 10,
                 pin_factory: Any = None) -> None:
        for key, pins in (("row_pins", row_pins), ("column_pins", column_pins)):
            if not pins:
                raise ConfigError(f"{_SECTION}.{key}", "a matrix needs at least one row pin "
                                  "and one column pin")
        if not 0 <= settle_us <= 10_000:
            raise ConfigError(f"{_SECTION}.settle_us", f"must be 0..10000, got {settle_us!r}")
        gpiozero = require("gpiozero", backend=_BACKEND)
        super().__init__(len(row_pins), len(column_pins))
        self.active_high = active_high
        self._settle = settle_us / 1e6
        drive = partial(gpiozero.DigitalOutputDevice, active_high=active_high,
                        initial_value=False)
        if internal_pull:
            sense = partial(gpiozero.DigitalInputDevice, pull_up=not active_high)
        else:
            sense = partial(gpiozero.DigitalInputDevice, pull_up=None, active_state=active_high)
        specs = {f"{_SECTION}.row_pins[{i}]": (drive, pin) for i, pin in enumerate(row_pins)}
        specs |= {f"{_SECTION}.column_pins[{i}]": (sense, pin)
                  for i, pin in enumerate(column_pins)}
        with ExitStack() as stack:
            devices = open_pins(stack, _BACKEND, specs, pin_factory=pin_factory)
            self._stack = stack.pop_all()
        self._row_pins = [devices[f"{_SECTION}.row_pins[{i}]"] for i in range(len(row_pins))]
        self._col_pins = [devices[f"{_SECTION}.column_pins[{i}]"]
                          for i in range(len(column_pins))]

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> GpioMatrix:
        """Build from ``gpio_matrix.*`` options (see docs/hardware.md).

        Raises:
            ConfigError: a bad option, named by its key.
        """
        return cls(
            read(config, MATRIX_ROW_PINS),
            read(config, MATRIX_COLUMN_PINS),
            active_high=read(config, MATRIX_ACTIVE_HIGH),
            internal_pull=read(config, MATRIX_INTERNAL_PULL),
            settle_us=read(config, MATRIX_SETTLE_US),
        )

    def _read(self) -> Frame:
        frame: list[Reading] = []
        for row in self._row_pins:
            row.on()
            try:
                if self._settle:
                    _busy_wait(self._settle)
                frame += [Reading.OCCUPIED if col.is_active else Reading.EMPTY
                          for col in self._col_pins]
            finally:
                row.off()
        return tuple(frame)

    def _close(self) -> None:
        self._stack.close()


def _busy_wait(seconds: float) -> None:
    # Microseconds: time.sleep() would oversleep by tens of microseconds on Linux.
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        pass
