"""Layouts, square names, cell maps, transforms, config round trips, orientation check."""

from __future__ import annotations

from typing import Any

import pytest

from board_io.errors import BoardIOError, ConfigError, UnknownSquareError
from board_io.geometry import (
    CellMap,
    Layout,
    Orientation,
    all_squares,
    check_orientation,
    dark_squares,
)
from board_io.types import Reading


@pytest.mark.parametrize(("size", "name", "coords"), [
    # International: 1 is b10 (top-left dark square seen by White), 46 is a1, 50 is j1.
    (10, "1", (9, 1)), (10, "5", (9, 9)), (10, "46", (0, 0)), (10, "50", (0, 8)),
    (10, "28", (4, 4)), (10, "32", (3, 3)),  # the opening 32-28 is d4-e5
    # English checkers: 1 b8, 4 h8, 29 a1, 32 g1; the single-corner diagonal 29-25-22-18-15.
    (8, "1", (7, 1)), (8, "4", (7, 7)), (8, "29", (0, 0)), (8, "32", (0, 6)),
    (8, "25", (1, 1)), (8, "22", (2, 2)), (8, "18", (3, 3)), (8, "15", (4, 4)),
    # Canadian 12x12.
    (12, "1", (11, 1)), (12, "67", (0, 0)), (12, "72", (0, 10)),
])
def test_numeric_dark_square_layouts(size: int, name: str, coords: tuple[int, int]) -> None:
    layout = dark_squares(size)
    assert layout.num_squares == size * size // 2
    sq = layout.parse(name)
    assert sq == int(name) - 1
    assert layout.coords[sq] == coords
    assert layout.name(sq) == name


def test_alphanumeric_layout() -> None:
    layout = dark_squares(8, "alphanumeric")
    assert layout.names[:5] == ("a1", "c1", "e1", "g1", "b2")
    assert layout.coords[layout.parse("C3")] == (2, 2)
    assert layout.coords[layout.parse("h8")] == (7, 7)
    assert layout.square_at(0, 1) is None
    with pytest.raises(UnknownSquareError):
        layout.parse("b1")  # a light square


def test_12x12_alphanumeric_names() -> None:
    layout = dark_squares(12, "alphanumeric")
    assert layout.coords[layout.parse("l12")] == (11, 11)
    assert layout.coords[layout.parse("a11")] == (10, 0)


def test_light_squares_on_a1() -> None:
    layout = dark_squares(8, a1_dark=False)
    assert layout.square_at(0, 0) is None
    assert layout.coords[layout.parse("1")] == (7, 0)


def test_turkish_all_squares() -> None:
    layout = all_squares()
    assert layout.num_squares == 64
    assert layout.coords[layout.parse("a1")] == (0, 0)
    assert layout.coords[layout.parse("d5")] == (4, 3)
    assert layout.coords[layout.parse("h8")] == (7, 7)
    numeric = all_squares(8, "numeric")
    assert numeric.coords[numeric.parse("1")] == (7, 0)
    assert numeric.coords[numeric.parse("64")] == (0, 7)


@pytest.mark.parametrize("text", ["51", "0", "", "z9", "b1x", "-3"])
def test_unknown_square_names(text: str) -> None:
    with pytest.raises(UnknownSquareError, match=r"1 \.\. 50"):
        dark_squares(10).parse(text)


def test_parse_is_forgiving_about_case_space_and_zeros() -> None:
    layout = dark_squares(10)
    assert layout.parse(" 05 ") == 4
    assert dark_squares(8, "alphanumeric").parse(" A1") == 0


