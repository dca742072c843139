"""The ``gpio-matrix`` backend on gpiozero's MockFactory, its pins wired like a diode matrix.

Row pins are a :class:`MockPin` subclass: whenever a row's level changes, the column pins are
driven as real wires would be, a column reading active only through a closed switch on a row
that is driven to the active level (the diode blocks every other path).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from board_io.clock import VirtualClock
from board_io.errors import ConfigError, DeviceClosed
from board_io.events import OccupancyChanged
from board_io.geometry import CellMap, dark_squares
from board_io.registry import BackendContext, create_scanner, create_sensors
from board_io.scanner import Scanner
from board_io.sensors.gpio_matrix import GpioMatrix
from board_io.types import Reading

ROWS = [5, 6, 13, 19, 26, 12, 16, 20]
COLS = [4, 17, 27, 22]


class RowPin(MockPin):
    """A row line of the matrix: changing its level re-drives the columns."""

    matrix: SwitchMatrix | None = None

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.settle()
        return changed


class SwitchMatrix:
    """Reed switches with diodes between the row and column pins of a MockFactory."""

    def __init__(self, factory: MockFactory, rows: Sequence[int], cols: Sequence[int], *,
                 active_high: bool = True) -> None:
        self.rows: list[RowPin] = [factory.pin(p, pin_class=RowPin) for p in rows]
        self.cols: list[MockPin] = [factory.pin(p) for p in cols]
        self.active_high = active_high
        self.closed: set[tuple[int, int]] = set()
        for pin in self.rows:
            pin.matrix = self

    def close_switches(self, *cells: tuple[int, int]) -> None:
        self.closed = set(cells)

    def settle(self) -> None:
        for c, col in enumerate(self.cols):
            if col.function != "input":
                continue
            through = any(row.function == "output" and row.state == self.active_high
                          and (r, c) in self.closed for r, row in enumerate(self.rows))
            # A closed switch on the driven row wins over the pull resistor.
            level = self.active_high if through else not self.active_high
            if level:
                col.drive_high()
            else:
                col.drive_low()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def _occupied(frame: Sequence[Reading]) -> list[int]:
    return [i for i, r in enumerate(frame) if r is Reading.OCCUPIED]


@pytest.mark.parametrize("active_high", [False, True])
def test_reads_closed_switches(factory: MockFactory, active_high: bool) -> None:
    wiring = SwitchMatrix(factory, ROWS, COLS, active_high=active_high)
    with GpioMatrix(ROWS, COLS, active_high=active_high, pin_factory=factory) as matrix:
        assert (matrix.rows, matrix.cols) == (8, 4)
        assert _occupied(matrix.read()) == []
        wiring.close_switches((0, 0), (2, 3), (7, 1))
        assert _occupied(matrix.read()) == [0, 11, 29]
        wiring.close_switches((7, 3))
        assert _occupied(matrix.read()) == [31]
        # No row is left selected between scans.
        assert [pin.state for pin in wiring.rows] == [not active_high] * 8


def test_no_ghosting_with_diodes(factory: MockFactory) -> None:
    wiring = SwitchMatrix(factory, ROWS, COLS)
    wiring.close_switches((0, 0), (0, 1), (1, 0))  # three corners of a rectangle
    with GpioMatrix(ROWS, COLS, pin_factory=factory) as matrix:
        assert _occupied(matrix.read()) == [0, 1, 4]


def test_external_pull_resistors(factory: MockFactory) -> None:
    wiring = SwitchMatrix(factory, ROWS, COLS)
    with GpioMatrix(ROWS, COLS, internal_pull=False, settle_us=0,
                    pin_factory=factory) as matrix:
        assert all(pin.pull == "floating" for pin in wiring.cols)
        wiring.close_switches((3, 2))
        assert _occupied(matrix.read()) == [14]


def test_scanner_reports_squares(factory: MockFactory) -> None:
    wiring = SwitchMatrix(factory, ROWS, COLS)
    layout = dark_squares(8)
    cell_map = CellMap.compact(layout)  # row r's k-th dark square on column k
    # White's men on squares 21..32 (indices 20..31): rows 0-2 of the board.
    wiring.close_switches(*(cell_map.cell(sq) for sq in range(20, 32)))
    with GpioMatrix(ROWS, COLS, pin_factory=factory) as matrix:
        scanner = Scanner(matrix, cell_map, debounce_ms=20)
        events = [e for t in (0.0, 0.01, 0.02) for e in scanner.poll(t)]
        assert [type(e) for e in events] == [OccupancyChanged]
        assert isinstance(events[0], OccupancyChanged)
        assert events[0].occupied == frozenset(range(20, 32))


def test_close_releases_pins(factory: MockFactory) -> None:
    SwitchMatrix(factory, ROWS, COLS)
    matrix = GpioMatrix(ROWS, COLS, pin_factory=factory)
    matrix.close()
    matrix.close()
    with pytest.raises(DeviceClosed):
        matrix.read()
    with GpioMatrix(ROWS, COLS, pin_factory=factory) as again:
        assert again.rows == 8


@pytest.mark.parametrize(
    ("rows", "cols", "words"),
    [
        ([5, 6], [6, 7], r"column_pins\[0\]: pin 6 is also given as gpio_matrix.row_pins\[1\]"),
        ([5, "GPIO6"], [7, 6], r"column_pins\[1\]: pin 6 is also given as .*row_pins\[1\]"),
        ([5, 99], [7], r"gpio_matrix.row_pins\[1\]: pin 99 does not exist on this board"),
        ([5, "BOARD11"], [17], r"gpio_matrix.column_pins\[0\]: pin 17 is already in use"),
        ([5, -1], [7], r"row_pins\[1\]: -1 is not a GPIO pin"),
        ([5, True], [7], r"row_pins\[1\]: True is not a GPIO pin"),
        ([], [7], "gpio_matrix.row_pins: a matrix needs at least one row pin"),
        ([5], [], "gpio_matrix.column_pins: a matrix needs at least one row pin"),
    ],
)
def test_bad_pins_are_clear_errors(factory: MockFactory, rows: list[object], cols: list[object],
                                   words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        GpioMatrix(rows, cols, pin_factory=factory)  # type: ignore[arg-type]
    # Whatever was opened before the error was released again.
    with GpioMatrix([5, 6], [7, 17], pin_factory=factory) as matrix:
        assert matrix.cells == 4


def test_bad_settle_time(factory: MockFactory) -> None:
    with pytest.raises(ConfigError, match=r"gpio_matrix.settle_us: must be 0\.\.10000"):
        GpioMatrix(ROWS, COLS, settle_us=-1, pin_factory=factory)


def test_from_config(factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", factory)
    wiring = SwitchMatrix(factory, ROWS, COLS, active_high=False)
    config = {"board.sensors": "gpio-matrix", "gpio_matrix.row_pins": ROWS,
              "gpio_matrix.column_pins": COLS, "gpio_matrix.active_high": False,
              "gpio_matrix.settle_us": 0, "timing.debounce_ms": 0}
    with BackendContext(dark_squares(8), VirtualClock()) as context:
        sensors = create_sensors(config, context)
        assert isinstance(sensors, GpioMatrix) and not sensors.active_high
        scanner = create_scanner(config, context.layout, sensors)
        wiring.close_switches((0, 0), (7, 3))  # a1 = square 29, h8 = square 4
        (event,) = scanner.poll(0.0)
        assert isinstance(event, OccupancyChanged) and event.occupied == {28, 3}
        sensors.close()


def test_from_config_needs_pins() -> None:
    with BackendContext(dark_squares(8), VirtualClock()) as context, \
            pytest.raises(ConfigError, match=r"gpio_matrix\.row_pins: a matrix needs"):
        create_sensors({"board.sensors": "gpio-matrix"}, context)
