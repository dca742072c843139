"""The scanner: sensors -> debouncer -> cell map -> board events. No threads inside.

The firmware calls :meth:`Scanner.poll` at the scan rate on its scan thread and puts the
returned events on its queue.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> from board_io.sim import SimulatedBoard
    >>> clock = VirtualClock()
    >>> board = SimulatedBoard(dark_squares(8), occupied={0, 1}, clock=clock)
    >>> scanner = Scanner(board.sensor_matrix, board.cell_map, debounce_ms=20)
    >>> scanner.poll(0.00), scanner.poll(0.01)
    ([], [])
    >>> [sorted(e.occupied) for e in scanner.poll(0.02)]
    [[0, 1]]
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from types import MappingProxyType

from board_io.buttons.base import Buttons
from board_io.debounce import Debouncer, DebounceUpdate
from board_io.errors import LinkTimeout
from board_io.events import (
    BoardEvent,
    FaultKind,
    LinkLost,
    LinkRestored,
    OccupancyChanged,
    SensorFault,
    SensorRecovered,
)
from board_io.geometry import CellMap
from board_io.sensors.base import SensorMatrix
from board_io.types import Frame, Reading, Sensing, Square


class Scanner:
    """Reads ``sensors``, debounces, maps cells to squares and returns events.

    Only the cells that read a square are debounced; the others (light squares of a full grid,
    spare register inputs) are ignored, so a floating unused input can neither delay nor
    disturb anything. An :class:`OccupancyChanged` is returned once every square has settled,
    then on every change of the occupied squares (or, on colour-sensing boards, of their
    readings). A flapping cell gives :class:`SensorFault`, then :class:`SensorRecovered`.
    A :class:`LinkTimeout` from the sensors gives one :class:`LinkLost`; the next good frame
    gives :class:`LinkRestored`, and the occupancy is reported afresh once it has settled.

    Raises:
        ValueError: the cell map does not fit the sensor matrix.
    """

    def __init__(self, sensors: SensorMatrix, cell_map: CellMap, *, debounce_ms: float = 20,
                 stuck_ms: float = 3000, buttons: Buttons | None = None) -> None:
        if (cell_map.sensor_rows, cell_map.sensor_cols) != (sensors.rows, sensors.cols):
            raise ValueError(
                f"the cell map is for a {cell_map.sensor_rows}x{cell_map.sensor_cols} sensor "
                f"matrix, the sensors are {sensors.rows}x{sensors.cols}")
        self.sensors = sensors
        self.cell_map = cell_map
        self.buttons = buttons
        # The debouncer works on squares: cell readings are picked in square order.
        self.debouncer = Debouncer(cell_map.layout.num_squares, debounce_ms=debounce_ms,
                                   stuck_ms=stuck_ms)
        self._pick = _picker(cell_map.flat_indices())
        self._cells = sensors.cells
        self._colour = sensors.sensing is Sensing.COLOUR
        self._last_frame: Frame | None = None
        self._occupied: frozenset[Square] | None = None
        self._colours: dict[Square, Reading] | None = None
        self._link_lost = False

    @property
    def occupied(self) -> frozenset[Square] | None:
        """The stable occupied squares last reported (None before the first report)."""
        return self._occupied

    def poll(self, now: float) -> list[BoardEvent]:
        """Scan once at time ``now`` (seconds); return the resulting events, oldest first.

        Raises:
            DeviceClosed: the sensors were closed.
            ValueError: the sensors gave a frame of the wrong length (a backend bug).
        """
        events: list[BoardEvent] = []
        if self.buttons is not None:
            events.extend(self.buttons.drain())
        try:
            frame = self.sensors.read()
        except LinkTimeout:
            if not self._link_lost:
                self._link_lost = True
                events.append(LinkLost(now))
            return events
        if self._link_lost:
            self._link_lost = False
            self.debouncer.reset()
            self._last_frame = None
            self._occupied = None
            events.append(LinkRestored(now))
        if frame == self._last_frame and self.debouncer.idle:
            return events  # the common case, a board at rest: nothing to do
        self._last_frame = frame
        if len(frame) != self._cells:
            raise ValueError(f"{type(self.sensors).__name__} gave a frame of {len(frame)} "
                             f"cells, expected {self._cells}")
        update = self.debouncer.feed(self._pick(frame), now)
        if update:
            self._faults(update, now, events)
            if self.debouncer.ready:
                self._occupancy(now, events)
        return events

    def _faults(self, update: DebounceUpdate, now: float, events: list[BoardEvent]) -> None:
        cell = self.cell_map.cell
        events.extend(SensorFault(cell(sq), FaultKind.FLAPPING, now, sq) for sq in update.faulted)
        events.extend(SensorRecovered(cell(sq), now, sq) for sq in update.recovered)

    def _occupancy(self, now: float, events: list[BoardEvent]) -> None:
        readings: dict[Square, Reading] = {
            sq: r for sq, r in enumerate(self.debouncer.stable)
            if r is not None and r != Reading.EMPTY}
        occupied = frozenset(readings)
        colours = readings if self._colour else None
        if occupied == self._occupied and colours == self._colours:
            return
        self._occupied, self._colours = occupied, colours
        events.append(OccupancyChanged(
            occupied, MappingProxyType(dict(colours)) if colours is not None else None, now))


def _picker(indices: tuple[int, ...]) -> Callable[[Frame], Frame]:
    """Return a function taking the readings at ``indices`` out of a frame, at C speed."""
    if len(indices) == 1:
        only = indices[0]
        return lambda frame: (frame[only],)
    pick: Callable[[Frame], Frame] = itemgetter(*indices)
    return pick
