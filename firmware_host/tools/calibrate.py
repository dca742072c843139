"""``draughtsboard calibrate``: open the board, run the calibration with the user, write the map.

The procedure itself is :class:`board_io.calibration.Calibration` (pure). This module wires it to
the configured sensor and LED backends, runs it in real time (or in virtual time on the simulated
board) and stores the result in the configuration file with
:func:`firmware_host.config.edit.write_board_options`, which rewrites only the keys it sets and
keeps every other line and comment.

The shared pieces :func:`load_board_config`, :func:`open_board` and :class:`ScanLoop` also serve
``draughtsboard selftest`` (:mod:`firmware_host.tools.selftest`).

Example (a simulated user follows the LEDs on a simulated board, in virtual time)::

    >>> import io
    >>> from board_io.clock import VirtualClock
    >>> from board_io.sim import LedRecorder, SimulatedBoard
    >>> from firmware_host.recognition.layout import layout_for
    >>> layout = layout_for("english")
    >>> clock = VirtualClock()
    >>> board = SimulatedBoard(layout, clock=clock)
    >>> leds = LedRecorder(layout.num_squares, clock=clock)
    >>> def hand(seconds):                    # does what the LEDs ask, at once
    ...     clock.advance(seconds)
    ...     for sq, led in leds.frame.items():
    ...         if led.pattern.value == "on" and sq not in board.occupied:
    ...             board.place(sq)
    ...         elif led.pattern.value == "slow" and sq in board.occupied:
    ...             board.lift(sq)
    >>> result = run_calibration(board.sensor_matrix, leds, layout, clock=clock, wait=hand,
    ...                          out=io.StringIO(), limit_s=60)
    >>> result.transform, result.squares_placed
    ('identity', 3)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from board_io.calibration import (
    Calibration,
    CalibrationState,
    CalibrationStep,
    standard_candidates,
)
from board_io.clock import Clock, MonotonicClock, VirtualClock
from board_io.debounce import Debouncer
from board_io.errors import BoardIOError, LinkTimeout
from board_io.errors import ConfigError as BoardConfigError
from board_io.geometry import CellMap, Layout
from board_io.leds.base import LedMatrix
from board_io.registry import (
    LED_BACKEND,
    SENSOR_BACKEND,
    BackendContext,
    create_leds,
    create_sensors,
)
from board_io.schema import DEBOUNCE_MS, SCAN_HZ, STUCK_MS, TRANSFORMS
from board_io.sensors.base import SensorMatrix
from board_io.types import Frame
from firmware_host.config.edit import check_writable, render_value, write_board_options
from firmware_host.config.loader import Config, ConfigError, bad_variant
from firmware_host.errors import DraughtsboardError, InputError, say
from firmware_host.recognition.layout import layout_for
from firmware_host.terms.settings import GAME_VARIANT

#: Waits ``seconds``: :func:`time.sleep` in real time, moves a virtual clock in tests.
Wait = Callable[[float], None]

#: Virtual time a script may leave the procedure waiting after its last event before giving up.
SCRIPT_TAIL_S = 5.0


# -- configuration and devices ----------------------------------------------------------------
@dataclass(frozen=True)
class BoardOptions:
    """The command-line options shared by the board commands (None: as configured).

    ``script``: the simulated board plays this file of timed events, in virtual time.
    """

    config_path: str | None = None
    variant: str | None = None
    sensors: str | None = None
    leds: str | None = None
    script: str | None = None


def load_board_config(options: BoardOptions) -> Config:
    """Load the configuration file (or the defaults) and apply the command line.

    Raises:
        ConfigError: the file or a value is invalid, or the variant is unknown.
    """
    config = (Config.load(options.config_path) if options.config_path
              else Config.from_mapping({}, "<defaults>"))
    config = config.with_overrides({GAME_VARIANT: options.variant,
                                    SENSOR_BACKEND: options.sensors,
                                    LED_BACKEND: options.leds})
    if options.script is not None and config[SENSOR_BACKEND] != "sim":
        raise ConfigError("--script needs the simulated board (--board sim)")
    try:
        layout_for(config[GAME_VARIANT])
    except ValueError as exc:
        source = "command line" if options.variant else config.source
        raise bad_variant(config[GAME_VARIANT], exc, source) from None
    return config


def board_layout(config: Config) -> Layout:
    """The layout of the configured variant.

    Raises:
        ConfigError: unknown variant.
    """
    try:
        return layout_for(config[GAME_VARIANT])
    except ValueError as exc:
        raise bad_variant(config[GAME_VARIANT], exc, config.source) from None


@dataclass
class OpenBoard:
    """The devices a board command works with, and the wait that paces it."""

    config: Config
    layout: Layout
    clock: Clock
    context: BackendContext
    sensors: SensorMatrix
    leds: LedMatrix
    wait: Wait
    limit_s: float | None = None  # virtual time after which a scripted run gives up


#: Builds the wait of a board command once the devices are open (tests: a simulated hand).
WaitFactory = Callable[[OpenBoard], Wait]


def open_board(config: Config, stack: ExitStack, *, clock: Clock, script: str | None = None,
               wait_factory: WaitFactory | None = None) -> OpenBoard:
    """Open the configured sensors and LEDs; ``stack`` closes them (LEDs first).

    Raises:
        ConfigError: a backend option is wrong (the message names the key).
        BoardIOError: a device cannot be opened (a missing library names the extra to install).
    """
    layout = board_layout(config)
    context = stack.enter_context(BackendContext(layout, clock))
    try:
        sensors = stack.enter_context(create_sensors(config, context))
        leds = stack.enter_context(create_leds(config, context))
    except BoardConfigError as exc:
        raise ConfigError(f"{config.source}: {exc}") from None
    board = OpenBoard(config, layout, clock, context, sensors, leds, real_wait)
    if script is not None:
        board.wait, board.limit_s = _script_wait(board, script)
    elif wait_factory is not None:
        board.wait = wait_factory(board)
    return board


def real_wait(seconds: float) -> None:
    """Sleep ``seconds`` of real time (the scan loop's pace)."""
    time.sleep(seconds)


def _script_wait(board: OpenBoard, path: str) -> tuple[Wait, float]:
    from board_io.sim import read_script
    from board_io.sim.backends import sim_board

    clock = board.clock
    if not isinstance(clock, VirtualClock):
        raise InputError("a script plays in virtual time")
    sim = sim_board(board.config, board.context)
    try:
        events = read_script(path, board.layout, initial=sim.occupied)
    except OSError as exc:
        raise InputError(f"{path}: cannot read the script: {exc.strerror}") from None
    start = clock.monotonic()
    pending = list(reversed(events))

    def wait(seconds: float) -> None:
        target = clock.monotonic() + seconds
        while pending and start + pending[-1].time_ms / 1000.0 <= target + 1e-9:
            event = pending.pop()
            clock.set(max(clock.monotonic(), start + event.time_ms / 1000.0))
            if event.verb == "lift" and event.square is not None:
                sim.lift(event.square)
            elif event.verb == "place" and event.square is not None:
                sim.place(event.square)
            elif event.button is not None:
                sim.press(event.button)
        clock.set(max(clock.monotonic(), target))

    last = events[-1].time_ms / 1000.0 if events else 0.0
    return wait, last + SCRIPT_TAIL_S


class ScanLoop:
    """Reads the sensors ``scan_hz`` times a second, pacing itself with ``wait``.

    A silent link (:class:`LinkTimeout`) is reported once on ``out`` and again when it answers;
    ``restored`` is then true for the first frame after it.
    """

    def __init__(self, sensors: SensorMatrix, *, clock: Clock, wait: Wait, scan_hz: float,
                 out: TextIO) -> None:
        self.sensors = sensors
        self.clock = clock
        self.wait = wait
        self.period = 1.0 / scan_hz
        self.out = out
        self.restored = False

    def frames(self, limit_s: float | None = None) -> Iterator[tuple[Frame, float]]:
        """Yield ``(frame, now)`` for every scan.

        Raises:
            DraughtsboardError: ``limit_s`` seconds passed (a scripted run that ran out of
                events).
        """
        start = next_at = self.clock.monotonic()
        lost = False
        while True:
            now = self.clock.monotonic()
            if limit_s is not None and now - start > limit_s:
                raise DraughtsboardError(f"nothing more happened for {limit_s:g} s: giving up")
            try:
                frame = self.sensors.read()
            except LinkTimeout as exc:
                if not lost:
                    _say(self.out, f"  ! the board is not answering ({exc}); waiting for it")
                lost = True
            else:
                self.restored, lost = lost, False
                if self.restored:
                    _say(self.out, "  the board answers again")
                yield frame, now
            # Real time may fall behind (a slow read): catch up instead of scanning in a burst.
            next_at = max(next_at + self.period, self.clock.monotonic())
            self.wait(max(0.0, next_at - self.clock.monotonic()))


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def _cell_name(index: int, cols: int) -> str:
    row, col = divmod(index, cols)
    return f"r{row}c{col}"


# -- the calibration run ----------------------------------------------------------------------
@dataclass(frozen=True)
class CalibrationResult:
    """The calibrated map; ``transform`` names it when it is the standard wiring under one of
    the sensor transforms (then the config keeps an empty ``cell_map``)."""

    cell_map: CellMap
    transform: str | None
    squares_placed: int

    def entries(self) -> dict[str, str | list[int]]:
        """The ``[board]`` keys that store this map."""
        if self.transform is not None:
            return {"transform": self.transform, "cell_map": []}
        return {"transform": "identity", "cell_map": list(self.cell_map.flat_indices())}

    def summary(self) -> str:
        """One line saying what was found."""
        if self.transform is not None:
            return (f"standard wiring recognised (board.transform = {self.transform!r}) after "
                    f"{self.squares_placed} squares")
        return f"custom wiring: all {self.squares_placed} squares mapped"


def _candidates(layout: Layout, rows: int, cols: int) -> list[CellMap]:
    try:
        return standard_candidates(layout, rows, cols)
    except (ValueError, BoardIOError):
        return []  # no standard map for this shape, or a board that cannot turn: ask them all


def _standard_transform(cell_map: CellMap) -> str | None:
    try:
        base = CellMap.standard(cell_map.layout, cell_map.sensor_rows, cell_map.sensor_cols)
    except ValueError:
        return None
    return next((t for t in TRANSFORMS if base.transformed(t) == cell_map), None)


class _Prompter:
    """Prints each new instruction and warning once, and shows the step on the LEDs."""

    def __init__(self, out: TextIO, leds: LedMatrix, calibration: Calibration) -> None:
        self.out = out
        self.leds = leds
        self.calibration = calibration
        self.last: CalibrationStep | None = None

    def show(self, step: CalibrationStep) -> None:
        if self.last is not None and step == self.last:
            return
        if self.last is None or (step.state, step.square, step.text) != (
                self.last.state, self.last.square, self.last.text):
            self.leds.show(self.calibration.led_frame())
            _say(self.out, step.text)
        if step.warning is not None:
            hint = ""
            if step.state is CalibrationState.CLEAR:
                hint = (" (no piece there? a stuck sensor: `draughtsboard selftest` finds it, "
                        "--ignore-occupied calibrates without it)")
            _say(self.out, f"  ! {step.warning}{hint}")
        self.last = step


def run_calibration(sensors: SensorMatrix, leds: LedMatrix, layout: Layout, *, clock: Clock,
                    wait: Wait, out: TextIO, scan_hz: float = 100, debounce_ms: float = 20,
                    stuck_ms: float = 3000, quick: bool = True, ignore_occupied: bool = False,
                    limit_s: float | None = None) -> CalibrationResult:
    """Guide the user through the calibration (text on ``out``, the square on the LEDs).

    ``quick``: recognise a standard wiring from three squares (else ask for every square);
    ``ignore_occupied``: cells reading occupied at the start are taken as stuck and ignored.

    Raises:
        BoardIOError: the sensor matrix has fewer cells than the board has squares, a device
            failed, or ``limit_s`` passed.
    """
    rows, cols, n = sensors.rows, sensors.cols, layout.num_squares
    if rows * cols < n:
        raise BoardIOError(f"the {rows}x{cols} sensor matrix has {rows * cols} cells, fewer "
                           f"than the {n} squares of this board: check board.sensors")
    calibration = Calibration(layout, rows, cols,
                              candidates=_candidates(layout, rows, cols) if quick else ())
    debouncer = Debouncer(rows * cols, debounce_ms=debounce_ms, stuck_ms=stuck_ms)
    prompter = _Prompter(out, leds, calibration)
    prompter.show(calibration.step)
    scan = ScanLoop(sensors, clock=clock, wait=wait, scan_hz=scan_hz, out=out)
    started = False
    for frame, now in scan.frames(limit_s):
        if scan.restored:
            debouncer.reset()
        update = debouncer.feed(frame, now)
        for i in update.faulted:
            _say(out, f"  ! sensor {_cell_name(i, cols)} keeps changing (loose contact?): "
                      "held at its last steady value")
        if debouncer.ready and update.changed:
            if not started and ignore_occupied:
                stuck = calibration.ignore_occupied(debouncer.stable)
                if stuck:
                    names = ", ".join(f"r{r}c{c}" for r, c in sorted(stuck))
                    _say(out, f"  ignoring cells that read occupied at the start: {names}")
            started = True
            prompter.show(calibration.feed(debouncer.stable))
            if calibration.state is CalibrationState.DONE:
                break
        leds.tick(now)
    leds.show({})
    result = calibration.result()
    return CalibrationResult(result, _standard_transform(result), len(calibration.mapped))


# -- the command ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CalibrateOptions(BoardOptions):
    """``draughtsboard calibrate``'s options: ``write`` the map into ``config_path``; ``full``
    asks for every square; ``ignore_occupied`` skips cells stuck occupied."""

    write: bool = False
    full: bool = False
    ignore_occupied: bool = False


def calibrate(options: CalibrateOptions, *, out: TextIO | None = None,
              err: TextIO | None = None, clock: Clock | None = None,
              wait_factory: WaitFactory | None = None) -> int:
    """Run ``draughtsboard calibrate``; return the exit status (130 when aborted by Ctrl-C).

    The clock is real unless a script is played (virtual) or ``clock`` is given.

    Raises:
        ConfigError: the configuration is invalid (before anything is asked of the user).
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if options.write and not options.config_path:
        raise ConfigError("--write needs the configuration file to write: --config FILE")
    config = load_board_config(options)
    if options.write:
        check_writable(Path(options.config_path or ""))
    if clock is None:
        clock = VirtualClock() if options.script is not None else MonotonicClock()
    try:
        with ExitStack() as stack:
            board = open_board(config, stack, clock=clock, script=options.script,
                               wait_factory=wait_factory)
            _say(out, _intro(board))
            result = run_calibration(
                board.sensors, board.leds, board.layout, clock=clock, wait=board.wait, out=out,
                scan_hz=config[SCAN_HZ], debounce_ms=config[DEBOUNCE_MS],
                stuck_ms=config[STUCK_MS], quick=not options.full,
                ignore_occupied=options.ignore_occupied, limit_s=board.limit_s)
            sensor_shape = (board.sensors.rows, board.sensors.cols)
    except KeyboardInterrupt:
        kept = f": {options.config_path} left unchanged" if options.write else ""
        _say(err, f"draughtsboard calibrate: aborted{kept}")
        return 130
    except ConfigError:
        raise  # a wrong setting, not a failing device: the CLI reports it (exit 2)
    except (BoardIOError, DraughtsboardError) as exc:  # a device that does not answer 69, ...
        return say(exc, "draughtsboard calibrate", err)
    _say(out, result.summary())
    return _store(options, result, sensor_shape, out, err)


def _intro(board: OpenBoard) -> str:
    sensors = board.sensors
    return (f"Calibrating {board.config[SENSOR_BACKEND]} sensors ({sensors.rows}x"
            f"{sensors.cols} cells) for {board.config[GAME_VARIANT]} "
            f"({board.layout.num_squares} squares). Follow the lit square; Ctrl-C aborts, "
            "nothing is written before the end.")


def _store(options: CalibrateOptions, result: CalibrationResult, shape: tuple[int, int],
           out: TextIO, err: TextIO) -> int:
    lines = "\n".join(f"{key} = {render_value(value)}" for key, value in result.entries().items())
    if not options.write:
        _say(out, f"Put these lines in the [board] section of your configuration (or run again "
                  f"with --write):\n[board]\n{lines}")
        return 0
    path = Path(options.config_path or "")

    def verify(loaded: Config) -> None:
        layout = board_layout(loaded)
        if CellMap.from_config(loaded, layout, *shape) != result.cell_map:
            raise ConfigError(f"{path}: the written map reads back differently")

    try:
        write_board_options(path, result.entries(), verify=verify)
    except (ConfigError, OSError, BoardConfigError) as exc:
        _say(err, f"draughtsboard calibrate: {exc}\nNothing was written; put these lines in "
                  f"the [board] section by hand:\n{lines}")
        return 1
    _say(out, f"Wrote board.transform and board.cell_map to {path}.")
    return 0
