"""Scripted simulated board: a text file of timed physical events, played in virtual time.

Format (a contract other tests rely on), one event per line, ``#`` starts a comment::

    <time_ms> lift <square>
    <time_ms> place <square>
    <time_ms> press <button>

``time_ms`` is a whole number of ms from the start (ASCII digits), never decreasing and at most
:data:`MAX_TIME_MS` (24 hours: a script is played scan by scan, so a longer one would never end);
squares are the layout's names (``46``, ``c3``); buttons are the board's button names.

Example:
    >>> from board_io.geometry import dark_squares
    >>> events = parse_script("0 lift 32  # c3\\n40 place 28\\n", dark_squares(10),
    ...                       initial={31})
    >>> [(e.time_ms, e.verb, e.square) for e in events]
    [(0, 'lift', 31), (40, 'place', 27)]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from board_io.clock import VirtualClock
from board_io.errors import BoardIOError, ScriptError, UnknownSquareError
from board_io.geometry import Layout
from board_io.types import Square

if TYPE_CHECKING:
    from board_io.events import BoardEvent
    from board_io.scanner import Scanner
    from board_io.sim.board import SimulatedBoard

Verb = Literal["lift", "place", "press"]
VERBS: tuple[Verb, ...] = ("lift", "place", "press")
#: The latest time a script may name: 24 hours, longer than any game played at a board.
MAX_TIME_MS = 24 * 60 * 60 * 1000


@dataclass(frozen=True)
class ScriptEvent:
    """One line of a script: at ``time_ms``, ``verb`` a ``square`` or a ``button``."""

    time_ms: int
    verb: Verb
    square: Square | None
    button: str | None
    line: int


def _parse_time(token: str, line: int) -> int:
    if not (token.isascii() and token.isdigit()):  # "²".isdigit() is True, int("²") fails
        raise ScriptError(line, f"time {token!r} is not a whole number of ms >= 0")
    time_ms = int(token)
    if time_ms > MAX_TIME_MS:
        raise ScriptError(line, f"time {time_ms} ms is after the longest script "
                                f"({MAX_TIME_MS} ms, 24 hours)")
    return time_ms


def _parse_line(text: str, number: int, layout: Layout,
                buttons: Collection[str] | None) -> ScriptEvent | None:
    tokens = text.split("#", 1)[0].split()
    if not tokens:
        return None
    if len(tokens) != 3:
        raise ScriptError(number, "expected '<time_ms> lift|place|press <what>', "
                                  f"got {text.strip()!r}")
    time_ms = _parse_time(tokens[0], number)
    verb = tokens[1].lower()
    if verb == "press":
        button = tokens[2].lower()
        if buttons is not None and button not in buttons:
            raise ScriptError(number, f"unknown button {tokens[2]!r}; buttons are: "
                                      f"{', '.join(buttons)}")
        return ScriptEvent(time_ms, "press", None, button, number)
    if verb not in ("lift", "place"):
        raise ScriptError(number, f"unknown verb {tokens[1]!r}; use one of: {', '.join(VERBS)}")
    try:
        square = layout.parse(tokens[2])
    except UnknownSquareError as exc:
        raise ScriptError(number, str(exc)) from None
    return ScriptEvent(time_ms, "lift" if verb == "lift" else "place", square, None, number)


def parse_script(text: str, layout: Layout, *, initial: Iterable[Square] | None = None,
                 buttons: Collection[str] | None = None) -> list[ScriptEvent]:
    """Parse a script; with ``initial`` (the starting occupancy) also check it can be played,
    with ``buttons`` (the board's button names) that it presses only those.

    Raises:
        ScriptError: the first bad line, with its number: bad syntax, unknown square, verb or
            button, a time before the previous one, a lift from an empty square or a place on
            an occupied one.
    """
    events: list[ScriptEvent] = []
    occupied = set(initial) if initial is not None else None
    for number, line in enumerate(text.splitlines(), start=1):
        event = _parse_line(line, number, layout, buttons)
        if event is None:
            continue
        if events and event.time_ms < events[-1].time_ms:
            raise ScriptError(number, f"time {event.time_ms} ms is before the previous event's "
                                      f"{events[-1].time_ms} ms (times must not decrease)")
        if occupied is not None and event.square is not None:
            _check_playable(event, event.square, occupied, layout)
        events.append(event)
    return events


def _check_playable(event: ScriptEvent, square: Square, occupied: set[Square],
                    layout: Layout) -> None:
    name = layout.name(square)
    if event.verb == "lift":
        if square not in occupied:
            raise ScriptError(event.line, f"lift {name}: the square is empty at that point")
        occupied.discard(square)
    else:
        if square in occupied:
            raise ScriptError(event.line, f"place {name}: the square is already occupied")
        occupied.add(square)


def read_script(path: str | Path, layout: Layout, *, initial: Iterable[Square] | None = None,
                buttons: Collection[str] | None = None) -> list[ScriptEvent]:
    """Read and parse a script file (see :func:`parse_script`).

    Raises:
        ScriptError: the file is not UTF-8 text, or a line is bad.
        OSError: the file cannot be read.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ScriptError(1, f"{path} is not UTF-8 text ({exc.reason})") from None
    return parse_script(text, layout, initial=initial, buttons=buttons)


def apply_event(board: SimulatedBoard, event: ScriptEvent) -> None:
    """Do what ``event`` says on the simulated board (lift, place or press).

    Raises:
        ScriptError: the event cannot be applied (a lift from an empty square, ...).
    """
    try:
        if event.verb == "press" and event.button is not None:
            board.press(event.button)
        elif event.verb == "lift" and event.square is not None:
            board.lift(event.square)
        elif event.verb == "place" and event.square is not None:
            board.place(event.square)
        else:  # the parser gives every verb its square or button
            raise ValueError(f"{event.verb}: no square or button to act on")
    except (BoardIOError, ValueError) as exc:
        raise ScriptError(event.line, str(exc)) from None


def occupancy_after(initial: Iterable[Square], events: Iterable[ScriptEvent]) -> frozenset[Square]:
    """The squares occupied once ``events`` are done, from ``initial``.

    >>> from board_io.geometry import dark_squares
    >>> events = parse_script("0 lift 32\\n40 place 28\\n", dark_squares(10), initial={31})
    >>> sorted(occupancy_after({31}, events))
    [27]
    """
    occupied = set(initial)
    for event in events:
        if event.verb == "lift" and event.square is not None:
            occupied.discard(event.square)
        elif event.verb == "place" and event.square is not None:
            occupied.add(event.square)
    return frozenset(occupied)


class ScriptPlayer:
    """Plays script events on a simulated board in virtual time, sampled at ``scan_hz``.

    Each event is applied at its exact time (so bounce starts there); the clock then moves to
    the next scan instant, which :meth:`ticks` yields. Play goes on ``tail_ms`` after the last
    event so that debouncing and settle times run out.

    Raises:
        ValueError: the board's clock is not a :class:`VirtualClock`, or scan_hz <= 0.
    """

    def __init__(self, board: SimulatedBoard, events: Sequence[ScriptEvent], *,
                 scan_hz: float = 100.0, tail_ms: float = 1000.0) -> None:
        if not isinstance(board.clock, VirtualClock):
            raise ValueError("a script plays in virtual time: give the board a VirtualClock")
        if scan_hz <= 0:
            raise ValueError(f"scan_hz must be > 0, not {scan_hz}")
        self.board = board
        self.clock: VirtualClock = board.clock
        self.events = list(events)
        self.period = 1.0 / scan_hz
        self.tail = tail_ms / 1000.0

    def ticks(self) -> Iterator[float]:
        """Yield every scan instant (seconds), with the events up to it applied.

        Raises:
            ScriptError: an event cannot be applied (a lift from an empty square, ...).
        """
        start = self.clock.monotonic()
        end = start + (self.events[-1].time_ms / 1000.0 if self.events else 0.0) + self.tail
        pending = iter(self.events)
        upcoming = next(pending, None)
        tick = 0
        while True:
            now = start + tick * self.period
            if now > end + 1e-9:
                return
            while upcoming is not None and start + upcoming.time_ms / 1000.0 <= now + 1e-9:
                self.clock.set(max(self.clock.monotonic(), start + upcoming.time_ms / 1000.0))
                self._apply(upcoming)
                upcoming = next(pending, None)
            self.clock.set(max(self.clock.monotonic(), now))
            yield now
            tick += 1

    def _apply(self, event: ScriptEvent) -> None:
        apply_event(self.board, event)

    def run(self, scanner: Scanner) -> list[BoardEvent]:
        """Play the whole script, polling ``scanner`` at every tick; return all its events."""
        events: list[BoardEvent] = []
        for now in self.ticks():
            events.extend(scanner.poll(now))
        return events
