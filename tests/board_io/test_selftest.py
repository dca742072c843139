"""Self-test: LED walk, change lines, and the report's diagnosis of wiring faults."""

from __future__ import annotations

from board_io.clock import VirtualClock
from board_io.geometry import CellMap, dark_squares
from board_io.selftest import SensorWatch, led_walk
from board_io.sim import SimFaults, SimulatedBoard
from board_io.types import YELLOW, Led, Pattern, Reading

LAYOUT = dark_squares(8)


def test_led_walk_lights_each_square_once() -> None:
    frames = list(led_walk(LAYOUT))
    assert [sq for sq, _ in frames] == list(range(32))
    assert all(dict(frame) == {sq: Led(Pattern.ON, YELLOW)} for sq, frame in frames)


def exercise(board: SimulatedBoard, watch: SensorWatch, squares: list[int]) -> list[str]:
    """Lift and place a piece on every square in turn, scanning at 100 Hz."""
    clock = board.clock
    assert isinstance(clock, VirtualClock)
    lines: list[str] = []

    def scan(n: int) -> None:
        for _ in range(n):
            lines.extend(watch.feed(board.frame(), clock.monotonic()))
            clock.advance(0.01)

    scan(5)
    for sq in squares:
        board.place(sq)
        scan(5)
        board.lift(sq)
        scan(5)
    return lines


def test_healthy_board() -> None:
    board = SimulatedBoard(LAYOUT, clock=VirtualClock())
    watch = SensorWatch(board.cell_map)
    lines = exercise(board, watch, list(range(32)))
    assert lines[:2] == ["r7c1 (square 1): occupied", "r7c1 (square 1): empty"]
    assert len(lines) == 64
    report = watch.report()
    assert report.ok and report.changed == dict.fromkeys(range(32), 2)
    assert report.lines(LAYOUT)[-1] == "all squares respond"


def test_untouched_squares_are_listed_without_blaming_wires() -> None:
    board = SimulatedBoard(LAYOUT, clock=VirtualClock())
    watch = SensorWatch(board.cell_map)
    exercise(board, watch, list(range(30)))
    report = watch.report()
    assert report.untouched == (30, 31) and not report.dead_rows and not report.dead_cols
    assert "never changed: 31 32" in report.lines(LAYOUT)


def test_dead_row_and_stuck_cell_are_diagnosed() -> None:
    faults = SimFaults(dead_rows=frozenset({2}), stuck={(0, 6): Reading.EMPTY})
    board = SimulatedBoard(LAYOUT, clock=VirtualClock(), faults=faults)
    watch = SensorWatch(board.cell_map)
    exercise(board, watch, list(range(32)))
    report = watch.report()
    row2 = tuple(sq for sq in range(32) if LAYOUT.coords[sq][0] == 2)
    assert set(report.untouched) == {*row2, LAYOUT.parse("32")}
    assert report.dead_rows == (2,)
    assert report.dead_cols == ()
    assert not report.ok
    assert "sensor row 2: no square changed (row wire or its driver?)" in report.lines(LAYOUT)


def test_noisy_cell_is_reported() -> None:
    board = SimulatedBoard(LAYOUT, clock=VirtualClock(),
                           faults=SimFaults(bounce_ms=40, bounce_toggles=12, seed=4))
    watch = SensorWatch(board.cell_map, noise_allowance=2)
    exercise(board, watch, [0])
    assert (7, 1) in watch.report().noisy


def test_flapping_cell_and_unmapped_cell() -> None:
    clock = VirtualClock()
    watch = SensorWatch(CellMap.identity(LAYOUT), stuck_ms=100)
    empty = [Reading.EMPTY] * 64
    lines = []
    for k in range(60):
        frame = list(empty)
        if k % 2:
            frame[0] = Reading.OCCUPIED  # (0, 0): square 29 flaps
        if k >= 40:
            frame[1] = Reading.OCCUPIED  # (0, 1): a light square's cell
        lines += watch.feed(tuple(frame), clock.monotonic())
        clock.advance(0.01)
    assert "r0c0 (square 29): noisy, keeps changing" in lines
    assert "r0c1 (no square): occupied" in lines
    report = watch.report()
    assert (0, 0) in report.noisy and report.unmapped == ((0, 1),)


def test_a_few_squares_tried_blame_no_wire() -> None:
    board = SimulatedBoard(LAYOUT, clock=VirtualClock())
    watch = SensorWatch(board.cell_map)
    exercise(board, watch, [0, 9, 18])  # three squares on three rows: most rows untried
    report = watch.report()
    assert len(report.untouched) == 29
    assert report.dead_rows == () and report.dead_cols == ()
