"""Sensor health during a game: readings that come from a faulty sensor, not from the player.

:func:`analyse` is pure. It compares what the game expects (``expected``: the occupied squares
of the position) with what the sensors steadily read (``stable``), knowing when each square's
reading last changed, and names the squares whose reading should not be trusted:

* **missing diode** (``MISSING_DIODE``): on a row/column switch matrix without diodes, closing
  three corners of a rectangle of sensor cells makes the fourth read closed too. A square that
  reads a piece the game does not expect, is the fourth corner of a rectangle of closed cells
  and appeared *at the same moment* as one of the other three corners is such a ghost. A group
  of squares appearing together may hold one real piece: the finding names them all. While a
  new game may be set up (``setup``: its start position), a reading on a square of the start
  position is a piece being set up, never a ghost: the pieces of a whole start position put
  down in one scan (the microcontroller reconnecting after the board was reset) close every
  rectangle at once, and that is a legal set-up, not 21 faults.
* **stuck switch, closed** (``STUCK_CLOSED``): a square reads a piece, the game has never had a
  piece there, and its reading has not changed since start-up, for ``patience_s``.
* **stuck switch, open** (``STUCK_OPEN``): the game expects a piece, the square has never read
  one since start-up, and every other square agrees with the game, for ``patience_s``.
* **row or column wire** (``ROW_WIRE`` / ``COLUMN_WIRE``): two or more squares of one sensor
  row (column) are stuck open and no square of that line ever read anything.
* **diode check** (``DIODE_CHECK``): the microcontroller reported the square's cell faulty
  (ERROR 4; the reference firmware drives the matrix backwards and sees this switch conduct:
  its diode is missing, reversed or shorted). ``reported`` squares, from
  ``SerialSensors.reported_faults`` through the cell map.

The session publishes each new finding as a ``sensor_fault`` event, shows the squares with the
``fault`` LED role and never asks the player to correct them: :meth:`HealthReport.trusted`
gives the occupancy with every stuck square read as the game expects, and
:attr:`HealthReport.blocking` says that ghosts make the reading ambiguous (no move may be
committed from it).

Example (a diode-less 2x2 matrix: three pieces, the fourth corner reads one too):
    >>> wiring = Wiring(cells=((0, 0), (0, 1), (1, 0), (1, 1)), names=("a", "b", "c", "d"))
    >>> report = analyse(wiring, expected=frozenset({0, 1, 2}),
    ...                  stable=frozenset({0, 1, 2, 3}), changed_at={2: 5.0, 3: 5.0},
    ...                  ever_expected=frozenset({0, 1, 2}), since=0.0, now=5.1)
    >>> [(f.square, f.cause.value) for f in report.findings], report.blocking
    ([(3, 'missing_diode')], True)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from engine import Square
from firmware_host.i18n import ENGLISH, N_, Translator

if TYPE_CHECKING:
    from board_io.geometry import CellMap

__all__ = ["Cause", "HealthReport", "HealthTracker", "HealthUpdate", "SensorFinding", "Wiring",
           "analyse"]

Cell = tuple[int, int]

#: Two changes this close in time happened "at the same moment" (one scan, one debounce).
TOGETHER_S = 0.05
#: How long a stuck reading must last before it is called a fault.
PATIENCE_S = 10.0


class Cause(StrEnum):
    """The likely cause of a faulty reading."""

    MISSING_DIODE = "missing_diode"
    STUCK_CLOSED = "stuck_closed"
    STUCK_OPEN = "stuck_open"
    ROW_WIRE = "row_wire"
    COLUMN_WIRE = "column_wire"
    DIODE_CHECK = "diode_check"


@dataclass(frozen=True)
class Wiring:
    """Where each square's sensor sits: its (sensor row, sensor column), and its name.

    ``matrix``: the sensors are a row/column matrix (ghosts possible); False for one input per
    square (a shift-register chain).
    """

    cells: tuple[Cell, ...]
    names: tuple[str, ...]
    matrix: bool = True

    @classmethod
    def from_cell_map(cls, cell_map: CellMap, *, matrix: bool = True) -> Wiring:
        """The wiring of a board_io cell map (``matrix`` False for a shift-register chain)."""
        return cls(tuple(cell_map.cells), tuple(cell_map.layout.names), matrix)

    def name(self, square: Square) -> str:
        """The square's name."""
        return self.names[square]