@pytest.mark.parametrize(("coords", "names", "message"), [
    (((0, 0), (0, 0)), ("1", "2"), "both at"),
    (((0, 0), (9, 9)), ("1", "2"), "off a 8x8 board"),
    (((0, 0), (1, 1)), ("1", "01"), "used twice"),
    (((0, 0),), ("1", "2"), "1 coords but 2 names"),
])
def test_layout_validation(coords: Any, names: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Layout(8, 8, coords, names)


def test_board_size_limits() -> None:
    with pytest.raises(ValueError):
        dark_squares(3)
    with pytest.raises(ValueError):
        all_squares(27)


def test_rotate180_of_squares() -> None:
    layout = dark_squares(10)
    assert all(layout.rotate180(sq) == 49 - sq for sq in range(50))
    assert dark_squares(8).rotate180(0) == 31


# -- cell maps ---------------------------------------------------------------------------------

def test_identity_compact_sequential() -> None:
    layout = dark_squares(8)
    identity = CellMap.identity(layout)
    assert (identity.sensor_rows, identity.sensor_cols) == (8, 8)
    assert identity.cell(layout.parse("29")) == (0, 0)
    assert identity.square((0, 1)) is None

    compact = CellMap.compact(layout)
    assert (compact.sensor_rows, compact.sensor_cols) == (8, 4)
    assert compact.square((0, 0)) == layout.parse("29")
    assert compact.square((0, 3)) == layout.parse("32")
    assert compact.square((7, 0)) == layout.parse("1")
    assert compact.square((1, 0)) == layout.parse("25")

    chain = CellMap.sequential(layout)
    assert (chain.sensor_rows, chain.sensor_cols) == (1, 32)
    # wiring order: rank by rank from White's side, each from White's left (docs/hardware.md)
    assert chain.square((0, 0)) == layout.parse("29")
    assert chain.square((0, 5)) == layout.parse("26")
    assert CellMap.sequential(layout, 4, 8).square((1, 0)) == layout.parse("21")


def test_standard_map_by_shape() -> None:
    layout = dark_squares(10)
    assert CellMap.standard(layout, 10, 10) == CellMap.identity(layout)
    assert CellMap.standard(layout, 10, 5) == CellMap.compact(layout)
    assert CellMap.standard(layout, 2, 32) == CellMap.sequential(layout, 2, 32)
    with pytest.raises(ValueError, match="cannot read 50 squares"):
        CellMap.standard(layout, 4, 8)


def test_board_turned_map() -> None:
    layout = dark_squares(8)
    turned = CellMap.identity(layout).rotated180()
    # Square 1 (b8) now lies over the cell that read 32 (g1).
    assert turned.cell(layout.parse("1")) == (0, 6)
    assert turned.square((0, 0)) == layout.parse("4")
    assert turned.rotated180() == CellMap.identity(layout)


def test_sensor_transforms() -> None:
    layout = dark_squares(8)
    base = CellMap.compact(layout)
    mirrored = base.mirrored()
    assert mirrored.cell(layout.parse("29")) == (0, 3)
    assert mirrored.mirrored() == base
    spun = base.sensor_rotated180()
    assert spun.cell(layout.parse("29")) == (7, 3)
    assert spun.sensor_rotated180() == base
    both = base.transformed("mirror-rotate180")
    assert both.cell(layout.parse("29")) == (7, 0)
    assert base.transformed("identity") == base
    with pytest.raises(ValueError, match="unknown transform"):
        base.transformed("flip")


def test_sensor_rotation_of_standard_maps_equals_board_turn() -> None:
    layout = dark_squares(10)
    for cmap in (CellMap.identity(layout), CellMap.compact(layout), CellMap.sequential(layout)):
        assert cmap.sensor_rotated180() == cmap.rotated180()


def test_turkish_cannot_have_a_light_square_problem() -> None:
    layout = all_squares()
    assert CellMap.identity(layout).rotated180().cell(0) == (7, 7)


def test_board_that_cannot_turn() -> None:
    odd = Layout(3, 3, ((0, 0), (0, 1)), ("a", "b"))
    with pytest.raises(BoardIOError, match="cannot be turned"):
        CellMap.identity(odd).rotated180()


def test_cell_map_validation() -> None:
    layout = dark_squares(8)
    with pytest.raises(ValueError, match="outside the 8x4"):
        CellMap(layout, 8, 4, CellMap.identity(layout).cells)
    cells = list(CellMap.identity(layout).cells)
    cells[1] = cells[0]
    with pytest.raises(ValueError, match="read for both squares 1 and 2"):
        CellMap(layout, 8, 8, tuple(cells))


# -- config ------------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda lay: CellMap.identity(lay),
    lambda lay: CellMap.compact(lay).mirrored(),
    lambda lay: CellMap.identity(lay).rotated180(),
])
def test_config_round_trip(make: Any) -> None:
    layout = dark_squares(10)
    cmap = make(layout)
    data = cmap.to_config()
    assert set(data) == {"board.cell_map", "board.transform"}
    assert len(data["board.cell_map"]) == 50
    assert CellMap.from_config(data, layout, cmap.sensor_rows, cmap.sensor_cols) == cmap


