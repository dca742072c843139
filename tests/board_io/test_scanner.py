"""The scanner: debounced occupancy events, unmapped cells, faults, colours, link loss, buttons."""

from __future__ import annotations

import pytest

from board_io.clock import VirtualClock
from board_io.errors import DeviceClosed
from board_io.events import (
    BoardEvent,
    ButtonPressed,
    FaultKind,
    LinkLost,
    LinkRestored,
    OccupancyChanged,
    SensorFault,
    SensorRecovered,
)
from board_io.geometry import CellMap, dark_squares
from board_io.scanner import Scanner
from board_io.sensors.base import SensorMatrix
from board_io.sim import SimulatedBoard
from board_io.types import Frame, Reading, Sensing

E, X = Reading.EMPTY, Reading.OCCUPIED
LAYOUT = dark_squares(8)


class Scripted(SensorMatrix):
    """A sensor matrix that returns the frames it is given, one per read."""

    def __init__(self, rows: int, cols: int, sensing: Sensing = Sensing.PRESENCE) -> None:
        super().__init__(rows, cols, sensing)
        self.next: Frame = (E,) * (rows * cols)

    def _read(self) -> Frame:
        return self.next


def run(scanner: Scanner, sensors: Scripted, frames: list[dict[int, Reading]], *,
        start: float = 0.0) -> list[BoardEvent]:
    """Feed one frame per 10 ms; each frame is given as {cell index: reading}, rest empty."""
    events: list[BoardEvent] = []
    for k, cells in enumerate(frames):
        values = [E] * sensors.cells
        for i, reading in cells.items():
            values[i] = reading
        sensors.next = tuple(values)
        events += scanner.poll(start + k / 100)
    return events


def test_first_report_after_settling_then_changes_only() -> None:
    sensors = Scripted(8, 8)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT))
    a1 = {0: X}  # cell (0, 0): square 29
    events = run(scanner, sensors, [a1] * 5 + [{}] * 5)
    assert events == [OccupancyChanged(frozenset({28}), None, 0.02),
                      OccupancyChanged(frozenset(), None, 0.07)]
    assert scanner.occupied == frozenset()


def test_unmapped_cells_are_ignored() -> None:
    sensors = Scripted(8, 8)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT))
    light = {1: X, 8: X}  # (0, 1) and (1, 0): light squares
    events = run(scanner, sensors, [{}] * 3 + [light] * 5 + [{}] * 3)
    assert events == [OccupancyChanged(frozenset(), None, 0.02)]


def test_fault_and_recovery_of_a_mapped_cell() -> None:
    sensors = Scripted(8, 8)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT), stuck_ms=100)
    flapping = [{0: X}, {}] * 10
    events = run(scanner, sensors, [{}] * 3 + flapping + [{0: X}] * 3)
    square = LAYOUT.parse("29")
    assert events == [
        OccupancyChanged(frozenset(), None, 0.02),
        SensorFault((0, 0), FaultKind.FLAPPING, 0.13, square),
        SensorRecovered((0, 0), 0.25, square),
        OccupancyChanged(frozenset({square}), None, 0.25),
    ]


def test_faults_of_unmapped_cells_are_not_reported() -> None:
    sensors = Scripted(8, 8)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT), stuck_ms=50)
    events = run(scanner, sensors, [{}] * 3 + [{1: X}, {}] * 10)
    assert events == [OccupancyChanged(frozenset(), None, 0.02)]


def test_colour_sensing_reports_colours() -> None:
    sensors = Scripted(8, 8, Sensing.COLOUR)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT))
    events = run(scanner, sensors, [{0: Reading.WHITE}] * 3 + [{0: Reading.WHITE_KING}] * 3)
    assert [(e.occupied, dict(e.colours or {})) for e in events
            if isinstance(e, OccupancyChanged)] == [
        ({28}, {28: Reading.WHITE}), ({28}, {28: Reading.WHITE_KING})]


def test_presence_sensing_has_no_colours() -> None:
    sensors = Scripted(8, 8)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT))
    events = run(scanner, sensors, [{0: X}] * 3)
    assert isinstance(events[0], OccupancyChanged) and events[0].colours is None


def test_compact_wiring() -> None:
    sensors = Scripted(8, 4)
    scanner = Scanner(sensors, CellMap.compact(LAYOUT))
    events = run(scanner, sensors, [{3: X, 31: X}] * 3)
    assert events == [OccupancyChanged(frozenset({LAYOUT.parse("32"), LAYOUT.parse("4")}),
                                       None, 0.02)]


def test_link_lost_and_restored() -> None:
    clock = VirtualClock()
    board = SimulatedBoard(LAYOUT, occupied={5}, clock=clock)
    scanner = Scanner(board.sensor_matrix, board.cell_map)
    events: list[BoardEvent] = []

    def scan(n: int) -> None:
        for _ in range(n):
            events.extend(scanner.poll(clock.monotonic()))
            clock.advance(0.01)

    scan(3)
    board.disconnect()
    scan(3)
    board.lift(5)
    board.reconnect()
    scan(3)
    assert [type(e).__name__ for e in events] == [
        "OccupancyChanged", "LinkLost", "LinkRestored", "OccupancyChanged"]
    assert isinstance(events[1], LinkLost) and events[1].at == pytest.approx(0.03)
    assert isinstance(events[2], LinkRestored) and events[2].at == pytest.approx(0.06)
    last = events[3]
    assert isinstance(last, OccupancyChanged) and last.occupied == frozenset()
    assert last.at == pytest.approx(0.08)


def test_buttons_are_drained_into_events() -> None:
    clock = VirtualClock(1.0)
    board = SimulatedBoard(LAYOUT, clock=clock, buttons=("takeback",))
    scanner = Scanner(board.sensor_matrix, board.cell_map, buttons=board.buttons)
    board.press("takeback")
    assert scanner.poll(1.0) == [ButtonPressed("takeback", 1.0)]
    assert scanner.poll(1.01) == []


def test_mismatched_cell_map_and_closed_sensors() -> None:
    sensors = Scripted(8, 4)
    with pytest.raises(ValueError, match="8x8 sensor matrix, the sensors are 8x4"):
        Scanner(sensors, CellMap.identity(LAYOUT))
    scanner = Scanner(sensors, CellMap.compact(LAYOUT))
    sensors.close()
    with pytest.raises(DeviceClosed):
        scanner.poll(0.0)


def test_a_floating_unused_input_does_not_delay_the_first_report() -> None:
    sensors = Scripted(8, 8)
    scanner = Scanner(sensors, CellMap.identity(LAYOUT), stuck_ms=3000)
    floating = [{1: X}, {}]  # (0, 1), a light square's cell, flaps from power-on
    events = run(scanner, sensors, floating * 3)
    assert events == [OccupancyChanged(frozenset(), None, 0.02)]


def test_wrong_frame_length_from_a_backend() -> None:
    sensors = Scripted(8, 4)
    scanner = Scanner(sensors, CellMap.compact(LAYOUT))
    sensors.next = (E,) * 31
    with pytest.raises(ValueError, match="Scripted gave a frame of 31 cells, expected 32"):
        scanner.poll(0.0)
