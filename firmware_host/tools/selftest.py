"""``draughtsboard selftest``: light each LED in turn, then report what the sensors see.

For a builder looking for a bad solder joint: first every square's LED lights alone, in
notation order (a dark square or a wrong one lit is an LED fault); then, for ``seconds``, every
debounced sensor change is printed as it happens while the builder lifts and places pieces; the
report at the end names squares that never changed, switches stuck closed, dead sensor rows or
columns, noisy cells and a switch matrix without diodes (the ghost test: three corners of a
rectangle closed, the fourth must stay open) (:class:`board_io.selftest.SensorWatch`). Ctrl-C
during the watch ends it early, with the report.

Example (a dead sensor row on a simulated board, in virtual time)::

    >>> import io
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import CellMap
    >>> from board_io.sim import LedRecorder, SimFaults, SimulatedBoard
    >>> from firmware_host.recognition.layout import layout_for
    >>> layout, clock = layout_for("english"), VirtualClock()
    >>> board = SimulatedBoard(layout, clock=clock, faults=SimFaults(dead_rows=frozenset({2})))
    >>> leds = LedRecorder(layout.num_squares, clock=clock)
    >>> def hand(seconds):                     # a piece goes on every square, one per 0.1 s
    ...     clock.advance(seconds)
    ...     sq = int(clock.monotonic() * 10) % layout.num_squares
    ...     if board.occupied != {sq}:
    ...         for other in board.occupied:
    ...             board.lift(other)
    ...         board.place(sq)
    >>> report = run_selftest(board.sensor_matrix, leds, CellMap.identity(layout), clock=clock,
    ...                       wait=hand, out=io.StringIO(), seconds=4, led_step_s=0)
    >>> report.dead_rows
    (2,)
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from dataclasses import dataclass
from typing import TextIO

from board_io.clock import Clock, MonotonicClock, VirtualClock
from board_io.errors import BoardIOError
from board_io.errors import ConfigError as BoardConfigError
from board_io.geometry import CellMap
from board_io.leds.base import LedMatrix, NoLeds
from board_io.registry import SENSOR_BACKEND
from board_io.schema import DEBOUNCE_MS, SCAN_HZ, STUCK_MS
from board_io.selftest import SelfTestReport, SensorWatch, led_walk
from board_io.sensors.base import SensorMatrix
from firmware_host.config.loader import ConfigError
from firmware_host.errors import DraughtsboardError, say
from firmware_host.tools.calibrate import (
    BoardOptions,
    ScanLoop,
    Wait,
    WaitFactory,
    load_board_config,
    open_board,
)

#: Seconds each LED stays lit in the walk.
LED_STEP_S = 0.3
#: Sensor backends with one input per square: no rows and columns, so no ghosts to test.
NOT_A_MATRIX = frozenset({"shift-register"})


def walk_leds(leds: LedMatrix, cell_map: CellMap, *, wait: Wait, out: TextIO,
              step_s: float = LED_STEP_S) -> None:
    """Light every square's LED alone, in notation order, naming each as it lights."""
    layout = cell_map.layout
    if isinstance(leds, NoLeds):
        _say(out, "LEDs: none configured (board.leds = \"none\"): skipped")
        return
    out.write(f"LEDs: each square lights alone for {step_s:g} s; watch for one that stays dark "
              "or a wrong one lighting:")
    for sq, frame in led_walk(layout):
        leds.show(frame)
        out.write(f" {layout.name(sq)}")
        out.flush()
        wait(step_s)
    leds.show({})
    _say(out, "")