def test_from_config_defaults_to_the_standard_map() -> None:
    layout = dark_squares(8)
    assert CellMap.from_config({}, layout, 8, 4) == CellMap.compact(layout)
    turned = CellMap.from_config({"board.transform": "rotate180"}, layout, 8, 8)
    assert turned == CellMap.identity(layout).sensor_rotated180()
    explicit = {"board.cell_map": list(range(32)), "board.transform": "mirror"}
    assert CellMap.from_config(explicit, layout, 1, 32).cell(0) == (0, 31)


@pytest.mark.parametrize(("data", "key", "message"), [
    ({"board.cell_map": [0, 1]}, "board.cell_map", "has 2 entries, the board has 32"),
    ({"board.cell_map": "0,1,2"}, "board.cell_map", "must be a list of integers"),
    ({"board.cell_map": [*range(31), 64]}, "board.cell_map[31] (square 32)", "outside the 8x8"),
    ({"board.cell_map": [*range(31), 0]}, "board.cell_map[31] (square 32)",
     "also given to square 1"),
    ({"board.cell_map": ["a", *range(1, 32)]}, "board.cell_map[0]", "must be an integer"),
    ({"board.cell_map": [True, *range(1, 32)]}, "board.cell_map[0]", "must be an integer"),
    ({"board.cell_map": [-1, *range(1, 32)]}, "board.cell_map[0]", "is below 0"),
    ({"board.transform": "sideways"}, "board.transform", "not one of"),
    ({"board.transform": 3}, "board.transform", "must be a string"),
])
def test_from_config_errors_name_the_key(data: dict[str, Any], key: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        CellMap.from_config(data, dark_squares(8), 8, 8)
    assert info.value.key == key
    assert str(info.value).startswith(key)


def test_from_config_matrix_too_small() -> None:
    with pytest.raises(ConfigError, match="cannot read 32 squares") as info:
        CellMap.from_config({}, dark_squares(8), 2, 8)
    assert info.value.key == "board.cell_map"


# -- orientation --------------------------------------------------------------------------------

def test_symmetric_initial_position_is_ambiguous_with_presence_only() -> None:
    layout = dark_squares(10)
    initial = set(range(20)) | set(range(30, 50))
    result = check_orientation(CellMap.identity(layout), initial, initial)
    assert result.orientation is Orientation.AMBIGUOUS


def test_turned_board_detected_and_map_flipped() -> None:
    layout = dark_squares(10)
    cmap = CellMap.identity(layout)
    expected = {layout.parse(n) for n in ("1", "2", "17", "33", "46")}  # asymmetric position
    # The user set the position up on a board turned on the sensors: each piece on square s
    # lies over the cell that reads the opposite square.
    lit_cells = {cmap.cell(layout.rotate180(s) or 0) for s in expected}
    seen = {cmap.square(c) for c in lit_cells}
    result = check_orientation(cmap, {s for s in seen if s is not None}, expected)
    assert result.orientation is Orientation.TURNED
    assert {result.cell_map.square(c) for c in lit_cells} == expected


def test_as_is_and_mismatch() -> None:
    layout = dark_squares(8)
    cmap = CellMap.identity(layout)
    assert check_orientation(cmap, {0, 5}, {0, 5}).orientation is Orientation.AS_IS
    mismatch = check_orientation(cmap, {0, 5}, {0, 6})
    assert mismatch.orientation is Orientation.MISMATCH and mismatch.cell_map == cmap


def test_colours_tell_a_turned_initial_position() -> None:
    layout = dark_squares(8)
    cmap = CellMap.identity(layout)
    expected = {sq: Reading.BLACK for sq in range(12)} | {sq: Reading.WHITE
                                                          for sq in range(20, 32)}
    turned = {31 - sq: r for sq, r in expected.items()}
    assert check_orientation(cmap, expected, expected).orientation is Orientation.AS_IS
    result = check_orientation(cmap, turned, expected)
    assert result.orientation is Orientation.TURNED
    assert result.cell_map == cmap.rotated180()
    # Presence-only readings cannot tell.
    assert check_orientation(cmap, set(turned), expected).orientation is Orientation.AMBIGUOUS
