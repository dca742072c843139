"""How the session judges the board in each state (DESIGN.md §3).

For each state, the :class:`Judge` looks at the stable occupancy against the game (through the
recogniser's indexes) and decides: commit a move, wait for the settle time, guide, flag an
error, watch for a takeback or a new game. Which method judges which state is the table built in
``Judge.__init__``; a test checks every state has one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.types import Move
from firmware_host.game.fields import move_fields, must_capture, refusal_fields
from firmware_host.game.types import State, TimerName
from firmware_host.recognition.resolution import Complete, Illegal, InProgress, RefusalReason

if TYPE_CHECKING:
    from firmware_host.game.session import Session

__all__ = ["Judge"]

Square = int

#: The refusals that light the pieces that must capture.
_MUST_REASONS = frozenset({RefusalReason.CAPTURE_COMPULSORY, RefusalReason.MAXIMUM_CAPTURE})


class Judge:
    """The per-state board evaluations of one :class:`~firmware_host.game.session.Session`."""

    def __init__(self, session: Session) -> None:
        self._s = session
        self._watched: dict[TimerName, frozenset[int]] = {}
        self.by_state: Mapping[State, Callable[[float, bool], None]] = MappingProxyType({
            State.SYNCING: self._syncing,
            State.HUMAN_TO_MOVE: self._human,
            State.MOVE_IN_PROGRESS: self._human,
            State.ADJUSTING: self._adjusting,
            State.ENGINE_THINKING: self._thinking,
            State.COMPUTER_MOVE_PENDING: self._pending,
            State.GAME_OVER: self._over,
            State.SETTING_UP: self._setting_up,
        })

    def watch(self, name: TimerName, holds: bool, at: float, delay_ms: int) -> None:
        """Run timer ``name`` while ``holds`` stays true for the same occupancy."""
        s = self._s
        if not holds:
            s.timers.cancel(name)
            self._watched.pop(name, None)
            return
        if self._watched.get(name) != s.occupied or not s.timers.running(name):
            self._watched[name] = s.occupied
            s.timers.start(name, at, delay_ms)

    def watch_takeback(self, at: float) -> None:
        """Run the takeback timer while the board shows an earlier position of the human's."""
        s = self._s
        holds = s.config.takebacks_allowed and s.takeback_target() is not None
        self.watch(TimerName.TAKEBACK, holds, at, s.config.takeback_ms)

    def flag_error(self, missing: Iterable[Square], extra: Iterable[Square], at: float) -> None:
        """The board is wrong: show the correction after ``error_ms`` (at once once shown)."""
        s = self._s
        error = (frozenset(missing), frozenset(extra))
        if error == s.view.error and s.timers.running(TimerName.ERROR):
            return
        s.view.error = error
        if s.view.correction is not None:
            s.view.correction = error  # guidance already shown: follow the board at once
        else:
            s.timers.start(TimerName.ERROR, at, s.config.error_ms)

    def refuse(self, result: Illegal) -> None:
        """Publish a refused move, once per occupancy."""
        s = self._s
        if s.view.refused_at == s.occupied or s.takeback_target() is not None:
            return
        s.view.refused_at = s.occupied
        if result.reason in _MUST_REASONS:
            s.view.must = must_capture(s.board)
        s.publish("refused", **refusal_fields(result, s.namer))

    def evaluate(self, at: float, settled: bool = False) -> None:
        """Judge the board in the session's state (``settled``: the settle timer ran out)."""
        self.by_state[self._s.state](at, settled)

    def _syncing(self, at: float, settled: bool) -> None:
        s = self._s
        if s.in_sync or self._pending_done() or self._moved_while_away():
            s.view.sync = None
            s.starting = False
            s.publish("synced")
            s.enter_turn(at)
            return
        target = s.game.position
        s.view.sync = (target - s.occupied, s.occupied - target)
        self.watch(TimerName.NEWGAME, s.is_initial() and s.game.started, at, s.config.newgame_ms)

    def _moved_while_away(self) -> bool:
        """Guard: at start-up, the board shows a move made while the service was down.

        Only at start: after a takeback the board still shows the move taken back.
        """
        s = self._s
        if not s.starting or not s.human_turn or s.pending is not None:
            return False
        result = s.game.index.resolve(s.occupied, colours=s.colours)
        return isinstance(result, Complete)

    def _pending_done(self) -> bool:
        """Guard: the computer's pending move (saved before a restart) is on the board."""
        s = self._s
        index = s.game.pending_index
        if index is None:
            return False
        return isinstance(index.resolve(s.occupied, colours=s.colours), Complete)

    def _setting_up(self, at: float, settled: bool) -> None:
        s = self._s
        initial = s.game.initial
        s.view.sync = (initial - s.occupied, s.occupied - initial)
        self.watch(TimerName.NEWGAME, s.is_initial(), at, s.config.newgame_ms)

    def _over(self, at: float, settled: bool) -> None:
        s = self._s
        self.watch(TimerName.NEWGAME, s.is_initial() and not s.in_sync, at, s.config.newgame_ms)
        self.watch_takeback(at)

    def _human(self, at: float, settled: bool) -> None:
        s = self._s
        s.view.guide = None
        if s.in_sync:
            s.set_state(State.HUMAN_TO_MOVE)
            s.clear_error()
            s.timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK)
            return
        s.set_state(State.MOVE_IN_PROGRESS)
        result = s.game.index.resolve(s.occupied, colours=s.colours, obliged=s.touch.obliged)
        if isinstance(result, Complete):
            s.clear_error()
            s.timers.cancel(TimerName.TAKEBACK)
            if settled or not result.needs_settle or s.config.settle_ms == 0:
                s.timers.cancel(TimerName.SETTLE)
                s.commit(result.move, "human", at)
            else:
                s.timers.start(TimerName.SETTLE, at, s.config.settle_ms)
            return
        if isinstance(result, InProgress):
            s.clear_error()
            s.timers.cancel(TimerName.SETTLE)
            s.view.guide = result.candidates[0] if result.single else None
        elif isinstance(result, Illegal):
            self.flag_error(result.missing, result.extra, at)
            if settled:
                self.refuse(result)
            else:
                s.timers.start(TimerName.SETTLE, at, s.config.settle_ms)
        self.watch_takeback(at)

    def _adjusting(self, at: float, settled: bool) -> None:
        s = self._s
        if s.in_sync:
            s.clear_error()
        else:
            target = s.game.position
            self.flag_error(target - s.occupied, s.occupied - target, at)

    def _thinking(self, at: float, settled: bool) -> None:
        s = self._s
        if s.in_sync:
            s.clear_error()
            s.timers.cancel(TimerName.SETTLE)
        else:
            result = s.game.index.resolve(s.occupied, colours=s.colours)
            if isinstance(result, Complete) and s.config.alternative_move:
                # The human moved for the computer before it answered: take that move.
                self._take_alternative(result.move, result.needs_settle, at, settled)
                return
            target = s.game.position
            self.flag_error(target - s.occupied, s.occupied - target, at)
        self.watch_takeback(at)

    def _pending(self, at: float, settled: bool) -> None:
        s = self._s
        index = s.game.pending_index
        assert s.pending is not None and index is not None
        result = index.resolve(s.occupied, colours=s.colours)
        if isinstance(result, Complete):
            # Carried out (maybe with a fast reply on top: re-evaluation commits that too).
            s.clear_error()
            s.timers.cancel(TimerName.SETTLE, TimerName.TAKEBACK)
            s.commit(result.move, "computer", at)
            return
        if not isinstance(result, Illegal):
            s.clear_error()
            s.timers.cancel(TimerName.SETTLE)
            self.watch_takeback(at)
            return
        alternative = result.detail.get("alternative")
        if isinstance(alternative, Move) and s.config.alternative_move:
            self._take_alternative(alternative, bool(result.detail.get("needs_settle")), at,
                                   settled)
            return
        self.flag_error(result.missing, result.extra, at)
        if alternative is not None:
            if settled:
                self.refuse(result)
            else:
                s.timers.start(TimerName.SETTLE, at, s.config.settle_ms)
        self.watch_takeback(at)

    def _take_alternative(self, move: Move, needs_settle: bool, at: float, settled: bool) -> None:
        s = self._s
        if not (settled or not needs_settle or s.config.settle_ms == 0):
            s.timers.start(TimerName.SETTLE, at, s.config.settle_ms)
            return
        s.cancel_jobs()
        s.clear_error()
        s.publish("alternative_move", **move_fields(s.board, move, s.namer))
        s.commit(move, "human-for-computer", at)
