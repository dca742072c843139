"""Calibration: build a :class:`CellMap` by asking the user to place a piece on named squares.

Pure procedure, no I/O: the ``draughtsboard calibrate`` command feeds it stable frames (from a
:class:`~board_io.debounce.Debouncer`), prints :attr:`CalibrationStep.text` and shows
:meth:`Calibration.led_frame` on the LEDs. Per square: place a piece on it, the one cell that
turns occupied is its cell, lift the piece, next square. With ``candidates`` (standard maps
and their transforms) it stops once the answers single out one of them and one more square
confirms it (three squares for a standard wiring, every square otherwise).

Example:
    >>> from board_io.geometry import dark_squares
    >>> from board_io.types import Reading
    >>> layout = dark_squares(8)
    >>> cal = Calibration(layout, 8, 4, candidates=standard_candidates(layout, 8, 4))
    >>> empty = [Reading.EMPTY] * 32
    >>> cal.feed(empty).text
    'place a piece on 1'
    >>> frame = list(empty); frame[31] = Reading.OCCUPIED   # it shows up at cell (7, 3)
    >>> cal.feed(frame).text
    'lift the piece from 1'
    >>> cal.feed(empty).text
    'place a piece on 32'
    >>> frame = list(empty); frame[0] = Reading.OCCUPIED
    >>> cal.feed(frame).text, cal.feed(empty).text
    ('lift the piece from 32', 'place a piece on 17')
    >>> frame = list(empty); frame[3 * 4 + 3] = Reading.OCCUPIED   # 17 (b4): cell (3, 3)
    >>> cal.feed(frame).state, cal.result().cell(0)
    (<CalibrationState.DONE: 'done'>, (7, 3))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from board_io.errors import BoardIOError
from board_io.geometry import CellMap, Layout
from board_io.schema import TRANSFORMS
from board_io.types import YELLOW, Cell, Led, LedFrame, Pattern, Reading, Square

#: Squares placed before a single remaining candidate map is accepted.
CONFIRMATIONS = 3


class CalibrationState(Enum):
    """Where the procedure is."""

    CLEAR = "clear"  # waiting for an empty board
    PLACE = "place"  # waiting for a piece on :attr:`Calibration.square`
    LIFT = "lift"    # waiting for that piece to be lifted
    DONE = "done"


@dataclass(frozen=True)
class CalibrationStep:
    """What to tell the user now; ``warning`` explains a reading that did not fit."""

    state: CalibrationState
    square: Square | None
    text: str
    warning: str | None = None


def standard_candidates(layout: Layout, sensor_rows: int, sensor_cols: int) -> list[CellMap]:
    """The standard map for this matrix shape under every sensor transform, and the board
    turned 180° on each (the maps a quick calibration chooses from).

    Raises:
        ValueError: the matrix has too few cells for the board.
    """
    base = CellMap.standard(layout, sensor_rows, sensor_cols)
    result: list[CellMap] = []
    for transform in TRANSFORMS:
        cmap = base.transformed(transform)
        for candidate in (cmap, cmap.rotated180()):
            if candidate not in result:
                result.append(candidate)
    return result


class Calibration:
    """The calibration procedure as a state object (see the module docs).

    Raises:
        ValueError: ``order`` repeats a square or names one off the board.
    """

    def __init__(self, layout: Layout, sensor_rows: int, sensor_cols: int, *,
                 order: Sequence[Square] | None = None,
                 candidates: Sequence[CellMap] = ()) -> None:
        n = layout.num_squares
        if order is None and candidates:
            # Far corners first (they tell the transforms apart), then the middle to confirm.
            first = list(dict.fromkeys((0, n - 1, n // 2)))
            order = first + [sq for sq in range(n) if sq not in first]
        elif order is None:
            order = list(range(n))
        if sorted(order) != sorted(set(order)) or any(not 0 <= sq < n for sq in order):
            raise ValueError("order must list distinct squares of the board")
        self.layout = layout
        self.sensor_rows = sensor_rows
        self.sensor_cols = sensor_cols
        self._order = list(order)
        self._candidates = [c for c in candidates
                            if (c.sensor_rows, c.sensor_cols) == (sensor_rows, sensor_cols)]
        self._next = 0
        self.mapped: dict[Square, Cell] = {}
        self.ignored: set[Cell] = set()
        self._chosen: CellMap | None = None
        self._step = CalibrationStep(CalibrationState.CLEAR, None, "take every piece off the board")

    @property
    def step(self) -> CalibrationStep:
        """The current instruction."""
        return self._step

    @property
    def state(self) -> CalibrationState:
        """The current state."""
        return self._step.state

    @property
    def square(self) -> Square | None:
        """The square being calibrated (None while clearing or when done)."""
        return self._step.square

    def led_frame(self) -> LedFrame:
        """What the LEDs should show: the square to place on (steady) or to lift from (blink)."""
        sq = self._step.square
        if sq is None:
            return {}
        pattern = Pattern.ON if self._step.state is CalibrationState.PLACE else Pattern.SLOW
        return {sq: Led(pattern, YELLOW)}

    def ignore_occupied(self, frame: Sequence[Reading | None]) -> set[Cell]:
        """Treat the cells occupied in ``frame`` as stuck (a builder's choice); return them."""
        cells = self._occupied(frame)
        self.ignored |= cells
        return cells

    def _occupied(self, frame: Sequence[Reading | None]) -> set[Cell]:
        if len(frame) != self.sensor_rows * self.sensor_cols:
            raise ValueError(f"frame has {len(frame)} cells, expected "
                             f"{self.sensor_rows * self.sensor_cols}")
        cols = self.sensor_cols
        return {divmod(i, cols) for i, r in enumerate(frame)
                if r is not None and r is not Reading.EMPTY} - self.ignored

    def feed(self, frame: Sequence[Reading | None]) -> CalibrationStep:
        """Take a stable frame (None: a cell not settled yet); return the instruction now.

        Raises:
            ValueError: the frame has the wrong length.
        """
        occupied = self._occupied(frame)
        state = self._step.state
        if state is CalibrationState.CLEAR:
            if occupied:
                self._step = CalibrationStep(state, None, "take every piece off the board",
                                             f"cells still occupied: {_cells(occupied)}")
            else:
                self._advance()
        elif state is CalibrationState.PLACE and self._step.square is not None:
            self._place(self._step.square, occupied)
        elif state is CalibrationState.LIFT and not occupied:
            self._advance()
        return self._step

    def _place(self, sq: Square, occupied: set[Cell]) -> None:
        name = self.layout.name(sq)
        if not occupied:
            self._step = CalibrationStep(CalibrationState.PLACE, sq, f"place a piece on {name}")
            return
        if len(occupied) > 1:
            self._step = CalibrationStep(
                CalibrationState.PLACE, sq, f"place a piece on {name}",
                f"several cells read occupied ({_cells(occupied)}): leave only the piece on {name}")
            return
        (cell,) = occupied
        owner = next((s for s, c in self.mapped.items() if c == cell), None)
        if owner is not None:
            self._step = CalibrationStep(
                CalibrationState.PLACE, sq, f"place a piece on {name}",
                f"cell {_cells({cell})} already reads {self.layout.name(owner)}: "
                f"is the piece on {name}? lift it and try again")
            return
        self.mapped[sq] = cell
        self._candidates = [c for c in self._candidates if c.cell(sq) == cell]
        if len(self._candidates) == 1 and len(self.mapped) >= CONFIRMATIONS:
            self._chosen = self._candidates[0]
        self._step = CalibrationStep(CalibrationState.LIFT, sq, f"lift the piece from {name}")
        if self._chosen is not None or self._next >= len(self._order):
            self._finish()

    def _advance(self) -> None:
        if self._chosen is not None or self._next >= len(self._order):
            self._finish()
            return
        sq = self._order[self._next]
        self._next += 1
        self._step = CalibrationStep(CalibrationState.PLACE, sq,
                                     f"place a piece on {self.layout.name(sq)}")

    def _finish(self) -> None:
        self._step = CalibrationStep(CalibrationState.DONE, None,
                                     "calibration complete: lift the piece")

    def result(self) -> CellMap:
        """Return the calibrated map.

        Raises:
            BoardIOError: calibration is not finished.
        """
        if self._step.state is not CalibrationState.DONE:
            raise BoardIOError("calibration is not finished")
        if self._chosen is not None:
            return self._chosen
        cells = tuple(self.mapped[sq] for sq in range(self.layout.num_squares))
        return CellMap(self.layout, self.sensor_rows, self.sensor_cols, cells)


def _cells(cells: set[Cell]) -> str:
    return ", ".join(f"r{r}c{c}" for r, c in sorted(cells))
