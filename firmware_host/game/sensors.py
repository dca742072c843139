"""The session's watch on its own sensors: readings that come from a fault, not from a hand.

:class:`SensorWatch` wraps :class:`~firmware_host.recognition.health.HealthTracker` for the
session: it is told every stable occupancy and every position the game expects, and answers the
occupancy to judge (stuck squares read as the game expects them), whether ghosts make the
reading ambiguous (then no move is committed and no correction shown), the squares to light
with the ``fault`` role, and the ``sensor_fault`` / ``sensor_recovered`` events to publish —
with a sentence naming the square and the likely cause, never a correction asking the player to
move pieces that are not there.

Example (a stuck-open square: the game expects a piece on 1 that the sensor never sees):
    >>> from firmware_host.recognition.health import Wiring
    >>> wiring = Wiring(cells=((0, 0), (0, 1), (1, 0), (1, 1)), names=("1", "2", "3", "4"))
    >>> events = []
    >>> watch = SensorWatch(HealthTracker(wiring, expected=frozenset({0, 1}), at=0.0,
    ...                                   patience_s=10.0),
    ...                     publish=lambda kind, **fields: events.append((kind, fields["square"])),
    ...                     name=lambda sq: int(sq) + 1)
    >>> watch.expect(frozenset({0, 1}), at=0.0)
    >>> sorted(watch.observe(frozenset({1}), at=0.0))  # too early to blame the sensor
    [1]
    >>> sorted(watch.check(at=10.5))                   # square 1 never read a piece
    [0, 1]
    >>> events, sorted(watch.faults)
    ([('sensor_fault', 1)], [0])
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from engine.types import Square
from firmware_host.game.types import State
from firmware_host.i18n import ENGLISH, Translator
from firmware_host.recognition.health import HealthReport, HealthTracker

__all__ = ["HealthTracker", "SensorWatch", "setup_for"]

log = logging.getLogger(__name__)

#: How often the watch looks again while the board differs from the game (stuck findings need
#: the sensors' patience to run out, with no event to wake the session).
RECHECK_MS = 1000


class _Game(Protocol):
    @property
    def started(self) -> bool: ...

    initial: frozenset[int]


def setup_for(state: State, game: _Game) -> frozenset[Square]:
    """The start position the board may be being set up on in ``state``: the game's initial
    occupancy where reading it starts a new game (the judge's new-game timer runs: a game over,
    a new game asked for, re-syncing a started game), else nothing.

    >>> class Over:
    ...     started, initial = True, frozenset({0, 1})
    >>> sorted(setup_for(State.GAME_OVER, Over())), sorted(setup_for(State.HUMAN_TO_MOVE, Over()))
    ([0, 1], [])
    """
    if state in (State.GAME_OVER, State.SETTING_UP) or (state is State.SYNCING and game.started):
        return game.initial
    return frozenset()


class SensorWatch:
    """Sensor health, seen from the session (one per session; no clock of its own)."""

    def __init__(self, tracker: HealthTracker, *,
                 publish: Callable[..., None], name: Callable[[Square], int | str],
                 tr: Translator = ENGLISH) -> None:
        self._tracker = tracker
        self._tr = tr  # the board's language: the events' text
        self._publish = publish
        self._name = name
        self._raw: frozenset[Square] = frozenset()
        self._expected: frozenset[Square] | None = None
        self._report = HealthReport()

    @property
    def faults(self) -> frozenset[Square]:
        """Squares whose sensor is not to be trusted (lit with the ``fault`` role)."""
        return self._report.suspect

    @property
    def blocking(self) -> bool:
        """Ghosts make the reading ambiguous: no move, no correction from it."""
        return self._report.blocking

    @property
    def recheck(self) -> bool:
        """Whether to look again in :data:`RECHECK_MS` (the board differs from the game)."""
        return self._expected is not None and self._raw != self._expected

    def mcu_reported(self, squares: frozenset[Square]) -> None:
        """Squares whose cell the microcontroller reported faulty (its diode check)."""
        self._tracker.mcu_reported(squares)

    def expect(self, expected: frozenset[Square], at: float,
               setup: frozenset[Square] = frozenset()) -> None:
        """The game's target occupancy changed (a move, a takeback, a new game, a resume);
        ``setup``: the start position a new game may be set up on now (its squares are pieces
        being set up, never ghosts; empty: no new game may be set up)."""
        self._expected = expected
        self._tracker.expect(expected, at, setup)

    def observe(self, raw: frozenset[Square], at: float) -> frozenset[Square]:
        """A new stable occupancy; returns the occupancy to judge."""
        self._raw = raw
        self._tracker.observe(raw, at)
        return self.check(at)

    def check(self, at: float) -> frozenset[Square]:
        """Analyse again (new occupancy, or the recheck timer); returns the occupancy to judge."""
        update = self._tracker.check(at)
        self._report = update.report
        for finding in update.new:
            log.warning("%s", finding.sentence)
            self._publish("sensor_fault", square=self._name(finding.square),
                          cause=finding.cause.value, text=finding.text(self._tr),
                          related=[self._name(sq) for sq in finding.related])
        for square in sorted(update.cleared):
            self._publish("sensor_recovered", square=self._name(square))
        expected = self._expected if self._expected is not None else self._raw
        return update.report.trusted(self._raw, expected)
