"""The ``sim`` backend: a simulated board in (virtual) time, its LEDs and buttons, scripts.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> board = SimulatedBoard(dark_squares(8), occupied=range(12), clock=VirtualClock())
    >>> len(board.occupied), board.sensor_matrix.rows
    (12, 8)
"""

from __future__ import annotations

from board_io.sim.board import SimFaults, SimulatedBoard
from board_io.sim.devices import LedRecorder, RecordedFrame, SimButtons, SimSensorMatrix
from board_io.sim.script import (
    ScriptEvent,
    ScriptPlayer,
    apply_event,
    occupancy_after,
    parse_script,
    read_script,
)
from board_io.sim.terminal import render

__all__ = ["LedRecorder", "RecordedFrame", "ScriptEvent", "ScriptPlayer", "SimButtons",
           "SimFaults", "SimSensorMatrix", "SimulatedBoard", "apply_event", "occupancy_after",
           "parse_script", "read_script", "render"]