@dataclass(frozen=True)
class SensorFinding:
    """One square whose reading comes from a fault; ``sentence`` says which and why (English),
    :meth:`text` in a board's language (``template`` a catalog sentence, ``values`` its fields).
    """

    square: Square
    cause: Cause
    template: str
    related: tuple[Square, ...] = ()  # the rectangle's other corners, the line's squares
    values: tuple[tuple[str, str], ...] = ()

    def text(self, tr: Translator = ENGLISH) -> str:
        """The finding's sentence in ``tr``'s language."""
        return tr.gettext(self.template).format(**dict(self.values))

    @property
    def sentence(self) -> str:
        """The finding's sentence in English (the log's)."""
        return self.text(ENGLISH)

    def to_data(self, wiring: Wiring, tr: Translator = ENGLISH) -> dict[str, object]:
        """The ``sensor_fault`` event's fields (``text`` in ``tr``'s language)."""
        return {"event": "sensor_fault", "square": wiring.name(self.square),
                "cause": self.cause.value, "text": self.text(tr),
                "related": [wiring.name(sq) for sq in self.related]}


@dataclass(frozen=True)
class HealthReport:
    """The findings of :func:`analyse`."""

    findings: tuple[SensorFinding, ...] = ()
    _by_cause: Mapping[Cause, frozenset[Square]] = field(default_factory=dict, repr=False)

    @property
    def suspect(self) -> frozenset[Square]:
        """Every square whose reading is not to be trusted (show ``fault``, no correction)."""
        return frozenset(f.square for f in self.findings)

    @property
    def blocking(self) -> bool:
        """True while ghosts make the reading ambiguous: commit no move from it."""
        return bool(self._by_cause.get(Cause.MISSING_DIODE))

    def trusted(self, stable: frozenset[Square], expected: frozenset[Square]) -> frozenset[Square]:
        """``stable`` with each stuck square read as the game expects it."""
        stuck_closed = self._by_cause.get(Cause.STUCK_CLOSED, frozenset())
        stuck_open = frozenset().union(*(self._by_cause.get(c, frozenset()) for c in (
            Cause.STUCK_OPEN, Cause.ROW_WIRE, Cause.COLUMN_WIRE)))
        return (stable - stuck_closed) | (stuck_open & expected)


def analyse(wiring: Wiring, *, expected: frozenset[Square], stable: frozenset[Square],
            changed_at: Mapping[Square, float], ever_expected: frozenset[Square],
            since: float, now: float, patience_s: float = PATIENCE_S,
            together_s: float = TOGETHER_S,
            reported: frozenset[Square] = frozenset(),
            setup: frozenset[Square] = frozenset()) -> HealthReport:
    """Find the squares whose reading comes from a sensor fault.

    ``changed_at[sq]``: when the stable reading of ``sq`` last changed (absent: never since
    start-up); ``ever_expected``: every square the game has expected a piece on since
    start-up; ``since``: when the expected occupancy last changed (the last move, the start);
    ``reported``: squares whose cell the microcontroller reported faulty; ``setup``: the start
    position of a new game the board may be being set up for (empty: none may be), whose squares
    are never called ghosts.

    Example (the whole start position of a 2x2 board read in one scan: a set-up, no ghost):
        >>> w = Wiring(cells=((0, 0), (0, 1), (1, 0), (1, 1)), names=("a", "b", "c", "d"))
        >>> everything = frozenset({0, 1, 2, 3})
        >>> analyse(w, expected=frozenset({0}), stable=everything,
        ...         changed_at=dict.fromkeys((1, 2, 3), 5.0), ever_expected=frozenset({0}),
        ...         since=0.0, now=5.1, setup=everything).findings
        ()

    Raises:
        ValueError: a square outside the wiring.
    """
    size = len(wiring.cells)
    if any(not 0 <= sq < size for sq in expected | stable):
        raise ValueError(f"squares outside the {size}-square board")
    findings = (_ghosts(wiring, expected | setup, stable, changed_at, together_s)
                if wiring.matrix else [])
    ghosts = {f.square for f in findings}
    settled = now - since >= patience_s
    if settled:
        findings += [_stuck_closed(wiring, sq) for sq in sorted(stable - expected - ghosts)
                     if sq not in changed_at and sq not in ever_expected]
        findings += _stuck_open(wiring, expected, stable, changed_at, findings)
    found = {f.square for f in findings}
    findings += [_diode_check(wiring, sq) for sq in sorted(reported - found)]
    return _report(findings)


def _report(findings: Iterable[SensorFinding]) -> HealthReport:
    by_cause: dict[Cause, set[Square]] = defaultdict(set)
    for finding in findings:
        by_cause[finding.cause].add(finding.square)
    return HealthReport(tuple(sorted(findings, key=lambda f: f.square)),
                        {cause: frozenset(sqs) for cause, sqs in by_cause.items()})


#: Findings that stay until their square's reading changes: a stuck switch does not come
#: unstuck because a move was made elsewhere.
STICKY = frozenset({Cause.STUCK_CLOSED, Cause.STUCK_OPEN, Cause.ROW_WIRE, Cause.COLUMN_WIRE})


