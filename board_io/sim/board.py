"""The simulated board: pieces on squares, seen through a simulated sensor matrix with faults.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> board = SimulatedBoard(dark_squares(8), occupied={8, 9}, clock=VirtualClock())
    >>> board.lift(8); board.place(12)
    <Reading.OCCUPIED: 1>
    >>> sorted(board.occupied)
    [9, 12]
"""

from __future__ import annotations

import math
import random
import threading
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from board_io.clock import Clock
from board_io.errors import BoardIOError, LinkTimeout
from board_io.geometry import CellMap, Layout
from board_io.sim.devices import SimButtons, SimSensorMatrix
from board_io.types import Cell, Frame, Reading, Sensing, Square


@dataclass(frozen=True)
class SimFaults:
    """Faults the simulated sensors inject.

    ``bounce_ms``: every lift/place toggles the cell ``bounce_toggles`` times (rounded up to even,
    so it ends on the new value) at random instants within this many ms. ``glitch_rate``: the
    chance per cell per scan that the cell reads inverted for that one scan. ``stuck``: cells
    that always read the given value. ``dead_rows``: sensor rows that always read empty.
    ``seed`` seeds the random source, so a faulty run is reproducible.

    Raises:
        ValueError: negative times or counts, or a rate outside 0..1.
    """

    bounce_ms: float = 0.0
    bounce_toggles: int = 4
    glitch_rate: float = 0.0
    stuck: Mapping[Cell, Reading] = field(default_factory=dict)
    dead_rows: frozenset[int] = frozenset()
    seed: int = 0

    def __post_init__(self) -> None:
        if self.bounce_ms < 0 or self.bounce_toggles < 0:
            raise ValueError("bounce_ms and bounce_toggles must be >= 0")
        if not 0.0 <= self.glitch_rate <= 1.0:
            raise ValueError(f"glitch_rate must be 0..1, not {self.glitch_rate}")


@dataclass
class _Bounce:
    times: list[float]
    old: Reading
    new: Reading


