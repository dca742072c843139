"""The session's clock keeper: runs a :class:`~firmware_host.game.clock.GameClock` for each game.

With ``[clock] time_control`` set (``SessionConfig.time_control``), each new game gets a clock
and the PDN tag ``TimeControl``. The side to move's time runs from the game's first turn
(White's, or the variant's first mover); a committed move adds the increment and runs the other
side (:meth:`Timekeeper.moved`, called by :class:`~firmware_host.game.game.Game` as it logs the
move, so the record carries ``clock_white`` / ``clock_black``). When the running side's time is
up, the game ends by time (:meth:`Timekeeper.on_flag`): the other side wins (FMJD rules; see
docs/tournament.md) -- unless nobody has moved yet: a board left at the start position is not a
game lost on time, its clock then waits, full, for the first move.

The clock is held while any :class:`Hold` stands (``pause``/``resume``: the arbiter's hold of
this board; ``hall``: the hall's pause, a state kept in Redis; a corrected position waiting to
be set up); a clock held before its game's first turn starts held. While it is held the
session is ``paused`` on a human's turn: no move counts. ``start_round``
(:meth:`Timekeeper.start_round`) starts a round: the game waiting at the start takes the
round's pairing and its clock starts again, full, at that moment; with ``clock.default_time``
the side to move that has not moved that long (the clock's running time) loses by forfeit.

The clock is part of the session snapshot (:meth:`data`), saved after every move and every
:data:`SAVE_EVERY_S` seconds while it runs; a restarted service resumes it as saved, the time
it was down charged to nobody (and logged). Every change is published as a ``clock`` event.
Its timers are background ones: they do not keep the session from being idle.

The session owns the timekeeper and hands it to its :class:`~firmware_host.game.game.Game` as
the game's clock hooks (:class:`~firmware_host.game.types.GameClockHooks`: a new game, a move,
the end, a takeback, the snapshot), which answer with values and publish the ``clock`` event.
What the session asks of it (a turn, a timer, the clock button, the arbiter's commands) it
answers with :mod:`~firmware_host.game.decisions` (save, finish, the hold changed, publish the
clock) that the session carries out: it reads the session's facts (:class:`ClockFacts`) and
never calls it back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine.outcome import Outcome, Termination
from engine.types import Color
from engine.variant import Variant
from firmware_host.game.clock import GameClock, side_text
from firmware_host.game.decisions import Decision, Finish, HoldChanged, Publish, Save
from firmware_host.game.facts import GameFacts
from firmware_host.game.game import Publisher
from firmware_host.game.timers import Timers
from firmware_host.game.types import Refused, SessionConfig, State, TimerName
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import SIDES, Command, CommandName
from firmware_host.terms.timecontrol import TimeControlError, clk, control_of

__all__ = ["SAVE_EVERY_S", "Absence", "Hold", "Timekeeper", "home_corner"]

log = logging.getLogger(__name__)

#: While a clock runs, the session snapshot is saved this often (seconds): the most a restart
#: can give back to the side to move.
SAVE_EVERY_S = 5.0


def home_corner(variant: Variant, side: Color) -> int:
    """The playing square of ``side``'s first rank nearest its player's left hand.

    >>> from engine.variant import find_variant
    >>> international = find_variant("international")
    >>> [international.square_name(home_corner(international, side)) for side in Color]
    ['46', '5']
    """
    row = 0 if side is Color.WHITE else variant.rows - 1
    squares = [sq for sq in range(variant.num_squares) if variant.square_coords(sq)[0] == row]
    return (min if side is Color.WHITE else max)(
        squares, key=lambda sq: variant.square_coords(sq)[1])


class Hold(Enum):
    """Why a clock is held (any one holds it; it runs again when none is left)."""

    #: The hall's pause (``hall``): every board of the hall, kept in Redis
    #: (firmware_host/tournament/hall.py); a new game of this board starts held by it too.
    HALL = "hall"
    #: The arbiter held this board's clock (``pause``; ``resume`` releases it): a claim.
    ARBITER = "arbiter"
    #: A corrected position is being set up: released once the board shows it, by the
    #: arbiter (``resume``) or the clock button.
    SETUP = "setup"


@dataclass
class Absence:
    """The default time (``clock.default_time``) of a round's game, counted while the clock
    runs and its running side has not moved yet: when it is used up, that side loses by
    forfeit.

    >>> absence = Absence(600.0)
    >>> absence.run(at=0.0); absence.deadline()
    600.0
    >>> absence.stop(at=100.0); absence.left, absence.deadline()
    (500.0, None)
    """

    left: float
    since: float | None = None

    def run(self, at: float) -> None:
        """Count from ``at`` (no change when counting already)."""
        if self.since is None:
            self.since = at

    def stop(self, at: float) -> None:
        """Stop counting at ``at``."""
        if self.since is not None:
            self.left = max(0.0, self.left - (at - self.since))
            self.since = None

    def deadline(self) -> float | None:
        """When it is used up (None: not counting)."""
        return None if self.since is None else self.since + self.left


class ClockFacts(GameFacts, Protocol):
    """What the timekeeper reads of the session: facts, no methods that act."""

    @property
    def config(self) -> SessionConfig: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def state(self) -> State: ...
    @property
    def in_sync(self) -> bool: ...


class Timekeeper:
    """The clock of one session's games.

    Args:
        facts: the session's facts (its config, variant, game and state).
        timers: the session's timers (the timekeeper runs the flag and the save timers).
        publish: publishes the ``clock`` event (as the game logs a move, for one).
        now: the session's time (the ``at`` of the event being handled).
        wall_clock: Unix time, to say how long a restarted service was down.
    """

    def __init__(self, facts: ClockFacts, timers: Timers, publish: Publisher,
                 now: Callable[[], float], wall_clock: Callable[[], float]) -> None:
        self._facts = facts
        self._timers = timers
        self._publish = publish
        self._now = now
        self._wall_clock = wall_clock
        self.clock: GameClock | None = None
        #: What holds the clock now (kept without a clock too: the hall's pause).
        self.holds: set[Hold] = set()
        #: The default time left to the round game's absent side (None: none counts).
        self.absence: Absence | None = None

    @property
    def holding(self) -> bool:
        """The game's clock is held (a game without a clock is never held)."""
        return self.clock is not None and bool(self.holds)

    @property
    def arbiter_holding(self) -> bool:
        """The arbiter holds the game's clock: a claim, or a corrected or carried position to
        set up (not the hall's pause alone)."""
        return self.clock is not None and bool(self.holds & {Hold.ARBITER, Hold.SETUP})

    # -- the game's hooks (firmware_host/game/game.py) -------------------------------------

    def new_game(self) -> dict[str, str]:
        """A new game opens: a fresh clock (not running yet; held if the hall is paused);
        returns its PDN tags."""
        self._cancel()
        control = control_of(self._facts.config.time_control)
        self.clock = None if control is None else GameClock(control)
        self.holds &= {Hold.HALL}
        self.absence = None
        self._apply(self._now())
        return {} if control is None else {"TimeControl": control.pdn()}

    def moved(self, mover: Color, by: str) -> dict[str, float]:
        """``mover`` made a move (a ballot move does not count): the clock switches. Returns
        the record's ``clock_white`` / ``clock_black`` (empty without a clock)."""
        clock, at = self.clock, self._now()
        if clock is None or by == "ballot":
            return {}
        if by == "arbiter":  # a corrected move: no increment, the side to move after it runs
            clock.switch(mover.opponent, at)
            self._changed(at)
            return clock.fields(at)
        if not clock.started:  # a move finished before the first turn (a restart): it counts
            clock.start(mover, at)
        if clock.running is mover and not self._facts.config.clock_button:
            clock.press(at)  # (with a clock button, the mover presses it: :meth:`press`)
        self._changed(at)
        return clock.fields(at)

    def stopped(self) -> None:
        """The game is over: the clock stops where it is."""
        if self.clock is not None and self.clock.started:
            at = self._now()
            self.clock.stop(at)
            self._changed(at)
        self.absence = None

    def switch(self, side: Color) -> None:
        """A takeback: ``side`` is to move again (no increment for the moves undone)."""
        if self.clock is not None and self.clock.started:
            at = self._now()
            self.clock.switch(side, at)
            self._changed(at)

    def data(self) -> dict[str, object] | None:
        """The clock for the session snapshot (None: no clock)."""
        if self.clock is None:
            return None
        at = self._now()
        data: dict[str, object] = {**self.clock.to_data(at), "saved": self._wall_clock(),
                                   "holds": sorted(hold.value for hold in self.holds)}
        if self.absence is not None:
            self.absence.stop(at)
            data["absence"] = self.absence.left
            self._sync_absence(at)
        return data

    def restore(self, data: object) -> None:
        """Resume the clock of a saved session (the service was restarted)."""
        self._cancel()
        self.clock = None
        self.absence = None
        if not isinstance(data, Mapping):
            return
        at = self._now()
        try:
            self.clock = GameClock.from_data(data, at)
        except TimeControlError as exc:
            log.error("clock: %s: the game goes on without a clock", exc)
            return
        self.holds = set(_holds(data.get("holds")))
        if self.clock.paused and not self.holds:
            self.holds = {Hold.ARBITER}  # a snapshot of before the holds had names
        absence = data.get("absence")
        if isinstance(absence, int | float) and not isinstance(absence, bool) and absence >= 0:
            self.absence = Absence(float(absence))
        saved = data.get("saved")
        if isinstance(saved, int | float) and not isinstance(saved, bool):
            log.info("clock: resumed as saved %.0f s ago (the time the service was down is "
                     "charged to nobody)", max(0.0, self._wall_clock() - saved))
        self._apply(at)
        self._changed(at)

    def carried(self, saved: Mapping[str, object] | None, record: GameRecord) -> None:
        """A game carried here from another board (:mod:`firmware_host.game.carry`): its clock
        as that board last saved it (``saved``, its session's clock), else as its last move
        left it in ``record`` (this board's time control, each side's time after its last
        move), held: it runs again when the arbiter resumes it. No clock when the game had
        none."""
        data: dict[str, object] | None = dict(saved) if saved else None
        if data is None and record.moves:
            control = control_of(self._facts.config.time_control)
            last = {"white": None, "black": None} | {
                side: value for side, value in (("white", record.moves[-1].clock_white),
                                                ("black", record.moves[-1].clock_black))
                if value is not None}
            if control is not None and None not in last.values():
                white = sum(1 for m in record.moves if m.fen_after.lstrip().upper()[:1] == "B")
                data = {"control": control.text, **last,
                        "moves": [white, len(record.moves) - white],
                        "running": side_text(Color(self._facts.board.turn))}
        if data is not None:  # held by the arbiter (and by the hall's pause, if it stands)
            data["paused"] = True
            data["holds"] = sorted({Hold.ARBITER.value} | (
                {Hold.HALL.value} if Hold.HALL in self.holds else set()))
        self.restore(data)

    def display(self, at: float) -> str | None:
        """Both times as a player reads them (None: no clock).

        The side to move is marked ``*``; ``paused`` or ``stopped`` when the clock is not running.
        """
        clock = self.clock
        if clock is None:
            return None
        marks = {side: "*" if side is clock.running else "" for side in Color}
        times = "  ".join(f"{name} {clk(clock.left(side, at))}{marks[side]}"
                          for side, name in ((Color.WHITE, "white"), (Color.BLACK, "black")))
        state = " (paused)" if clock.paused else "" if clock.started else " (stopped)"
        return f"{times}{state}"

    def corner(self, at: float) -> int | None:
        """The square the LEDs blink when the side whose time runs has a minute or less
        (:data:`~firmware_host.terms.timecontrol.LOW_TIME_S`): the left-hand corner of its home row,
        as its player sees the board (None: no clock, not running, or time enough)."""
        low = None if self.clock is None else self.clock.low(at)
        return None if low is None else home_corner(self._facts.variant, low)

    # -- what the session asks (each answered with decisions) -------------------------------

    def turn(self, at: float) -> list[Decision]:
        """A turn begins: the first one starts the clock of the side to move."""
        clock = self.clock
        if clock is not None and not clock.started and self._facts.outcome is None:
            clock.start(Color(self._facts.board.turn), at)
            return self._clock_event(at)
        return []

    def hold_for_setup(self, at: float) -> list[Decision]:
        """A corrected position is to be set up: the clock is held until it stands and is
        released (no hold without a clock, nor after the game)."""
        if self.clock is not None and Hold.SETUP not in self.holds:
            self.holds.add(Hold.SETUP)
            self._apply(at)
            return self._clock_event(at)
        return []

    def timer_handlers(self) -> dict[TimerName, Callable[[float], list[Decision]]]:
        """The clock's timers and what answers each."""
        return {TimerName.FLAG: self.on_flag, TimerName.CLOCK_SAVE: self.on_save}

    def on_flag(self, at: float) -> list[Decision]:
        """The running side's time may be up: then the game ends, the other side wins. (The
        timer also wakes when the running side falls under a minute: a ``clock`` event; and
        when an absent side's default time is up: it loses by forfeit.)"""
        clock, facts = self.clock, self._facts
        absent = self._absent(at)
        if absent is not None and clock is not None:
            self.absence = None
            minutes = facts.config.default_time_s / 60
            name = "White" if absent is Color.WHITE else "Black"
            log.info("clock: %s has not moved %g min after the round's start: forfeit",
                     name, minutes)
            return [Finish(Outcome(Termination.FORFEIT, absent.opponent,
                                   gametype=facts.variant.pdn_gametype), at,
                           f"default time: {name} absent {minutes:g} min after the start")]
        flagged = None if clock is None else clock.flagged(at)
        if (clock is None or flagged is None or facts.outcome is not None
                or facts.game_id is None):
            if clock is not None and clock.running is not None:
                return self._clock_event(at)  # under a minute now: said once (``low``)
            return []
        if clock.moves(Color.WHITE) + clock.moves(Color.BLACK) == 0 \
                and len(facts.game.history) == 1:  # (moves after a ballot: history)
            # Nobody has moved: the board stood unused (no game is lost on time by nobody).
            # The clock waits, full, for the first move; the arbiter defaults an absent player.
            log.info("clock: no move in the game's first %.0f s: the clock waits for the "
                     "first move", clock.control.periods[0].seconds)
            self.clock = GameClock(clock.control)
            self._apply(at)
            return [Save(), *self._clock_event(at)]
        log.info("clock: %s's time is up", "White" if flagged is Color.WHITE else "Black")
        return [Finish(Outcome(Termination.TIME_FORFEIT, flagged.opponent,
                               gametype=facts.variant.pdn_gametype), at)]

    def on_save(self, at: float) -> list[Decision]:
        """Keep the running clock in the session snapshot."""
        if self.clock is not None and self.clock.started:
            self._schedule(at)
            return [Save()]
        return []

    def press(self, event: Command) -> list[Decision]:
        """The clock button: the player who just moved switches the clock (the increment is
        added, the other side's time runs). Pressed when the running side has not moved (it is
        its turn on the board), it does nothing: the log says why, and ``command_refused``
        (``not_your_turn``). While a corrected position waits to be released, the press
        releases it once the board shows it (``not_ready`` before)."""
        clock, facts = self.clock, self._facts
        if clock is not None and Hold.SETUP in self.holds and facts.outcome is None:
            return self._release(event, {Hold.SETUP})
        reason = ("no_clock" if clock is None else "game_over" if facts.outcome is not None
                  else "not_running" if clock.running is None else "")
        if not reason and clock is not None and clock.running is Color(facts.board.turn):
            reason = "not_your_turn"
        if reason or clock is None:
            log.info("clock button: nothing done (%s)", {
                "no_clock": "no time control", "game_over": "the game is over",
                "not_running": "the clock has not started",
                "not_your_turn": "the side whose time runs has not moved yet"}[reason])
            raise Refused(reason, command=event.name)
        clock.press(event.at)
        return [Save(), *self._clock_event(event.at)]

    def command(self, event: Command) -> list[Decision]:
        """``pause``, ``resume`` or ``add_time`` (``side``, ``value`` seconds): the arbiter's.

        ``pause`` holds this board's clock; ``resume`` releases it, and a corrected position
        once the board shows it (``not_ready`` before: the players are setting it up).
        """
        clock = self.clock
        if clock is None or self._facts.outcome is not None:
            raise Refused("no_clock" if clock is None else "game_over", command=event.name)
        if event.name == CommandName.ADD_TIME.value:
            try:
                seconds = float(event.value or "")
            except ValueError:
                seconds = float("nan")
            if event.side not in SIDES or not -3600 <= seconds <= 3600:
                raise Refused("bad_value", command=event.name)
            clock.add(Color.WHITE if event.side == "white" else Color.BLACK, seconds, event.at)
            return [Save(), *self._clock_event(event.at)]
        if event.name == CommandName.PAUSE.value:
            if Hold.ARBITER in self.holds:
                raise Refused("already", command=event.name)
            self.holds.add(Hold.ARBITER)
            return self._held(event.at)
        return self._release(event, {Hold.ARBITER, Hold.SETUP})

    def hall(self, event: Command) -> list[Decision]:
        """``hall`` (``value`` ``pause`` or ``resume``): the hall's pause, as kept in Redis.

        A state, not a toggle: the same value twice changes nothing and is not refused (the
        board reads it again as it starts and after Redis was away). It is kept without a clock
        and after the game too (the next game starts held); the answer then says why this
        game's clock was not held (``no_clock``; a finished game's clock is stopped anyway).
        """
        if event.value not in ("pause", "resume"):
            raise Refused("bad_value", command=event.name)
        paused = event.value == "pause"
        decisions: list[Decision] = []
        if paused != (Hold.HALL in self.holds):
            if paused:
                self.holds.add(Hold.HALL)
            else:
                self.holds.discard(Hold.HALL)
            if self.clock is not None and self._facts.outcome is None:
                decisions = self._held(event.at)
        if self.clock is None and event.id is not None:
            raise Refused("no_clock", command=event.name)
        return decisions

    def start_round(self, at: float) -> list[Decision]:
        """The round starts on this board (its game took the round's pairing: ``StartRound``):
        the game's clock, held until this moment, starts again with the full time for the side
        to move (the time that ran while the players sat down is given back; a board not set up
        yet starts it at its first turn, as always; the hall's pause, if the hall is paused,
        still holds it); with ``clock.default_time`` the absent side's default time counts."""
        old = self.clock
        if old is None:
            return []
        self.clock = GameClock(old.control)  # full, and running from now on (but the hall's)
        self.holds &= {Hold.HALL}
        default = self._facts.config.default_time_s
        self.absence = Absence(default) if default > 0 else None
        self._apply(at)
        if old.started:
            self.clock.start(Color(self._facts.board.turn), at)
        return [Save(), *self._clock_event(at), HoldChanged(at)]

    # -- inside -------------------------------------------------------------------------------

    def _release(self, event: Command, holds: set[Hold]) -> list[Decision]:
        """Release ``holds`` (a corrected position only once the board shows it)."""
        facts = self._facts
        if not self.holds & holds:
            raise Refused("hall" if self.holds else "already", command=event.name)
        if Hold.SETUP in self.holds & holds and not (facts.state is State.PAUSED
                                                     and facts.in_sync):
            raise Refused("not_ready", command=event.name)
        self.holds -= holds
        return self._held(event.at)

    def _held(self, at: float) -> list[Decision]:
        """The holds changed: hold or run the clock, save, say so, and tell the session."""
        self._apply(at)
        return [Save(), *self._clock_event(at), HoldChanged(at)]

    def _apply(self, at: float) -> None:
        """Hold the clock while a hold stands, run it when none does."""
        clock = self.clock
        if clock is None:
            return
        if self.holds:
            clock.pause(at)
        else:
            clock.resume(at)

    def _absent(self, at: float) -> Color | None:
        """The side that has used up its default time without a move (None: none)."""
        absence, clock = self.absence, self.clock
        if absence is None or clock is None or self._facts.outcome is not None:
            return None
        deadline = absence.deadline()
        if deadline is None or at < deadline - 1e-6:
            return None
        return clock.running

    def _sync_absence(self, at: float) -> None:
        """Count the default time while the clock runs and its running side has not moved."""
        absence, clock = self.absence, self.clock
        if absence is None or clock is None:
            return
        if clock.running is None or clock.moves(clock.running) > 0 \
                or self._facts.outcome is not None:
            absence.stop(at)
            if clock.running is not None and clock.moves(Color.WHITE) and clock.moves(Color.BLACK):
                self.absence = None  # both have moved: nobody is absent any more
            return
        if clock.paused:
            absence.stop(at)
        else:
            absence.run(at)

    def _clock_event(self, at: float) -> list[Decision]:
        """The clock changed at ``at``: its timers follow, and the ``clock`` event says so."""
        if self.clock is None:
            return []
        self._sync_absence(at)
        self._schedule(at)
        return [Publish("clock", {**self.clock.state(at),
                                  "held": sorted(hold.value for hold in self.holds)})]

    def _changed(self, at: float) -> None:
        """The clock changed as the game logged it: say so now."""
        for decision in self._clock_event(at):
            if isinstance(decision, Publish):
                self._publish(decision.kind, **decision.fields)

    def _schedule(self, at: float) -> None:
        deadline = None if self.clock is None else self.clock.deadline()
        absent = None if self.absence is None else self.absence.deadline()
        if deadline is None and absent is None:
            self._cancel()
            return
        low = self.clock.low_at() if self.clock is not None else None
        wakes = [t for t in (deadline, absent) if t is not None]
        wake = min(wakes)
        if low is not None and low > at:
            wake = min(wake, low)
        self._timers.start(TimerName.FLAG, max(at, wake), 0)
        if deadline is not None:
            self._timers.start(TimerName.CLOCK_SAVE, at, SAVE_EVERY_S * 1000)
        else:
            self._timers.cancel(TimerName.CLOCK_SAVE)

    def _cancel(self) -> None:
        self._timers.cancel(TimerName.FLAG, TimerName.CLOCK_SAVE)


def _holds(raw: object) -> Iterable[Hold]:
    """The holds of a saved clock (unknown names are dropped)."""
    values = {hold.value: hold for hold in Hold}
    return [values[item] for item in raw if item in values] if isinstance(raw, list) else []