# -- the rules ---------------------------------------------------------------------------------

def _ghosts(wiring: Wiring, expected: frozenset[Square], stable: frozenset[Square],
            changed_at: Mapping[Square, float], together_s: float) -> list[SensorFinding]:
    at_cell = {cell: sq for sq, cell in enumerate(wiring.cells)}
    found = []
    for sq in sorted(stable - expected):
        when = changed_at.get(sq)
        if when is None:
            # There at start-up: a real piece (a move made while the service was down) and a
            # ghost read the same; only a change seen together with a corner tells them apart.
            continue
        for corners in _rectangles(wiring.cells[sq], at_cell, stable):
            together = any(
                changed_at.get(c) is not None and abs(changed_at[c] - when) <= together_s
                for c in corners)
            if together:
                found.append(_ghost(wiring, sq, corners))
                break
    return found


def _rectangles(cell: Cell, at_cell: Mapping[Cell, Square],
                stable: frozenset[Square]) -> Iterable[tuple[Square, Square, Square]]:
    """Every rectangle of closed cells with ``cell`` as its fourth corner: the other three."""
    row, col = cell
    same_row = [(c, sq) for (r, c), sq in at_cell.items() if r == row and c != col
                and sq in stable]
    same_col = [(r, sq) for (r, c), sq in at_cell.items() if c == col and r != row
                and sq in stable]
    for other_col, beside in same_row:
        for other_row, above in same_col:
            diagonal = at_cell.get((other_row, other_col))
            if diagonal is not None and diagonal in stable:
                yield (beside, above, diagonal)


def _ghost(wiring: Wiring, sq: Square, corners: Sequence[Square]) -> SensorFinding:
    names = ", ".join(wiring.name(c) for c in corners)
    return SensorFinding(
        sq, Cause.MISSING_DIODE,
        N_("{square} reads a piece the game does not expect, and it appeared together with "
           "{corners}, the other corners of a rectangle of sensor cells: the switch matrix is "
           "missing its diodes (or a diode is shorted); the reading may be a ghost"),
        tuple(corners), (("square", wiring.name(sq)), ("corners", names)))


def _diode_check(wiring: Wiring, sq: Square) -> SensorFinding:
    return SensorFinding(
        sq, Cause.DIODE_CHECK,
        N_("the microcontroller's diode check finds the switch under {square} conducting "
           "backwards: its diode is missing, reversed or shorted (ghost readings may follow)"),
        values=(("square", wiring.name(sq)),))


def _stuck_closed(wiring: Wiring, sq: Square) -> SensorFinding:
    return SensorFinding(
        sq, Cause.STUCK_CLOSED,
        N_("{square} reads a piece that the game never had there, unchanged since start-up: "
           "if there is no piece on {square}, its switch is stuck closed (a reed stuck shut, a "
           "magnet nearby or a short)"),
        values=(("square", wiring.name(sq)),))


def _stuck_open(wiring: Wiring, expected: frozenset[Square], stable: frozenset[Square],
                changed_at: Mapping[Square, float],
                others: Sequence[SensorFinding]) -> list[SensorFinding]:
    missing = expected - stable
    dead = {sq for sq in missing if sq not in changed_at}
    explained = {f.square for f in others}
    if not dead or (missing - dead) or (stable - expected - explained):
        return []  # the board is still being set up or a move is under way
    rows: dict[int, list[Square]] = defaultdict(list)
    cols: dict[int, list[Square]] = defaultdict(list)
    for sq, (row, col) in enumerate(wiring.cells):
        rows[row].append(sq)
        cols[col].append(sq)
    found = []
    for sq in sorted(dead):
        row, col = wiring.cells[sq]
        line = _dead_line(rows[row], dead, changed_at, stable)
        if wiring.matrix and line:
            found.append(_wire(wiring, sq, Cause.ROW_WIRE, row, line))
            continue
        line = _dead_line(cols[col], dead, changed_at, stable)
        if wiring.matrix and line:
            found.append(_wire(wiring, sq, Cause.COLUMN_WIRE, col, line))
            continue
        found.append(SensorFinding(
            sq, Cause.STUCK_OPEN,
            N_("the game expects a piece on {square} but its sensor has never read one since "
               "start-up: if the piece is there, its switch, diode or solder joint is dead"),
            values=(("square", wiring.name(sq)),)))
    return found


def _dead_line(squares: Sequence[Square], dead: set[Square], changed_at: Mapping[Square, float],
               stable: frozenset[Square]) -> tuple[Square, ...]:
    """The line's squares if two or more are dead and none of them ever read anything."""
    hits = [sq for sq in squares if sq in dead]
    quiet = all(sq not in changed_at and sq not in stable for sq in squares)
    return tuple(squares) if len(hits) >= 2 and quiet else ()


