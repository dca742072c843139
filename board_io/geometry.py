"""Board geometry: which squares exist, their names, and which sensor cell reads each square.

A :class:`Layout` is what :mod:`board_io` knows of a variant: its rows and columns, the
``(row, col)`` of every square index (row 0 nearest White, col 0 White's left) and its name.
A :class:`CellMap` says which sensor cell reads each square; it depends on the wiring and on
how the board is turned, and is built by calibration or from the standard wiring.

Example:
    >>> layout = dark_squares(10)
    >>> layout.parse("46"), layout.coords[45], layout.name(0)
    (45, (0, 0), '1')
    >>> CellMap.identity(layout).rotated180().cell(45)
    (9, 9)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from board_io.errors import BoardIOError, ConfigError, UnknownSquareError
from board_io.options import ConfigSource, read
from board_io.schema import CELL_MAP, TRANSFORM, TRANSFORMS
from board_io.types import Cell, Reading, Square

Notation = Literal["numeric", "alphanumeric"]
FILES = "abcdefghijklmnopqrstuvwxyz"


def _normalise(name: str) -> str:
    text = name.strip().lower()
    return str(int(text)) if text.isdigit() else text


@dataclass(frozen=True)
class Layout:
    """The squares of a board: per square index its ``(row, col)`` and its name.

    Example:
        >>> layout = dark_squares(8, "alphanumeric")
        >>> layout.parse("C3"), layout.name(layout.parse("c3")), layout.square_at(0, 1)
        (9, 'c3', None)

    Raises:
        ValueError: coordinates out of range, or a coordinate or name used twice.
    """

    rows: int
    cols: int
    coords: tuple[Cell, ...]
    names: tuple[str, ...]
    _by_name: dict[str, Square] = field(init=False, repr=False, compare=False)
    _by_coord: dict[Cell, Square] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a layout needs rows and cols >= 1, not {self.rows}x{self.cols}")
        if len(self.coords) != len(self.names):
            raise ValueError(f"{len(self.coords)} coords but {len(self.names)} names")
        by_coord: dict[Cell, Square] = {}
        for sq, (row, col) in enumerate(self.coords):
            if not (0 <= row < self.rows and 0 <= col < self.cols):
                raise ValueError(f"square {sq} at {(row, col)} is off a "
                                 f"{self.rows}x{self.cols} board")
            if by_coord.setdefault((row, col), sq) != sq:
                raise ValueError(f"squares {by_coord[(row, col)]} and {sq} both at {(row, col)}")
        by_name: dict[str, Square] = {}
        for sq, name in enumerate(self.names):
            if by_name.setdefault(_normalise(name), sq) != sq:
                raise ValueError(f"square name {name!r} used twice")
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_by_coord", by_coord)

    @property
    def num_squares(self) -> int:
        """How many squares the board has."""
        return len(self.coords)

    def name(self, sq: Square) -> str:
        """Return the name of square index ``sq``."""
        return self.names[sq]

    def parse(self, name: str) -> Square:
        """Return the index of the square called ``name`` (case and leading zeros ignored).

        Raises:
            UnknownSquareError: the layout has no such square.
        """
        try:
            return self._by_name[_normalise(name)]
        except KeyError:
            first, last = self.names[0], self.names[-1]
            raise UnknownSquareError(
                f"unknown square {name!r} (this board has {self.num_squares} squares, "
                f"{first} .. {last})"
            ) from None

    def square_at(self, row: int, col: int) -> Square | None:
        """Return the square at ``(row, col)``, or None for a non-playing square."""
        return self._by_coord.get((row, col))

    def rotate180(self, sq: Square) -> Square | None:
        """Return the square that ``sq`` lands on when the board is turned 180°."""
        row, col = self.coords[sq]
        return self._by_coord.get((self.rows - 1 - row, self.cols - 1 - col))


def _name(row: int, col: int, notation: Notation, number: int) -> str:
    return str(number) if notation == "numeric" else f"{FILES[col]}{row + 1}"


def _layout(rows: int, cols: int, cells: list[Cell], notation: Notation) -> Layout:
    if notation == "numeric":
        # PDN numbering: from the far rank (Black's side) down, left to right as White sees it.
        cells = sorted(cells, key=lambda rc: (-rc[0], rc[1]))
    else:
        cells = sorted(cells)
    names = tuple(_name(r, c, notation, i + 1) for i, (r, c) in enumerate(cells))
    return Layout(rows, cols, tuple(cells), names)


def dark_squares(size: int, notation: Notation = "numeric", *, a1_dark: bool = True) -> Layout:
    """Return the standard layout of the dark squares of a ``size`` x ``size`` board.

    ``numeric``: squares 1..n from the far rank, left to right as White sees it (8x8: 1..32,
    10x10: 1..50, 12x12: 1..72). ``alphanumeric``: ``a1``.. with index order a1, c1, e1, ...
    (rank 1 first).

    Example:
        >>> dark_squares(8).name(28), dark_squares(8).coords[28]
        ('29', (0, 0))

    Raises:
        ValueError: size not in 4..26.
    """
    if not 4 <= size <= len(FILES):
        raise ValueError(f"board size must be 4..{len(FILES)}, not {size}")
    parity = 0 if a1_dark else 1
    cells = [(r, c) for r in range(size) for c in range(size) if (r + c) % 2 == parity]
    return _layout(size, size, cells, notation)


def all_squares(size: int = 8, notation: Notation = "alphanumeric") -> Layout:
    """Return a layout using every square (Turkish draughts): ``a1``..``h8`` by default.

    Example:
        >>> all_squares().num_squares, all_squares().parse("h8")
        (64, 63)

    Raises:
        ValueError: size not in 4..26.
    """
    if not 4 <= size <= len(FILES):
        raise ValueError(f"board size must be 4..{len(FILES)}, not {size}")
    cells = [(r, c) for r in range(size) for c in range(size)]
    return _layout(size, size, cells, notation)


@dataclass(frozen=True)
class CellMap:
    """Which sensor cell reads each square: ``cells[sq] == (sensor_row, sensor_col)``.

    Cells not in the map (light squares on a full grid, unused register inputs) are ignored.

    Example:
        >>> layout = dark_squares(8)
        >>> cmap = CellMap.compact(layout)
        >>> cmap.sensor_rows, cmap.sensor_cols, cmap.square((0, 0))
        (8, 4, 28)

    Raises:
        ValueError: wrong number of cells, a cell outside the sensor matrix or used twice.
    """

    layout: Layout
    sensor_rows: int
    sensor_cols: int
    cells: tuple[Cell, ...]
    _by_cell: dict[Cell, Square] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.cells) != self.layout.num_squares:
            raise ValueError(f"{len(self.cells)} cells for {self.layout.num_squares} squares")
        by_cell: dict[Cell, Square] = {}
        for sq, (row, col) in enumerate(self.cells):
            if not (0 <= row < self.sensor_rows and 0 <= col < self.sensor_cols):
                raise ValueError(f"cell {(row, col)} of square {self.layout.name(sq)} is "
                                 f"outside the {self.sensor_rows}x{self.sensor_cols} sensor matrix")
            if by_cell.setdefault((row, col), sq) != sq:
                first = self.layout.name(by_cell[(row, col)])
                raise ValueError(f"cell {(row, col)} read for both squares {first} and "
                                 f"{self.layout.name(sq)}")
        object.__setattr__(self, "_by_cell", by_cell)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def identity(cls, layout: Layout) -> CellMap:
        """Map a board-sized sensor grid: cell ``(r, c)`` reads the square at ``(r, c)``."""
        return cls(layout, layout.rows, layout.cols, layout.coords)

    @classmethod
    def compact(cls, layout: Layout) -> CellMap:
        """Map a grid wired only under the squares: cell ``(r, k)`` is row r's k-th square.

        Raises:
            ValueError: the layout has no squares on some row.
        """
        per_row: dict[int, list[Square]] = {}
        for sq in sorted(range(layout.num_squares), key=lambda s: layout.coords[s][1]):
            per_row.setdefault(layout.coords[sq][0], []).append(sq)
        width = max(len(v) for v in per_row.values())
        cells: list[Cell] = [(0, 0)] * layout.num_squares
        for row, squares in per_row.items():
            for k, sq in enumerate(squares):
                cells[sq] = (row, k)
        return cls(layout, layout.rows, width, tuple(cells))

    @classmethod
    def sequential(cls, layout: Layout, sensor_rows: int = 1, sensor_cols: int | None = None
                   ) -> CellMap:
        """Map inputs in wiring order (a shift-register chain), the same for every variant.

        Input ``i`` (cell ``(i // cols, i % cols)``) reads the squares rank by rank from
        White's side, each rank from White's left: a1, c1, e1, g1, b2, ... on 8x8 draughts,
        the order of the :meth:`compact` grid's cells row by row (docs/hardware.md).

        Example:
            >>> layout = dark_squares(8)
            >>> [layout.name(CellMap.sequential(layout).square((0, i))) for i in (0, 1, 4)]
            ['29', '30', '25']

        Raises:
            ValueError: the matrix has fewer cells than the board has squares.
        """
        n = layout.num_squares
        cols = sensor_cols if sensor_cols is not None else -(-n // sensor_rows)
        if sensor_rows * cols < n:
            raise ValueError(f"a {sensor_rows}x{cols} sensor matrix cannot read {n} squares")
        cells: list[Cell] = [(0, 0)] * n
        for i, sq in enumerate(sorted(range(n), key=layout.coords.__getitem__)):
            cells[sq] = (i // cols, i % cols)
        return cls(layout, sensor_rows, cols, tuple(cells))

    @classmethod
    def standard(cls, layout: Layout, sensor_rows: int, sensor_cols: int) -> CellMap:
        """Return the standard map for a sensor matrix of that shape.

        A board-sized grid is :meth:`identity`, a grid as wide as a row's squares is
        :meth:`compact`, anything else with enough cells is :meth:`sequential`.

        Raises:
            ValueError: the matrix has too few cells for the board.
        """
        if (sensor_rows, sensor_cols) == (layout.rows, layout.cols):
            return cls.identity(layout)
        compact = cls.compact(layout)
        if (sensor_rows, sensor_cols) == (compact.sensor_rows, compact.sensor_cols):
            return compact
        return cls.sequential(layout, sensor_rows, sensor_cols)

    # -- queries -----------------------------------------------------------------------------
    def cell(self, sq: Square) -> Cell:
        """Return the sensor cell that reads square ``sq``."""
        return self.cells[sq]

    def square(self, cell: Cell) -> Square | None:
        """Return the square read by ``cell``, or None for an unmapped cell."""
        return self._by_cell.get(cell)

    def flat_indices(self) -> tuple[int, ...]:
        """Per square, the index of its cell in a row-major frame."""
        return tuple(r * self.sensor_cols + c for r, c in self.cells)

    # -- transforms --------------------------------------------------------------------------
    def rotated180(self) -> CellMap:
        """Return the map for the same wiring with the board turned 180° on it.

        Raises:
            BoardIOError: the layout is not symmetric under a half turn.
        """
        cells = list(self.cells)
        for sq in range(self.layout.num_squares):
            turned = self.layout.rotate180(sq)
            if turned is None:
                raise BoardIOError("this board cannot be turned 180°: its squares do not match")
            # The square that used to lie where `sq` was now lies on sq's old cell.
            cells[turned] = self.cells[sq]
        return CellMap(self.layout, self.sensor_rows, self.sensor_cols, tuple(cells))

    def mirrored(self) -> CellMap:
        """Return the map with the sensor columns wired in reverse order."""
        last = self.sensor_cols - 1
        return self._with_cells(tuple((r, last - c) for r, c in self.cells))

    def sensor_rotated180(self) -> CellMap:
        """Return the map with the sensor matrix itself mounted turned by 180°."""
        rows, cols = self.sensor_rows - 1, self.sensor_cols - 1
        return self._with_cells(tuple((rows - r, cols - c) for r, c in self.cells))

    def transformed(self, transform: str) -> CellMap:
        """Apply a sensor transform: ``identity``, ``rotate180``, ``mirror``, ``mirror-rotate180``.

        Raises:
            ValueError: unknown transform name.
        """
        if transform not in TRANSFORMS:
            raise ValueError(f"unknown transform {transform!r}; choose one of "
                             f"{', '.join(TRANSFORMS)}")
        result = self
        if transform.startswith("mirror"):
            result = result.mirrored()
        if transform.endswith("rotate180"):
            result = result.sensor_rotated180()
        return result

    def _with_cells(self, cells: tuple[Cell, ...]) -> CellMap:
        return CellMap(self.layout, self.sensor_rows, self.sensor_cols, cells)

    # -- configuration -----------------------------------------------------------------------
    def to_config(self) -> dict[str, Any]:
        """Return the config entries that store this map (flat dotted keys).

        Example:
            >>> CellMap.sequential(dark_squares(8)).to_config()["board.cell_map"][:3]
            [28, 29, 30]
        """
        return {"board.cell_map": list(self.flat_indices()), "board.transform": "identity"}

    @classmethod
    def from_config(cls, config: ConfigSource, layout: Layout, sensor_rows: int,
                    sensor_cols: int) -> CellMap:
        """Build the map from ``board.cell_map`` (per square, cell ``row*cols+col``; empty: the
        standard map) and ``board.transform``. Missing keys take their defaults.

        Raises:
            ConfigError: a value is malformed; the message names the key and the entry.
        """
        raw = read(config, CELL_MAP)
        transform = read(config, TRANSFORM)
        try:
            if not raw:
                base = cls.standard(layout, sensor_rows, sensor_cols)
            else:
                base = cls(layout, sensor_rows, sensor_cols,
                           _cells_from_config(raw, layout, sensor_rows, sensor_cols))
        except ValueError as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(CELL_MAP.path, str(exc)) from None
        return base.transformed(transform)


def _cells_from_config(raw: Sequence[int], layout: Layout, rows: int, cols: int
                       ) -> tuple[Cell, ...]:
    key = CELL_MAP.path
    if len(raw) != layout.num_squares:
        raise ConfigError(key, f"has {len(raw)} entries, the board has {layout.num_squares} "
                               "squares (recalibrate with `draughtsboard calibrate`)")
    seen: dict[int, int] = {}
    cells: list[Cell] = []
    for sq, value in enumerate(raw):
        where = f"{key}[{sq}] (square {layout.name(sq)})"
        if not 0 <= value < rows * cols:
            raise ConfigError(where, f"cell {value} is outside the {rows}x{cols} sensor matrix "
                                     f"(0..{rows * cols - 1})")
        if value in seen:
            raise ConfigError(where, f"cell {value} is also given to square "
                                     f"{layout.name(seen[value])}")
        seen[value] = sq
        cells.append(divmod(value, cols))
    return tuple(cells)


class Orientation(Enum):
    """What :func:`check_orientation` found."""

    AS_IS = "as-is"          # the board matches the map as it is
    TURNED = "turned"        # only matches with the board turned 180°
    AMBIGUOUS = "ambiguous"  # matches both ways: a symmetric position cannot tell
    MISMATCH = "mismatch"    # matches neither: not set up (yet)


@dataclass(frozen=True)
class OrientationCheck:
    """Result of :func:`check_orientation`: the finding and the map to use from now on."""

    orientation: Orientation
    cell_map: CellMap


Occupancy = Set[Square] | Mapping[Square, Reading]


def _as_readings(occ: Occupancy) -> dict[Square, Reading]:
    if isinstance(occ, Mapping):
        return {sq: Reading(r) for sq, r in occ.items() if Reading(r).occupied}
    return dict.fromkeys(occ, Reading.OCCUPIED)


def _comparable(seen: dict[Square, Reading], want: dict[Square, Reading], colours: bool
                ) -> bool:
    if colours:
        return seen == want
    return seen.keys() == want.keys()


def check_orientation(cell_map: CellMap, occupied: Occupancy, expected: Occupancy
                      ) -> OrientationCheck:
    """Tell whether the board stands as the map says, or is turned 180° on the sensors.

    ``occupied`` is the stable occupancy read through ``cell_map``; ``expected`` the position
    the board should show. Both may be sets of squares or mappings square -> :class:`Reading`;
    colours are compared only when both carry them. Presence alone cannot tell a symmetric
    position (every standard initial position) from its half turn: that gives ``AMBIGUOUS``.

    Example:
        >>> layout = dark_squares(8)
        >>> check_orientation(CellMap.identity(layout), {0}, {31}).orientation
        <Orientation.TURNED: 'turned'>

    Raises:
        BoardIOError: the layout cannot be turned 180°.
    """
    seen, want = _as_readings(occupied), _as_readings(expected)
    colours = any(r is not Reading.OCCUPIED for r in seen.values()) and any(
        r is not Reading.OCCUPIED for r in want.values())
    layout = cell_map.layout
    turned: dict[Square, Reading] = {}
    for sq, reading in seen.items():
        other = layout.rotate180(sq)
        if other is None:
            raise BoardIOError("this board cannot be turned 180°: its squares do not match")
        turned[other] = reading
    as_is, flipped = _comparable(seen, want, colours), _comparable(turned, want, colours)
    if as_is and flipped:
        return OrientationCheck(Orientation.AMBIGUOUS, cell_map)
    if as_is:
        return OrientationCheck(Orientation.AS_IS, cell_map)
    if flipped:
        return OrientationCheck(Orientation.TURNED, cell_map.rotated180())
    return OrientationCheck(Orientation.MISMATCH, cell_map)
