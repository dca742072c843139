"""The game session: an explicit state machine that turns board events into a recorded game.

Run-to-completion: :meth:`Session.handle` takes one event, and every event raised while handling
it (a re-evaluation after a commit, say) is queued and handled before ``handle`` returns. The
states are declared in :class:`~firmware_host.game.types.State`. Events are dispatched by type
(:meth:`Session._dispatch`), the board is judged per state (:mod:`firmware_host.game.judge`),
commands and timers by their enum (tables of bound methods built in ``__init__``).

The session owns its collaborators: the :class:`~firmware_host.game.game.Game` (position,
history, pending move, result, every store write), the
:class:`~firmware_host.game.touch.TouchTracker`, the :class:`~firmware_host.game.timers.Timers`
and the :class:`~firmware_host.game.view.TurnView` behind the LEDs. It never reads a clock:
every event carries its time ``at``.

>>> from engine import Board
>>> from firmware_host.game.types import SessionConfig
>>> from firmware_host.terms.settings import Mode
>>> from firmware_host.store import open_store
>>> store = open_store("memory", "doc")
>>> session = Session("english", store, SessionConfig(mode=Mode.RECORD))
>>> session.start(Board("english").occupied_squares(), at=0.0)
>>> session.state.name
'HUMAN_TO_MOVE'
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType

from board_io.events import (
    ButtonPressed,
    LinkLost,
    LinkRestored,
    OccupancyChanged,
    SensorFault,
    SensorRecovered,
)
from board_io.types import LedFrame, Reading
from engine import Board
from engine.outcome import Outcome
from engine.types import Color, Move, Square
from engine.variant import Variant, find_variant
from firmware_host.feedback.roles import Role
from firmware_host.game.carry import Carry, adopt_refused
from firmware_host.game.commands import Commands, round_refused
from firmware_host.game.controller import Driven
from firmware_host.game.correction import Correction
from firmware_host.game.decisions import (
    AskTakeback,
    CancelSearch,
    CarryOn,
    Claimable,
    CloseTouch,
    Commit,
    Correct,
    Decision,
    EnterState,
    Evaluate,
    Finish,
    HoldChanged,
    OfferDraw,
    PressAdjust,
    Publish,
    Save,
    Search,
    SetPosition,
    StartReview,
    StartRound,
    Synced,
    TakeBack,
)
from firmware_host.game.facts import SessionFacts
from firmware_host.game.fields import move_fields, must_capture, side_name
from firmware_host.game.game import Game, Opening, Pairings
from firmware_host.game.judge import Judge
from firmware_host.game.outbox import Outbox
from firmware_host.game.searches import Searches
from firmware_host.game.sensors import RECHECK_MS, HealthTracker, SensorWatch, setup_for
from firmware_host.game.settings import LevelHook, PairHook, SavedHook, Settings
from firmware_host.game.timekeeper import Timekeeper
from firmware_host.game.timers import Timers
from firmware_host.game.touch import AdjustClosed, AdjustOpened, Obliged, TouchEvent, TouchTracker
from firmware_host.game.types import (
    HUMAN_STATES,
    Reevaluate,
    Refused,
    SessionConfig,
    SessionEvent,
    State,
    Store,
    TimerFired,
    TimerName,
)
from firmware_host.game.view import TurnView, frame_for, led_facts
from firmware_host.i18n import translator
from firmware_host.terms.buttons import command_of
from firmware_host.terms.commands import Command, CommandName
from firmware_host.terms.jobs import EngineResult, Purpose, Thinker
from firmware_host.terms.settings import Mode

__all__ = ["Session", "SessionConfig", "State"]

log = logging.getLogger(__name__)

#: The timekeeper's timers: a recovery leaves the clock running.
_CLOCK_TIMERS = frozenset({TimerName.FLAG, TimerName.CLOCK_SAVE})

#: Makes the review of the last game (firmware_host/coach/review.py) for a board of this
#: variant, speaking through the session's outbox (its events and LEDs).
Reviewer = Callable[[Variant, Outbox], Driven]

class Session(SessionFacts):
    """One board's game session in ``play``, ``record`` or ``teach`` mode.

    Args:
        variant: the variant name (or :class:`engine.variant.Variant`).
        store: where games and the live session are kept (write-ahead) and events published.
        config: the settings (mode, sides, touch-move, timings).
        thinker: runs the computer's searches (play and teach modes); None in record mode.
        show_leds: called with every new LED frame.
        fen: the start position of new games (None: the variant's initial position).
        opening: draws the first moves of each new game (an English ballot); they are recorded
            with ``by="ballot"`` and the board is guided to the position after them.
        wall_clock: wall time for the move records (the game's clock comes with the events).
        computer_name: the PDN player tag of the computer's side.
        health: the sensors' health (None: not watched).
        pairing: the round's pairing of this board (None: no rounds).
        level_hook: sets the engine's level (None: the level cannot be set from the phone).
        pair_hook: seats a person's board, or the engine, across this one (``pair``; None: no
            pairing here).
        engine: whether the thinker has an engine to search with (None: whether there is a
            thinker); a board that records has none even with a thinker that seats partners.
        on_applied: told the phone's settings a new game started with (None: not kept).
        reviewer: makes the review of the last game (the ``review`` command; mode ``review``
            starts with one); None: no review on this board.

    Raises:
        engine.errors.UnknownVariantError: unknown variant.
        ValueError: play or teach mode without a thinker.
    """

    def __init__(
        self,
        variant: Variant | str,
        store: Store,
        config: SessionConfig | None = None,
        *,
        thinker: Thinker | None = None,
        show_leds: Callable[[LedFrame], None] | None = None,
        fen: str | None = None,
        wall_clock: Callable[[], float] = time.time,
        opening: Opening | None = None,
        computer_name: str = "draughtsboard",
        health: HealthTracker | None = None,
        pairing: Pairings | None = None,
        level_hook: LevelHook | None = None,
        on_applied: SavedHook | None = None,
        reviewer: Reviewer | None = None,
        pair_hook: PairHook | None = None,
        engine: bool | None = None,
    ) -> None:
        self.variant = find_variant(variant)
        self.config = config or SessionConfig()
        #: Mode ``review``: a review at start; the game underneath (and after it) is played.
        self._review_first = self.config.mode is Mode.REVIEW
        if self._review_first:
            self.config = replace(self.config, mode=Mode.PLAY)
        self._reviewer = reviewer
        #: The review that has the board (None: the game has it).
        self.review: Driven | None = None
        if self.config.mode is not Mode.RECORD and thinker is None:
            raise ValueError(f"{self.config.mode.value} mode needs a thinker (the engine)")
        self._store = store
        self._outbox = Outbox(store, lambda: self._now, show_leds,
                              translator(self.config.language))
        self._publish = self.publish = self._outbox.publish
        self.subscribe = self._outbox.subscribe
        self._thinker = thinker  # the engine (its level is set from the web)
        self._searches = Searches(thinker)
        self._now = 0.0
        self.timers = Timers()
        #: The clock of each game: the session's, handed to the game as its clock hooks.
        self.timekeeper = Timekeeper(self, self.timers, self._publish, lambda: self._now,
                                     wall_clock)
        self.game = Game(self.variant, store, mode=self.config.mode, publish=self._publish,
                         human_side=self.config.human_side, headers=self.config.headers,
                         fen=fen, opening=opening, wall_clock=wall_clock,
                         computer_name=computer_name, pairing=pairing, clock=self.timekeeper)
        self.namer = self.game.namer
        #: The sensors' health (None: not watched, as in tests fed occupancies directly).
        self.sensors = None if health is None else SensorWatch(
            health, publish=self._publish, name=self.namer.square,
            tr=translator(self.config.language))
        self._queue: deque[SessionEvent] = deque()
        self.touch = TouchTracker(strict=self.config.touch_strict,
                                  settle_ms=self.config.settle_ms)
        self.view = TurnView()
        self._adjust_deadline: float | None = None
        #: Between start and the first sync: a move finished while the service was down counts.
        self.starting = False
        self._saved_obligation: Square | None = None
        self.state = State.SYNCING
        self.occupied: frozenset[Square] = frozenset()
        self.colours: Mapping[Square, Reading] | None = None
        self._judge = Judge(self, self.timers, self.view)
        self._timer_handlers: Mapping[TimerName, Callable[[float], None]] = MappingProxyType({
            TimerName.SETTLE: self._on_settle_timer,
            TimerName.ERROR: self._on_error_timer,
            TimerName.TAKEBACK: self._on_takeback_timer,
            TimerName.NEWGAME: self._on_newgame_timer,
            TimerName.ADJUST: self._on_adjust_timer,
            TimerName.CROWN: self._on_crown_timer,
            TimerName.HEALTH: self._on_health_timer,
            **{name: self._clock_timer(decide)
               for name, decide in self.timekeeper.timer_handlers().items()},
        })
        self.settings = Settings(self.game, self._publish,
                                 engine=thinker is not None if engine is None else engine,
                                 level_hook=level_hook, on_applied=on_applied,
                                 following=self.config.mode is Mode.FOLLOW,
                                 board_id=self.config.board, pair_hook=pair_hook)
        self._commands = Commands(self, self.settings, self.timekeeper)

    # -- public API ---------------------------------------------------------------------------

    @property
    def frame(self) -> Mapping[Square, Role]:
        """The LED frame shown now: the role lighting each square."""
        return MappingProxyType(self._outbox.frame or {})

    def start(
        self,
        occupied: Iterable[Square],
        at: float,
        colours: Mapping[Square, Reading] | None = None,
        resume: bool = True,
    ) -> None:
        """Begin: resume the saved session if there is one (``resume``), else a new game.

        Then the board is compared with the game position: the session waits, guiding with the
        LEDs, until they match (re-sync).
        """
        self._now = at
        self.starting = True
        self.occupied = frozenset(occupied)
        self.colours = colours
        resumed = self.game.resume() if resume else None
        if resumed is None:
            self._open_game()
            if self.game.start_fen != self.variant.starting_fen and \
                    self.occupied != self.game.position:
                # A board at rest holds the start position: what else is known of it.
                self._judge.begin_setup(Board(self.variant).pieces())
        else:
            self._saved_obligation = resumed.obligation
            if self.game.human_side is not self.config.human_side:  # as the game was played
                self.config = replace(self.config, human_side=self.game.human_side)
        self._expect(at)
        if self.sensors is not None:
            self.occupied = self.sensors.observe(self.occupied, at)
        self.set_state(State.SYNCING)
        self.evaluate(at)
        self._drain()
        self._render()
        if self._review_first:
            self._review_first = False
            self.handle(Command(CommandName.REVIEW.value, at))

    def handle(self, event: SessionEvent) -> None:
        """Handle one event, then every event it raised (run-to-completion); update the LEDs.
        While a review has the board, the event is the review's (but new-game, which leaves
        it).

        Unknown event types are logged and ignored.
        """
        if self.review is not None and self._reviewing(self.review, event):
            return
        self._queue.append(event)
        self._drain()
        self._render()

    def _reviewing(self, review: Driven, event: SessionEvent) -> bool:
        """Hand ``event`` to ``review``; new-game leaves it (False: the session handles the
        new-game, the board as the review last saw it)."""
        at = getattr(event, "at", None)
        if isinstance(at, int | float):
            self._now = max(self._now, float(at))
        name = event.name if isinstance(event, Command) else (
            command[0].value if isinstance(event, ButtonPressed)
            and (command := command_of(event.button)) is not None else None)
        if name == CommandName.NEWGAME.value:
            self.occupied = getattr(review, "occupied", self.occupied)
            self.review = None
            self._outbox.frame = None
            self._publish("review", reason="left")
            return False
        if isinstance(event, OccupancyChanged):
            self.occupied = frozenset(event.occupied)
        review.handle(event)
        return True

    def start_review(self, at: float) -> None:
        """The review of the last game has the board until new-game.

        Raises:
            Refused: this board has no review (``no_engine``: it needs the engine).
        """
        if self._reviewer is None:
            raise Refused("no_engine", command=CommandName.REVIEW.value)
        self.cancel_jobs()
        self.timers.cancel(*(name for name in TimerName if name not in _CLOCK_TIMERS))
        self.view.new_turn()
        self.review = self._reviewer(self.variant, self._outbox)
        self.review.start(self.occupied, at)

    def keep_lesson(self, lesson: dict[str, object] | None) -> None:
        """Keep the coach's exercises' state (None: none under way) with the game's snapshot,
        so a restart comes back to them (firmware_host/coach/lessons.py)."""
        self.game.lesson = lesson
        self._save()

    def command(self, name: str, at: float, side: str | None = None) -> None:
        """Handle a command by name: adjust, done, hint, takeback, newgame, resign, draw."""
        self.handle(Command(name, at, side))

    def next_deadline(self) -> float | None:
        """When the next timer runs out (None: no timer)."""
        if self.review is not None:
            return self.review.next_deadline()
        return self.timers.next_deadline()

    def due_timers(self, now: float) -> list[TimerFired]:
        """Timer events due at ``now``; the controller queues them."""
        if self.review is not None:
            return self.review.due_timers(now)
        return self.timers.due(now)

    @property
    def idle(self) -> bool:
        """No timer running (but the clock's), no event waiting and no search under way."""
        if self.review is not None:
            return self.review.idle
        return (not self._queue and self.timers.next_deadline(False) is None
                and not self._searches.busy)

    def recover(self) -> None:
        """Re-sync from the board after a handler failed half-way (the controller calls it).

        The turn's memory goes (queued events, searches, timers but the clock's, the LED
        facts, the judge's and the touch tracker's state); the game, whose store writes come
        first, stays. As at a start, the board is compared with the game position: a move it
        shows finished counts, and a touch obligation survives. A review recovers itself.
        """
        if self.review is not None:
            self.review.recover()
            return
        self._queue.clear()
        self.cancel_jobs()
        self.timers.cancel(*(name for name in TimerName if name not in _CLOCK_TIMERS))
        self.view.reset()
        setup = self._judge.setup  # a position half set up stays the one to set up
        self._judge = Judge(self, self.timers, self.view)
        self._judge.setup = setup
        self._saved_obligation = self.touch.obliged
        self.touch = TouchTracker(strict=self.config.touch_strict,
                                  settle_ms=self.config.settle_ms)
        self._adjust_deadline = None
        self.starting = True
        self._expect(self._now)
        self.set_state(State.SYNCING)
        self.evaluate(self._now)
        self._drain()
        self._outbox.frame = None  # send the frame again
        self._render()

    # -- event loop ----------------------------------------------------------------------------

    def _drain(self) -> None:
        while self._queue:
            event = self._queue.popleft()
            at = getattr(event, "at", None)  # a foreign object is ignored below, not fatal
            if isinstance(at, int | float):
                self._now = max(self._now, float(at))
            self._dispatch(event)

    def _dispatch(self, event: SessionEvent) -> None:
        """Call the one handler of the event's type."""
        match event:
            case OccupancyChanged():
                self._on_occupancy(event)
            case ButtonPressed():
                self._on_command(self._commands.of_button(event))
            case Command():
                self._on_command(event)
            case EngineResult():
                self._on_engine(event)
            case TimerFired():
                self._on_timer(event)
            case Reevaluate():
                self.evaluate(event.at)
            case SensorFault():
                self._publish("sensor_fault", cell=list(event.cell),
                              square=self._square_name(event.square))
            case SensorRecovered():
                self._publish("sensor_recovered", cell=list(event.cell),
                              square=self._square_name(event.square))
            case LinkLost():
                self._publish("link", state="lost")
            case LinkRestored():
                self._publish("link", state="restored")
                self._outbox.frame = None  # the board lost its LEDs: send the frame again
            case _:
                log.warning("session: ignoring unknown event %r", event)

    def evaluate(self, at: float, settled: bool = False) -> None:
        """Judge the board again in the current state (not while ghosts make it ambiguous)."""
        if self.sensors is not None and self.sensors.blocking:
            self.clear_error()  # no move, and no correction for pieces that are not there
            return
        self._carry_out(self._judge.evaluate(at, settled))

    def _carry_out(self, decisions: Iterable[Decision]) -> None:
        """Do what a helper decided (the judge, the commands, the timekeeper), in order.

        Raises:
            Refused: a round's pairing or a carried game turned out not to be there after all
                (nothing of that decision was done).
        """
        for decision in decisions:
            match decision:
                case Publish():
                    self._publish(decision.kind, **decision.fields)
                case EnterState():
                    self.set_state(decision.state)
                case Synced():
                    self.starting = False
                    self._publish("synced")
                    self.enter_turn(decision.at)
                case CloseTouch():
                    self.touch_events(self.touch.close(decision.at))
                case CancelSearch():
                    self.cancel_jobs()
                case Commit():
                    self._commit_decided(decision)
                case Evaluate():
                    self.evaluate(decision.at)
                case PressAdjust():
                    self.touch_events(self.touch.press_adjust(decision.at))
                case TakeBack():
                    self.take_back_to(decision.ply, decision.at, decision.guided, decision.note)
                case Search():
                    self.submit(decision.purpose)
                case Finish():
                    self.finish(decision.outcome, decision.at, decision.note)
                case OfferDraw():
                    self.game.offer = decision.side
                    self._save()  # (the offer is part of the game: it survives a restart)
                    self._publish("draw_offer", side=side_name(decision.side),
                                  ply=len(self.board.move_stack))
                case AskTakeback():
                    self.game.asked = (decision.side, decision.ply)
                    self._publish("takeback_asked", side=side_name(decision.side),
                                  ply=len(self.board.move_stack), back_to=decision.ply)
                case Claimable(minutes=None):
                    self.game.claimable = None
                    self._publish("claim_withdrawn")
                case Claimable():
                    self.game.claimable = decision.minutes
                    self._publish("claim_offered", minutes=decision.minutes)
                case Correct():
                    self.correct(decision.correction, decision.at)
                case CarryOn():
                    self.carry(decision.carry, decision.at)
                case StartRound():
                    self._start_round(decision)
                case Save():
                    self._save()
                case HoldChanged():
                    self.hold_changed(decision.at)
                case SetPosition():
                    self.set_position(decision.fen, decision.at, decision.side)
                case StartReview():
                    self.start_review(decision.at)

    def _on_command(self, event: Command) -> None:
        """A button or a request: what the commands decide is carried out; a refusal is
        published (and answered, for an arbiter's decision)."""
        try:
            self._carry_out(self._commands.decide(event))
        except Refused as refused:
            self._carry_out(self._commands.refused(event, refused))
            return
        self._carry_out(self._commands.done(event))

    def _clock_timer(self, decide: Callable[[float], list[Decision]]
                     ) -> Callable[[float], None]:
        """A clock timer's handler: what the timekeeper decides is carried out."""
        return lambda at: self._carry_out(decide(at))

    def _commit_decided(self, decision: Commit) -> None:
        move, at = decision.move, decision.at
        self.commit(move, decision.by, at)
        # While the just-crowned piece is off the board (being crowned) the lifts are the
        # mover's hand, not the opponent's touch.
        self.touch.tail = frozenset({move.destination}) if move.promotes else frozenset()
        if decision.replay and self.human_turn and self.state in HUMAN_STATES:
            self.touch_events(self.touch.replay(self.occupied, at))

    def post(self, event: SessionEvent) -> None:
        """Queue an event raised while handling another (run-to-completion)."""
        self._queue.append(event)

    def set_state(self, state: State) -> None:
        """Enter ``state`` (published when it changes)."""
        if state is not self.state:
            self.state = state
            self._publish("state", state=state.value)
            self._expect(self._now)

    def _square_name(self, square: Square | None) -> int | str | None:
        return None if square is None else self.namer.square(square)

    # -- event handlers -----------------------------------------------------------------------

    def _on_occupancy(self, event: OccupancyChanged) -> None:
        raw = frozenset(event.occupied)
        self.occupied = raw if self.sensors is None else self.sensors.observe(raw, event.at)
        self._watch_sensors(event.at)
        self.colours = event.colours
        if self.state in HUMAN_STATES and self.human_turn:
            self.touch_events(self.touch.update(self.occupied, event.at))
            self.view.lifted = self._lifted_own_piece()
        self.evaluate(event.at)

    def _on_timer(self, event: TimerFired) -> None:
        if self.timers.is_current(event):
            self._timer_handlers[event.name](event.at)

    def _on_engine(self, event: EngineResult) -> None:
        purpose = self._searches.take(event.token)
        if purpose is None:
            return  # a cancelled search
        if purpose is Purpose.HINT:
            if event.move is not None and self.state in HUMAN_STATES:
                self.view.hint = event.move
                self._publish("hint", reasons=[{"kind": r.kind, "pieces": r.pieces,
                                                "moves": r.moves} for r in event.reasons],
                              **self._move_fields(event.move))
            return
        if self.state is not State.ENGINE_THINKING:
            return
        move = event.move
        if move is None or move not in self.board.legal_moves:
            self._publish("engine_error", error=event.error or "no legal move returned")
            move = next(iter(self.board.legal_moves))
        elif event.clock is not None:  # a remote opponent's move: its time is its board's
            self._carry_out(self.timekeeper.arrived(self.board.turn, event.clock, event.at))
        self._show_computer_move(move, event.at)

    def _move_fields(self, move: Move) -> dict[str, object]:
        return move_fields(self.board, move, self.namer)

    # -- timers -------------------------------------------------------------------------------

    def _on_settle_timer(self, at: float) -> None:
        self.evaluate(at, settled=True)

    def _on_error_timer(self, at: float) -> None:
        self._carry_out(self._judge.show_correction())

    def _on_takeback_timer(self, at: float) -> None:
        ply = self.takeback_target()
        if ply is not None and self.config.takebacks_allowed:
            self.take_back_to(ply, at)

    def _on_newgame_timer(self, at: float) -> None:
        if self.is_initial():
            self._new_game(at)

    def _on_adjust_timer(self, at: float) -> None:
        self.touch_events(self.touch.tick(at))

    def _on_crown_timer(self, at: float) -> None:
        self.view.crown = frozenset()

    def _on_health_timer(self, at: float) -> None:
        if self.sensors is None:
            return
        occupied = self.sensors.check(at)
        self._watch_sensors(at)
        if occupied != self.occupied:
            self.occupied = occupied
            self.evaluate(at)

    def _watch_sensors(self, at: float) -> None:
        """Keep the health timer running while the board differs from the game."""
        if self.sensors is None or not self.sensors.recheck:
            self.timers.cancel(TimerName.HEALTH)
        elif not self.timers.running(TimerName.HEALTH):
            self.timers.start(TimerName.HEALTH, at, RECHECK_MS)

    def _expect(self, at: float) -> None:
        """Tell the sensor watch what the board should show now."""
        if self.sensors is not None:
            target = self.game.initial if self.state is State.SETTING_UP else self.game.position
            self.sensors.expect(target, at, setup_for(self.state, self.game))
            self._watch_sensors(at)

    # -- touch-move and adjust ---------------------------------------------------------------

    def touch_events(self, events: Iterable[TouchEvent]) -> None:
        """Publish what the touch tracker saw and follow its adjust window."""
        for event in events:
            side = side_name(self.board.turn)
            if isinstance(event, Obliged):
                self._publish("touch", square=self.namer.square(event.square), side=side)
                self._save()  # a restart must not free the player from the obligation
            elif isinstance(event, AdjustOpened):
                self.set_state(State.ADJUSTING)
                self._publish("adjust", state=True, side=side)
            elif isinstance(event, AdjustClosed):
                self._publish("adjust", state=False, side=side, reason=event.reason)
                if self.state is State.ADJUSTING:
                    self.set_state(State.MOVE_IN_PROGRESS)
                    self.post(Reevaluate(event.at))
        deadline = self.touch.deadline
        if deadline is None:
            self.timers.cancel(TimerName.ADJUST)
        elif deadline != self._adjust_deadline or not self.timers.running(TimerName.ADJUST):
            self.timers.start(TimerName.ADJUST, deadline, 0)
        self._adjust_deadline = deadline

    def _reset_touch(self, at: float) -> None:
        """A new position: no obligation (unless one was saved before a restart), adjust
        window closed."""
        playable = self.game.index.playable if self.human_turn else frozenset()
        position = self.game.position
        events = list(self.touch.reset(position, playable, at, board=self.occupied))
        saved, self._saved_obligation = self._saved_obligation, None
        if saved is not None and saved in playable:
            # Replay the touch through the tracker's own rules: the piece was lifted.
            events += self.touch.update(position - {saved}, at)
            events += self.touch.update(self.occupied, at)
        self.touch_events(events)

    def _lifted_own_piece(self) -> Square | None:
        gone = [sq for sq in self.game.position - self.occupied
                if (p := self.board.piece_at(sq)) is not None and p.color == self.board.turn]
        return gone[0] if len(gone) == 1 else None

    # -- errors and refusals ------------------------------------------------------------------

    def clear_error(self) -> None:
        """The board is right (or on its way): no error, no correction."""
        self._judge.clear_error()

    # -- moves --------------------------------------------------------------------------------

    def commit(self, move: Move, by: str, at: float) -> None:
        """Record ``move`` (write-ahead, with the result it brings and the session after it),
        play it, tell everyone, and go on to the next turn."""
        outcome = self.game.play(move, by)
        self._expect(at)
        self.view.new_turn()
        self.clear_error()
        self.timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK)
        if move.promotes:
            self.view.crown = frozenset({move.destination})
            self.timers.start(TimerName.CROWN, at, self.config.crown_ms)
        if outcome is not None:
            self._conclude(outcome, self.game.result_text(outcome), at)
        else:
            self.enter_turn(at)

    def enter_turn(self, at: float) -> None:
        """Go to the state of the side to move (the board is in sync or about to be); a human's
        turn while the clock is held is ``paused``: no move counts until it is released."""
        if self.outcome is not None:
            self.set_state(State.GAME_OVER)
            return
        self._carry_out(self.timekeeper.turn(at))
        self._reset_touch(at)
        if self.human_turn and self.timekeeper.holding:
            self._saved_obligation = self.touch.obliged
            self.set_state(State.PAUSED)
        elif self.human_turn:
            self.set_state(State.HUMAN_TO_MOVE)
            if self.config.mode is Mode.TEACH:
                self.view.must = must_capture(self.board)
        elif self.pending is not None:
            self.set_state(State.COMPUTER_MOVE_PENDING)
        else:
            self.set_state(State.ENGINE_THINKING)
            self.submit(Purpose.REPLY)
        self.post(Reevaluate(at))

    def _show_computer_move(self, move: Move, at: float) -> None:
        self.game.set_pending(move)
        self._save()  # the pending move is durable before the LEDs show it
        self.set_state(State.COMPUTER_MOVE_PENDING)
        self._publish("computer_move", **self._move_fields(move), **self._whose_move())
        self.post(Reevaluate(at))

    def _whose_move(self) -> dict[str, object]:
        """Whose move the lights show, when not the computer's: the followed game's
        (``follow``), or a person's on another board (``remote``, with their name when the
        game has one: not the board's id it is named by until the players are)."""
        if self.config.mode is Mode.FOLLOW:
            return {"reason": "follow"}
        if not self.config.remote:
            return {}
        side = side_name(self.config.human_side.opponent).capitalize()
        name = self.game.players.get(side, "")
        named = name and name != "?" and name != self.config.partner
        return {"reason": "remote", **({"opponent": name} if named else {})}

    def submit(self, purpose: Purpose) -> None:
        """Ask the engine for a move (a reply or a hint), cancelling any search under way; after
        a reply it may think on the human's time (``SessionConfig.pondering``)."""
        self._searches.submit(purpose, self.board,
                              ponder=purpose is Purpose.REPLY and self.config.pondering)

    def cancel_jobs(self) -> None:
        """Forget the searches under way (their results are ignored)."""
        self._searches.cancel()

    def finish(self, outcome: Outcome, at: float, note: str = "") -> None:
        """End the game with an outcome no move brought (resignation, agreed draw, time);
        ``note`` says who did what (kept in the record, and in the ``result`` event)."""
        self._conclude(outcome, self.game.finish(outcome, note), at, note)

    def hold_changed(self, at: float) -> None:
        """The clock was held or released: a human's turn pauses (no move counts, what is out
        of place lights at once) or goes on once the board shows the position again."""
        if self.timekeeper.holding and self.state in HUMAN_STATES:
            self._saved_obligation = self.touch.obliged  # a touch before the hold still binds
            self.timers.cancel(TimerName.SETTLE, TimerName.ERROR, TimerName.TAKEBACK)
            self.view.new_turn()
            self._judge.clear_error()
            self.set_state(State.PAUSED)
            self.evaluate(at)
        elif not self.timekeeper.holding and self.state is State.PAUSED:
            self.set_state(State.SYNCING)
            self.evaluate(at)

    def correct(self, correction: Correction, at: float) -> None:
        """Carry out the arbiter's corrected move (firmware_host/game/correction.py): a game
        whose result stands (kept or the arbiter's) is rewritten and stays over, no clock
        running; otherwise the game goes on from the corrected position, its clock held
        until the players have set it up and it is released."""
        ply, move, note = correction.ply, correction.move, correction.note
        self.cancel_jobs()
        if correction.result is not None:
            self.game.take_back_to(ply - 1, note)
            self.game.play(move, "arbiter", ends=False)
            self._expect(at)
            self.finish(correction.result, at)
            return
        self._carry_out(self.timekeeper.hold_for_setup(at))
        self.take_back_to(ply - 1, at, note=note)
        self.commit(move, "arbiter", at)
        if self.outcome is None:
            self.set_state(State.SYNCING)  # the players set up the corrected position
            self.evaluate(at)

    def carry(self, carry: Carry, at: float) -> None:
        """Carry on the failed board's game here (firmware_host/game/carry.py): the game adopts
        it, its clock is set as that board saved it (held), and the players are guided to set
        its position up.

        Raises:
            Refused: the game does not replay here (nothing changed).
        """
        try:
            self.game.adopt(carry.record, carry.note)
        except ValueError as exc:
            raise adopt_refused(carry, exc) from None
        self.timekeeper.carried(carry.clock, carry.record)
        self.game.save(None)
        log.info("%s", carry.note)
        self.resync(at)

    def _start_round(self, decision: StartRound) -> None:
        """The game takes the round's pairing and its clock starts again, full.

        Raises:
            Refused: no pairing of that round waits for this game (nothing changed).
        """
        if not self.game.take_round(decision.round):
            raise round_refused(decision.round, "no_pairing")
        log.info("round %s started", decision.round)
        self._carry_out(self.timekeeper.start_round(decision.at))

    def _conclude(self, outcome: Outcome, result: str, at: float, note: str = "") -> None:
        """The game is over (and logged so): stop the turn and light the result."""
        self.cancel_jobs()
        self.timers.cancel(TimerName.SETTLE, TimerName.ERROR, TimerName.TAKEBACK)
        self.view.new_turn()
        # The turn is over: no obligation outlives it (nor a restart).
        self.touch_events(self.touch.reset(self.game.position, frozenset(), at,
                                           board=self.occupied))
        self.set_state(State.GAME_OVER)
        self._publish(
            "result", result=result, termination=outcome.termination.value, rule=outcome.rule,
            winner=None if outcome.winner is None else side_name(outcome.winner),
            **({"note": note} if note else {}),
        )

    def _save(self) -> None:
        self.game.save(self.touch.obliged)

    # -- game lifecycle -----------------------------------------------------------------------

    def _adopt(self, config: SessionConfig) -> None:
        """The settings of the new game (the game is reconfigured already)."""
        self.config, self.variant, self.namer = config, self.game.variant, self.game.namer
        self.touch.strict = config.touch_strict

    def _open_game(self) -> None:
        self.view.reset()
        self.timers.cancel_all()
        self.game.open_new()  # the game and the session pointing at it: one store write
        self._expect(self._now)

    def _new_game(self, at: float) -> None:
        # What the board holds, as far as it is known: the game's pieces, or those of the
        # new game's position if it was set up by the lights (the new-game button).
        setup = self._judge.setup
        standing = self.board.pieces() if setup is None else dict(setup.known)
        self.game.abandon()
        self.cancel_jobs()
        self._adopt(self.settings.apply(self.config))
        self._open_game()
        if self.game.start_fen != self.variant.starting_fen:
            self._judge.begin_setup(standing)  # by colour and crown: set up by the lights
        self.set_state(State.SYNCING)
        self.evaluate(at)

    def set_position(self, fen: str, at: float, side: Color | None = None) -> None:
        """Leave the game in play for a new one from ``fen`` (and the new games after it),
        set up by the lights: each piece by colour and crown (firmware_host/game/setup.py);
        ``position_set`` says when the board holds it. ``side``: the player's from then on
        (a puzzle's side to move)."""
        if side is not None and side is not self.config.human_side:
            self.config = replace(self.config, human_side=side)
        self.game.set_start(fen, side)
        self._new_game(at)

    def take_back_to(self, ply: int, at: float, guided: bool = False, note: str = "") -> None:
        """Undo the game back to ``ply``; the board is then guided back to that position
        (``guided``: the button, the board still holds the pieces of the game before it;
        ``note``: why, an arbiter's correction, kept in the record)."""
        self.cancel_jobs()
        before = self.board.pieces()
        self.game.take_back_to(ply, note)
        self._expect(at)
        if guided:
            self._judge.note_takeback(before)
        self.view.new_turn()
        self.clear_error()
        self.timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK, TimerName.NEWGAME)
        self.starting = False
        self.set_state(State.SYNCING)
        self.evaluate(at)

    def resync(self, at: float) -> None:
        """The game in play was replaced (a game carried here from another board): the turn
        starts over and the board guides the players to its position."""
        self.cancel_jobs()
        self._expect(at)
        self.view.reset()
        self.clear_error()
        self.timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK, TimerName.NEWGAME,
                           TimerName.ERROR)
        self.starting = False
        self.set_state(State.SYNCING)
        self.evaluate(at)

    # -- LEDs ---------------------------------------------------------------------------------

    @property
    def arbiter_holding(self) -> bool:
        """Guard: the arbiter holds the game's clock (a claim, a corrected or carried position
        to set up): the board does not drop the game for a new one."""
        return self.timekeeper.arbiter_holding

    @property
    def guidance(self) -> bool:
        """Guard: the lights that guide a move show (``board.guidance``: ``auto`` turns them
        off for a rated game, in record mode while a round is played)."""
        chosen = self.config.guidance
        if chosen == "auto":
            return not (self.config.mode is Mode.RECORD and self.game.round is not None)
        return chosen == "on"

    def _render(self) -> None:
        if self.review is not None:
            return  # the review lights the board
        frame = frame_for(led_facts(
            state=self.state, view=self.view, mode=self.config.mode, board=self.board,
            index=self.game.index, occupied=self.occupied, obligation=self.obligation,
            pending=self.pending, outcome=self.outcome, low_time=self.timekeeper.corner(self._now),
            faults=frozenset() if self.sensors is None else self.sensors.faults,
            guidance=self.guidance))
        self._outbox.show(frame, self.namer.text)
