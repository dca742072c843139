"""The ``sim`` (and ``none``) backends as the registry builds them from configuration.

Sensors, LEDs and buttons named ``sim`` share one :class:`SimulatedBoard`, kept in the
:class:`~board_io.registry.BackendContext`; it starts with ``context.initial`` on it.

Config keys read (all optional): ``sim.wiring`` (``grid`` | ``compact`` | ``chain``, default
``grid``), ``sim.sensing`` (``presence`` | ``colour``), ``sim.bounce_ms`` (0),
``sim.bounce_toggles`` (4), ``sim.glitch_rate`` (0.0), ``sim.stuck_occupied`` and
``sim.stuck_empty`` (lists of cell numbers ``row*cols+col``), ``sim.dead_rows`` (list),
``sim.seed`` (0); and ``board.rgb`` (false), ``leds.brightness`` (0.5) for the LED recorder.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> from board_io.registry import BackendContext
    >>> context = BackendContext(dark_squares(8), VirtualClock(), initial=frozenset({0}))
    >>> sim_sensors({"sim.wiring": "compact"}, context).cols
    4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board_io.buttons.base import Buttons, NoButtons
from board_io.errors import ConfigError
from board_io.geometry import CellMap
from board_io.leds.base import LedMatrix, NoLeds
from board_io.options import (
    ConfigSource,
    bool_option,
    float_option,
    int_list_option,
    int_option,
    str_option,
)
from board_io.sensors.base import SensorMatrix
from board_io.sim.board import SimFaults, SimulatedBoard
from board_io.sim.devices import LedRecorder
from board_io.types import Reading, Sensing

if TYPE_CHECKING:
    from board_io.registry import BackendContext

WIRINGS = ("grid", "compact", "chain")
RECORDER_KEEP = 10_000  # LED frames and writes the sim backend remembers


def _faults(config: ConfigSource, rows: int, cols: int) -> SimFaults:
    cells = rows * cols - 1
    stuck = {divmod(i, cols): Reading.OCCUPIED
             for i in int_list_option(config, "sim.stuck_occupied", [], minimum=0, maximum=cells)}
    for i in int_list_option(config, "sim.stuck_empty", [], minimum=0, maximum=cells):
        if divmod(i, cols) in stuck:
            raise ConfigError("sim.stuck_empty", f"cell {i} is also in sim.stuck_occupied")
        stuck[divmod(i, cols)] = Reading.EMPTY
    return SimFaults(
        bounce_ms=float_option(config, "sim.bounce_ms", 0.0, minimum=0, maximum=1000),
        bounce_toggles=int_option(config, "sim.bounce_toggles", 4, minimum=0, maximum=100),
        glitch_rate=float_option(config, "sim.glitch_rate", 0.0, minimum=0, maximum=1),
        stuck=stuck,
        dead_rows=frozenset(int_list_option(config, "sim.dead_rows", [], minimum=0,
                                            maximum=rows - 1)),
        seed=int_option(config, "sim.seed", 0, minimum=0),
    )


def sim_board(config: ConfigSource, context: BackendContext) -> SimulatedBoard:
    """Return the context's simulated board, building it from config on first use.

    Raises:
        ConfigError: a ``sim.*`` value is wrong.
    """
    def build() -> SimulatedBoard:
        layout = context.layout
        wiring = str_option(config, "sim.wiring", "grid", choices=WIRINGS)
        cell_map = {"grid": CellMap.identity, "compact": CellMap.compact,
                    "chain": CellMap.sequential}[wiring](layout)
        sensing = str_option(config, "sim.sensing", "presence", choices=("presence", "colour"))
        faults = _faults(config, cell_map.sensor_rows, cell_map.sensor_cols)
        return SimulatedBoard(layout, context.initial, clock=context.clock, cell_map=cell_map,
                              sensing=Sensing(sensing), faults=faults)

    return context.shared_resource("sim-board", build)


def sim_sensors(config: ConfigSource, context: BackendContext) -> SensorMatrix:
    """The ``sim`` sensor backend."""
    return sim_board(config, context).sensor_matrix


def sim_leds(config: ConfigSource, context: BackendContext) -> LedMatrix:
    """The ``sim`` LED backend: an :class:`LedRecorder`."""
    return LedRecorder(context.layout.num_squares, clock=context.clock,
                       rgb=bool_option(config, "board.rgb", False),
                       brightness=float_option(config, "leds.brightness", 0.5, minimum=0,
                                               maximum=1),
                       keep=RECORDER_KEEP)


def sim_buttons(config: ConfigSource, context: BackendContext) -> Buttons:
    """The ``sim`` button backend: the simulated board's buttons."""
    return sim_board(config, context).buttons


def no_leds(config: ConfigSource, context: BackendContext) -> LedMatrix:
    """The ``none`` LED backend."""
    return NoLeds(context.layout.num_squares, clock=context.clock)


def no_buttons(config: ConfigSource, context: BackendContext) -> Buttons:
    """The ``none`` button backend."""
    return NoButtons(clock=context.clock)
