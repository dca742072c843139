"""Calibration: full per-square procedure, quick mode with candidates, user mistakes."""

from __future__ import annotations

import pytest

from board_io.calibration import Calibration, CalibrationState, standard_candidates
from board_io.clock import VirtualClock
from board_io.debounce import Debouncer
from board_io.errors import BoardIOError
from board_io.geometry import CellMap, Layout, all_squares, dark_squares
from board_io.sim import SimulatedBoard
from board_io.types import YELLOW, Cell, Led, Pattern, Reading

E, X = Reading.EMPTY, Reading.OCCUPIED


def frame_with(rows: int, cols: int, *cells: Cell) -> list[Reading]:
    frame = [E] * (rows * cols)
    for r, c in cells:
        frame[r * cols + c] = X
    return frame


def calibrate_against(true_map: CellMap, calibration: Calibration, limit: int = 500) -> CellMap:
    """Play a careful user: place a piece where asked, wired per ``true_map``, then lift it."""
    rows, cols = true_map.sensor_rows, true_map.sensor_cols
    step = calibration.feed(frame_with(rows, cols))
    for _ in range(limit):
        if step.state is CalibrationState.DONE:
            return calibration.result()
        assert step.square is not None
        if step.state is CalibrationState.PLACE:
            step = calibration.feed(frame_with(rows, cols, true_map.cell(step.square)))
        else:
            step = calibration.feed(frame_with(rows, cols))
    raise AssertionError("calibration did not finish")


def scrambled(layout: Layout, rows: int, cols: int, seed: int) -> CellMap:
    import random
    cells = [divmod(i, cols) for i in range(rows * cols)]
    random.Random(seed).shuffle(cells)
    return CellMap(layout, rows, cols, tuple(cells[:layout.num_squares]))


@pytest.mark.parametrize(("layout", "rows", "cols"), [
    (dark_squares(8), 8, 8), (dark_squares(10), 10, 5), (dark_squares(12), 2, 36),
    (all_squares(), 8, 8)])
def test_full_calibration_recovers_any_wiring(layout: Layout, rows: int, cols: int) -> None:
    true_map = scrambled(layout, rows, cols, seed=rows * cols)
    result = calibrate_against(true_map, Calibration(layout, rows, cols))
    assert result == true_map


@pytest.mark.parametrize("index", range(16))
def test_quick_calibration_picks_the_candidate_in_three_squares(index: int) -> None:
    layout = dark_squares(10)
    candidates = standard_candidates(layout, 10, 10)
    assert len(candidates) >= 4
    true_map = candidates[index % len(candidates)]
    calibration = Calibration(layout, 10, 10, candidates=candidates)
    result = calibrate_against(true_map, calibration)
    assert result == true_map
    assert len(calibration.mapped) == 3


def test_quick_calibration_falls_back_to_every_square() -> None:
    layout = dark_squares(8)
    true_map = scrambled(layout, 8, 8, seed=1)
    calibration = Calibration(layout, 8, 8, candidates=standard_candidates(layout, 8, 8))
    assert calibrate_against(true_map, calibration) == true_map
    assert len(calibration.mapped) == 32


def test_prompts_warnings_and_leds() -> None:
    layout = dark_squares(8)
    cal = Calibration(layout, 8, 8)
    step = cal.feed(frame_with(8, 8, (3, 3)))
    assert step.state is CalibrationState.CLEAR and step.warning == "cells still occupied: r3c3"
    assert cal.led_frame() == {}
    step = cal.feed(frame_with(8, 8))
    assert (step.state, step.text) == (CalibrationState.PLACE, "place a piece on 1")
    assert cal.led_frame() == {0: Led(Pattern.ON, YELLOW)}
    step = cal.feed(frame_with(8, 8, (7, 1), (0, 0)))
    assert step.state is CalibrationState.PLACE
    assert step.warning is not None and "several cells read occupied (r0c0, r7c1)" in step.warning
    step = cal.feed(frame_with(8, 8, (7, 1)))
    assert (step.state, step.text) == (CalibrationState.LIFT, "lift the piece from 1")
    assert cal.led_frame() == {0: Led(Pattern.SLOW, YELLOW)}
    assert cal.feed(frame_with(8, 8, (7, 1))).state is CalibrationState.LIFT  # still there
    step = cal.feed(frame_with(8, 8))
    assert step.text == "place a piece on 2"
    # The user puts the piece back on square 1 by mistake.
    step = cal.feed(frame_with(8, 8, (7, 1)))
    assert step.state is CalibrationState.PLACE
    assert step.warning == "cell r7c1 already reads 1: is the piece on 2? lift it and try again"
    with pytest.raises(BoardIOError, match="not finished"):
        cal.result()


def test_unsettled_cells_are_ignored_and_stuck_cells_can_be_ignored() -> None:
    layout = dark_squares(8)
    cal = Calibration(layout, 8, 8)
    stuck = frame_with(8, 8, (5, 5))
    assert cal.feed(stuck).state is CalibrationState.CLEAR
    assert cal.ignore_occupied(stuck) == {(5, 5)}
    assert cal.feed(stuck).state is CalibrationState.PLACE
    unsettled: list[Reading | None] = list(stuck)
    unsettled[57] = None
    assert cal.feed(unsettled).state is CalibrationState.PLACE
    with pytest.raises(ValueError, match="frame has 3 cells"):
        cal.feed([E, E, E])


def test_bad_order() -> None:
    with pytest.raises(ValueError):
        Calibration(dark_squares(8), 8, 8, order=[0, 0, 1])
    with pytest.raises(ValueError):
        Calibration(dark_squares(8), 8, 8, order=[32])


def test_with_a_simulated_board_and_a_debouncer() -> None:
    """End to end as the CLI runs it: sim board wired compact and mirrored, real debouncing."""
    layout = dark_squares(10)
    wiring = CellMap.compact(layout).mirrored()
    clock = VirtualClock()
    board = SimulatedBoard(layout, clock=clock, cell_map=wiring)
    debouncer = Debouncer(50)
    cal = Calibration(layout, 10, 5, candidates=standard_candidates(layout, 10, 5))
    for _ in range(200):
        debouncer.feed(board.frame(), clock.monotonic())
        clock.advance(0.01)
        if not debouncer.ready:
            continue
        before = cal.state
        step = cal.feed(debouncer.stable)
        if step.state is CalibrationState.DONE:
            break
        if step.state is CalibrationState.PLACE and before is not CalibrationState.PLACE:
            assert step.square is not None
            board.place(step.square)
        elif step.state is CalibrationState.LIFT and before is CalibrationState.PLACE:
            assert step.square is not None
            board.lift(step.square)
    assert cal.result() == wiring
