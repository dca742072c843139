"""The game's life around the moves, as a mixin of the Session: takebacks, new games, resume,
saving, results, hints, resignation and draws.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from engine import Board
from engine.outcome import Outcome, Termination
from engine.types import Color, Move
from firmware_host.game.support import (
    move_fields,
    move_record,
    occupancy,
    restore,
    restore_outcome,
    side_name,
    snapshot,
)
from firmware_host.game.types import HUMAN_STATES, Command, Mode, State
from firmware_host.game.view import SessionView

log = logging.getLogger(__name__)


class GameLifecycle:
    """Takebacks, new games, resume, results and the commands of
    :class:`firmware_host.game.session.Session`."""

    # Provided by Session.
    state: State
    config: Any
    variant: Any
    board: Any
    game_id: str | None
    pending: Move | None
    outcome: Outcome | None
    occupied: frozenset[int]
    _history: list[frozenset[int]]
    _start_fen: str
    _new_game_fen: str
    _store: Any
    _timers: Any
    _touch: Any
    _view: SessionView
    _namer: Any
    _starting: bool
    _saved_obligation: int | None
    _opening: Any
    _wall_clock: Any

    if TYPE_CHECKING:  # provided by Session
        def _cancel_jobs(self) -> None: ...
        def _clear_error(self) -> None: ...
        def _evaluate(self, at: float, settled: bool = False) -> None: ...
        def _finish(self, outcome: Outcome, at: float) -> None: ...
        def _publish(self, kind: str, **fields: Any) -> None: ...
        def _set_pending(self, move: Move | None) -> None: ...
        def _set_state(self, state: State) -> None: ...
        def _start_turn(self) -> Color: ...
        def _submit(self, purpose: str) -> None: ...
        @property
        def game_started(self) -> bool: ...

    # -- takeback ---------------------------------------------------------------------------

    def _cmd_takeback(self, event: Command) -> None:
        target = self._previous_human_turn()
        if not self.config.takebacks_allowed or target is None:
            self._publish("takeback_refused", mode=self.config.mode.value)
            return
        self._take_back_to(target, event.at)

    def _previous_human_turn(self) -> int | None:
        start_turn = self._start_turn()
        for ply in range(len(self.board.move_stack) - 1, -1, -1):
            turn = start_turn if ply % 2 == 0 else start_turn.opponent
            if turn == self.config.human_side:
                return ply
        return None

    def _take_back_to(self, ply: int, at: float) -> None:
        assert self.game_id is not None
        plies = len(self.board.move_stack) - ply
        self._store.truncate(self.game_id, ply)
        self._cancel_jobs()
        for _ in range(plies):
            self.board.pop()
        del self._history[ply + 1:]
        self._set_pending(None)
        self.outcome = None
        self._view.new_turn()
        self._clear_error()
        self._timers.cancel("settle", "takeback", "newgame")
        self._starting = False
        self._publish("takeback", plies=plies, ply=ply, side=side_name(self.board.turn),
                      fen=self.board.fen())
        self._save()
        self._set_state(State.SYNCING)
        self._evaluate(at)

    # -- game lifecycle -----------------------------------------------------------------------

    def _cmd_newgame(self, event: Command) -> None:
        if self.state is State.SETTING_UP:
            self._set_state(State.SYNCING)  # pressed again: back to the game
        else:
            self._set_state(State.SETTING_UP)
            self._publish("newgame_requested")
        self._evaluate(event.at)

    def _new_game(self, at: float) -> None:
        if self.game_id is not None and self.outcome is None and self.game_started:
            self._store.finish(self.game_id, "*", Termination.ABANDONED.value)
        self._cancel_jobs()
        self._open_game()
        self._set_state(State.SYNCING)
        self._evaluate(at)

    def _open_game(self) -> None:
        self._start_fen = self._new_game_fen
        self.board = Board(self.variant, fen=self._start_fen)
        self._history = [occupancy(self.board)]
        self._set_pending(None)
        self.outcome = None
        self._view = SessionView()
        self._timers.cancel_all()
        headers = dict(self.config.headers)
        if self.config.mode is not Mode.RECORD:
            computer = side_name(self.config.human_side.opponent)
            headers.setdefault(computer.capitalize(), "draughtsboard")
        start_fen = None if self._start_fen == self.variant.starting_fen else self._start_fen
        self.game_id = self._store.new_game(headers, self.variant.name, start_fen,
                                            self.config.mode.value)
        self._publish("new_game", game_id=self.game_id, variant=self.variant.name,
                      mode=self.config.mode.value, fen=self.board.fen())
        self._play_opening()
        self._save()

    def _play_opening(self) -> None:
        """Record the opening drawn for this game (an English ballot) as its first moves.

        The board then shows the start position and the game the ballot's: the session's
        re-sync guides the players, square by square, to set the ballot position up.
        """
        if self._opening is None:
            return
        for move in self._opening(self.board.copy()):
            record = move_record(self.board, move, "ballot", self._wall_clock(), self._namer)
            self._store.append_move(self.game_id, record)
            fields = move_fields(self.board, move, self._namer)
            self.board.push(move)
            self._history = [occupancy(self.board)]  # no takeback into the ballot
            self._publish("move", ply=record.ply, by="ballot", fen=record.fen_after, **fields)
        self._set_pending(None)

    def _resume(self) -> bool:
        state = self._store.load_session()
        if not state or state.get("variant") != self.variant.name or not state.get("game_id"):
            return False
        if state.get("mode") != self.config.mode.value:
            return False
        try:
            board, pending = restore(state, lambda fen: Board(self.variant, fen=fen))
            outcome = restore_outcome(state, board)
        except ValueError as exc:
            log.error("session: cannot resume the saved game (%s); starting a new one", exc)
            self._publish("resume_failed", reason=str(exc))
            return False
        self.game_id = str(state["game_id"])
        self._start_fen = str(state["start_fen"])
        obligation = state.get("obligation")
        self._saved_obligation = obligation if isinstance(obligation, int) else None
        if self._catch_up(board, outcome):
            pending = None  # the game moved on after the snapshot: its pending move is stale
            outcome = self.outcome
            self._saved_obligation = None
        self.board = board
        self._set_pending(pending)
        self.outcome = outcome
        replay = Board(self.variant, fen=self._start_fen)
        self._history = [occupancy(replay)]
        for move in board.move_stack:
            replay.push(move)
            self._history.append(occupancy(replay))
        self._publish("resumed", game_id=self.game_id, ply=len(board.move_stack),
                      fen=board.fen(), pending=None if pending is None
                      else board.move_notation(pending))
        return True

    def _catch_up(self, board: Any, outcome: Outcome | None) -> bool:
        """Bring ``board`` (from the session snapshot) up to the game log, which is written
        first (write-ahead): a stop between the two leaves the log a move ahead, or a takeback
        behind. Sets ``self.outcome`` from the log. Returns whether anything changed.
        """
        load = getattr(self._store, "load_game", None)
        if load is None:
            self.outcome = outcome
            return False
        try:
            game = load(self.game_id)
            logged = [m.pdn for m in game.moves]
        except (ValueError, KeyError) as exc:
            log.error("session: game log unreadable (%s): resuming from the snapshot", exc)
            self.outcome = outcome
            return False
        changed = False
        while len(board.move_stack) > len(logged):
            board.pop()
            changed = True
        for text in logged[len(board.move_stack):]:
            try:
                board.push(board.parse_move(text))
            except ValueError as exc:
                log.error("session: logged move %s does not replay (%s)", text, exc)
                break
            changed = True
        self.outcome = outcome
        if game.result == "*":
            self.outcome = None
        elif outcome is None:
            self.outcome = board.outcome() or Outcome.from_result(
                game.result, _termination(game.termination))
        return changed or self.outcome != outcome

    def _save(self) -> None:
        self._store.save_session(snapshot(
            variant=self.variant.name, mode=self.config.mode.value, game_id=self.game_id,
            start_fen=self._start_fen, board=self.board, pending=self.pending,
            obligation=self._touch.obliged, outcome=self.outcome,
            human_side=self.config.human_side,
        ))

    # -- hints, resignation, draws ------------------------------------------------------------

    def _cmd_hint(self, event: Command) -> None:
        if not self.config.hints_allowed:
            self._publish("hint_refused", reason="mode", mode=self.config.mode.value)
            return
        if self.state not in HUMAN_STATES:
            self._publish("hint_refused", reason="not_your_turn")
            return
        self._submit("hint")

    def _cmd_resign(self, event: Command) -> None:
        if self.outcome is not None or self.game_id is None:
            return
        if event.side in ("white", "black"):
            loser = Color.WHITE if event.side == "white" else Color.BLACK
        elif self.config.mode is Mode.RECORD:
            loser = Color(self.board.turn)
        else:
            loser = self.config.human_side
        self._finish(Outcome(Termination.RESIGNATION, loser.opponent), event.at)

    def _cmd_draw(self, event: Command) -> None:
        if self.outcome is not None or self.game_id is None:
            return
        if self.config.mode is not Mode.RECORD:
            self._publish("draw_declined")
            return
        self._finish(Outcome(Termination.DRAW_AGREED, None), event.at)


def _termination(text: str) -> Termination:
    try:
        return Termination(text)
    except ValueError:
        return Termination.UNKNOWN
