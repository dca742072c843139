"""How the session judges the board in each state (DESIGN.md §3), as a mixin of the Session.

Each ``_eval_<state>`` method looks at the stable occupancy against the game (through the
recogniser's indexes) and decides: commit a move, wait for the settle time, guide, flag an error,
watch for a takeback or a new game. Which method runs in which state is ``session._EVALUATE``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.types import Move
from firmware_host.game.support import move_fields
from firmware_host.game.types import State
from firmware_host.recognition.recogniser import Complete, Illegal, InProgress

#: How the board is judged in each state (see ``BoardJudge._evaluate``).
_EVALUATE: Mapping[State, str] = MappingProxyType({
    State.SYNCING: "_eval_syncing",
    State.HUMAN_TO_MOVE: "_eval_human",
    State.MOVE_IN_PROGRESS: "_eval_human",
    State.ADJUSTING: "_eval_adjusting",
    State.ENGINE_THINKING: "_eval_thinking",
    State.COMPUTER_MOVE_PENDING: "_eval_pending",
    State.GAME_OVER: "_eval_over",
    State.SETTING_UP: "_eval_setting_up",
})


class BoardJudge:
    """The per-state board evaluations of :class:`firmware_host.game.session.Session`."""

    # Provided by Session.
    state: State
    config: Any
    occupied: frozenset[int]
    colours: Any
    pending: Move | None
    board: Any
    _history: list[frozenset[int]]
    _index: Any
    _pending_index: Any
    _view: Any
    _timers: Any
    _touch: Any
    _namer: Any
    _initial: frozenset[int]
    _starting: bool

    if TYPE_CHECKING:  # provided by Session
        def _cancel_jobs(self) -> None: ...
        def _clear_error(self) -> None: ...
        def _commit(self, move: Move, by: str, at: float) -> None: ...
        def _enter_turn(self, at: float) -> None: ...
        def _flag_error(self, missing: Iterable[int], extra: Iterable[int], at: float) -> None: ...
        def _is_initial(self) -> bool: ...
        def _publish(self, kind: str, **fields: Any) -> None: ...
        def _refuse(self, result: Illegal) -> None: ...
        def _set_state(self, state: State) -> None: ...
        def _watch(self, name: str, holds: bool, at: float, delay_ms: int) -> None: ...
        def _watch_takeback(self, at: float) -> None: ...
        @property
        def game_started(self) -> bool: ...
        @property
        def in_sync(self) -> bool: ...

        @property
        def human_turn(self) -> bool: ...

    def _evaluate(self, at: float, settled: bool = False) -> None:
        getattr(self, _EVALUATE[self.state])(at, settled)

    def _eval_syncing(self, at: float, settled: bool) -> None:
        if self.in_sync or self._pending_done() or self._moved_while_away():
            self._view.sync = None
            self._starting = False
            self._publish("synced")
            self._enter_turn(at)
            return
        target = self._history[-1]
        self._view.sync = (target - self.occupied, self.occupied - target)
        self._watch("newgame", self._is_initial() and self.game_started, at,
                    self.config.newgame_ms)

    def _moved_while_away(self) -> bool:
        """Guard: at start-up, the board shows a move made while the service was down.

        Only at start: after a takeback the board still shows the move taken back.
        """
        if not self._starting or not self.human_turn or self.pending is not None:
            return False
        result = self._index.resolve(self.occupied, colours=self.colours)
        return isinstance(result, Complete)

    def _pending_done(self) -> bool:
        """Guard: the computer's pending move (saved before a restart) is on the board."""
        if self._pending_index is None:
            return False
        return isinstance(self._pending_index.resolve(self.occupied, colours=self.colours),
                          Complete)

    def _eval_setting_up(self, at: float, settled: bool) -> None:
        self._view.sync = (self._initial - self.occupied, self.occupied - self._initial)
        self._watch("newgame", self._is_initial(), at, self.config.newgame_ms)

    def _eval_over(self, at: float, settled: bool) -> None:
        self._watch("newgame", self._is_initial() and not self.in_sync, at,
                    self.config.newgame_ms)
        self._watch_takeback(at)

    def _eval_human(self, at: float, settled: bool) -> None:
        self._view.guide = None
        if self.in_sync:
            self._set_state(State.HUMAN_TO_MOVE)
            self._clear_error()
            self._timers.cancel("settle", "takeback")
            return
        self._set_state(State.MOVE_IN_PROGRESS)
        result = self._index.resolve(self.occupied, colours=self.colours,
                                     obliged=self._touch.obliged)
        if isinstance(result, Complete):
            self._clear_error()
            self._timers.cancel("takeback")
            if settled or not result.needs_settle or self.config.settle_ms == 0:
                self._timers.cancel("settle")
                self._commit(result.move, "human", at)
            else:
                self._timers.start("settle", at, self.config.settle_ms)
            return
        if isinstance(result, InProgress):
            self._clear_error()
            self._timers.cancel("settle")
            self._view.guide = result.candidates[0] if result.single else None
        elif isinstance(result, Illegal):
            self._flag_error(result.missing, result.extra, at)
            if settled:
                self._refuse(result)
            else:
                self._timers.start("settle", at, self.config.settle_ms)
        self._watch_takeback(at)

    def _eval_adjusting(self, at: float, settled: bool) -> None:
        if self.in_sync:
            self._clear_error()
        else:
            target = self._history[-1]
            self._flag_error(target - self.occupied, self.occupied - target, at)

    def _eval_thinking(self, at: float, settled: bool) -> None:
        if self.in_sync:
            self._clear_error()
            self._timers.cancel("settle")
        else:
            result = self._index.resolve(self.occupied, colours=self.colours)
            if isinstance(result, Complete) and self.config.alternative_move:
                # The human moved for the computer before it answered: take that move.
                self._take_alternative(result.move, result.needs_settle, at, settled)
                return
            target = self._history[-1]
            self._flag_error(target - self.occupied, self.occupied - target, at)
        self._watch_takeback(at)

    def _eval_pending(self, at: float, settled: bool) -> None:
        assert self.pending is not None and self._pending_index is not None
        result = self._pending_index.resolve(self.occupied, colours=self.colours)
        if isinstance(result, Complete):
            # Carried out (maybe with a fast reply on top: re-evaluation commits that too).
            self._clear_error()
            self._timers.cancel("settle", "takeback")
            self._commit(result.move, "computer", at)
            return
        if not isinstance(result, Illegal):
            self._clear_error()
            self._timers.cancel("settle")
            self._watch_takeback(at)
            return
        alternative = result.detail.get("alternative")
        if alternative is not None and self.config.alternative_move:
            self._take_alternative(alternative, bool(result.detail.get("needs_settle")), at,
                                   settled)
            return
        self._flag_error(result.missing, result.extra, at)
        if alternative is not None:
            if settled:
                self._refuse(result)
            else:
                self._timers.start("settle", at, self.config.settle_ms)
        self._watch_takeback(at)

    def _take_alternative(self, move: Move, needs_settle: bool, at: float, settled: bool) -> None:
        if not (settled or not needs_settle or self.config.settle_ms == 0):
            self._timers.start("settle", at, self.config.settle_ms)
            return
        self._cancel_jobs()
        self._clear_error()
        self._publish("alternative_move", **move_fields(self.board, move, self._namer))
        self._commit(move, "human-for-computer", at)

