"""Self-test logic for ``draughtsboard selftest``: walk the LEDs, watch the sensors.

Pure: the command shows :func:`led_walk` frames one after the other, then feeds raw frames to a
:class:`SensorWatch` while the builder lifts and places pieces, printing the lines it returns,
and prints :meth:`SensorWatch.report` at the end, which points at likely wiring faults: squares
that never changed, switches stuck closed, dead sensor rows or columns, noisy cells, cells that
read no square, and a switch matrix without diodes. The diode test is the ghost test: with
three corners of a rectangle of sensor cells closed, a matrix without diodes reads the fourth
corner closed too, at the same moment as the third (:meth:`SensorWatch.ghost_test` names a
rectangle for the builder to try; any rectangle closed during the watch counts).

Example:
    >>> from board_io.geometry import CellMap, dark_squares
    >>> from board_io.types import Reading
    >>> layout = dark_squares(8)
    >>> watch = SensorWatch(CellMap.identity(layout))
    >>> empty = (Reading.EMPTY,) * 64
    >>> _ = [watch.feed(empty, t / 100) for t in range(3)]
    >>> placed = list(empty); placed[0] = Reading.OCCUPIED
    >>> [line for t in range(3, 6) for line in watch.feed(tuple(placed), t / 100)]
    ['r0c0 (square 29): occupied']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from board_io.debounce import Debouncer
from board_io.geometry import CellMap, Layout
from board_io.types import YELLOW, Cell, Frame, Led, LedFrame, Pattern, Reading, Rgb, Square


def led_walk(layout: Layout, *, colour: Rgb = YELLOW) -> Iterator[tuple[Square, LedFrame]]:
    """Yield, for every square in index order, a frame lighting that square alone.

    Example:
        >>> from board_io.geometry import dark_squares
        >>> [sq for sq, _ in led_walk(dark_squares(8))][:3]
        [0, 1, 2]
    """
    for sq in range(layout.num_squares):
        yield sq, {sq: Led(Pattern.ON, colour)}


@dataclass(frozen=True)
class SelfTestReport:
    """What the sensor watch found."""

    changed: dict[Square, int]           # stable changes per square that changed
    untouched: tuple[Square, ...]        # squares that never changed
    dead_rows: tuple[int, ...]           # sensor rows none of whose squares changed
    dead_cols: tuple[int, ...]           # sensor columns none of whose squares changed
    noisy: tuple[Cell, ...]              # cells that flapped or toggled far more than they changed
    unmapped: tuple[Cell, ...]           # cells reading no square that changed anyway
    stuck: tuple[Square, ...] = ()       # never changed and read occupied all along
    # ghost cell -> the three closed corners it appeared with (a matrix without diodes)
    ghosts: dict[Cell, tuple[Cell, Cell, Cell]] = field(default_factory=dict)
    diodes_checked: bool = False         # a rectangle had three corners closed, no ghost seen

    @property
    def ok(self) -> bool:
        """True when nothing looks wrong."""
        return not (self.untouched or self.noisy or self.unmapped or self.ghosts)

    def lines(self, layout: Layout) -> list[str]:
        """The report as text lines."""
        out = [f"{len(self.changed)} of {layout.num_squares} squares seen changing"]
        stuck = set(self.stuck)
        dead = [sq for sq in self.untouched if sq not in stuck]
        if dead:
            out.append(f"never changed: {' '.join(layout.name(sq) for sq in dead)}")
        if stuck:
            names = " ".join(layout.name(sq) for sq in self.stuck)
            out.append(f"stuck closed (read a piece all along; switch stuck shut, a magnet "
                       f"nearby or a short?): {names}")
        for (r, c), corners in self.ghosts.items():
            others = " ".join(f"r{cr}c{cc}" for cr, cc in corners)
            out.append(f"r{r}c{c}: read closed at the same moment as {others} (three corners "
                       f"of a rectangle): a ghost, the switch matrix has no diodes (or a "
                       f"diode is shorted)")
        if self.diodes_checked and not self.ghosts:
            out.append("diode test passed: three corners of a rectangle closed, no ghost")
        out += [f"sensor row {r}: no square changed (row wire or its driver?)"
                for r in self.dead_rows]
        out += [f"sensor column {c}: no square changed (column wire or its input?)"
                for c in self.dead_cols]
        out += [f"r{r}c{c}: noisy (loose contact or bad solder joint?)" for r, c in self.noisy]
        out += [f"r{r}c{c}: changed but reads no square (map or wiring wrong?)"
                for r, c in self.unmapped]
        if self.ok:
            out.append("all squares respond")
        return out


class SensorWatch:
    """Watches raw frames: reports each debounced change and collects statistics.

    ``noise_allowance``: raw toggles tolerated per cell beyond twice its stable changes (reed
    switches bounce a little) before the cell is called noisy.
    """

    def __init__(self, cell_map: CellMap, *, debounce_ms: float = 20, stuck_ms: float = 1000,
                 noise_allowance: int = 8, matrix: bool = True) -> None:
        self.cell_map = cell_map
        cells = cell_map.sensor_rows * cell_map.sensor_cols
        self._debouncer = Debouncer(cells, debounce_ms=debounce_ms, stuck_ms=stuck_ms)
        self._noise_allowance = noise_allowance
        self._raw_toggles = [0] * cells
        self._changes = [0] * cells
        self._flapped: set[int] = set()
        self._last: Frame | None = None
        self._ready_seen = False
        self._matrix = matrix  # a row/column matrix (ghosts possible), not one input per cell
        self._closed: set[int] = set()
        self._ever_open: set[int] = set()
        self._ghosts: dict[Cell, tuple[Cell, Cell, Cell]] = {}
        self._diodes_checked = False

    def ghost_test(self) -> tuple[Square, Square, Square, Square] | None:
        """Four squares at the corners of a rectangle of sensor cells (the last is the corner
        to watch), or None when the sensors are no matrix or no rectangle is mapped."""
        if not self._matrix:
            return None
        cmap = self.cell_map
        at = {cell: sq for sq, cell in enumerate(cmap.cells)}
        rows = sorted({r for r, _ in cmap.cells})
        cols = sorted({c for _, c in cmap.cells})
        for r1 in rows:
            for r2 in (r for r in rows if r > r1):
                for c1 in cols:
                    for c2 in (c for c in cols if c > c1):
                        corners = [at.get(cell) for cell in ((r1, c1), (r1, c2), (r2, c1),
                                                             (r2, c2))]
                        if all(sq is not None for sq in corners):
                            a, b, c, d = (sq for sq in corners if sq is not None)
                            return a, b, c, d
        return None

    def _label(self, index: int) -> str:
        row, col = divmod(index, self.cell_map.sensor_cols)
        sq = self.cell_map.square((row, col))
        where = "no square" if sq is None else f"square {self.cell_map.layout.name(sq)}"
        return f"r{row}c{col} ({where})"

    def feed(self, frame: Frame, now: float) -> list[str]:
        """Take a raw frame scanned at ``now``; return a line per cell change or fault."""
        if self._last is not None:
            for i, (a, b) in enumerate(zip(self._last, frame, strict=True)):
                if a is not b:
                    self._raw_toggles[i] += 1
        self._last = frame
        update = self._debouncer.feed(frame, now)
        lines = [f"{self._label(i)}: noisy, keeps changing" for i in update.faulted]
        self._flapped.update(update.faulted)
        if not self._ready_seen:
            # The first settled frame is the starting state, not a change.
            self._ready_seen = self._debouncer.ready
            return lines
        stable = self._debouncer.stable
        for i in update.changed:
            self._changes[i] += 1
            reading = stable[i]
            state = "empty" if reading is Reading.EMPTY or reading is None else (
                "occupied" if reading is Reading.OCCUPIED else reading.name.lower())
            lines.append(f"{self._label(i)}: {state}")
        lines += self._watch_ghosts(update.changed)
        return lines

    def _watch_ghosts(self, changed: tuple[int, ...]) -> list[str]:
        """The ghost test: a cell closing together with one of three closed rectangle corners."""
        stable = self._debouncer.stable
        self._closed = {i for i, r in enumerate(stable) if r is not None and r != Reading.EMPTY}
        self._ever_open.update(i for i in range(len(stable)) if i not in self._closed)
        if not self._matrix:
            return []
        width = self.cell_map.sensor_cols
        lines = []
        closing = [i for i in changed if i in self._closed]
        for i in closing:
            row, col = divmod(i, width)
            for corners in self._rectangles(row, col):
                if not any(c in closing and c != i for c in corners):
                    continue
                cells = tuple(divmod(c, width) for c in corners)
                if (row, col) not in self._ghosts:
                    self._ghosts[(row, col)] = (cells[0], cells[1], cells[2])
                    others = " ".join(f"r{r}c{c}" for r, c in cells)
                    lines.append(f"{self._label(i)}: closed at the same moment as {others}: "
                                 f"a ghost? (no diodes in the matrix)")
                break
        if not self._diodes_checked:
            self._diodes_checked = self._three_corners_without_ghost()
        return lines

    def _rectangles(self, row: int, col: int) -> Iterator[tuple[int, int, int]]:
        width, closed = self.cell_map.sensor_cols, self._closed
        rows = range(self.cell_map.sensor_rows)
        for c2 in (c for c in range(width) if c != col and row * width + c in closed):
            for r2 in (r for r in rows if r != row and r * width + col in closed):
                if r2 * width + c2 in closed:
                    yield row * width + c2, r2 * width + col, r2 * width + c2

    def _three_corners_without_ghost(self) -> bool:
        width, closed = self.cell_map.sensor_cols, self._closed
        for i in closed:
            r1, c1 = divmod(i, width)
            for j in closed:
                r2, c2 = divmod(j, width)
                if r2 == r1 or c2 == c1:
                    continue
                corner = r1 * width + c2
                fourth = r2 * width + c1
                if corner in closed and fourth not in closed:
                    return True
        return False

    def report(self) -> SelfTestReport:
        """Summarise what was seen so far."""
        cmap = self.cell_map
        flat = cmap.flat_indices()
        changed = {sq: self._changes[i] for sq, i in enumerate(flat) if self._changes[i]}
        untouched = tuple(sq for sq in range(cmap.layout.num_squares) if sq not in changed)
        rows = {r for r, _ in cmap.cells}
        cols = {c for _, c in cmap.cells}
        dead_rows = tuple(sorted(r for r in rows if all(
            sq in untouched for sq, (row, _) in enumerate(cmap.cells) if row == r)))
        dead_cols = tuple(sorted(c for c in cols if all(
            sq in untouched for sq, (_, col) in enumerate(cmap.cells) if col == c)))
        if 2 * len(changed) < cmap.layout.num_squares:
            # Until most squares have been tried, an untouched row says nothing about its wire.
            dead_rows = dead_cols = ()
        width = cmap.sensor_cols
        noisy = tuple(divmod(i, width) for i in range(len(self._raw_toggles))
                      if i in self._flapped or self._raw_toggles[i]
                      > 2 * self._changes[i] + self._noise_allowance)
        mapped = set(flat)
        unmapped = tuple(divmod(i, width) for i, n in enumerate(self._changes)
                         if n and i not in mapped)
        stuck = tuple(sq for sq in untouched
                      if flat[sq] in self._closed and flat[sq] not in self._ever_open)
        return SelfTestReport(changed, untouched, dead_rows, dead_cols, noisy, unmapped, stuck,
                              dict(self._ghosts), self._diodes_checked and self._matrix)
