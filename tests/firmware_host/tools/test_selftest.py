"""``draughtsboard selftest``: the LED walk, the printed sensor changes and the fault report,
on a simulated board with injected faults, in virtual time."""

from __future__ import annotations

import doctest
import io
from pathlib import Path

import pytest

import firmware_host.tools.selftest as selftest_tool
from board_io.clock import VirtualClock
from board_io.geometry import CellMap
from board_io.leds.base import NoLeds
from board_io.selftest import SensorWatch
from board_io.sensors.base import SensorMatrix
from board_io.sim import LedRecorder, SimFaults, SimulatedBoard
from board_io.sim.backends import sim_board
from board_io.types import YELLOW, Led, Pattern, Reading, Square
from firmware_host.cli import main
from firmware_host.recognition.layout import layout_for
from firmware_host.tools.calibrate import OpenBoard, Wait, WaitFactory
from firmware_host.tools.selftest import SelftestOptions, run_selftest, selftest
from tests.firmware_host.tools.test_calibrate import run_until_then_interrupt


class Builder:
    """A builder testing the board: once the LED walk is over, puts a piece on each of
    ``squares`` in turn and lifts it again (``dwell_s`` each); ``flap`` is a square whose
    piece wobbles on a loose contact (toggled every scan) the whole time."""

    def __init__(self, board: SimulatedBoard, squares: list[Square], *, start_s: float,
                 dwell_s: float = 0.1, flap: Square | None = None) -> None:
        assert isinstance(board.clock, VirtualClock)
        self.clock = board.clock
        self.board = board
        self.plan = [(start_s + 2 * k * dwell_s, "place", sq) for k, sq in enumerate(squares)]
        self.plan += [(start_s + (2 * k + 1) * dwell_s, "lift", sq)
                      for k, sq in enumerate(squares)]
        self.plan.sort(reverse=True)
        self.flap = flap

    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)
        now = self.clock.monotonic()
        while self.plan and self.plan[-1][0] <= now:
            _, verb, sq = self.plan.pop()
            getattr(self.board, verb)(sq)
        if self.flap is not None:
            if self.flap in self.board.occupied:
                self.board.lift(self.flap)
            else:
                self.board.place(self.flap)


def watch(board: SimulatedBoard, squares: list[Square], seconds: float = 8,
          flap: Square | None = None) -> tuple[selftest_tool.SelfTestReport, str, LedRecorder]:
    layout = board.layout
    leds = LedRecorder(layout.num_squares, clock=board.clock)
    builder = Builder(board, squares, start_s=layout.num_squares * 0.05 + 0.5, flap=flap)
    out = io.StringIO()
    report = run_selftest(board.sensor_matrix, leds, board.cell_map, clock=board.clock,
                          wait=builder.wait, out=out, seconds=seconds, led_step_s=0.05,
                          stuck_ms=1000)
    return report, out.getvalue(), leds


def test_healthy_board_lights_every_led_and_sees_every_square() -> None:
    layout = layout_for("international")
    board = SimulatedBoard(layout, clock=VirtualClock())
    report, text, leds = watch(board, list(range(50)), seconds=12)
    lit = [dict(shown.frame) for shown in leds.history]
    assert lit == [{sq: Led(Pattern.ON, YELLOW)} for sq in range(50)] + [{}]
    assert " 1 2 3 " in text and text.count(" 50\n") == 1
    assert "  r9c1 (square 1): occupied\n  r9c1 (square 1): empty\n" in text
    assert report.ok and report.changed == dict.fromkeys(range(50), 2)
    assert text.endswith("Report:\n  50 of 50 squares seen changing\n  all squares respond\n")


def test_dead_row_is_reported() -> None:
    layout = layout_for("english")
    board = SimulatedBoard(layout, clock=VirtualClock(),
                           faults=SimFaults(dead_rows=frozenset({5})))
    report, text, _ = watch(board, list(range(32)))
    row5 = [sq for sq in range(32) if layout.coords[sq][0] == 5]
    assert report.dead_rows == (5,) and report.untouched == tuple(row5)
    assert "  sensor row 5: no square changed (row wire or its driver?)\n" in text
    assert f"  never changed: {' '.join(layout.name(sq) for sq in row5)}\n" in text
    assert not report.ok