class SimulatedBoard:
    """A board with pieces, buttons and a sensor matrix, all in (usually virtual) time.

    ``occupied`` gives the starting pieces (a set of squares, or square -> reading for a
    colour-sensing board). ``cell_map`` says which sensor cell reads each square (default: a
    board-sized grid). Presence sensing reports every piece as ``OCCUPIED``. ``buttons``: the
    names of the buttons it has.

    Raises:
        ValueError: a starting square outside the board, or a fault cell outside the matrix.
    """

    def __init__(self, layout: Layout, occupied: Iterable[Square] | Mapping[Square, Reading] = (),
                 *, clock: Clock, cell_map: CellMap | None = None,
                 sensing: Sensing = Sensing.PRESENCE, faults: SimFaults | None = None,
                 buttons: Iterable[str] = ()) -> None:
        self.layout = layout
        self.clock = clock
        self.cell_map = cell_map if cell_map is not None else CellMap.identity(layout)
        if self.cell_map.layout != layout:
            raise ValueError("the cell map is for another layout")
        self.sensing = sensing
        self.faults = faults if faults is not None else SimFaults()
        self._check_faults()
        self._rng = random.Random(self.faults.seed)
        self._index = self.cell_map.flat_indices()
        self._pieces: dict[Square, Reading] = {}
        for sq, reading in _pieces(occupied).items():
            if not 0 <= sq < layout.num_squares:
                raise ValueError(f"square index {sq} is off the board")
            self._pieces[sq] = reading
        self._bounces: dict[int, _Bounce] = {}
        self._hand: list[Reading] = []  # lifted pieces, so that place() puts back the right one
        self._base: list[Reading] = [Reading.EMPTY] * (self.cell_map.sensor_rows
                                                       * self.cell_map.sensor_cols)
        for sq, reading in self._pieces.items():
            self._base[self._index[sq]] = self._seen(reading)
        self._frame_cache: Frame | None = None
        self._until_glitch = self._glitch_gap()
        # The demo moves pieces from the UI thread while the scan thread reads frames.
        self._lock = threading.Lock()
        self.link_up = True
        self.sensor_matrix = SimSensorMatrix(self)
        self.buttons = SimButtons(buttons, clock=clock)

    def _check_faults(self) -> None:
        rows, cols = self.cell_map.sensor_rows, self.cell_map.sensor_cols
        for r, c in self.faults.stuck:
            if not (0 <= r < rows and 0 <= c < cols):
                raise ValueError(f"stuck cell {(r, c)} is outside the {rows}x{cols} matrix")
        for r in self.faults.dead_rows:
            if not 0 <= r < rows:
                raise ValueError(f"dead row {r} is outside the {rows}-row matrix")

    def _seen(self, reading: Reading) -> Reading:
        return reading if self.sensing is Sensing.COLOUR else Reading.OCCUPIED

    # -- the physical board ------------------------------------------------------------------
    @property
    def occupied(self) -> frozenset[Square]:
        """The squares with a piece on them (the truth, not what the sensors read)."""
        return frozenset(self._pieces)

    @property
    def pieces(self) -> dict[Square, Reading]:
        """Square -> the piece on it."""
        return dict(self._pieces)

    def lift(self, sq: Square) -> Reading:
        """Lift the piece on ``sq``; return it.

        Raises:
            BoardIOError: the square is empty.
        """
        with self._lock:
            if sq not in self._pieces:
                raise BoardIOError(
                    f"cannot lift from {self.layout.name(sq)}: the square is empty")
            piece = self._pieces.pop(sq)
            self._hand.append(piece)
            self._set_cell(self._index[sq], Reading.EMPTY)
            return piece

    def place(self, sq: Square, piece: Reading | None = None) -> None:
        """Put ``piece`` on ``sq``; by default the piece lifted last (else a plain ``OCCUPIED``).

        Raises:
            BoardIOError: the square already holds a piece.
            ValueError: ``piece`` is ``EMPTY``.
        """
        if piece is Reading.EMPTY:
            raise ValueError("cannot place an empty piece")
        with self._lock:
            if sq in self._pieces:
                raise BoardIOError(
                    f"cannot place on {self.layout.name(sq)}: the square is occupied")
            if piece is None:
                piece = self._hand.pop() if self._hand else Reading.OCCUPIED
            elif piece in self._hand:
                self._hand.remove(piece)
            self._pieces[sq] = piece
            self._set_cell(self._index[sq], self._seen(piece))

    def move(self, origin: Square, destination: Square) -> None:
        """Lift the piece on ``origin`` and place it on ``destination``."""
        self.lift(origin)
        self.place(destination)

    def press(self, button: str) -> None:
        """Press ``button``.

        Raises:
            ValueError: the board has no such button.
        """
        self.buttons.press(button)

    def disconnect(self) -> None:
        """Simulate a lost link: sensor reads raise :class:`LinkTimeout` until reconnected."""
        self.link_up = False

    def reconnect(self) -> None:
        """End a simulated link loss."""
        self.link_up = True

    # -- what the sensors read ---------------------------------------------------------------
    def _set_cell(self, index: int, new: Reading) -> None:
        now = self.clock.monotonic()
        old = self._reading(index, now)
        self._base[index] = new
        self._frame_cache = None
        faults = self.faults
        if faults.bounce_ms > 0 and faults.bounce_toggles > 0:
            count = faults.bounce_toggles + faults.bounce_toggles % 2
            span = faults.bounce_ms / 1000.0
            times = sorted(now + self._rng.random() * span for _ in range(count))
            self._bounces[index] = _Bounce(times, old, new)
        else:
            self._bounces.pop(index, None)

    def _reading(self, index: int, now: float) -> Reading:
        bounce = self._bounces.get(index)
        if bounce is None:
            return self._base[index]
        if now >= bounce.times[-1]:
            del self._bounces[index]
            return self._base[index]
        return bounce.new if bisect_right(bounce.times, now) % 2 == 0 else bounce.old

    def frame(self) -> Frame:
        """Return what the sensors read now, faults included.

        Raises:
            LinkTimeout: while :meth:`disconnect`-ed.
        """
        if not self.link_up:
            raise LinkTimeout("simulated board disconnected")
        with self._lock:
            return self._frame()

    def _frame(self) -> Frame:
        faults = self.faults
        if self._frame_cache is not None and not self._bounces and not faults.glitch_rate:
            return self._frame_cache
        now = self.clock.monotonic()
        values = list(self._base)
        for index in list(self._bounces):
            values[index] = self._reading(index, now)
        cols = self.cell_map.sensor_cols
        for (r, c), value in faults.stuck.items():
            values[r * cols + c] = value
        for r in faults.dead_rows:
            values[r * cols:(r + 1) * cols] = [Reading.EMPTY] * cols
        if not self._bounces:
            self._frame_cache = tuple(values)
        if faults.glitch_rate > 0:
            self._glitch(values)
        return tuple(values)

    def _glitch_gap(self) -> float:
        # Cells until the next glitch: geometric, so that each cell-scan glitches with
        # probability glitch_rate while drawing one random number per glitch, not per cell.
        rate = self.faults.glitch_rate
        if rate <= 0:
            return math.inf
        if rate >= 1:
            return 0
        return math.floor(math.log(1.0 - self._rng.random()) / math.log(1.0 - rate))

    def _glitch(self, values: list[Reading]) -> None:
        n = len(values)
        while self._until_glitch < n:
            i = int(self._until_glitch)
            values[i] = Reading.EMPTY if values[i].occupied else Reading.OCCUPIED
            self._until_glitch += 1 + self._glitch_gap()
        self._until_glitch -= n


def _pieces(occupied: Iterable[Square] | Mapping[Square, Reading]) -> dict[Square, Reading]:
    if isinstance(occupied, Mapping):
        return {sq: Reading(r) for sq, r in occupied.items() if Reading(r).occupied}
    return dict.fromkeys(occupied, Reading.OCCUPIED)
