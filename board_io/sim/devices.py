"""The ``sim`` backends: sensor matrix view of a :class:`SimulatedBoard`, LED recorder, buttons.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.types import Led, Pattern
    >>> clock = VirtualClock(1.0)
    >>> leds = LedRecorder(32, clock=clock)
    >>> leds.show({3: Led(Pattern.ON, (0, 255, 0))})
    >>> leds.history[-1].at, leds.lit(1.0)
    (1.0, frozenset({3}))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from board_io.buttons.base import Buttons
from board_io.clock import Clock
from board_io.geometry import CellMap
from board_io.leds.base import LedMatrix, Rgb, pattern_lit
from board_io.sensors.base import SensorMatrix
from board_io.types import Frame, Led, Sensing, Square


class FrameSource(Protocol):
    """What a sensor matrix reads: a board's cell map, its sensing, and its frame now.

    :class:`board_io.sim.board.SimulatedBoard` is one (this module does not import it: the
    board builds its devices from here).
    """

    @property
    def cell_map(self) -> CellMap: ...

    @property
    def sensing(self) -> Sensing: ...

    def frame(self) -> Frame:
        """The sensor frame the board gives now."""
        ...


class SimSensorMatrix(SensorMatrix):
    """The sensor matrix of a simulated board (faults included)."""

    def __init__(self, board: FrameSource) -> None:
        cmap = board.cell_map
        super().__init__(cmap.sensor_rows, cmap.sensor_cols, board.sensing)
        self.board = board

    def _read(self) -> Frame:
        return self.board.frame()


@dataclass(frozen=True)
class RecordedFrame:
    """One LED frame shown, with the (virtual) time it was shown."""

    at: float
    frame: Mapping[Square, Led]


class LedRecorder(LedMatrix):
    """An LED sink that keeps every frame shown, with its time, and every pixel write.

    ``keep`` bounds both records to the newest entries (a demo left running for days);
    None keeps everything.
    """

    def __init__(self, num_squares: int, *, clock: Clock, rgb: bool = True,
                 brightness: float = 1.0, keep: int | None = None) -> None:
        super().__init__(num_squares, clock=clock, rgb=rgb, brightness=brightness)
        self.history: deque[RecordedFrame] = deque(maxlen=keep)
        self.writes: deque[tuple[float, tuple[Rgb, ...]]] = deque(maxlen=keep)

    def show(self, frame: Mapping[Square, Led]) -> None:
        """Show ``frame`` and record it (see :meth:`LedMatrix.show`)."""
        super().show(frame)
        self.history.append(RecordedFrame(self._clock.monotonic(), MappingProxyType(
            dict(self.frame))))

    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        self.writes.append((self._clock.monotonic(), pixels))

    def lit(self, now: float) -> frozenset[Square]:
        """The squares whose LED is lit at ``now`` (blinking phase included)."""
        return frozenset(sq for sq, led in self.frame.items() if pattern_lit(led.pattern, now))

    def frame_at(self, at: float) -> Mapping[Square, Led]:
        """The frame that was being shown at time ``at`` (empty before the first)."""
        shown: Mapping[Square, Led] = MappingProxyType({})
        for recorded in self.history:
            if recorded.at > at:
                break
            shown = recorded.frame
        return shown


class SimButtons(Buttons):
    """Buttons of the simulated board, pressed by :meth:`press`."""

    def __init__(self, available: Iterable[str] = (), *, clock: Clock) -> None:
        super().__init__(available, clock=clock)

    def press(self, button: str) -> None:
        """Press ``button`` now.

        Raises:
            ValueError: the board has no such button.
        """
        self._pressed(button)
