"""The ``sim`` (and ``none``) backends as the registry builds them from configuration.

Sensors, LEDs and buttons named ``sim`` share one :class:`SimulatedBoard`, kept in the
:class:`~board_io.registry.BackendContext`; it starts with ``context.initial`` on it.

Config keys read (all optional, declared in :mod:`board_io.schema`): ``sim.*``, and
``board.rgb`` and ``leds.brightness`` for the LED recorder. Cell and row numbers are checked
against the simulated matrix too.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> from board_io.context import BackendContext
    >>> context = BackendContext(dark_squares(8), VirtualClock(), initial=frozenset({0}))
    >>> sim_sensors({"sim.wiring": "compact"}, context).cols
    4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board_io.buttons.base import Buttons, NoButtons
from board_io.display.base import Display, NoDisplay, SimDisplay
from board_io.errors import ConfigError
from board_io.geometry import CellMap
from board_io.leds.base import LedMatrix, NoLeds
from board_io.options import ConfigSource, Option, read
from board_io.schema import (
    LED_BRIGHTNESS,
    RGB,
    SIM_BOUNCE_MS,
    SIM_BOUNCE_TOGGLES,
    SIM_DEAD_ROWS,
    SIM_GLITCH_RATE,
    SIM_SEED,
    SIM_SENSING,
    SIM_STUCK_EMPTY,
    SIM_STUCK_OCCUPIED,
    SIM_WIRING,
    SIM_WIRINGS,
)
from board_io.sensors.base import SensorMatrix
from board_io.sim.board import SimFaults, SimulatedBoard
from board_io.sim.devices import LedRecorder
from board_io.types import Reading, Sensing

if TYPE_CHECKING:
    from board_io.context import BackendContext

WIRINGS = SIM_WIRINGS
RECORDER_KEEP = 10_000  # LED frames and writes the sim backend remembers


def _within(option: Option[list[int]], values: list[int], size: int, what: str) -> list[int]:
    for i, value in enumerate(values):
        if value >= size:
            raise ConfigError(f"{option.path}[{i}]", f"{what} {value} is outside the simulated "
                                                     f"matrix ({what}s 0..{size - 1})")
    return values


def _faults(config: ConfigSource, rows: int, cols: int) -> SimFaults:
    occupied = _within(SIM_STUCK_OCCUPIED, read(config, SIM_STUCK_OCCUPIED), rows * cols, "cell")
    empty = _within(SIM_STUCK_EMPTY, read(config, SIM_STUCK_EMPTY), rows * cols, "cell")
    stuck = {divmod(i, cols): Reading.OCCUPIED for i in occupied}
    for i in empty:
        if divmod(i, cols) in stuck:
            raise ConfigError(SIM_STUCK_EMPTY.path, f"cell {i} is also in sim.stuck_occupied")
        stuck[divmod(i, cols)] = Reading.EMPTY
    return SimFaults(
        bounce_ms=float(read(config, SIM_BOUNCE_MS)),
        bounce_toggles=read(config, SIM_BOUNCE_TOGGLES),
        glitch_rate=read(config, SIM_GLITCH_RATE),
        stuck=stuck,
        dead_rows=frozenset(_within(SIM_DEAD_ROWS, read(config, SIM_DEAD_ROWS), rows, "row")),
        seed=read(config, SIM_SEED),
    )


def sim_board(config: ConfigSource, context: BackendContext) -> SimulatedBoard:
    """Return the context's simulated board, building it from config on first use.

    Raises:
        ConfigError: a ``sim.*`` value is wrong.
    """
    def build() -> SimulatedBoard:
        layout = context.layout
        wiring = read(config, SIM_WIRING)
        cell_map = {"grid": CellMap.identity, "compact": CellMap.compact,
                    "chain": CellMap.sequential}[wiring](layout)
        sensing = read(config, SIM_SENSING)
        faults = _faults(config, cell_map.sensor_rows, cell_map.sensor_cols)
        return SimulatedBoard(layout, context.initial, clock=context.clock, cell_map=cell_map,
                              sensing=Sensing(sensing), faults=faults, buttons=context.buttons)

    return context.shared_resource("sim-board", build)


def sim_sensors(config: ConfigSource, context: BackendContext) -> SensorMatrix:
    """The ``sim`` sensor backend."""
    return sim_board(config, context).sensor_matrix


def sim_leds(config: ConfigSource, context: BackendContext) -> LedMatrix:
    """The ``sim`` LED backend: an :class:`LedRecorder`."""
    return LedRecorder(context.layout.num_squares, clock=context.clock,
                       rgb=read(config, RGB), brightness=read(config, LED_BRIGHTNESS),
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


def no_display(config: ConfigSource, context: BackendContext) -> Display:
    """The ``none`` display backend: no clock display."""
    return NoDisplay()


def sim_display(config: ConfigSource, context: BackendContext) -> Display:
    """The ``sim`` display backend: keeps the faces it is shown."""
    return SimDisplay()
