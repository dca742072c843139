"""The game session: an explicit state machine that turns board events into a recorded game.

Run-to-completion: :meth:`Session.handle` takes one event, and every event raised while handling
it (a re-evaluation after a commit, say) is queued and handled before ``handle`` returns. The
states are declared in :class:`~firmware_host.game.types.State`; which handler runs for which
event is the data in ``_DISPATCH``, ``_EVALUATE`` and ``_TIMER_HANDLERS``. Timers post events
(see :class:`~firmware_host.game.timers.Timers`); the controller fires them.

The session never reads a clock: every event carries its time ``at``.

>>> from engine import Board
>>> from firmware_host.game.types import SessionConfig, Mode
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

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
from engine.types import Color, Move
from engine.variant import find_variant
from firmware_host.feedback import leds
from firmware_host.game.judge import BoardJudge
from firmware_host.game.lifecycle import GameLifecycle
from firmware_host.game.support import (
    Namer,
    move_fields,
    move_record,
    must_capture,
    occupancy,
    refusal_fields,
    side_name,
)
from firmware_host.game.timers import Timers
from firmware_host.game.touch import AdjustClosed, AdjustOpened, Obliged, TouchTracker
from firmware_host.game.types import (
    HUMAN_STATES,
    Command,
    EngineJob,
    EngineResult,
    Mode,
    Reevaluate,
    SessionConfig,
    State,
    Store,
    Thinker,
    TimerFired,
)
from firmware_host.game.view import SessionView, frame_for
from firmware_host.recognition.recogniser import (
    Illegal,
    MoveIndex,
    PendingIndex,
    RefusalReason,
)

__all__ = ["Session", "SessionConfig", "State"]

log = logging.getLogger(__name__)

Square = int
Listener = Callable[[dict[str, Any]], None]

#: Handler per event type.
_DISPATCH: Mapping[type, str] = MappingProxyType({
    OccupancyChanged: "_on_occupancy",
    ButtonPressed: "_on_button",
    Command: "_on_command",
    EngineResult: "_on_engine",
    TimerFired: "_on_timer",
    Reevaluate: "_on_reevaluate",
    SensorFault: "_on_fault",
    SensorRecovered: "_on_fault",
    LinkLost: "_on_link",
    LinkRestored: "_on_link",
})

_TIMER_HANDLERS: Mapping[str, str] = MappingProxyType({
    "settle": "_on_settle_timer",
    "error": "_on_error_timer",
    "takeback": "_on_takeback_timer",
    "newgame": "_on_newgame_timer",
    "adjust": "_on_adjust_timer",
    "crown": "_on_crown_timer",
})

#: Handler per command (buttons and CLI/web requests); each checks where it applies.
_COMMANDS: Mapping[str, str] = MappingProxyType({
    "adjust": "_cmd_adjust",
    "done": "_cmd_done",
    "hint": "_cmd_hint",
    "takeback": "_cmd_takeback",
    "newgame": "_cmd_newgame",
    "resign": "_cmd_resign",
    "draw": "_cmd_draw",
})


class Session(BoardJudge, GameLifecycle):
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

    Raises:
        engine.errors.UnknownVariantError: unknown variant.
        ValueError: play or teach mode without a thinker.
    """

    def __init__(
        self,
        variant: Any,
        store: Store,
        config: SessionConfig | None = None,
        *,
        thinker: Thinker | None = None,
        show_leds: Callable[[LedFrame], None] | None = None,
        fen: str | None = None,
        wall_clock: Callable[[], float] = time.time,
        opening: Callable[[Board], Sequence[Move]] | None = None,
    ) -> None:
        self.variant = find_variant(variant)
        #: Draws the first moves of each new game (English ballots), recorded before play.
        self._opening = opening
        self.config = config or SessionConfig()
        if self.config.mode is not Mode.RECORD and thinker is None:
            raise ValueError(f"{self.config.mode.value} mode needs a thinker (the engine)")
        self._store = store
        self._thinker = thinker
        self._show_leds = show_leds
        self._wall_clock = wall_clock
        self._namer = Namer(self.variant)
        #: Where new games start; the current game's own start may differ (a resumed game).
        self._new_game_fen = fen or self.variant.starting_fen
        self._start_fen = self._new_game_fen
        self._initial = occupancy(Board(self.variant, fen=self._new_game_fen))
        self._listeners: list[Listener] = []
        self._queue: deque[Any] = deque()
        self._timers = Timers()
        self._touch = TouchTracker(strict=self.config.touch_strict,
                                   settle_ms=self.config.settle_ms)
        self._watched: dict[str, frozenset[Square]] = {}
        self._adjust_deadline: float | None = None
        self._starting = False
        self._saved_obligation: Square | None = None
        self.state = State.SYNCING
        self.board: Any = Board(self.variant, fen=self._start_fen)
        self.game_id: str | None = None
        self.pending: Move | None = None
        self.outcome: Outcome | None = None
        self._history: list[frozenset[Square]] = [occupancy(self.board)]
        self._index = MoveIndex(self.board)
        self._pending_index: PendingIndex | None = None
        self.occupied: frozenset[Square] = frozenset()
        self.colours: Mapping[Square, Reading] | None = None
        self._token = 0
        self._jobs: dict[int, str] = {}
        self._view = SessionView()
        self._frame: dict[Square, Any] | None = None
        self._now = 0.0

    # -- public API ---------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every published event (plain dicts with ``event`` and ``at``)."""
        self._listeners.append(listener)

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
        self._starting = True
        self.occupied = frozenset(occupied)
        self.colours = colours
        if not (resume and self._resume()):
            self._open_game()
        self._set_state(State.SYNCING)
        self._evaluate(at)
        self._drain()
        self._render()

    def handle(self, event: Any) -> None:
        """Handle one event, then every event it raised (run-to-completion); update the LEDs.

        Unknown event types are logged and ignored.
        """
        self._queue.append(event)
        self._drain()
        self._render()

    def command(self, name: str, at: float, side: str | None = None) -> None:
        """Handle a command by name: adjust, done, hint, takeback, newgame, resign, draw."""
        self.handle(Command(name, at, side))

    def next_deadline(self) -> float | None:
        """When the next timer runs out (None: no timer)."""
        return self._timers.next_deadline()

    def due_timers(self, now: float) -> list[TimerFired]:
        """Timer events due at ``now``; the controller queues them."""
        return self._timers.due(now)

    @property
    def obligation(self) -> Square | None:
        """The square of the touched piece that must move (strict touch-move), or None."""
        return self._touch.obliged

    @property
    def human_turn(self) -> bool:
        """Guard: the side to move is played by a human."""
        return self.config.mode is Mode.RECORD or self.board.turn == self.config.human_side

    @property
    def in_sync(self) -> bool:
        """Guard: the board shows the game position."""
        return self.occupied == self._history[-1]

    @property
    def idle(self) -> bool:
        """No timer running, no event waiting and no search under way."""
        return not self._queue and self._timers.next_deadline() is None and not self._jobs

    # -- event loop ----------------------------------------------------------------------------

    def _drain(self) -> None:
        while self._queue:
            event = self._queue.popleft()
            handler = _DISPATCH.get(type(event))
            if handler is None:
                log.warning("session: ignoring unknown event %r", event)
                continue
            self._now = max(self._now, float(getattr(event, "at", self._now)))
            getattr(self, handler)(event)

    def _post(self, event: Any) -> None:
        self._queue.append(event)

    def _publish(self, kind: str, **fields: Any) -> None:
        event = {"event": kind, "at": round(self._now, 6), **fields}
        try:
            self._store.publish(event)
        except Exception:  # a broken bus must never stop the game
            log.exception("session: publishing %s failed", kind)
        for listener in self._listeners:
            listener(event)

    def _set_state(self, state: State) -> None:
        if state is not self.state:
            self.state = state
            self._publish("state", state=state.value)

    # -- event handlers -----------------------------------------------------------------------

    def _on_occupancy(self, event: OccupancyChanged) -> None:
        self.occupied = frozenset(event.occupied)
        self.colours = event.colours
        if self.state in HUMAN_STATES and self.human_turn:
            self._touch_events(self._touch.update(self.occupied, event.at))
            self._view.lifted = self._lifted_own_piece()
        self._evaluate(event.at)

    def _on_reevaluate(self, event: Reevaluate) -> None:
        self._evaluate(event.at)

    def _on_button(self, event: ButtonPressed) -> None:
        self._on_command(Command(event.button.value, event.at))

    def _on_command(self, event: Command) -> None:
        handler = _COMMANDS.get(event.name)
        if handler is None:
            self._publish("command_refused", command=event.name, reason="unknown")
            return
        getattr(self, handler)(event)

    def _on_timer(self, event: TimerFired) -> None:
        if self._timers.is_current(event):
            getattr(self, _TIMER_HANDLERS[event.name])(event.at)

    def _on_fault(self, event: Any) -> None:
        square = getattr(event, "square", None)
        kind = "sensor_fault" if isinstance(event, SensorFault) else "sensor_recovered"
        self._publish(kind, cell=list(event.cell),
                      square=None if square is None else self._namer.square(square))

    def _on_link(self, event: Any) -> None:
        lost = isinstance(event, LinkLost)
        self._publish("link", state="lost" if lost else "restored")
        if not lost:
            self._frame = None  # the board lost its LEDs: send the frame again

    def _on_engine(self, event: EngineResult) -> None:
        purpose = self._jobs.pop(event.token, None)
        if purpose is None:
            return  # a cancelled search
        if purpose == "hint":
            if event.move is not None and self.state in HUMAN_STATES:
                self._view.hint = event.move
                self._publish("hint", reasons=[dict(r) for r in event.reasons],
                              **move_fields(self.board, event.move, self._namer))
            return
        if self.state is not State.ENGINE_THINKING:
            return
        move = event.move
        if move is None or move not in self.board.legal_moves:
            self._publish("engine_error", error=event.error or "no legal move returned")
            move = next(iter(self.board.legal_moves))
        self._show_computer_move(move, event.at)

    # -- timers -------------------------------------------------------------------------------

    def _on_settle_timer(self, at: float) -> None:
        self._evaluate(at, settled=True)

    def _on_error_timer(self, at: float) -> None:
        if self._view.error is None:
            return
        self._view.correction = self._view.error
        missing, extra = self._view.error
        self._publish("correction", missing=self._namer.squares(missing),
                      extra=self._namer.squares(extra))

    def _on_takeback_timer(self, at: float) -> None:
        ply = self._takeback_target()
        if ply is not None and self.config.takebacks_allowed:
            self._take_back_to(ply, at)

    def _on_newgame_timer(self, at: float) -> None:
        if self._is_initial():
            self._new_game(at)

    def _on_adjust_timer(self, at: float) -> None:
        self._touch_events(self._touch.tick(at))

    def _on_crown_timer(self, at: float) -> None:
        self._view.crown = frozenset()

    def _watch(self, name: str, holds: bool, at: float, delay_ms: int) -> None:
        """Run timer ``name`` while ``holds`` stays true for the same occupancy."""
        if not holds:
            self._timers.cancel(name)
            self._watched.pop(name, None)
            return
        if self._watched.get(name) != self.occupied or not self._timers.running(name):
            self._watched[name] = self.occupied
            self._timers.start(name, at, delay_ms)

    def _watch_takeback(self, at: float) -> None:
        holds = self.config.takebacks_allowed and self._takeback_target() is not None
        self._watch("takeback", holds, at, self.config.takeback_ms)

    # -- guards -------------------------------------------------------------------------------

    def _is_initial(self) -> bool:
        return self.occupied == self._initial

    @property
    def game_started(self) -> bool:
        """Guard: the current game has moves (so the initial position means something else)."""
        return bool(self.board.move_stack) or self.outcome is not None

    def _takeback_target(self) -> int | None:
        """The latest earlier ply whose position the board shows, with the human to move."""
        start_turn = self._start_turn()
        for ply in range(len(self._history) - 2, -1, -1):
            turn = start_turn if ply % 2 == 0 else start_turn.opponent
            if self._history[ply] == self.occupied and turn == self.config.human_side:
                return ply
        return None

    def _start_turn(self) -> Color:
        plies = len(self.board.move_stack)
        return Color(self.board.turn) if plies % 2 == 0 else Color(self.board.turn).opponent

    # -- touch-move and adjust ---------------------------------------------------------------

    def _touch_events(self, events: Iterable[Any]) -> None:
        """Publish what the touch tracker saw and follow its adjust window."""
        for event in events:
            side = side_name(self.board.turn)
            if isinstance(event, Obliged):
                self._publish("touch", square=self._namer.square(event.square), side=side)
                self._save()  # a restart must not free the player from the obligation
            elif isinstance(event, AdjustOpened):
                self._set_state(State.ADJUSTING)
                self._publish("adjust", state=True, side=side)
            elif isinstance(event, AdjustClosed):
                self._publish("adjust", state=False, side=side, reason=event.reason)
                if self.state is State.ADJUSTING:
                    self._set_state(State.MOVE_IN_PROGRESS)
                    self._post(Reevaluate(event.at))
        deadline = self._touch.deadline
        if deadline is None:
            self._timers.cancel("adjust")
        elif deadline != self._adjust_deadline or not self._timers.running("adjust"):
            self._timers.start("adjust", deadline, 0)
        self._adjust_deadline = deadline

    def _reset_touch(self, at: float) -> None:
        """A new position: no obligation (unless one was saved before a restart), adjust
        window closed."""
        playable = self._index.playable if self.human_turn else frozenset()
        position = self._history[-1]
        events = list(self._touch.reset(position, playable, at, board=self.occupied))
        saved, self._saved_obligation = self._saved_obligation, None
        if saved is not None and saved in playable:
            # Replay the touch through the tracker's own rules: the piece was lifted.
            events += self._touch.update(position - {saved}, at)
            events += self._touch.update(self.occupied, at)
        self._touch_events(events)

    def _lifted_own_piece(self) -> Square | None:
        position = self._history[-1]
        gone = [sq for sq in position - self.occupied
                if (p := self.board.piece_at(sq)) is not None and p.color == self.board.turn]
        return gone[0] if len(gone) == 1 else None

    def _cmd_adjust(self, event: Command) -> None:
        if self.state in HUMAN_STATES and self.human_turn:
            self._touch_events(self._touch.press_adjust(event.at))
        else:
            self._publish("command_refused", command="adjust", reason="not_your_turn")

    def _cmd_done(self, event: Command) -> None:
        if self.state is State.ADJUSTING:
            self._touch_events(self._touch.press_adjust(event.at))

    # -- errors and refusals ------------------------------------------------------------------

    def _flag_error(self, missing: Iterable[Square], extra: Iterable[Square], at: float) -> None:
        error = (frozenset(missing), frozenset(extra))
        if error == self._view.error and self._timers.running("error"):
            return
        self._view.error = error
        if self._view.correction is not None:
            self._view.correction = error  # guidance already shown: follow the board at once
        else:
            self._timers.start("error", at, self.config.error_ms)

    def _clear_error(self) -> None:
        self._timers.cancel("error")
        self._view.error = self._view.correction = None
        self._view.refused_at = None

    def _refuse(self, result: Illegal) -> None:
        if self._view.refused_at == self.occupied or self._takeback_target() is not None:
            return
        self._view.refused_at = self.occupied
        if result.reason in (RefusalReason.CAPTURE_COMPULSORY, RefusalReason.MAXIMUM_CAPTURE):
            self._view.must = must_capture(self.board)
        self._publish("refused", **refusal_fields(result, self._namer))

    # -- moves --------------------------------------------------------------------------------

    def _commit(self, move: Move, by: str, at: float) -> None:
        """Record ``move`` (write-ahead), play it, tell everyone, and go on to the next turn."""
        assert self.game_id is not None
        record = move_record(self.board, move, by, self._wall_clock(), self._namer)
        self._store.append_move(self.game_id, record)
        fields = move_fields(self.board, move, self._namer)
        self.board.push(move)
        self._history.append(occupancy(self.board))
        self._set_pending(None)
        self._view.new_turn()
        self._clear_error()
        self._timers.cancel("settle", "takeback")
        if move.promotes:
            self._view.crown = frozenset({move.destination})
            self._timers.start("crown", at, self.config.crown_ms)
        self._publish("move", ply=record.ply, by=by, fen=record.fen_after, **fields)
        outcome = self.board.outcome()
        if outcome is not None:
            self._finish(outcome, at)
        else:
            self._enter_turn(at)
        self._save()

    def _enter_turn(self, at: float) -> None:
        """Go to the state of the side to move (the board is in sync or about to be)."""
        if self.outcome is not None:
            self._set_state(State.GAME_OVER)
            return
        self._reset_touch(at)
        if self.human_turn:
            self._set_state(State.HUMAN_TO_MOVE)
            if self.config.mode is Mode.TEACH:
                self._view.must = must_capture(self.board)
        elif self.pending is not None:
            self._set_state(State.COMPUTER_MOVE_PENDING)
        else:
            self._set_state(State.ENGINE_THINKING)
            self._submit("reply")
        self._post(Reevaluate(at))

    def _set_pending(self, move: Move | None) -> None:
        """Set the computer's pending move and rebuild the indexes of the position."""
        self.pending = move
        self._index = MoveIndex(self.board)
        self._pending_index = None if move is None else PendingIndex(
            self.board, move, index=self._index)

    def _show_computer_move(self, move: Move, at: float) -> None:
        self._set_pending(move)
        self._save()  # the pending move is durable before the LEDs show it
        self._set_state(State.COMPUTER_MOVE_PENDING)
        self._publish("computer_move", **move_fields(self.board, move, self._namer))
        self._post(Reevaluate(at))

    def _submit(self, purpose: str) -> None:
        assert self._thinker is not None
        self._cancel_jobs()
        self._token += 1
        self._jobs[self._token] = purpose
        self._thinker.submit(EngineJob(self._token, purpose, self.board.copy()))

    def _cancel_jobs(self) -> None:
        if self._jobs and self._thinker is not None:
            self._thinker.cancel()
        self._jobs.clear()

    def _finish(self, outcome: Outcome, at: float) -> None:
        assert self.game_id is not None
        result = outcome.result(self.variant.pdn_gametype)
        termination = outcome.termination.value
        self._store.finish(self.game_id, result, termination)
        self.outcome = outcome
        self._cancel_jobs()
        self._set_pending(None)
        self._timers.cancel("settle", "error", "takeback")
        self._view.new_turn()
        self._set_state(State.GAME_OVER)
        self._publish(
            "result", result=result, termination=termination, rule=outcome.rule,
            winner=None if outcome.winner is None else side_name(outcome.winner),
        )
        self._save()

    # -- LEDs ---------------------------------------------------------------------------------

    def _render(self) -> None:
        frame = frame_for(self)
        if frame == self._frame:
            return
        self._frame = frame
        if self._show_leds is not None:
            self._show_leds(frame)
        self._publish("leds", frame=leds.to_data(frame, self._namer.text))

