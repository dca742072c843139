"""``draughtsboard calibrate``: a simulated user follows the LEDs on a simulated board, in
virtual time; the map found is the board's wiring; the config file is rewritten in place."""

from __future__ import annotations

import doctest
import io
import os
import random
import signal
import subprocess
import sys
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

import firmware_host.config.edit as config_edit
import firmware_host.tools.calibrate as calibrate_tool
from board_io.clock import VirtualClock
from board_io.errors import BoardIOError
from board_io.geometry import TRANSFORMS, CellMap, Layout
from board_io.leds.base import LedMatrix
from board_io.sim import LedRecorder, SimFaults, SimulatedBoard
from board_io.sim.backends import sim_board
from board_io.types import Pattern, Reading, Square
from firmware_host.cli import main
from firmware_host.config.edit import set_board_option, write_board_options
from firmware_host.config.loader import Config, ConfigError
from firmware_host.errors import DraughtsboardError
from firmware_host.recognition.layout import layout_for
from firmware_host.tools.calibrate import (
    CalibrateOptions,
    OpenBoard,
    calibrate,
    run_calibration,
)

HALF_TURN_OF = {"identity": "mirror-rotate180", "mirror-rotate180": "identity",
                "rotate180": "mirror", "mirror": "rotate180"}


class Hand:
    """A user following the LEDs: ``reaction_s`` after the lit square changes, places a piece
    on a steadily lit square or lifts it from a blinking one. ``mistakes`` maps a square to
    one the user wrongly puts the piece on first (and then corrects)."""

    def __init__(self, board: SimulatedBoard, leds: LedMatrix, *, reaction_s: float = 0.2,
                 mistakes: Mapping[Square, Square] | None = None,
                 interrupt_after: int | None = None) -> None:
        assert isinstance(board.clock, VirtualClock)
        self.clock = board.clock
        self.board = board
        self.leds = leds
        self.reaction = reaction_s
        self.mistakes = dict(mistakes or {})
        self.interrupt_after = interrupt_after
        self.placed: list[Square] = []
        self.seen: dict[Square, object] = {}
        self.todo: list[tuple[float, Callable[[], None]]] = []

    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)
        now = self.clock.monotonic()
        frame = dict(self.leds.frame)
        if frame != self.seen:
            self.seen = frame
            self._plan(frame, now)
        while self.todo and self.todo[0][0] <= now:
            self.todo.pop(0)[1]()

    def _plan(self, frame: dict[Square, object], now: float) -> None:
        for sq, led in frame.items():
            pattern = getattr(led, "pattern", None)
            if pattern is Pattern.ON:
                steps: list[Callable[[], None]] = []
                wrong = self.mistakes.pop(sq, None)
                if wrong is not None:
                    steps += [lambda w=wrong: self.board.place(w),
                              lambda w=wrong: self.board.lift(w)]
                steps.append(lambda s=sq: self._place(s))
                self.todo += [(now + self.reaction * (k + 1), step)
                              for k, step in enumerate(steps)]
            elif pattern is Pattern.SLOW:
                self.todo.append((now + self.reaction, lambda s=sq: self.board.lift(s)))

    def _place(self, sq: Square) -> None:
        if self.interrupt_after is not None and len(self.placed) == self.interrupt_after:
            raise KeyboardInterrupt
        self.board.place(sq)
        self.placed.append(sq)


def scrambled(layout: Layout, rows: int, cols: int, seed: int) -> CellMap:
    cells = [divmod(i, cols) for i in range(rows * cols)]
    random.Random(seed).shuffle(cells)
    return CellMap(layout, rows, cols, tuple(cells[:layout.num_squares]))


