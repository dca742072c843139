"""The session's commands: the buttons and the requests of the CLI or the web.

Each command is handled by one method, found through the table built in
``Commands.__init__`` (keyed by :class:`~firmware_host.game.types.CommandName`); each checks
where it applies and says so when it does not (``command_refused``, ``hint_refused``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Protocol

from engine.outcome import Outcome, Termination
from engine.types import Color, Move
from firmware_host.game.carry import carry_game
from firmware_host.game.correction import correct_move
from firmware_host.game.facts import GameFacts
from firmware_host.game.settings import Settings
from firmware_host.game.timekeeper import Timekeeper
from firmware_host.game.touch import TouchEvent, TouchTracker
from firmware_host.game.types import (
    HUMAN_STATES,
    Command,
    CommandName,
    Mode,
    Purpose,
    SessionConfig,
    State,
)

__all__ = ["CommandHost", "Commands"]


class CommandHost(GameFacts, Protocol):
    """What the commands need of the session: its facts and the actions they start."""

    @property
    def state(self) -> State: ...
    @property
    def config(self) -> SessionConfig: ...
    @property
    def human_turn(self) -> bool: ...
    @property
    def touch(self) -> TouchTracker: ...
    def publish(self, kind: str, /, **fields: object) -> None: ...
    def set_state(self, state: State) -> None: ...
    def evaluate(self, at: float, settled: bool = False) -> None: ...
    def touch_events(self, events: Iterable[TouchEvent]) -> None: ...
    def take_back_to(self, ply: int, at: float, guided: bool = False, note: str = "") -> None:
        ...
    def commit(self, move: Move, by: str, at: float) -> None: ...
    def submit(self, purpose: Purpose) -> None: ...
    def finish(self, outcome: Outcome, at: float, note: str = "") -> None: ...
    def resync(self, at: float) -> None: ...


class Commands:
    """The command handlers of one session.

    Args:
        session: the session's facts and actions.
        settings: handles the settings commands (variant, mode, level, ...).
        clock: handles the clock commands (pause, resume, add_time).
    """

    def __init__(self, session: CommandHost, settings: Settings, clock: Timekeeper) -> None:
        self._s = session
        self.by_name: Mapping[CommandName, Callable[[Command], None]] = MappingProxyType({
            CommandName.ADJUST: self._cmd_adjust,
            CommandName.DONE: self._cmd_done,
            CommandName.HINT: self._cmd_hint,
            CommandName.TAKEBACK: self._cmd_takeback,
            CommandName.NEWGAME: self._cmd_newgame,
            CommandName.RESIGN: self._cmd_resign,
            CommandName.DRAW: self._cmd_draw,
            CommandName.VARIANT: settings.set,
            CommandName.MODE: settings.set,
            CommandName.LEVEL: settings.set,
            CommandName.TOUCH_MOVE: settings.set,
            CommandName.HEADER: settings.header,
            CommandName.TIME_CONTROL: settings.set,
            CommandName.PAUSE: clock.command,
            CommandName.RESUME: clock.command,
            CommandName.ADD_TIME: clock.command,
            CommandName.CLOCK: clock.press,
            CommandName.START_ROUND: clock.start_round,
            CommandName.ADJUDICATE: self._cmd_adjudicate,
            CommandName.CORRECT_RESULT: self._cmd_adjudicate,
            CommandName.CORRECT_MOVE: lambda event: correct_move(session, event),
            CommandName.CARRY: lambda event: carry_game(session, clock, event),
        })

    def handle(self, event: Command) -> None:
        """Carry out ``event`` (an unknown name is refused with ``command_refused``)."""
        try:
            name = CommandName(event.name)
        except ValueError:
            self._s.publish("command_refused", command=event.name, reason="unknown")
            return
        self.by_name[name](event)

    def _cmd_adjust(self, event: Command) -> None:
        s = self._s
        if s.state in HUMAN_STATES and s.human_turn:
            s.touch_events(s.touch.press_adjust(event.at))
        else:
            s.publish("command_refused", command="adjust", reason=self._not_now())

    def _cmd_done(self, event: Command) -> None:
        s = self._s
        if s.state is State.ADJUSTING:
            s.touch_events(s.touch.press_adjust(event.at))
        else:
            s.publish("command_refused", command="done", reason="not_adjusting")

    def _cmd_takeback(self, event: Command) -> None:
        s = self._s
        target = s.game.previous_turn_of(s.config.human_side)
        if not s.config.takebacks_allowed or target is None:
            # ``nothing``: the mode allows takebacks, but the player has not moved yet.
            s.publish("takeback_refused", mode=s.config.mode.value,
                      reason="mode" if not s.config.takebacks_allowed else "nothing")
            return
        s.take_back_to(target, event.at, guided=True)

    def _cmd_newgame(self, event: Command) -> None:
        s = self._s
        if s.state is State.SETTING_UP:
            s.set_state(State.SYNCING)  # pressed again: back to the game
        else:
            s.set_state(State.SETTING_UP)
            s.publish("newgame_requested")
        s.evaluate(event.at)

    def _cmd_hint(self, event: Command) -> None:
        s = self._s
        if not s.config.hints_allowed:
            s.publish("hint_refused", reason="mode", mode=s.config.mode.value)
            return
        if s.outcome is not None:
            s.publish("hint_refused", reason="game_over")
            return
        if s.state not in HUMAN_STATES:
            s.publish("hint_refused", reason=self._not_now())
            return
        s.submit(Purpose.HINT)

    def _not_now(self) -> str:
        """Why a button of the player's turn is refused: ``not_ready`` while the board is put
        right on the player's own turn (after a takeback, at a resume), else
        ``not_your_turn``."""
        s = self._s
        return "not_ready" if s.state is State.SYNCING and s.human_turn else "not_your_turn"

    def _cmd_resign(self, event: Command) -> None:
        s = self._s
        if s.outcome is not None or s.game_id is None:
            s.publish("command_refused", command="resign", reason="game_over")
            return
        if event.side in ("white", "black"):
            loser = Color.WHITE if event.side == "white" else Color.BLACK
        elif s.config.mode is Mode.RECORD:
            loser = Color(s.board.turn)
        else:
            loser = s.config.human_side
        s.finish(Outcome(Termination.RESIGNATION, loser.opponent), event.at)

    def _cmd_draw(self, event: Command) -> None:
        s = self._s
        if s.outcome is not None or s.game_id is None:
            s.publish("command_refused", command="draw", reason="game_over")
            return
        if s.config.mode is not Mode.RECORD:
            s.publish("draw_declined")
            return
        s.finish(Outcome(Termination.DRAW_AGREED, None), event.at)

    def _cmd_adjudicate(self, event: Command) -> None:
        """``adjudicate`` ends the game in play; ``correct_result`` changes a finished game's
        result. Either way the result is the arbiter's, with the reason as a PDN comment."""
        s = self._s
        winners = {"white": Color.WHITE, "black": Color.BLACK, "draw": None}
        correcting = event.name == CommandName.CORRECT_RESULT.value
        if event.value not in winners:
            s.publish("command_refused", command=event.name, reason="bad_value")
            return
        if s.game_id is None or (s.outcome is None) == correcting:
            s.publish("command_refused", command=event.name,
                      reason="not_over" if correcting else "game_over")
            return
        why = f" ({event.tag})" if event.tag else ""
        if s.outcome is not None:
            note = f"arbiter: result corrected from {s.game.result_text(s.outcome)}{why}"
        else:
            note = f"arbiter: adjudicated{why}"
        s.finish(Outcome(Termination.ADJUDICATION, winners[event.value]), event.at, note)