def test_stuck_cell_is_reported_as_a_square_that_never_changes() -> None:
    layout = layout_for("russian")
    stuck = layout.parse("c3")
    cell = CellMap.identity(layout).cell(stuck)
    board = SimulatedBoard(layout, clock=VirtualClock(),
                           faults=SimFaults(stuck={cell: Reading.OCCUPIED}))
    report, text, _ = watch(board, list(range(32)))
    assert report.untouched == (stuck,) and not report.dead_rows and not report.dead_cols
    assert "  stuck closed (read a piece all along; switch stuck shut, a magnet nearby or a " \
        "short?): c3\n" in text
    assert report.stuck == (stuck,) and "never changed" not in text


def test_loose_contact_is_reported_noisy() -> None:
    layout = layout_for("english")
    board = SimulatedBoard(layout, clock=VirtualClock())
    report, text, _ = watch(board, [sq for sq in range(32) if sq != 9], flap=9)
    r, c = CellMap.identity(layout).cell(9)
    assert report.noisy == ((r, c),)
    assert f"  r{r}c{c} (square 10): noisy, keeps changing\n" in text
    assert f"  r{r}c{c}: noisy (loose contact or bad solder joint?)\n" in text


def test_board_without_leds_skips_the_walk() -> None:
    layout = layout_for("english")
    clock = VirtualClock()
    board = SimulatedBoard(layout, clock=clock)
    out = io.StringIO()
    run_selftest(board.sensor_matrix, NoLeds(32, clock=clock), board.cell_map, clock=clock,
                 wait=clock.advance, out=out, seconds=1)
    assert out.getvalue().startswith('LEDs: none configured (board.leds = "none"): skipped\n')


def builder_follows(squares: list[str], record: dict[str, object]) -> WaitFactory:
    def factory(board: OpenBoard) -> Wait:
        sim = sim_board(board.config, board.context)
        record["board"] = board
        return Builder(sim, [board.layout.parse(name) for name in squares],
                      start_s=board.layout.num_squares * 0.3 + 0.5).wait
    return factory