def watch_sensors(sensors: SensorMatrix, cell_map: CellMap, *, clock: Clock, wait: Wait,
                  out: TextIO, seconds: float, scan_hz: float = 100, debounce_ms: float = 20,
                  stuck_ms: float = 3000, matrix: bool = True) -> SelfTestReport:
    """Print every sensor change for ``seconds`` (Ctrl-C ends early); return the report.

    ``matrix``: the sensors are a row/column matrix, so the ghost (diode) test applies.
    """
    watch = SensorWatch(cell_map, debounce_ms=debounce_ms, stuck_ms=stuck_ms, matrix=matrix)
    scan = ScanLoop(sensors, clock=clock, wait=wait, scan_hz=scan_hz, out=out)
    end = clock.monotonic() + seconds
    try:  # from the prompt on, Ctrl-C means "done": the report follows
        _say(out, f"Sensors: lift and place pieces on every square during the next "
                  f"{seconds:g} s (Ctrl-C to finish early); each change is printed.")
        rectangle = watch.ghost_test()
        if rectangle is not None:
            a, b, c, d = (cell_map.layout.name(sq) for sq in rectangle)
            _say(out, f"Diode test: at some point put pieces on {a}, {b} and {c} together "
                      f"and keep {d} empty: if {d} reads occupied, the matrix has no diodes.")
        for frame, now in scan.frames():
            if now >= end:
                break
            for line in watch.feed(frame, now):
                _say(out, f"  {line}")
    except KeyboardInterrupt:
        _say(out, "  (stopped)")
    return watch.report()


def run_selftest(sensors: SensorMatrix, leds: LedMatrix, cell_map: CellMap, *, clock: Clock,
                 wait: Wait, out: TextIO, seconds: float, scan_hz: float = 100,
                 debounce_ms: float = 20, stuck_ms: float = 3000,
                 led_step_s: float = LED_STEP_S, matrix: bool = True) -> SelfTestReport:
    """The LED walk, the sensor watch, then the report printed on ``out``; return the report.

    Raises:
        ValueError: the cell map does not fit the sensor matrix.
    """
    if (cell_map.sensor_rows, cell_map.sensor_cols) != (sensors.rows, sensors.cols):
        raise ValueError(f"the cell map is for a {cell_map.sensor_rows}x{cell_map.sensor_cols} "
                         f"matrix, the sensors are {sensors.rows}x{sensors.cols}")
    walk_leds(leds, cell_map, wait=wait, out=out, step_s=led_step_s)
    report = watch_sensors(sensors, cell_map, clock=clock, wait=wait, out=out, seconds=seconds,
                           scan_hz=scan_hz, debounce_ms=debounce_ms, stuck_ms=stuck_ms,
                           matrix=matrix)
    _say(out, "Report:")
    for line in report.lines(cell_map.layout):
        _say(out, f"  {line}")
    return report


@dataclass(frozen=True)
class SelftestOptions(BoardOptions):
    """``draughtsboard selftest``'s options: watch the sensors for ``seconds``."""

    seconds: float = 60.0
    led_step_s: float = LED_STEP_S


def selftest(options: SelftestOptions, *, out: TextIO | None = None,
             err: TextIO | None = None, clock: Clock | None = None,
             wait_factory: WaitFactory | None = None) -> int:
    """Run ``draughtsboard selftest``; return 0 when every square responded, else 1.

    Raises:
        ConfigError: the configuration is invalid, or ``seconds`` is not positive.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if not options.seconds > 0:
        raise ConfigError(f"--seconds must be more than 0, not {options.seconds:g}")
    config = load_board_config(options)
    if clock is None:
        clock = VirtualClock() if options.script is not None else MonotonicClock()
    try:
        with ExitStack() as stack:
            board = open_board(config, stack, clock=clock, script=options.script,
                               wait_factory=wait_factory)
            try:
                cell_map = CellMap.from_config(config, board.layout, board.sensors.rows,
                                               board.sensors.cols)
            except BoardConfigError as exc:
                raise ConfigError(f"{config.source}: {exc}") from None
            report = run_selftest(
                board.sensors, board.leds, cell_map, clock=clock, wait=board.wait, out=out,
                seconds=options.seconds, scan_hz=config[SCAN_HZ],
                debounce_ms=config[DEBOUNCE_MS], stuck_ms=config[STUCK_MS],
                led_step_s=options.led_step_s,
                matrix=config[SENSOR_BACKEND] not in NOT_A_MATRIX)
    except KeyboardInterrupt:
        _say(err, "draughtsboard selftest: aborted")
        return 130
    except ConfigError:
        raise  # a wrong setting, not a failing device: the CLI reports it (exit 2)
    except (BoardIOError, DraughtsboardError) as exc:  # a device that does not answer 69, ...
        return say(exc, "draughtsboard selftest", err)
    return 0 if report.ok else 1


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()
