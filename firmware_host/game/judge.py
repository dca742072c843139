"""How the session judges the board in each state.

The order of the checks: docs/design.md#how-a-board-change-becomes-a-move.

For each state, the :class:`Judge` looks at the stable occupancy against the game (through the
recogniser's indexes) and decides: commit a move once its piece is released (the settle model,
:mod:`firmware_host.game.release`), guide, refuse, flag an error, watch for a takeback or a new
game. Which method judges which state is the table built in ``Judge.__init__``; a test checks
every state has one.

The judge reads the session through the narrow :class:`Table` (facts only) and never calls it
back: what concerns the session (a commit, a state, a published event) it returns as
:mod:`~firmware_host.game.decisions`, which the session carries out in order. What the judge
owns it writes itself: the turn's :class:`~firmware_host.game.view.TurnView` (the guidance, the
error, the refusal) and its timers (settle, error, takeback, new game).

A refused move is refused once it is released (held for ``settle_ms``), and then at once: the
``refused`` event carries its sentence (:mod:`firmware_host.feedback.texts`) and the correction
lights come on without waiting for ``error_ms`` (that delay is for a board that is merely
wrong, not for a move the player has let go).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Protocol

from board_io.types import Reading
from engine import Board
from engine.types import Move, Piece, Square
from firmware_host.feedback.texts import render
from firmware_host.game.decisions import (
    CancelSearch,
    CloseTouch,
    Commit,
    Decision,
    EnterState,
    Publish,
    Synced,
)
from firmware_host.game.fields import (
    Namer,
    move_fields,
    must_capture,
    refusal_fields,
    side_name,
)
from firmware_host.game.game import Game
from firmware_host.game.release import Release
from firmware_host.game.setup import SetUp, told
from firmware_host.game.timers import Timers
from firmware_host.game.types import SessionConfig, SessionError, State, TimerName
from firmware_host.game.view import TurnView
from firmware_host.i18n import translator
from firmware_host.recognition.resolution import Complete, Illegal, InProgress, RefusalReason

__all__ = ["Judge", "Table"]


#: The refusals that light the pieces that must capture.
_MUST_REASONS = frozenset({RefusalReason.CAPTURE_COMPULSORY, RefusalReason.MAXIMUM_CAPTURE})
#: The refusals that are no move of the player's (a piece appeared, the other side's piece was
#: lifted): the board is wrong rather than a move refused, and its correction waits ``error_ms``.
_NOT_A_MOVE_OF_HIS = frozenset({RefusalReason.UNKNOWN_PIECE, RefusalReason.NOT_SIDE_TO_MOVE})


class Table(Protocol):
    """What the judge reads of the session: facts, no methods that act."""

    @property
    def state(self) -> State: ...
    @property
    def occupied(self) -> frozenset[Square]: ...
    @property
    def colours(self) -> Mapping[Square, Reading] | None: ...
    @property
    def starting(self) -> bool: ...
    @property
    def game(self) -> Game: ...
    @property
    def board(self) -> Board: ...
    @property
    def config(self) -> SessionConfig: ...
    @property
    def namer(self) -> Namer: ...
    @property
    def pending(self) -> Move | None: ...
    @property
    def obligation(self) -> Square | None: ...
    @property
    def human_turn(self) -> bool: ...
    @property
    def in_sync(self) -> bool: ...
    @property
    def guidance(self) -> bool: ...
    @property
    def arbiter_holding(self) -> bool: ...
    def takeback_target(self) -> int | None: ...
    def is_initial(self) -> bool: ...


class Judge:
    """The per-state board evaluations of one session.

    Args:
        table: the session's facts.
        timers: the session's timers (the judge runs settle, error, takeback, new game).
        view: the turn's LED facts the judge keeps (guidance, error, refusal).
    """

    def __init__(self, table: Table, timers: Timers, view: TurnView) -> None:
        self._table = table
        self._timers = timers
        self._view = view
        self._out: list[Decision] = []
        self._watched: dict[TimerName, frozenset[int]] = {}
        #: The last move whose result the board showed, until its piece is released.
        self.release = Release()
        self._release_index: object = None
        #: The board at start-up shows a move made while the service was down: long released.
        self._away = False
        #: Squares whose piece on the board is not the game's (colour or crown), after a
        #: takeback: they must be emptied and filled again before the board is in sync.
        self.wrong: frozenset[Square] = frozenset()
        #: A position being set up by the lights (None: the board is guided by presence
        #: alone, as back to a game): firmware_host/game/setup.py.
        self.setup: SetUp | None = None
        self.by_state: Mapping[State, Callable[[float, bool], None]] = MappingProxyType({
            State.SYNCING: self._syncing,
            State.HUMAN_TO_MOVE: self._human,
            State.MOVE_IN_PROGRESS: self._human,
            State.ADJUSTING: self._adjusting,
            State.ENGINE_THINKING: self._thinking,
            State.COMPUTER_MOVE_PENDING: self._pending,
            State.GAME_OVER: self._over,
            State.SETTING_UP: self._setting_up,
            State.PAUSED: self._paused,
        })

    def watch(self, name: TimerName, holds: bool, at: float, delay_ms: int) -> None:
        """Run timer ``name`` while ``holds`` stays true for the same occupancy."""
        s = self._table
        if not holds:
            self._timers.cancel(name)
            self._watched.pop(name, None)
            return
        if self._watched.get(name) != s.occupied or not self._timers.running(name):
            self._watched[name] = s.occupied
            self._timers.start(name, at, delay_ms)

    def watch_takeback(self, at: float) -> None:
        """Run the takeback timer while the board shows an earlier position of the human's."""
        s = self._table
        holds = s.config.takebacks_allowed and s.takeback_target() is not None
        self.watch(TimerName.TAKEBACK, holds, at, s.config.takeback_ms)

    def flag_error(self, missing: Iterable[Square], extra: Iterable[Square], at: float) -> None:
        """The board is wrong: show the correction after ``error_ms`` (at once once shown)."""
        s = self._table
        error = (frozenset(missing), frozenset(extra))
        if error == self._view.error and self._timers.running(TimerName.ERROR):
            return
        self._view.error = error
        if self._view.correction is not None:
            self._view.correction = error  # guidance already shown: follow the board at once
        else:
            self._timers.start(TimerName.ERROR, at, s.config.error_ms)

    def refuse(self, result: Illegal, at: float) -> None:
        """Publish a refused move (with its sentence), once per occupancy, and light what is
        wrong at once."""
        s = self._table
        if self._view.refused_at == s.occupied or s.takeback_target() is not None:
            return
        self._view.refused_at = s.occupied
        if result.reason in _MUST_REASONS:
            self._view.must = must_capture(s.board)
        fields = refusal_fields(result, s.namer, s.guidance)
        # The sentence in the board's language; the reason stays language-free.
        text = render({"event": "refused", **fields}, translator(s.config.language))
        self._say("refused", text=text, **fields)
        if result.reason not in _NOT_A_MOVE_OF_HIS:
            # The move was let go and is refused: show what is wrong now, not after error_ms.
            self.flag_error(result.missing, result.extra, at)
            self._timers.cancel(TimerName.ERROR)
            self._correct()

    def show_correction(self) -> list[Decision]:
        """Light the correction of the board's error now (and publish it); a move in progress
        held for ``error_ms`` that can still become several lights what is left instead."""
        self._correct()
        return self._take()

    def _correct(self) -> None:
        s = self._table
        if self._view.error is None:
            if self._view.stuck is not None:
                self._view.stuck_shown = True
            return
        self._view.correction = self._view.error
        missing, extra = self._view.error
        self._say("correction", missing=s.namer.squares(missing), extra=s.namer.squares(extra))

    def evaluate(self, at: float, settled: bool = False) -> list[Decision]:
        """Judge the board in the session's state (``settled``: the settle timer ran out);
        return what the session is to do, in order."""
        self.by_state[self._table.state](at, settled)
        return self._take()

    def clear_error(self) -> None:
        """The board is right (or on its way): no error, no correction."""
        self._timers.cancel(TimerName.ERROR)
        self._view.error = self._view.correction = None
        self._view.refused_at = None

    def _take(self) -> list[Decision]:
        out, self._out = self._out, []
        return out

    def _say(self, kind: str, /, **fields: object) -> None:
        self._out.append(Publish(kind, MappingProxyType(fields)))

    def begin_setup(self, standing: Mapping[Square, Piece]) -> None:
        """Set up the game position by the lights, the board holding ``standing``'s pieces
        where it is occupied (what is known of them: firmware_host/game/setup.py)."""
        s = self._table
        self.setup = SetUp.towards(s.board.pieces(), standing, s.occupied)
        self.wrong = frozenset()

    def _placing(self, setup: SetUp, at: float) -> None:
        """Syncing to a position set up by the lights: each square's piece by colour and
        crown, or the piece to take off; the position set is said (``position_set``)."""
        s = self._table
        self.setup = setup = setup.seen(s.occupied)
        if setup.done(s.occupied):
            self.setup = None
            self._view.placing = None
            self._say("position_set", side=side_name(s.board.turn), fen=s.board.fen())
            self._out.append(Synced(at))
            return
        lights = setup.lights(s.occupied)
        if self._view.placing is None:  # said once, as it begins: the lights follow the board
            self._say("setup", **told(lights, s.namer.square))
        self._view.placing = lights

    def _syncing(self, at: float, settled: bool) -> None:
        s = self._table
        if self.setup is not None and dict(self.setup.target) != s.board.pieces():
            self.setup = self._view.placing = None  # one for another position (a new game's)
        if self.setup is not None:
            self._placing(self.setup, at)
            return
        away = self._moved_while_away()
        self.wrong &= s.occupied  # an emptied square lost its wrong piece
        if (s.in_sync and not self.wrong) or self._pending_done() or away:
            self._away = away
            self.wrong = frozenset()
            self._view.sync = None
            self._out.append(Synced(at))
            return
        target = s.game.position
        sync = (target - s.occupied, (s.occupied - target) | self.wrong)
        if sync != self._view.sync and not s.starting:
            # Say what to put back (a takeback): the same guidance as the lights.
            self._say("correction", missing=s.namer.squares(sync[0]),
                      extra=s.namer.squares(sync[1]))
        self._view.sync = sync
        # The initial position held starts a new game, unless the arbiter holds this one (a
        # carried game set up from the spare board's start position, a claim): theirs to end.
        self.watch(TimerName.NEWGAME, s.is_initial() and s.game.started
                   and not s.arbiter_holding, at, s.config.newgame_ms)

    def note_takeback(self, before: Mapping[Square, Piece]) -> None:
        """Moves were taken back with the button while the board held ``before``'s pieces: a
        square whose piece differs in colour or crown from the position now must be emptied
        and filled again (presence sensors cannot see it)."""
        s = self._table
        after = s.board.pieces()
        self.wrong = frozenset(
            sq for sq in s.occupied
            if sq in before and sq in after
            and (before[sq].color != after[sq].color or before[sq].king != after[sq].king))

    def _moved_while_away(self) -> bool:
        """Guard: at start-up, the board shows a move made while the service was down.

        Only at start: after a takeback the board still shows the move taken back.
        """
        s = self._table
        if not s.starting or not s.human_turn or s.pending is not None:
            return False
        result = s.game.index.resolve(s.occupied, colours=s.colours)
        return isinstance(result, Complete)

    def _pending_done(self) -> bool:
        """Guard: the computer's pending move (saved before a restart) is on the board."""
        s = self._table
        index = s.game.pending_index
        if index is None:
            return False
        return isinstance(index.resolve(s.occupied, colours=s.colours), Complete)

    def _setting_up(self, at: float, settled: bool) -> None:
        s = self._table
        game = s.game
        if game.new_game_fen != game.variant.starting_fen:
            # New games start from a position of their own: set up by colour and crown.
            target = Board(game.variant, fen=game.new_game_fen).pieces()
            setup = self.setup
            if setup is None or dict(setup.target) != target:
                setup = SetUp.towards(target, s.board.pieces(), s.occupied)
            self.setup = setup = setup.seen(s.occupied)
            self._view.placing = setup.lights(s.occupied)
            self.watch(TimerName.NEWGAME, setup.done(s.occupied), at, s.config.newgame_ms)
            return
        initial = s.game.initial
        self._view.sync = (initial - s.occupied, s.occupied - initial)
        self.watch(TimerName.NEWGAME, s.is_initial(), at, s.config.newgame_ms)

    def _over(self, at: float, settled: bool) -> None:
        s = self._table
        self.watch(TimerName.NEWGAME, s.is_initial() and not s.in_sync, at, s.config.newgame_ms)
        self.watch_takeback(at)

    def _back_in_sync(self) -> None:
        """The board shows the position again after a correction was shown: say so (the
        pages' last sentence is no longer what to put back)."""
        if self._view.correction is not None or self._view.refused_at is not None:
            self._say("synced")

    def _paused(self, at: float, settled: bool) -> None:
        """The clock is held: no move counts. What is out of place lights at once; a move made
        on the board is refused (``paused``) once, and must be put back."""
        s = self._table
        target = s.game.position
        if s.in_sync:
            if self._view.sync is not None:
                self._say("synced")
            self._view.sync = None
            self._view.refused_at = None
            return
        sync = (target - s.occupied, s.occupied - target)
        if sync != self._view.sync:
            result = s.game.index.resolve(s.occupied, colours=s.colours)
            if isinstance(result, Complete) and self._view.refused_at != s.occupied:
                self._view.refused_at = s.occupied
                fields = {"reason": "paused", "pdn": s.board.move_notation(result.move),
                          "missing": s.namer.squares(sync[0]),
                          "extra": s.namer.squares(sync[1])}
                text = render({"event": "refused", **fields}, translator(s.config.language))
                self._say("refused", text=text, **fields)
            else:
                self._say("correction", missing=s.namer.squares(sync[0]),
                          extra=s.namer.squares(sync[1]))
        self._view.sync = sync

    def _human(self, at: float, settled: bool) -> None:
        s = self._table
        self._view.guide = None
        self._forget_stale()
        if s.in_sync:
            self._back_in_sync()
            self.release.forget()
            self._out.append(EnterState(State.HUMAN_TO_MOVE))
            self.clear_error()
            self._view.stuck = None
            self._timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK)
            return
        self._out.append(EnterState(State.MOVE_IN_PROGRESS))
        result = s.game.index.resolve(s.occupied, colours=s.colours, obliged=s.obligation)
        if not isinstance(result, InProgress):
            self._view.stuck = None
        if isinstance(result, Complete):
            self.clear_error()
            self._timers.cancel(TimerName.TAKEBACK)
            self._hold(result.move, at, settled)
            return
        if isinstance(result, InProgress):
            self._view.error = self._view.correction = self._view.refused_at = None
            self._timers.cancel(TimerName.SETTLE)
            self._view.guide = result.candidates[0] if result.single else None
            self._watch_stuck(result, at)
        elif isinstance(result, Illegal):
            if self._released_by_evidence(at):
                return
            if self._crowning(result.missing, result.extra):
                self.clear_error()
                return
            self.flag_error(result.missing, result.extra, at)
            if settled:
                self.refuse(result, at)
            else:
                self._timers.start(TimerName.SETTLE, at, s.config.settle_ms)
        self.watch_takeback(at)

    def _hold(self, move: Move, at: float, settled: bool) -> None:
        """The board shows ``move``'s result: commit it once released by the hold time."""
        s = self._table
        self.release.show(move, s.occupied)
        away, self._away = self._away, False
        if settled or away or s.config.settle_ms == 0:
            self.commit_released(move, at)
        else:
            self.watch(TimerName.SETTLE, True, at, s.config.settle_ms)

    def _released_by_evidence(self, at: float) -> bool:
        """The board left the shown move's result in a way only a released piece explains (the
        next lift elsewhere, the opponent's touch): commit that move, then judge the board on."""
        s = self._table
        move = self.release.shown
        if move is None or not self.release.moved_on(s.board, s.occupied):
            return False
        self.commit_released(move, at, replay=not Release.tail_of(move))
        return True

    def commit_released(self, move: Move, at: float, replay: bool = False) -> None:
        """Commit the human's released ``move`` (closing an adjust window: a move ends it).

        ``replay``: the lifts the board shows now were the opponent's touch (they oblige him).
        """
        self.release.forget()
        self._out.append(CloseTouch(at))
        self._timers.cancel(TimerName.SETTLE)
        self._watched.pop(TimerName.SETTLE, None)
        self._out.append(Commit(move, "human", at, replay=replay))

    def _crowning(self, missing: frozenset[Square], extra: frozenset[Square]) -> bool:
        """Guard: the just-promoted piece is off the board to be crowned (art. 12), and nothing
        was put anywhere: what else is lifted meanwhile is the same hand."""
        return bool(self._view.crown & missing) and not extra

    def _forget_stale(self) -> None:
        """The remembered move belongs to the position it was shown in."""
        index = self._table.game.index
        if index is not self._release_index:
            self.release.forget()
            self._release_index = index

    def _watch_stuck(self, result: InProgress, at: float) -> None:
        """A move in progress that can still become several moves, held for ``error_ms``:
        then light what is left (the pieces to take, where the piece may land)."""
        s = self._table
        if result.single:
            self._view.stuck = None
            self.watch(TimerName.ERROR, False, at, s.config.error_ms)
            return
        if self._view.stuck is None or self._view.stuck.candidates != result.candidates:
            self._view.stuck_shown = False
        self._view.stuck = result
        self.watch(TimerName.ERROR, not self._view.stuck_shown, at, s.config.error_ms)

    def _adjusting(self, at: float, settled: bool) -> None:
        s = self._table
        self._forget_stale()
        if s.in_sync:
            self.release.forget()
            self.clear_error()
            return
        # J'adoube covers putting pieces right on their own squares: a piece released on
        # another square is a move (FMJD art. 16 and its notes); the window closes with it.
        result = s.game.index.resolve(s.occupied, colours=s.colours, obliged=s.obligation)
        if isinstance(result, Complete):
            self.clear_error()
            self._hold(result.move, at, settled)
            return
        self._timers.cancel(TimerName.SETTLE)
        if isinstance(result, InProgress):
            self.clear_error()  # a move being made (it will close the window once let go)
            return
        if isinstance(result, Illegal) and self._released_by_evidence(at):
            return
        target = s.game.position
        self.flag_error(target - s.occupied, s.occupied - target, at)

    def _thinking(self, at: float, settled: bool) -> None:
        s = self._table
        if s.in_sync:
            self._back_in_sync()
            self.clear_error()
            self._timers.cancel(TimerName.SETTLE)
        else:
            result = s.game.index.resolve(s.occupied, colours=s.colours)
            if isinstance(result, Complete) and s.config.alternative_move:
                # The human moved for the computer before it answered: take that move.
                self._take_alternative(result.move, result.needs_settle, at, settled)
                return
            target = s.game.position
            missing, extra = target - s.occupied, s.occupied - target
            if self._crowning(missing, extra):
                self.clear_error()
            else:
                self.flag_error(missing, extra, at)
        self.watch_takeback(at)

    def _pending(self, at: float, settled: bool) -> None:
        s = self._table
        index = s.game.pending_index
        if s.pending is None or index is None:
            raise SessionError("a computer move pending, but none is")
        result = index.resolve(s.occupied, colours=s.colours)
        if isinstance(result, Complete):
            # Carried out (maybe with a fast reply on top: re-evaluation commits that too).
            self.clear_error()
            self._timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK)
            self._out.append(Commit(result.move, "computer", at))
            return
        if not isinstance(result, Illegal):
            self.clear_error()
            self._timers.cancel(TimerName.SETTLE)
            self.watch_takeback(at)
            return
        alternative = result.detail.get("alternative")
        if isinstance(alternative, Move) and s.config.alternative_move:
            self._take_alternative(alternative, bool(result.detail.get("needs_settle")), at,
                                   settled)
            return
        if alternative is None and self._crowning(result.missing, result.extra):
            self.clear_error()
            return
        self.flag_error(result.missing, result.extra, at)
        if alternative is not None:
            if settled:
                self.refuse(result, at)
            else:
                self._timers.start(TimerName.SETTLE, at, s.config.settle_ms)
        self.watch_takeback(at)

    def _take_alternative(self, move: Move, needs_settle: bool, at: float, settled: bool) -> None:
        s = self._table
        if not (settled or not needs_settle or s.config.settle_ms == 0):
            self._timers.start(TimerName.SETTLE, at, s.config.settle_ms)
            return
        self._out.append(CancelSearch())
        self.clear_error()
        self._say("alternative_move", **move_fields(s.board, move, s.namer))
        self._out.append(Commit(move, "human-for-computer", at))