def test_selftest_command_with_a_dead_row_from_the_config(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[game]\nvariant = "english"\n[sim]\ndead_rows = [0]\n')
    record: dict[str, object] = {}
    out, err = io.StringIO(), io.StringIO()
    everything = [str(n) for n in range(1, 33)]
    status = selftest(SelftestOptions(config_path=str(path), seconds=20), out=out, err=err,
                      clock=VirtualClock(), wait_factory=builder_follows(everything, record))
    assert (status, err.getvalue()) == (1, "")
    assert "  sensor row 0: no square changed (row wire or its driver?)\n" in out.getvalue()
    assert "  never changed: 29 30 31 32\n" in out.getvalue()
    board = record["board"]
    assert isinstance(board, OpenBoard) and board.sensors.closed and board.leds.closed


def test_cli_selftest_from_a_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "hand.txt"
    # The LED walk takes 32 x 0.3 s; the pieces come afterwards.
    script.write_text("10000 place 11\n10200 lift 11\n")
    status = main(["selftest", "--board", "sim", "--variant", "english", "--seconds", "12",
                   "--script", str(script)])
    out = capsys.readouterr().out
    assert status == 1
    r, c = CellMap.identity(layout_for("english")).cell(10)
    assert f"  r{r}c{c} (square 11): occupied\n  r{r}c{c} (square 11): empty\n" in out
    assert "  1 of 32 squares seen changing\n" in out


def test_cli_selftest_with_a_bad_script(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "hand.txt"
    script.write_text("# c3 is no square of English checkers\n0 place c3\n")
    args = ["selftest", "--board", "sim", "--variant", "english", "--seconds", "1"]
    assert main([*args, "--script", str(script)]) == 2  # bad input
    assert capsys.readouterr().err.startswith(
        "draughtsboard selftest: line 2: unknown square 'c3'")
    missing = tmp_path / "missing.txt"
    assert main([*args, "--script", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"draughtsboard selftest: {missing}: cannot read the script: No such file or directory\n")


def test_cli_rejects_bad_seconds_and_a_bad_cell_map(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["selftest", "--seconds", "0"])
    assert "seconds must be in (0, 86400], not 0" in capsys.readouterr().err
    path = tmp_path / "board.toml"
    path.write_text("[board]\ncell_map = [0, 1, 2]\n")
    assert main(["selftest", "--config", str(path), "--board", "sim"]) == 2
    assert capsys.readouterr().err == (
        f"draughtsboard: {path}: board.cell_map: has 3 entries, the board has 50 squares "
        "(recalibrate with `draughtsboard calibrate`)\n")


def test_ctrl_c_ends_the_watch_with_the_report() -> None:
    status, out, err = run_until_then_interrupt(
        ["selftest", "--board", "sim", "--leds", "none", "--variant", "english",
         "--seconds", "600"],
        "Sensors: lift and place pieces on every square during the next 600 s (Ctrl-C to "
        "finish early); each change is printed.\n")
    assert (status, err) == (1, "")
    assert out.endswith("  (stopped)\nReport:\n  0 of 32 squares seen changing\n"
                        "  never changed: " + " ".join(str(n) for n in range(1, 33)) + "\n")


def test_docstring_examples() -> None:
    result = doctest.testmod(selftest_tool)
    assert result.attempted > 0 and result.failed == 0


class DiodeLess(SensorMatrix):
    """A sensor matrix wired without diodes: a cell reads closed when its row and column
    lines connect through closed switches (three corners of a rectangle close the fourth)."""

    def __init__(self, inner: SensorMatrix) -> None:
        super().__init__(inner.rows, inner.cols, inner.sensing)
        self.inner = inner

    def _read(self) -> tuple[Reading, ...]:
        frame = self.inner.read()
        closed = [i for i, r in enumerate(frame) if r is not Reading.EMPTY]
        parent = list(range(self.rows + self.cols))  # union-find over row and column lines

        def find(x: int) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        for i in closed:
            r, c = divmod(i, self.cols)
            parent[find(r)] = find(self.rows + c)
        return tuple(Reading.OCCUPIED if find(r) == find(self.rows + c) else Reading.EMPTY
                     for r in range(self.rows) for c in range(self.cols))


def _ghost_test_run(diodes: bool) -> tuple[selftest_tool.SelfTestReport, str]:
    layout = layout_for("english")
    board = SimulatedBoard(layout, clock=VirtualClock())
    assert isinstance(board.clock, VirtualClock)
    sensors: SensorMatrix = board.sensor_matrix if diodes else DiodeLess(board.sensor_matrix)
    out = io.StringIO()
    watch = SensorWatch(board.cell_map)
    corners = watch.ghost_test()
    assert corners is not None
    # The builder follows the printed instruction: three corners on, then every square.
    builder = Builder(board, list(range(32)), start_s=32 * 0.05 + 2.0)
    start = 32 * 0.05 + 0.5
    builder.plan += [(start + 0.2 * k, "place", sq) for k, sq in enumerate(corners[:3])]
    builder.plan += [(start + 1.0, "lift", sq) for sq in corners[:3]]
    builder.plan.sort(reverse=True)
    report = run_selftest(sensors, LedRecorder(32, clock=board.clock), board.cell_map,
                          clock=board.clock, wait=builder.wait, out=out, seconds=10,
                          led_step_s=0.05)
    return report, out.getvalue()


def test_a_matrix_without_diodes_fails_the_ghost_test() -> None:
    report, text = _ghost_test_run(diodes=False)
    assert "Diode test: at some point put pieces on" in text
    assert report.ghosts and not report.ok
    assert "a ghost, the switch matrix has no diodes" in text
    assert "all squares respond" not in text


def test_a_matrix_with_diodes_passes_the_ghost_test() -> None:
    report, text = _ghost_test_run(diodes=True)
    assert report.ok and not report.ghosts and report.diodes_checked
    assert "diode test passed" in text and "all squares respond" in text


def test_no_ghost_test_for_a_shift_register_chain() -> None:
    layout = layout_for("english")
    watch = SensorWatch(CellMap.identity(layout), matrix=False)
    assert watch.ghost_test() is None
