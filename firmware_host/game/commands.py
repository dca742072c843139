"""The session's commands: the buttons and the requests of the CLI or the web.

Each command is decided by one method, found through the table built in
``Commands.__init__`` (keyed by :class:`~firmware_host.terms.commands.CommandName`; a phone
setting by its name, :mod:`firmware_host.terms.settings`); each checks where it applies and
raises :class:`~firmware_host.game.types.Refused` when it does not, or returns what is to be
done as :mod:`~firmware_host.game.decisions`, which the session carries out: the commands read
the session's facts (:class:`CommandFacts`) and never call it back. A refusal is published
(``command_refused``, ``hint_refused``, ...: :meth:`Commands.refused`). A command that carries
an arbiter's decision (``id``) is answered with an ``answer`` event: ``done``, or ``refused``
and why, so the console and the audit log say what the board did.

Draws and resignations in ``record`` mode name their side (a button of each side of the board,
``draw_white`` ... ``resign_black``, or the phone's form with ``side``): a side-less press is
refused there (``which_side``), never guessed. A draw is offered by the side that has just
moved, and stands until the other side accepts it (its own draw button) or declines it by
moving (docs/tournament.md#draw-offers-and-resignations).

Against a person on another board (``remote``) a draw offer and a takeback are proposals to the
other player, never one press: the offer after one's own move travels there (the duel writes
the ``draw_offer`` event) and that player accepts with their draw button or declines by moving;
the takeback button asks (``takeback_asked``), the other's takeback button agrees, and both
boards take back with the record's note ``TAKEBACK_AGREED``. The partner's proposals come in as
``partner`` commands (:class:`~firmware_host.terms.commands.Proposal`), from the board's own
duel only (docs/remote.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Protocol

from board_io.events import ButtonPressed
from engine.outcome import Outcome, Termination
from engine.types import Color
from firmware_host.digits import whole_number
from firmware_host.game.carry import plan_carry
from firmware_host.game.correction import plan
from firmware_host.game.decisions import (
    AskTakeback,
    CarryOn,
    Claimable,
    Commit,
    Correct,
    Decision,
    EnterState,
    Evaluate,
    Finish,
    OfferDraw,
    PressAdjust,
    Publish,
    Search,
    SetPosition,
    StartReview,
    StartRound,
    TakeBack,
)
from firmware_host.game.facts import GameFacts
from firmware_host.game.fields import side_name
from firmware_host.game.settings import Settings
from firmware_host.game.setup import position_fen
from firmware_host.game.timekeeper import Timekeeper
from firmware_host.game.types import HUMAN_STATES, Refused, SessionConfig, State
from firmware_host.terms.buttons import command_of
from firmware_host.terms.commands import SIDES, TAKEBACK_AGREED, Command, CommandName, Proposal
from firmware_host.terms.jobs import Purpose
from firmware_host.terms.settings import Mode, setting

__all__ = ["CommandFacts", "Commands", "round_refused"]

log = logging.getLogger(__name__)

#: Terminations a person declares, kept when the arbiter corrects who won (``correct_result``
#: of a game a player resigned: the other one resigned): a win stays a win, a draw a draw.
_DECLARED_WINS = frozenset({Termination.RESIGNATION, Termination.FORFEIT})
_DECLARED_DRAWS = frozenset({Termination.DRAW_AGREED})


class CommandFacts(GameFacts, Protocol):
    """What the commands read of the session: facts, no methods that act."""

    @property
    def state(self) -> State: ...
    @property
    def config(self) -> SessionConfig: ...
    @property
    def human_turn(self) -> bool: ...


Handler = Callable[[Command], list[Decision]]


class Commands:
    """The command handlers of one session.

    Args:
        facts: the session's facts.
        settings: decides the phone's settings (variant, mode, level, ...) and the PDN tags.
        clock: decides the clock commands (the clock button, pause, resume, add_time, hall).
    """

    def __init__(self, facts: CommandFacts, settings: Settings, clock: Timekeeper) -> None:
        self._facts = facts
        self._clock = clock
        self._settings = settings
        self.by_name: Mapping[CommandName, Handler] = MappingProxyType({
            CommandName.ADJUST: self._cmd_adjust,
            CommandName.DONE: self._cmd_done,
            CommandName.HINT: self._cmd_hint,
            CommandName.TAKEBACK: self._cmd_takeback,
            CommandName.NEWGAME: self._cmd_newgame,
            CommandName.RESIGN: self._cmd_resign,
            CommandName.DRAW: self._cmd_draw,
            CommandName.HEADER: settings.header,
            CommandName.PAUSE: clock.command,
            CommandName.RESUME: clock.command,
            CommandName.ADD_TIME: clock.command,
            CommandName.HALL: clock.hall,
            CommandName.CLOCK: clock.press,
            CommandName.START_ROUND: self._cmd_start_round,
            CommandName.ADJUDICATE: self._cmd_adjudicate,
            CommandName.CORRECT_RESULT: self._cmd_adjudicate,
            CommandName.CORRECT_MOVE:
                lambda event: [Correct(plan(facts.game, event), event.at)],
            CommandName.CARRY: lambda event: [CarryOn(plan_carry(facts.game, event), event.at)],
            CommandName.FOLLOWED_RESULT: self._cmd_followed_result,
            CommandName.PARTNER: self._cmd_partner,
            CommandName.CLAIM: self._cmd_claim,
            CommandName.PAIR: lambda event: settings.pair(
                event, begun=len(facts.game.history) > 1 or facts.outcome is not None),
            CommandName.SETUP: self._cmd_setup,
            CommandName.PUZZLES: self._cmd_coach,
            CommandName.DRILLS: self._cmd_coach,
            CommandName.REVIEW: self._cmd_review,
        })

    def decide(self, event: Command) -> list[Decision]:
        """What ``event`` asks for, checked (an unknown name is refused: ``unknown``).

        Raises:
            Refused: the command does not apply now (nothing was decided).
        """
        if event.name == "mode" and (event.value or "").strip() == Mode.REVIEW.value:
            return self._cmd_review(event)  # the phone chose review: it starts now
        if setting(event.name) is not None:  # a phone setting: for the next game
            return self._settings.set(event)
        try:
            name = CommandName(event.name)
        except ValueError:
            raise Refused("unknown", command=event.name) from None
        return self.by_name[name](event)

    def of_button(self, event: ButtonPressed) -> Command:
        """The command a button is, by its name (terms/buttons.py; a side's draw or resign
        button: for that side). A name no button has is refused as an unknown command."""
        command = command_of(event.button)
        if command is None:
            return Command(event.button, event.at)
        name, side = command
        return Command(name.value, event.at, side=side)

    def refused(self, event: Command, refused: Refused) -> list[Decision]:
        """The refusal published, and the answer to an arbiter's decision: ``refused`` with the
        refusal (its event and fields, so a reader can say it in words)."""
        said: list[Decision] = [Publish(refused.kind, refused.fields)]
        if event.id is None:
            return said
        return [*said, Publish("answer", {
            "id": event.id, "command": event.name, "answer": "refused",
            "reason": refused.reason, "refusal": {"event": refused.kind, **refused.fields}})]

    def done(self, event: Command) -> list[Decision]:
        """The answer to an arbiter's decision carried out: ``done``."""
        if event.id is None:
            return []
        return [Publish("answer", {"id": event.id, "command": event.name, "answer": "done"})]

    def _cmd_adjust(self, event: Command) -> list[Decision]:
        facts = self._facts
        if facts.state in HUMAN_STATES and facts.human_turn:
            return [PressAdjust(event.at)]
        raise Refused(self._not_now(), command="adjust")

    def _cmd_done(self, event: Command) -> list[Decision]:
        if self._facts.state is State.ADJUSTING:
            return [PressAdjust(event.at)]
        raise Refused("not_adjusting", command="done")

    def _cmd_takeback(self, event: Command) -> list[Decision]:
        facts = self._facts
        if facts.config.remote:
            return self._remote_takeback(event)
        target = facts.game.previous_turn_of(facts.config.human_side)
        if not facts.config.takebacks_allowed or target is None:
            # ``nothing``: the mode allows takebacks, but the player has not moved yet.
            raise Refused("mode" if not facts.config.takebacks_allowed else "nothing",
                          kind="takeback_refused", mode=facts.config.mode.value)
        return [TakeBack(target, event.at, guided=True)]

    def _remote_takeback(self, event: Command) -> list[Decision]:
        """Against a person afar: agree to their takeback asked, or ask for one back to before
        this player's own last move (module docstring)."""
        facts = self._facts
        if facts.outcome is not None or facts.game_id is None:
            raise Refused("game_over", command="takeback")
        if facts.game.asked is not None:
            return [TakeBack(facts.game.asked[1], event.at, guided=True, note=TAKEBACK_AGREED)]
        target = facts.game.previous_turn_of(facts.config.human_side)
        if target is None:
            raise Refused("nothing", kind="takeback_refused", mode=facts.config.mode.value)
        return [Publish("takeback_asked", {"side": side_name(facts.config.human_side),
                                           "ply": len(facts.board.move_stack),
                                           "back_to": target})]

    def _cmd_partner(self, event: Command) -> list[Decision]:
        """What the partner's board proposes or agreed (``remote`` only): a draw offer and a
        takeback asked stand here (a stale one, made before a move this board has, is let
        go), a takeback this player asked and the partner agreed is done."""
        facts = self._facts
        if not facts.config.remote:
            raise Refused("mode", command=event.name, mode=facts.config.mode.value)
        if facts.outcome is not None or facts.game_id is None:
            raise Refused("game_over", command=event.name)
        partner, plies = facts.config.human_side.opponent, len(facts.board.move_stack)
        try:
            numbers = [whole_number(n, 0, 10**6) for n in (event.value or "").split(":")]
            what = Proposal(event.tag)
        except ValueError:
            raise Refused("bad_value", command=event.name) from None
        match what, numbers:
            case Proposal.DRAW_OFFER, [ply] if ply - 1 <= plies <= ply:
                return [] if facts.game.offer is partner else [OfferDraw(partner)]
            case Proposal.TAKEBACK_ASK, [ply, back_to] if ply - 1 <= plies <= ply \
                    and back_to <= plies:
                return [] if facts.game.asked == (partner, back_to) \
                    else [AskTakeback(partner, back_to)]
            case Proposal.TAKEBACK_AGREED, [_, back_to] if back_to <= plies:
                return [TakeBack(back_to, event.at, guided=True, note=TAKEBACK_AGREED)]
            case Proposal.SILENT, [minutes]:  # (a claim for the waiting board only)
                waiting = Color(facts.board.turn) is partner
                return [Claimable(minutes)] if waiting and facts.game.claimable is None else []
            case Proposal.PRESENT, _:
                return [] if facts.game.claimable is None else [Claimable(None)]
            case Proposal.DRAW_OFFER | Proposal.TAKEBACK_ASK, _:
                log.info("the partner's %s (%s) is of an earlier move: let go", what.value,
                         event.value)
                return []
        raise Refused("bad_value", command=event.name)

    def _cmd_claim(self, event: Command) -> list[Decision]:
        """Against a person whose board has been silent, their turn, for
        ``remote.claim_after_min``: the game is claimed, won (``value`` ``win``, the default)
        or drawn (``draw``; the draw button too), the claim noted in the record."""
        facts = self._facts
        if not facts.config.remote:
            raise Refused("mode", command=event.name, mode=facts.config.mode.value)
        if facts.outcome is not None or facts.game_id is None:
            raise Refused("game_over", command=event.name)
        if facts.game.claimable is None:
            raise Refused("no_claim", command=event.name)
        if event.value not in (None, "", "win", "draw"):
            raise Refused("bad_value", command=event.name)
        me = facts.config.human_side
        drawn = event.value == "draw"
        outcome = Outcome(Termination.ABANDONED, None) if drawn \
            else Outcome(Termination.FORFEIT, me)
        return [Finish(outcome, event.at,
                       f"{side_name(me).capitalize()} claimed {'a draw' if drawn else 'the game'}"
                       f": the other board silent for {facts.game.claimable} min")]

    def _cmd_newgame(self, event: Command) -> list[Decision]:
        if self._facts.state is State.SETTING_UP:  # pressed again: back to the game
            return [EnterState(State.SYNCING), Evaluate(event.at)]
        return [EnterState(State.SETTING_UP), Publish("newgame_requested"), Evaluate(event.at)]

    def _cmd_hint(self, event: Command) -> list[Decision]:
        facts = self._facts
        if not facts.config.hints_allowed:
            raise Refused("mode", kind="hint_refused", mode=facts.config.mode.value)
        if facts.outcome is not None:
            raise Refused("game_over", kind="hint_refused")
        if facts.state not in HUMAN_STATES:
            raise Refused(self._not_now(), kind="hint_refused")
        return [Search(Purpose.HINT)]

    def _not_now(self) -> str:
        """Why a button of the player's turn is refused: ``not_ready`` while the board is put
        right on the player's own turn (after a takeback, at a resume), else
        ``not_your_turn``."""
        facts = self._facts
        return "not_ready" if facts.state is State.SYNCING and facts.human_turn \
            else "not_your_turn"

    def _side(self, event: Command) -> Color:
        """The side a draw or resignation is for: in record mode its ``side`` (none: refused,
        ``which_side``); in play and teach modes the human's (another side named: refused,
        ``not_your_side``: nobody resigns for the engine, nor a phone for the other player)."""
        named = None if event.side not in SIDES else (
            Color.WHITE if event.side == "white" else Color.BLACK)
        config = self._facts.config
        if config.mode is Mode.RECORD:
            if named is None:
                raise Refused("which_side", command=event.name)
            return named
        if named is not None and named is not config.human_side:
            raise Refused("not_your_side", command=event.name)
        return config.human_side

    def _cmd_followed_result(self, event: Command) -> list[Decision]:
        """The followed game ended (``follow`` mode, firmware_host/follow/): so does this
        one, with its result (why it ended, the other board's record says)."""
        facts = self._facts
        if facts.config.mode is not Mode.FOLLOW and not facts.config.remote:
            raise Refused("mode", command=event.name, mode=facts.config.mode.value)
        if facts.outcome is not None or facts.game_id is None:
            raise Refused("game_over", command=event.name)
        try:
            outcome = Outcome.from_result(event.value or "", Termination.UNKNOWN,
                                          facts.board.variant.pdn_gametype)
        except ValueError:
            raise Refused("bad_value", command=event.name) from None
        if outcome is None:
            raise Refused("bad_value", command=event.name)
        if facts.config.remote:  # the partner's board ended it (a resignation, a flag there)
            known = {t.value for t in Termination}
            if event.tag in known:
                outcome = replace(outcome, termination=Termination(event.tag))
            note = (event.note or "")[:200] if (event.note or "").isprintable() else ""
            # (its last move, lit here and not carried out yet, is in its record: so in this;
            # a move that ends the game by the rules, the last piece taken, ends it here too)
            pending = facts.game.pending
            if pending is None:
                logged: list[Decision] = []
            else:
                logged = [Commit(pending, "computer", event.at)]
                after = facts.board.copy()
                after.push(pending)
                if after.outcome() is not None:
                    return logged
            return [*logged, Finish(outcome, event.at, note or f"ended on the other board: "
                                                                f"{event.value}")]
        return [Finish(outcome, event.at, f"the followed game ended {event.value}")]

    def _cmd_review(self, event: Command) -> list[Decision]:
        """``review`` (or the phone's mode ``review``): the last game reviewed on the board.
        Refused following another game (``following``), against a person on another board
        (``remote``), and while a game is going on (``in_game``: one with moves and no result,
        or a round's)."""
        facts = self._facts
        if facts.config.mode is Mode.FOLLOW:
            raise Refused("following", command=event.name)
        if facts.config.remote:
            raise Refused("remote", command=event.name)
        if facts.game.round is not None or self._clock.arbiter_holding or (
                facts.outcome is None and facts.board.move_stack):
            raise Refused("in_game", command=event.name)
        return [StartReview(event.at)]

    def _cmd_setup(self, event: Command) -> list[Decision]:
        """``setup`` (``value``: a FEN or a PDN game): a new game from that position, set up
        by the lights. Refused following another game (``following``), against a person on
        another board (``remote``), in a round's game (``in_game``: the arbiter's), and for a
        text that is no position of the variant (``bad_value``). ``side``: the player's side
        from then on (the coach's puzzles: the side to move)."""
        facts = self._facts
        self._own_board(event)
        try:
            fen = position_fen(facts.board.variant, event.value or "")
        except ValueError as exc:
            log.info("setup refused: %s", exc)
            raise Refused("bad_value", command=event.name) from None
        side = None if event.side is None else Color.WHITE if event.side == "white" \
            else Color.BLACK
        return [SetPosition(fen, event.at, side)]

    def _own_board(self, event: Command) -> None:
        """Refuse a command that sets positions up on a board that is not its own player's:
        following another game, against a person afar, in a round's game."""
        facts = self._facts
        if facts.config.mode is Mode.FOLLOW:
            raise Refused("following", command=event.name)
        if facts.config.remote:
            raise Refused("remote", command=event.name)
        if facts.game.round is not None or self._clock.arbiter_holding:
            raise Refused("in_game", command=event.name)

    def _cmd_coach(self, event: Command) -> list[Decision]:
        """``puzzles``, ``drills``: the coach's exercises start (or stop), said by the
        ``coach`` event the coach's runner hears (firmware_host/coach/lessons.py); refused
        where ``setup`` is, and puzzles where no engine defends them (record mode)."""
        self._own_board(event)
        if self._facts.config.mode is Mode.RECORD and event.name == CommandName.PUZZLES.value:
            raise Refused("no_engine", command=event.name)
        return [Publish("coach", {"kind": event.name, "player": (event.value or "").strip()})]

    def _cmd_resign(self, event: Command) -> list[Decision]:
        facts = self._facts
        if facts.config.mode is Mode.FOLLOW:  # the followed game's players decide that
            raise Refused("following", command="resign")
        if facts.outcome is not None or facts.game_id is None:
            raise Refused("game_over", command="resign")
        loser = self._side(event)
        name = side_name(loser).capitalize()
        return [Finish(Outcome(Termination.RESIGNATION, loser.opponent), event.at,
                       f"{name} resigned")]

    def _cmd_draw(self, event: Command) -> list[Decision]:
        """A draw offer, or the acceptance of the other side's (module docstring)."""
        facts = self._facts
        if facts.config.mode is Mode.FOLLOW:
            raise Refused("following", command="draw")
        if facts.outcome is not None or facts.game_id is None:
            raise Refused("game_over", command="draw")
        if facts.config.remote and facts.game.claimable is not None:  # nobody there to answer
            return self._cmd_claim(replace(event, name=CommandName.CLAIM.value, value="draw"))
        if facts.config.mode is not Mode.RECORD and event.side is None \
                and not facts.config.remote:
            return [Publish("draw_declined")]  # the computer declines every offer
        side = self._side(event)
        offer = facts.game.offer
        if offer is side:
            raise Refused("already_offered", command="draw", side=side_name(side))
        if self._clock.holding:
            raise Refused("clock_held", command="draw")
        if offer is None:
            return self._offer(side)
        if facts.game.pending is not None:  # (the partner's move first: both records have it)
            raise Refused("not_ready", command="draw")
        name = side_name(offer).capitalize()
        return [Finish(Outcome(Termination.DRAW_AGREED, None), event.at,
                       f"draw offered by {name}, accepted by {side_name(side).capitalize()}")]

    def _offer(self, side: Color) -> list[Decision]:
        """``side`` offers a draw: after its own move (it is the other side's turn), once it
        has made the club's minimum of moves."""
        facts = self._facts
        board, game = facts.board, facts.game
        made = sum(1 for ply in range(len(board.move_stack)) if game.turn_at(ply) is side)
        if len(game.history) == 1:
            raise Refused("no_move_yet", command="draw")
        if Color(board.turn) is side:
            raise Refused("offer_after_moving", command="draw", side=side_name(side))
        if made < facts.config.draw_min_moves:
            raise Refused("too_early", command="draw", count=facts.config.draw_min_moves)
        return [OfferDraw(side)]

    def _cmd_start_round(self, event: Command) -> list[Decision]:
        """``start_round`` (``value`` the round): the arbiter starts the round on this board.

        The game must not have begun (no move, no result: the players sit at the start
        position) and the pairing of that round must wait for it (``StartRound``: the game
        takes it, and its clock starts again, full: :meth:`Timekeeper.start_round`). Otherwise
        it is refused (``no_game``, ``game_over``, ``in_game``, ``no_pairing``) and nothing
        changes.
        """
        facts = self._facts
        reason = ("no_game" if facts.game_id is None else "game_over"
                  if facts.outcome is not None else "in_game" if len(facts.game.history) > 1
                  else "")
        if reason:
            raise round_refused(event, reason)
        return [StartRound(event.value or "", event.at)]

    def _cmd_adjudicate(self, event: Command) -> list[Decision]:
        """``adjudicate`` ends the game in play; ``correct_result`` changes a finished game's
        result. Either way the result is the arbiter's, with the reason as a PDN comment; a
        result a player declared (a resignation, an agreed draw) that the arbiter corrects
        to the same kind (the other player resigned) keeps its termination."""
        facts = self._facts
        winners = {"white": Color.WHITE, "black": Color.BLACK, "draw": None}
        correcting = event.name == CommandName.CORRECT_RESULT.value
        if event.value not in winners:
            raise Refused("bad_value", command=event.name)
        if facts.game_id is None or (facts.outcome is None) == correcting:
            raise Refused("not_over" if correcting else "game_over", command=event.name)
        why = f" ({event.tag})" if event.tag else ""
        winner = winners[event.value]
        termination = Termination.ADJUDICATION
        if facts.outcome is not None:
            note = f"arbiter: result corrected from {facts.game.result_text(facts.outcome)}{why}"
            old = facts.outcome.termination
            if (old in _DECLARED_WINS and winner is not None) or (
                    old in _DECLARED_DRAWS and winner is None):
                termination = old
        else:
            note = f"arbiter: adjudicated{why}"
        return [Finish(Outcome(termination, winner), event.at, note)]


def round_refused(event: Command | str, reason: str) -> Refused:
    """A ``start_round`` (of round ``event``) refused, and logged so."""
    number = event if isinstance(event, str) else event.value or ""
    log.info("start_round %s refused (%s)", number[:20], reason)
    return Refused(reason, command=CommandName.START_ROUND.value)
