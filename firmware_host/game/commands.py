"""The session's commands: the buttons and the requests of the CLI or the web.

Each command is handled by one method, found through the table built in
``Commands.__init__`` (keyed by :class:`~firmware_host.game.types.CommandName`); each checks
where it applies and raises :class:`~firmware_host.game.types.Refused` when it does not, which
:meth:`Commands.handle` publishes (``command_refused``, ``hint_refused``, ...). A command that
carries an arbiter's decision (``id``) is answered with an ``answer`` event: ``done``, or
``refused`` and why, so the console and the audit log say what the board did.

Draws and resignations in ``record`` mode name their side (a button of each side of the board,
``draw_white`` ... ``resign_black``, or the phone's form with ``side``): a side-less press is
refused there (``which_side``), never guessed. A draw is offered by the side that has just
moved, and stands until the other side accepts it (its own draw button) or declines it by
moving (docs/tournament.md#draw-offers-and-resignations).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Protocol

from board_io.events import ButtonPressed
from engine.outcome import Outcome, Termination
from engine.types import Color, Move
from firmware_host.config.buttons import command_of
from firmware_host.game.carry import carry_game
from firmware_host.game.correction import Correction, plan
from firmware_host.game.facts import GameFacts
from firmware_host.game.fields import side_name
from firmware_host.game.settings import Settings
from firmware_host.game.timekeeper import Timekeeper
from firmware_host.game.touch import TouchEvent, TouchTracker
from firmware_host.game.types import (
    HUMAN_STATES,
    Command,
    CommandName,
    Mode,
    Purpose,
    Refused,
    SessionConfig,
    State,
)

__all__ = ["CommandHost", "Commands"]

#: Terminations a person declares, kept when the arbiter corrects who won (``correct_result``
#: of a game a player resigned: the other one resigned): a win stays a win, a draw a draw.
_DECLARED_WINS = frozenset({Termination.RESIGNATION, Termination.FORFEIT})
_DECLARED_DRAWS = frozenset({Termination.DRAW_AGREED})


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
    def correct(self, correction: Correction, at: float) -> None: ...
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
        self._clock = clock
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
            CommandName.HALL: clock.hall,
            CommandName.CLOCK: clock.press,
            CommandName.START_ROUND: clock.start_round,
            CommandName.ADJUDICATE: self._cmd_adjudicate,
            CommandName.CORRECT_RESULT: self._cmd_adjudicate,
            CommandName.CORRECT_MOVE:
                lambda event: session.correct(plan(session.game, event), event.at),
            CommandName.CARRY: lambda event: carry_game(session, clock, event),
        })

    def handle(self, event: Command) -> None:
        """Carry out ``event`` (an unknown name is refused with ``command_refused``); answer it
        when it carries an arbiter's decision (``id``)."""
        try:
            try:
                name = CommandName(event.name)
            except ValueError:
                raise Refused("unknown", command=event.name) from None
            self.by_name[name](event)
        except Refused as refused:
            self._s.publish(refused.kind, **refused.fields)
            self._answer(event, refused)
            return
        self._answer(event, None)

    def press(self, event: ButtonPressed) -> None:
        """A button: the command its name is (config/buttons.py; a side's draw or resign
        button: for that side). A name no button has is refused as an unknown command."""
        command, side = command_of(event.button) or (event.button, None)
        self.handle(Command(command, event.at, side=side))

    def _answer(self, event: Command, refused: Refused | None) -> None:
        """The ``answer`` to an arbiter's decision: ``done``, or ``refused`` with the refusal
        (its event and fields, so a reader can say it in words)."""
        if event.id is None:
            return
        if refused is None:
            self._s.publish("answer", id=event.id, command=event.name, answer="done")
        else:
            self._s.publish("answer", id=event.id, command=event.name, answer="refused",
                            reason=refused.reason, refusal={"event": refused.kind,
                                                            **refused.fields})

    def _cmd_adjust(self, event: Command) -> None:
        s = self._s
        if s.state in HUMAN_STATES and s.human_turn:
            s.touch_events(s.touch.press_adjust(event.at))
        else:
            raise Refused(self._not_now(), command="adjust")

    def _cmd_done(self, event: Command) -> None:
        s = self._s
        if s.state is State.ADJUSTING:
            s.touch_events(s.touch.press_adjust(event.at))
        else:
            raise Refused("not_adjusting", command="done")

    def _cmd_takeback(self, event: Command) -> None:
        s = self._s
        target = s.game.previous_turn_of(s.config.human_side)
        if not s.config.takebacks_allowed or target is None:
            # ``nothing``: the mode allows takebacks, but the player has not moved yet.
            raise Refused("mode" if not s.config.takebacks_allowed else "nothing",
                          kind="takeback_refused", mode=s.config.mode.value)
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
            raise Refused("mode", kind="hint_refused", mode=s.config.mode.value)
        if s.outcome is not None:
            raise Refused("game_over", kind="hint_refused")
        if s.state not in HUMAN_STATES:
            raise Refused(self._not_now(), kind="hint_refused")
        s.submit(Purpose.HINT)

    def _not_now(self) -> str:
        """Why a button of the player's turn is refused: ``not_ready`` while the board is put
        right on the player's own turn (after a takeback, at a resume), else
        ``not_your_turn``."""
        s = self._s
        return "not_ready" if s.state is State.SYNCING and s.human_turn else "not_your_turn"

    def _side(self, event: Command) -> Color:
        """The side a draw or resignation is for: in record mode its ``side`` (none: refused,
        ``which_side``); in play and teach modes the human's (another side named: refused,
        ``not_your_side``: nobody resigns for the engine, nor a phone for the other player)."""
        named = None if event.side not in ("white", "black") else (
            Color.WHITE if event.side == "white" else Color.BLACK)
        if self._s.config.mode is Mode.RECORD:
            if named is None:
                raise Refused("which_side", command=event.name)
            return named
        if named is not None and named is not self._s.config.human_side:
            raise Refused("not_your_side", command=event.name)
        return self._s.config.human_side

    def _cmd_resign(self, event: Command) -> None:
        s = self._s
        if s.outcome is not None or s.game_id is None:
            raise Refused("game_over", command="resign")
        loser = self._side(event)
        name = side_name(loser).capitalize()
        s.finish(Outcome(Termination.RESIGNATION, loser.opponent), event.at, f"{name} resigned")

    def _cmd_draw(self, event: Command) -> None:
        """A draw offer, or the acceptance of the other side's (module docstring)."""
        s = self._s
        if s.outcome is not None or s.game_id is None:
            raise Refused("game_over", command="draw")
        if s.config.mode is not Mode.RECORD and event.side is None:
            s.publish("draw_declined")  # the computer declines every offer
            return
        side = self._side(event)
        offer = s.game.offer
        if offer is side:
            raise Refused("already_offered", command="draw", side=side_name(side))
        if self._clock.holding:
            raise Refused("clock_held", command="draw")
        if offer is None:
            self._offer(side)
            return
        name = side_name(offer).capitalize()
        s.finish(Outcome(Termination.DRAW_AGREED, None), event.at,
                 f"draw offered by {name}, accepted by {side_name(side).capitalize()}")

    def _offer(self, side: Color) -> None:
        """``side`` offers a draw: after its own move (it is the other side's turn), once it
        has made the club's minimum of moves."""
        s = self._s
        made = sum(1 for ply in range(len(s.board.move_stack)) if s.game.turn_at(ply) is side)
        if len(s.game.history) == 1:
            raise Refused("no_move_yet", command="draw")
        if Color(s.board.turn) is side:
            raise Refused("offer_after_moving", command="draw", side=side_name(side))
        if made < s.config.draw_min_moves:
            raise Refused("too_early", command="draw", count=s.config.draw_min_moves)
        s.game.offer = side
        s.publish("draw_offer", side=side_name(side), ply=len(s.board.move_stack))

    def _cmd_adjudicate(self, event: Command) -> None:
        """``adjudicate`` ends the game in play; ``correct_result`` changes a finished game's
        result. Either way the result is the arbiter's, with the reason as a PDN comment; a
        result a player declared (a resignation, an agreed draw) that the arbiter corrects
        to the same kind (the other player resigned) keeps its termination."""
        s = self._s
        winners = {"white": Color.WHITE, "black": Color.BLACK, "draw": None}
        correcting = event.name == CommandName.CORRECT_RESULT.value
        if event.value not in winners:
            raise Refused("bad_value", command=event.name)
        if s.game_id is None or (s.outcome is None) == correcting:
            raise Refused("not_over" if correcting else "game_over", command=event.name)
        why = f" ({event.tag})" if event.tag else ""
        winner = winners[event.value]
        termination = Termination.ADJUDICATION
        if s.outcome is not None:
            note = f"arbiter: result corrected from {s.game.result_text(s.outcome)}{why}"
            old = s.outcome.termination
            if (old in _DECLARED_WINS and winner is not None) or (
                    old in _DECLARED_DRAWS and winner is None):
                termination = old
        else:
            note = f"arbiter: adjudicated{why}"
        s.finish(Outcome(termination, winner), event.at, note)
