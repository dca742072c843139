"""Sensor health from tables: ghosts of a diode-less matrix, stuck switches, dead wires."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from board_io.geometry import CellMap
from engine import Board
from firmware_host.feedback import leds
from firmware_host.recognition.health import Cause, HealthReport, Wiring, analyse
from firmware_host.recognition.layout import layout_for

LAYOUT = layout_for("english")
COMPACT = CellMap.compact(LAYOUT)  # 8 sensor rows x 4 columns, as docs/hardware.md wires it
WIRING = Wiring.from_cell_map(COMPACT)
START = Board("english").occupied_squares()


def sq(*names: str) -> frozenset[int]:
    return frozenset(LAYOUT.parse(n) for n in names)


def diode_less_reading(closed: Iterable[int], wiring: Wiring = WIRING) -> frozenset[int]:
    """What a matrix without diodes reads: a cell reads closed if its row and column lines
    are connected through closed switches (so the fourth corner of a rectangle closes)."""
    closed = set(closed)
    lines: dict[tuple[str, int], set[tuple[str, int]]] = {}
    for s in closed:
        r, c = wiring.cells[s]
        lines.setdefault(("r", r), set()).add(("c", c))
        lines.setdefault(("c", c), set()).add(("r", r))
    reading = set()
    for s, (r, c) in enumerate(wiring.cells):
        seen, todo = {("r", r)}, [("r", r)]
        while todo:
            for nxt in lines.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if ("c", c) in seen:
            reading.add(s)
    return frozenset(reading)


def _run(expected: frozenset[int], stable: frozenset[int], changed: dict[int, float], *,
         ever: frozenset[int] | None = None, since: float = 0.0, now: float = 20.0,
         wiring: Wiring = WIRING) -> HealthReport:
    return analyse(wiring, expected=expected, stable=stable, changed_at=changed,
                   ever_expected=ever if ever is not None else expected, since=since, now=now)


def _found(report: HealthReport) -> set[tuple[str, Cause]]:
    return {(LAYOUT.name(f.square), f.cause) for f in report.findings}


def test_the_issues_first_move_on_a_diode_less_board() -> None:
    # 11-15 on a matrix without diodes: the piece lands on 15, and the whole sensor row of 15
    # appears at the same moment (the issue's "a piece appeared on ...").
    board = Board("english")
    move = board.parse_move("11-15")
    after = (START - {move.origin}) | {move.destination}
    reading = diode_less_reading(after)
    assert len(reading - START) == 4  # what the player was told had "appeared"
    appeared = {s: 30.0 for s in reading ^ START}
    report = _run(START, reading, appeared, since=0.0, now=30.1)
    assert {cause for _, cause in _found(report)} == {Cause.MISSING_DIODE}
    assert report.suspect == reading - START
    assert report.blocking  # no move may be taken from this reading
    assert "missing its diodes" in report.findings[0].sentence


@pytest.mark.parametrize(
    ("case", "expected", "stable", "changed", "found"),
    [
        # three corners closed, the fourth appears with the third: a ghost
        ("ghost", sq("1", "2", "5"), sq("1", "2", "5", "6"), {4: 7.0, 5: 7.02},
         {("6", Cause.MISSING_DIODE)}),
        # the same squares, but the fourth came later, by hand: a real extra piece
        ("real extra", sq("1", "2", "5"), sq("1", "2", "5", "6"), {4: 7.0, 5: 9.0}, set()),
        # no rectangle: an extra piece, for the player to correct
        ("lone extra", sq("1", "2"), sq("1", "2", "14"), {13: 7.0}, set()),
    ],
)
def test_ghost_table(case: str, expected: frozenset[int], stable: frozenset[int],
                     changed: dict[int, float], found: set[tuple[str, Cause]]) -> None:
    assert _found(_run(expected, stable, changed, now=7.1)) == found, case


def test_no_ghosts_on_a_shift_register_chain() -> None:
    chain = Wiring(WIRING.cells, WIRING.names, matrix=False)
    report = _run(sq("1", "2", "5"), sq("1", "2", "5", "6"), {4: 7.0, 5: 7.0}, wiring=chain,
                  now=7.1)
    assert report.findings == ()


@pytest.mark.parametrize(
    ("case", "stable", "changed", "ever", "now", "found"),
    [
        # empty square 14 reads a piece from the start and never changes: stuck closed
        ("stuck closed", START | sq("14"), {}, START, 20.0, {("14", Cause.STUCK_CLOSED)}),
        ("too early to say", START | sq("14"), {}, START, 5.0, set()),
        # it changed once: there was a hand, so it is a piece to remove, not a fault
        ("changed once", START | sq("14"), {13: 3.0}, START, 20.0, set()),
        # a captured piece not yet taken off: the game had a piece there
        ("captured", START | sq("14"), {}, START | sq("14"), 20.0, set()),
    ],
)
def test_stuck_closed_table(case: str, stable: frozenset[int], changed: dict[int, float],
                            ever: frozenset[int], now: float,
                            found: set[tuple[str, Cause]]) -> None:
    chain = Wiring(WIRING.cells, WIRING.names, matrix=False)  # no rectangles to confuse it
    assert _found(_run(START, stable, changed, ever=ever, now=now, wiring=chain)) == found, case


def test_a_stuck_square_is_read_as_the_game_expects_so_the_game_starts() -> None:
    chain = Wiring(WIRING.cells, WIRING.names, matrix=False)
    stable = START | sq("14")
    report = _run(START, stable, {}, wiring=chain)
    assert report.trusted(stable, START) == START
    assert not report.blocking
    frame = leds.build(leds.sensor_fault(report.suspect) + leds.correction([], stable - START))
    assert {s: led.name for s, led in frame.items()} == {LAYOUT.parse("14"): "FAULT"}


@pytest.mark.parametrize(
    ("case", "stable", "changed", "now", "found"),
    [
        ("dead switch", START - sq("9"), {}, 20.0, {("9", Cause.STUCK_OPEN)}),
        # another square still differs: the player is still setting up, say nothing yet
        ("setting up", START - sq("9", "10"), {9: 4.0}, 20.0, set()),
        ("too early", START - sq("9"), {}, 5.0, set()),
    ],
)
def test_stuck_open_table(case: str, stable: frozenset[int], changed: dict[int, float],
                          now: float, found: set[tuple[str, Cause]]) -> None:
    assert _found(_run(START, stable, changed, now=now)) == found, case


def test_a_dead_sensor_row_is_named() -> None:
    row = [s for s, (r, _) in enumerate(WIRING.cells) if r == 1]
    stable = START - frozenset(row)
    report = _run(START, stable, {})
    assert {cause for _, cause in _found(report)} == {Cause.ROW_WIRE}
    assert report.suspect == frozenset(row)
    assert "sensor row 1" in report.findings[0].sentence
    assert report.trusted(stable, START) == START


def test_a_dead_sensor_column_is_named() -> None:
    col = [s for s, (r, c) in enumerate(WIRING.cells) if c == 2 and s in START]
    stable = START - frozenset(col)
    # the column's empty middle squares never read anything either
    report = _run(START, stable, {})
    assert {cause for _, cause in _found(report)} == {Cause.COLUMN_WIRE}
    assert "sensor column 2" in report.findings[0].sentence


def test_findings_are_event_data_with_a_sentence_naming_the_square() -> None:
    report = _run(sq("1", "2", "5"), sq("1", "2", "5", "6"), {4: 7.0, 5: 7.0}, now=7.1)
    data = report.findings[0].to_data(WIRING)
    assert data["event"] == "sensor_fault" and data["square"] == "6"
    assert data["cause"] == "missing_diode" and sorted(data["related"]) == ["1", "2", "5"]  # type: ignore[call-overload]
    assert "6 reads a piece" in str(data["text"])


def test_squares_outside_the_board_are_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        _run(frozenset({99}), frozenset(), {})


def test_the_tracker_reports_each_finding_once_and_its_end() -> None:
    from firmware_host.recognition.health import HealthTracker

    chain = Wiring(WIRING.cells, WIRING.names, matrix=False)
    tracker = HealthTracker(chain, expected=START, at=0.0)
    stuck = LAYOUT.parse("14")
    tracker.observe(START | {stuck}, at=0.0)
    assert tracker.check(5.0).new == ()  # patience
    update = tracker.check(10.0)
    assert [(f.square, f.cause) for f in update.new] == [(stuck, Cause.STUCK_CLOSED)]
    assert update.report.trusted(START | {stuck}, START) == START
    assert tracker.check(11.0).new == ()
    tracker.observe(START, at=12.0)  # it was a piece after all: lifted
    update = tracker.check(12.5)
    assert update.new == () and update.cleared == {stuck}


@pytest.mark.parametrize("name", ["firmware_host.recognition.health",
                                  "firmware_host.cli.firmware"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_a_diode_check_reported_by_the_microcontroller_is_a_finding() -> None:
    stable = START
    report = analyse(WIRING, expected=START, stable=stable, changed_at={},
                     ever_expected=START, since=0.0, now=1.0, reported=sq("22"))
    assert _found(report) == {("22", Cause.DIODE_CHECK)}
    assert not report.blocking and report.trusted(stable, START) == START
    assert "diode check" in report.findings[0].sentence and "22" in report.findings[0].sentence


def test_with_the_trusted_occupancy_a_stuck_square_asks_for_no_correction() -> None:
    from firmware_host.recognition.recogniser import resolve
    from firmware_host.recognition.resolution import InSync

    board = Board("english")
    stuck = LAYOUT.parse("14")
    raw = START | {stuck}
    assert not isinstance(resolve(board, raw), InSync)  # raw: "take the piece off 14"
    chain = Wiring(WIRING.cells, WIRING.names, matrix=False)
    report = _run(START, raw, {}, wiring=chain)
    assert isinstance(resolve(board, report.trusted(raw, START)), InSync)
    # and a move still works around it
    move = board.parse_move("11-15")
    after = (START - {move.origin}) | {move.destination}
    result = resolve(board, report.trusted(after | {stuck}, START))
    assert getattr(result, "move", None) == move


def test_a_finding_speaks_the_boards_language() -> None:
    from firmware_host.i18n import translator
    from firmware_host.recognition.health import Wiring, analyse

    wiring = Wiring(cells=((0, 0), (0, 1), (1, 0), (1, 1)), names=("1", "2", "3", "4"))
    report = analyse(wiring, expected=frozenset({0, 1, 2}), stable=frozenset({0, 1, 2, 3}),
                     changed_at={2: 5.0, 3: 5.0}, ever_expected=frozenset({0, 1, 2}),
                     since=0.0, now=5.1)
    finding = report.findings[0]
    russian = finding.text(translator("ru"))
    assert russian.startswith("поле 4 показывает шашку")
    assert "в матрице нет диодов" in russian
    assert finding.to_data(wiring, translator("ru"))["text"] == russian
    assert "missing its diodes" in finding.sentence  # the log stays English