def calibrate_sim(layout: Layout, wiring: CellMap, **kwargs: object
                  ) -> tuple[calibrate_tool.CalibrationResult, str, Hand, LedRecorder]:
    clock = VirtualClock()
    faults = kwargs.pop("faults", None)
    board = SimulatedBoard(layout, clock=clock, cell_map=wiring,
                           faults=faults if isinstance(faults, SimFaults) else None)
    leds = LedRecorder(layout.num_squares, clock=clock)
    hand = Hand(board, leds, mistakes=kwargs.pop("mistakes", None))  # type: ignore[arg-type]
    out = io.StringIO()
    result = run_calibration(board.sensor_matrix, leds, layout, clock=clock, wait=hand.wait,
                             out=out, limit_s=600, **kwargs)  # type: ignore[arg-type]
    return result, out.getvalue(), hand, leds


# -- the procedure on simulated wirings -------------------------------------------------------
@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize(("variant", "shape"), [
    ("international", "identity"), ("english", "compact"), ("canadian", "sequential"),
    ("russian", "compact")])
def test_standard_wiring_is_recognised_in_three_squares(variant: str, shape: str,
                                                        transform: str) -> None:
    layout = layout_for(variant)
    wiring = getattr(CellMap, shape)(layout).transformed(transform)
    result, text, hand, leds = calibrate_sim(layout, wiring)
    assert result.cell_map == wiring
    assert result.squares_placed == 3
    if wiring.sensor_rows > 1:
        assert result.transform == transform
    else:  # on a single row, mirroring and turning the chain are the same thing
        assert result.transform in (transform, HALF_TURN_OF[transform])
    assert result.entries() == {"transform": result.transform, "cell_map": []}
    n = layout.num_squares
    assert hand.placed == [0, n - 1, n // 2]  # far corners first, then the middle
    assert f"place a piece on {layout.name(0)}\nlift the piece from {layout.name(0)}\n" in text
    assert "calibration complete" in text
    assert leds.frame == {}  # LEDs off at the end


def test_board_turned_round_on_a_standard_wiring() -> None:
    layout = layout_for("international")
    wiring = CellMap.compact(layout).rotated180()
    result, _, _, _ = calibrate_sim(layout, wiring)
    assert result.cell_map == wiring and result.squares_placed == 3


def test_scrambled_wiring_is_calibrated_square_by_square_with_a_mistake_corrected() -> None:
    layout = layout_for("international")
    wiring = scrambled(layout, 10, 10, seed=7)
    # Asked for 50, the user first puts the piece on 1 (already calibrated), then corrects.
    result, text, hand, leds = calibrate_sim(layout, wiring, mistakes={49: 0})
    assert result.cell_map == wiring
    assert result.transform is None and result.squares_placed == 50
    assert sorted(hand.placed) == list(range(50))
    r, c = wiring.cell(0)
    assert f"  ! cell r{r}c{c} already reads 1: is the piece on 50?" in text
    entries = result.entries()
    assert entries["transform"] == "identity"
    assert entries["cell_map"][:3] == [r * 10 + c for r, c in wiring.cells[:3]]
    # Every prompt lit its square: steady to place, blinking to lift.
    lit = [(sq, led.pattern) for shown in leds.history for sq, led in shown.frame.items()]
    assert lit[:2] == [(0, Pattern.ON), (0, Pattern.SLOW)]


def test_full_mode_asks_for_every_square_of_a_standard_wiring() -> None:
    layout = layout_for("english")
    result, _, hand, _ = calibrate_sim(layout, CellMap.identity(layout), quick=False)
    assert result.squares_placed == 32 and hand.placed == list(range(32))
    assert result.transform == "identity"


def test_stuck_cell_blocks_the_start_unless_ignored() -> None:
    layout = layout_for("international")
    faults = SimFaults(stuck={(3, 4): Reading.OCCUPIED})  # a light square's unused cell
    clock = VirtualClock()
    board = SimulatedBoard(layout, clock=clock, faults=faults)
    out = io.StringIO()
    with pytest.raises(DraughtsboardError, match="nothing more happened for 5 s: giving up"):
        run_calibration(board.sensor_matrix, LedRecorder(50, clock=clock), layout, clock=clock,
                        wait=clock.advance, out=out, limit_s=5)
    assert "  ! cells still occupied: r3c4 (no piece there? a stuck sensor" in out.getvalue()
    result, text, _, _ = calibrate_sim(layout, CellMap.identity(layout), faults=faults,
                                       ignore_occupied=True)
    assert result.cell_map == CellMap.identity(layout)
    assert "ignoring cells that read occupied at the start: r3c4" in text


def test_bouncing_contacts_do_not_confuse_the_calibration() -> None:
    layout = layout_for("english")
    wiring = scrambled(layout, 8, 8, seed=3)
    faults = SimFaults(bounce_ms=8, bounce_toggles=6, seed=5)
    result, text, _, _ = calibrate_sim(layout, wiring, faults=faults)
    assert result.cell_map == wiring and "!" not in text


def test_too_small_a_sensor_matrix_is_refused() -> None:
    layout = layout_for("international")
    small = CellMap.compact(layout_for("english"))
    clock = VirtualClock()
    board = SimulatedBoard(layout_for("english"), clock=clock, cell_map=small)
    with pytest.raises(BoardIOError, match="8x4 sensor matrix has 32 cells, fewer than the 50"):
        run_calibration(board.sensor_matrix, LedRecorder(50, clock=clock), layout, clock=clock,
                        wait=clock.advance, out=io.StringIO())


# -- rewriting the configuration file ---------------------------------------------------------
CONFIG = """\
# My board, built in 2026. Keep these notes!
[game]
variant = "international"   # club rules
event = \"\"\"
[board]
cell_map = [1]
\"\"\"

[board]  # the hardware
sensors = "sim"
# calibrated on the kitchen table:
cell_map = [
    1, 2,  # first row
    3,
]
rgb = false # no colours

# timing follows
[timing]
scan_hz = 100
"""


def test_set_board_option_rewrites_only_that_statement() -> None:
    text = set_board_option(CONFIG, "cell_map", [])
    text = set_board_option(text, "transform", "mirror")
    assert text == CONFIG.replace(
        "cell_map = [\n    1, 2,  # first row\n    3,\n]\nrgb = false # no colours\n",
        'cell_map = []\nrgb = false # no colours\ntransform = "mirror"\n')
    assert set_board_option(text, "transform", "identity") == text.replace(
        'transform = "mirror"', 'transform = "identity"')


def test_set_board_option_keeps_a_trailing_comment_and_indentation() -> None:
    text = '[board]\n  transform = "mirror"  # the # sign\n'
    assert set_board_option(text, "transform", "rotate180") == \
        '[board]\n  transform = "rotate180"  # the # sign\n'


def test_set_board_option_adds_the_section_when_missing_and_keeps_crlf() -> None:
    text = "[log]\r\nlevel = \"debug\"\r\n# end"
    assert set_board_option(text, "cell_map", list(range(12))) == (
        "[log]\r\nlevel = \"debug\"\r\n# end\r\n\r\n[board]\r\ncell_map = [\r\n"
        "    0, 1, 2, 3, 4, 5, 6, 7, 8, 9,\r\n    10, 11,\r\n]\r\n")


def test_write_board_options_keeps_every_other_line_and_stays_valid(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(CONFIG)
    path.chmod(0o640)
    # The service's user must still read it: owner kept (only root can give a file away).
    owner = (1234, 1234) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(path, *owner)
    cells = list(range(49, -1, -1))
    write_board_options(path, {"transform": "identity", "cell_map": cells})
    new = path.read_text()
    old_lines = [line for line in CONFIG.splitlines() if line not in (
        "cell_map = [", "    1, 2,  # first row", "    3,", "]")]
    new_lines = new.splitlines()
    kept = [line for line in new_lines if line in old_lines]
    assert kept == old_lines  # every other line, in order
    config = Config.load(path)
    assert config["board.cell_map"] == cells and config["board.transform"] == "identity"
    assert config["game.event"] == "[board]\ncell_map = [1]\n"  # the look-alike untouched
    assert path.stat().st_mode & 0o777 == 0o640
    assert (path.stat().st_uid, path.stat().st_gid) == owner
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.toml"]


def test_an_invalid_result_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    original = 'board.sensors = "sim"\n[log]\nlevel = "info"\n'  # [board] as dotted keys
    path.write_text(original)
    with pytest.raises(ConfigError, match="would not load"):
        write_board_options(path, {"cell_map": [1, 2]})
    assert path.read_text() == original
    assert [p.name for p in tmp_path.iterdir()] == ["board.toml"]


def test_a_file_edited_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text("[board]\n")

    def someone_edits(_: Config) -> None:
        path.write_text("[board]\nrgb = true\n")

    with pytest.raises(ConfigError, match="changed while calibrating"):
        write_board_options(path, {"cell_map": []}, verify=someone_edits)
    assert path.read_text() == "[board]\nrgb = true\n"


# -- the command --------------------------------------------------------------------------------
def follow_leds(record: dict[str, object]) -> calibrate_tool.WaitFactory:
    def factory(board: OpenBoard) -> calibrate_tool.Wait:
        hand = Hand(sim_board(board.config, board.context), board.leds,
                    interrupt_after=record.get("interrupt_after"))  # type: ignore[arg-type]
        record.update(board=board, hand=hand)
        return hand.wait
    return factory


def write_config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "draughtsboard.toml"
    path.write_text(CONFIG.replace("[timing]", extra + "\n[timing]"))
    return path


@pytest.mark.parametrize(("wiring", "cells"), [("grid", 100), ("compact", 50)])
def test_calibrate_command_writes_the_recognised_wiring(tmp_path: Path, wiring: str,
                                                        cells: int) -> None:
    path = write_config(tmp_path, f'[sim]\nwiring = "{wiring}"\n')
    record: dict[str, object] = {}
    out, err = io.StringIO(), io.StringIO()
    status = calibrate(CalibrateOptions(config_path=str(path), write=True), out=out, err=err,
                       clock=VirtualClock(), wait_factory=follow_leds(record))
    assert (status, err.getvalue()) == (0, "")
    text = out.getvalue()
    assert text.startswith("Calibrating sim sensors (")
    assert "place a piece on 1\n" in text and "place a piece on 50\n" in text
    assert "standard wiring recognised (board.transform = 'identity') after 3 squares" in text
    config = Config.load(path)
    assert (config["board.transform"], config["board.cell_map"]) == ("identity", [])
    assert "# calibrated on the kitchen table:" in path.read_text()
    board = record["board"]
    assert isinstance(board, OpenBoard)
    assert board.sensors.cells == cells
    assert board.sensors.closed and board.leds.closed


def test_without_write_the_lines_are_printed_and_the_file_kept(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    out = io.StringIO()
    status = calibrate(CalibrateOptions(config_path=str(path)), out=out, err=io.StringIO(),
                       clock=VirtualClock(), wait_factory=follow_leds({}))
    assert status == 0 and path.read_text() == write_config(tmp_path).read_text()
    assert out.getvalue().endswith('[board]\ntransform = "identity"\ncell_map = []\n')


def test_interrupted_calibration_closes_the_board_and_leaves_the_file(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    before = path.read_bytes()
    record: dict[str, object] = {"interrupt_after": 1}
    err = io.StringIO()
    status = calibrate(CalibrateOptions(config_path=str(path), write=True), out=io.StringIO(),
                       err=err, clock=VirtualClock(), wait_factory=follow_leds(record))
    assert status == 130
    assert err.getvalue() == f"draughtsboard calibrate: aborted: {path} left unchanged\n"
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    board = record["board"]
    assert isinstance(board, OpenBoard) and board.sensors.closed and board.leds.closed


def test_cli_calibrates_from_a_script_and_writes(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = write_config(tmp_path)
    script = tmp_path / "hand.txt"
    script.write_text("# a user on a grid-wired 10x10 board\n"
                      "500 place 1\n900 lift 1\n1500 place 50\n1900 lift 50\n"
                      "2500 place 26\n2900 lift 26\n")
    status = main(["calibrate", "--config", str(path), "--board", "sim", "--leds", "sim",
                   "--script", str(script), "--write"])
    captured = capsys.readouterr()
    assert (status, captured.err) == (0, "")
    assert captured.out.count("place a piece on") == 3
    assert f"Wrote board.transform and board.cell_map to {path}." in captured.out
    assert tomllib.loads(path.read_text())["board"]["transform"] == "identity"


def test_cli_script_that_stops_early_fails_without_writing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_config(tmp_path)
    before = path.read_bytes()
    script = tmp_path / "hand.txt"
    script.write_text("500 place 1\n900 lift 1\n")
    status = main(["calibrate", "--config", str(path), "--board", "sim", "--script",
                   str(script), "--write"])
    assert status == 1
    assert "nothing more happened for 5.9 s: giving up" in capsys.readouterr().err
    assert path.read_bytes() == before


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_until_then_interrupt(args: list[str], line_wanted: str) -> tuple[int, str, str]:
    """Run the CLI in real time; send Ctrl-C (SIGINT) once it printed ``line_wanted``.

    The child gets SIGINT's default action, as a program started from a terminal has: a suite
    launched in the background (``cmd &``, nohup) inherits SIGINT ignored, and Python then
    keeps ignoring it, so the Ctrl-C would never arrive.
    """
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *args], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_sigint)
    assert proc.stdout is not None
    try:
        seen = []
        while not seen or seen[-1] not in (line_wanted, ""):
            seen.append(proc.stdout.readline())
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, "".join(seen) + out, err


def test_ctrl_c_in_real_time_aborts_without_writing(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    before = path.read_bytes()
    status, out, err = run_until_then_interrupt(
        ["calibrate", "--config", str(path), "--board", "sim", "--write"],
        "place a piece on 1\n")
    assert "place a piece on 1\n" in out
    assert (status, err) == (130, f"draughtsboard calibrate: aborted: {path} left unchanged\n")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize(("extra", "message"), [
    ("[sim]\nwiring = 'spiral'\n", "sim.wiring = 'spiral' is not one of: grid, compact, chain"),
    ("[sim]\nbounce_ms = -5\n", "sim.bounce_ms = -5 is below 0"),
    ("[sim]\nwirring = 'grid'\n", "unknown option sim.wirring (did you mean sim.wiring?)"),
])
def test_bad_config_value_gives_one_clear_message(tmp_path: Path, extra: str, message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = write_config(tmp_path, extra)
    before = path.read_bytes()
    assert main(["calibrate", "--config", str(path), "--write"]) == 2
    err = capsys.readouterr().err
    assert err == f"draughtsboard: {path}: {message}\n"
    assert path.read_bytes() == before


def test_cli_errors_before_anything_is_asked(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--write"]) == 2
    assert "--write needs the configuration file to write: --config FILE" in \
        capsys.readouterr().err
    assert main(["calibrate", "--variant", "chess"]) == 2
    assert capsys.readouterr().err.startswith(
        "draughtsboard: command line: game.variant = 'chess': unknown variant 'chess'")
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nvariant = "chess"\n')
    assert main(["calibrate", "--config", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(
        f"draughtsboard: {bad}: game.variant = 'chess': unknown variant 'chess'")
    assert main(["calibrate", "--board", "gpio-matrix", "--script", "x"]) == 2
    assert "--script needs the simulated board" in capsys.readouterr().err
    missing = tmp_path / "nope.toml"
    assert main(["calibrate", "--config", str(missing)]) == 2
    assert capsys.readouterr().err == f"draughtsboard: {missing}: no such configuration file\n"


@pytest.mark.parametrize("module", [calibrate_tool, config_edit])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