#: The sentences of a dead sensor line, by cause.
WIRE_SENTENCES = {
    Cause.ROW_WIRE: N_("the game expects a piece on {square} but no square of sensor row {line} "
                       "({squares}) has ever read one: the row wire or the pin driving or "
                       "reading it"),
    Cause.COLUMN_WIRE: N_("the game expects a piece on {square} but no square of sensor column "
                          "{line} ({squares}) has ever read one: the column wire or the pin "
                          "driving or reading it"),
}


def _wire(wiring: Wiring, sq: Square, cause: Cause, line: int,
          squares: tuple[Square, ...]) -> SensorFinding:
    names = ", ".join(wiring.name(s) for s in squares)
    return SensorFinding(
        sq, cause, WIRE_SENTENCES[cause], tuple(s for s in squares if s != sq),
        (("square", wiring.name(sq)), ("line", str(line)), ("squares", names)))


@dataclass(frozen=True)
class HealthUpdate:
    """What :meth:`HealthTracker.check` found: findings new since the last check, squares
    whose finding went away, and the whole report."""

    new: tuple[SensorFinding, ...]
    cleared: frozenset[Square]
    report: HealthReport


class HealthTracker:
    """The bookkeeping around :func:`analyse` for a session (no I/O, no clock of its own).

    Feed it every stable occupancy (``observe``) and every change of the expected one
    (``expect``); ``check(now)`` returns what to publish. Each finding is new once, until its
    square is cleared.

    Example:
        >>> w = Wiring(cells=((0, 0), (0, 1), (1, 0), (1, 1)), names=("a", "b", "c", "d"))
        >>> tracker = HealthTracker(w, expected=frozenset({0, 1, 2}), at=0.0)
        >>> tracker.observe(frozenset({0, 1}), at=0.0)
        >>> tracker.observe(frozenset({0, 1, 2, 3}), at=4.0)   # c placed, d appears with it
        >>> [f.cause.value for f in tracker.check(4.1).new]
        ['missing_diode']
        >>> tracker.check(4.2).new
        ()
    """

    def __init__(self, wiring: Wiring, *, expected: frozenset[Square], at: float,
                 patience_s: float = PATIENCE_S) -> None:
        self.wiring = wiring
        self.patience_s = patience_s
        self._expected = expected
        self._ever_expected = expected
        self._since = at
        self._stable: frozenset[Square] | None = None
        self._changed_at: dict[Square, float] = {}
        self._reported: dict[Square, Cause] = {}
        self._sticky: dict[Square, tuple[SensorFinding, float]] = {}
        self._mcu_faults: frozenset[Square] = frozenset()
        self._setup: frozenset[Square] = frozenset()

    def mcu_reported(self, squares: frozenset[Square]) -> None:
        """Squares whose cell the microcontroller reported faulty (all of them so far)."""
        self._mcu_faults = squares

    def expect(self, expected: frozenset[Square], at: float,
               setup: frozenset[Square] = frozenset()) -> None:
        """The game's position changed (a move committed, taken back, a new game); ``setup``:
        the start position a new game may be set up on now (empty: none may be)."""
        self._setup = setup
        if expected != self._expected:
            self._expected = expected
            self._ever_expected |= expected
            self._since = at

    def observe(self, stable: frozenset[Square], at: float) -> None:
        """The sensors' stable occupancy (every ``OccupancyChanged``)."""
        if self._stable is not None:
            for sq in stable ^ self._stable:
                self._changed_at[sq] = at
        self._stable = stable

    def check(self, now: float) -> HealthUpdate:
        """Analyse the board now; return the findings to publish and the squares cleared."""
        stable = self._stable if self._stable is not None else self._expected
        report = analyse(self.wiring, expected=self._expected, stable=stable,
                         changed_at=self._changed_at, ever_expected=self._ever_expected,
                         since=self._since, now=now, patience_s=self.patience_s,
                         reported=self._mcu_faults, setup=self._setup)
        current = {f.square: f for f in report.findings}
        for sq, (finding, found_at) in list(self._sticky.items()):
            if self._changed_at.get(sq, float("-inf")) > found_at:
                del self._sticky[sq]  # the reading moved: the switch works (or was touched)
            else:
                current.setdefault(sq, finding)
        for finding in current.values():
            if finding.cause in STICKY:
                self._sticky.setdefault(finding.square, (finding, now))
        report = _report(current.values())
        new = tuple(f for sq, f in current.items() if self._reported.get(sq) is not f.cause)
        cleared = frozenset(sq for sq in self._reported if sq not in current)
        self._reported = {sq: f.cause for sq, f in current.items()}
        return HealthUpdate(new, cleared, report)
