"""The start-up orientation check: a board turned round is noticed, and the fix offered works."""

from __future__ import annotations

import random

import pytest

from board_io.clock import VirtualClock
from board_io.errors import BoardIOError
from board_io.geometry import CellMap, Layout, Orientation, all_squares
from board_io.scanner import Scanner
from board_io.sim import SimulatedBoard
from board_io.types import Reading, Square
from engine import WHITE, Board
from firmware_host.recognition.layout import layout_for
from firmware_host.recognition.orientation import check_at_start, position_readings

# A position from a resumed game: not symmetric under a half turn.
RESUMED = frozenset({0, 1, 5, 17, 30, 44})


def read_turned(layout: Layout, wiring: CellMap, read_through: CellMap,
                position: frozenset[Square]) -> frozenset[Square]:
    """The occupancy read through ``read_through`` when ``position`` stands on a board
    turned 180° on sensors wired per ``wiring`` (a piece on s lies where s's twin would)."""
    board = SimulatedBoard(layout, clock=VirtualClock(), cell_map=wiring,
                           occupied={layout.rotate180(sq) for sq in position})
    scanner = Scanner(board.sensor_matrix, read_through, debounce_ms=0)
    (event,) = scanner.poll(0.0)
    return event.occupied  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize(("configured", "fix"), [
    ("identity", "rotate180"), ("rotate180", "identity"), ("mirror", "mirror-rotate180"),
    ("mirror-rotate180", "mirror")])
@pytest.mark.parametrize("shape", ["identity", "compact", "sequential"])
def test_turned_board_is_told_and_the_transform_offered_fixes_it(shape: str, configured: str,
                                                                 fix: str) -> None:
    layout = layout_for("international")
    base = getattr(CellMap, shape)(layout)
    cell_map = CellMap.from_config({"board.transform": configured}, layout, base.sensor_rows,
                                   base.sensor_cols)
    seen = read_turned(layout, cell_map, cell_map, RESUMED)
    advice = check_at_start(cell_map, seen, RESUMED, transform=configured)
    assert advice.message == (f'the board seems turned 180°: set board.transform = "{fix}" in '
                              "the configuration, or turn the board round")
    fixed = CellMap.from_config({"board.transform": fix}, layout, base.sensor_rows,
                                base.sensor_cols)
    assert read_turned(layout, cell_map, fixed, RESUMED) == RESUMED
    assert advice.transform == fix and advice.cell_map == fixed
    assert advice.orientation is Orientation.TURNED and advice.turned


def test_calibrated_map_that_no_transform_can_turn_asks_for_recalibration() -> None:
    layout = layout_for("international")
    cells = [divmod(i, 10) for i in range(100)]
    random.Random(4).shuffle(cells)
    wiring = CellMap(layout, 10, 10, tuple(cells[:50]))
    seen = read_turned(layout, wiring, wiring, RESUMED)
    advice = check_at_start(wiring, seen, RESUMED)
    assert advice.message == ("the board seems turned 180°: turn the board round, or run "
                              "`draughtsboard calibrate --write` with the board as it stands")
    assert advice.transform is None
    assert read_turned(layout, wiring, advice.cell_map, RESUMED) == RESUMED


@pytest.mark.parametrize("variant", ["english", "international", "russian", "canadian"])
def test_presence_alone_cannot_tell_a_turned_initial_position(variant: str) -> None:
    layout = layout_for(variant)
    start = Board(variant).occupied_squares()
    cell_map = CellMap.identity(layout)
    seen = read_turned(layout, cell_map, cell_map, frozenset(start))
    assert seen == start  # symmetric: the sensors read the same
    advice = check_at_start(cell_map, seen, start)
    assert advice.orientation is Orientation.AMBIGUOUS and advice.message is None
    assert advice.cell_map == cell_map and not advice.turned


def test_colours_tell_a_turned_initial_position() -> None:
    layout = layout_for("english")
    expected = {sq: Reading.BLACK for sq in range(12)} | {sq: Reading.WHITE
                                                           for sq in range(20, 32)}
    turned = {layout.rotate180(sq): reading for sq, reading in expected.items()}
    advice = check_at_start(CellMap.compact(layout), turned, expected)
    assert advice.message is not None and 'board.transform = "rotate180"' in advice.message
    as_is = check_at_start(CellMap.compact(layout), expected, expected)
    assert as_is.orientation is Orientation.AS_IS and as_is.message is None


def test_a_resumed_game_with_kings_on_colour_sensors_that_cannot_see_crowns() -> None:
    layout = layout_for("english")
    board = Board("english", "W:W21,K30:BK3,12")
    expected = position_readings(board)
    assert expected[29] is Reading.WHITE_KING and expected[2] is Reading.BLACK_KING
    seen = {layout.rotate180(sq): Reading.WHITE if r is Reading.WHITE_KING else
            Reading.BLACK if r is Reading.BLACK_KING else r for sq, r in expected.items()}
    advice = check_at_start(CellMap.identity(layout), seen, expected)
    assert advice.turned and advice.transform == "rotate180"
    assert check_at_start(CellMap.identity(layout), expected, expected).orientation is \
        Orientation.AS_IS


def test_position_readings_of_the_initial_position() -> None:
    board = Board("russian")
    readings = position_readings(board)
    assert readings.keys() == board.occupied_squares()
    for sq, reading in readings.items():
        piece = board.piece_at(sq)
        assert piece is not None
        assert reading is (Reading.WHITE if piece.color is WHITE else Reading.BLACK)
    assert sorted(readings.values()).count(Reading.WHITE) == 12


def test_a_board_not_set_up_yet_says_nothing() -> None:
    layout = layout_for("english")
    advice = check_at_start(CellMap.identity(layout), {3, 4}, set(range(12)))
    assert advice.orientation is Orientation.MISMATCH and advice.message is None
    assert advice.transform is None


def test_bad_arguments() -> None:
    layout = layout_for("english")
    with pytest.raises(ValueError, match=r"unknown board\.transform 'sideways'"):
        check_at_start(CellMap.identity(layout), set(), set(), transform="sideways")
    turkish = all_squares()
    assert check_at_start(CellMap.identity(turkish), {0}, {63}).message is not None
    odd = Layout(3, 3, ((0, 0), (0, 1)), ("a", "b"))
    with pytest.raises(BoardIOError, match="cannot be turned"):
        check_at_start(CellMap.identity(odd), {0}, {1})
