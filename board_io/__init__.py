"""draughtsboard's hardware layer: sensors, LEDs, buttons, debouncing, geometry, simulated board.

It knows cells, squares and occupancy, never rules; it imports neither ``engine`` nor
``firmware_host``.

Example:
    >>> from board_io import CellMap, Scanner, SimulatedBoard, VirtualClock, dark_squares
    >>> clock = VirtualClock()
    >>> board = SimulatedBoard(dark_squares(10), occupied=range(20), clock=clock)
    >>> scanner = Scanner(board.sensor_matrix, board.cell_map)
    >>> events = [e for t in (0.0, 0.01, 0.02) for e in scanner.poll(t)]
    >>> len(events[0].occupied)
    20
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board_io.buttons.base import Buttons, NoButtons
from board_io.clock import Clock, MonotonicClock, VirtualClock
from board_io.debounce import Debouncer, DebounceUpdate
from board_io.errors import (
    BoardIOError,
    ConfigError,
    DeviceClosed,
    LinkTimeout,
    MissingExtraError,
    ScriptError,
    UnknownSquareError,
)
from board_io.events import (
    BoardEvent,
    ButtonPressed,
    FaultKind,
    LinkLost,
    LinkRestored,
    OccupancyChanged,
    SensorFault,
    SensorRecovered,
)
from board_io.geometry import (
    CellMap,
    Layout,
    Orientation,
    OrientationCheck,
    all_squares,
    check_orientation,
    dark_squares,
)
from board_io.leds.base import LedMatrix, NoLeds
from board_io.scanner import Scanner
from board_io.sensors.base import SensorMatrix
from board_io.types import (
    Cell,
    Frame,
    Led,
    LedFrame,
    Pattern,
    Reading,
    Rgb,
    Sensing,
    Square,
)

__all__ = [
    "BoardEvent", "BoardIOError", "ButtonPressed", "Buttons",
    "Cell", "CellMap", "Clock", "ConfigError", "DebounceUpdate", "Debouncer", "DeviceClosed",
    "FaultKind", "Frame", "Layout", "Led", "LedFrame", "LedMatrix", "LedRecorder", "LinkLost",
    "LinkRestored", "LinkTimeout", "MissingExtraError", "MonotonicClock", "NoButtons", "NoLeds",
    "OccupancyChanged", "Orientation", "OrientationCheck", "Pattern", "Reading", "Rgb",
    "Scanner", "ScriptError", "ScriptPlayer", "Sensing", "SensorFault", "SensorMatrix",
    "SensorRecovered", "SimFaults", "SimulatedBoard", "Square", "UnknownSquareError",
    "VirtualClock", "all_squares", "check_orientation", "dark_squares", "parse_script",
]

#: The simulated board's names, imported when first asked for: a program that only reads a
#: configuration option or a type (the web app) never loads the simulator.
_SIM = frozenset({"LedRecorder", "ScriptPlayer", "SimFaults", "SimulatedBoard", "parse_script"})

if TYPE_CHECKING:
    from board_io.sim import LedRecorder, ScriptPlayer, SimFaults, SimulatedBoard, parse_script


def __getattr__(name: str) -> object:
    if name in _SIM:
        from board_io import sim

        value: object = getattr(sim, name)
        globals()[name] = value  # asked once: a plain attribute from then on
        return value
    raise AttributeError(f"module 'board_io' has no attribute {name!r}")
