"""One game as the board keeps it: the position, its history, the computer's pending move, the
result, and every store write (write-ahead: the store has a move before anything shows it).

The :class:`~firmware_host.game.session.Session` decides *when* (which move, which takeback);
the :class:`Game` does it and keeps the record straight. It publishes the record's events
(``new_game``, ``move``, ``takeback``, ``resumed``) through the ``publish`` it is given.

>>> from engine.variant import find_variant
>>> from firmware_host.store import open_store
>>> from firmware_host.terms.settings import Mode
>>> events = []
>>> game = Game(find_variant("english"), open_store("memory", "doc"), mode=Mode.RECORD,
...             publish=lambda kind, **fields: events.append(kind))
>>> game.open_new()
>>> game.play(game.board.parse_move("11-15"), by="human") is None  # the game goes on
True
>>> len(game.board.move_stack), events
(1, ['new_game', 'move'])
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from engine import Board
from engine.outcome import Outcome, Termination
from engine.types import Color, Move, Square
from engine.variant import Variant
from firmware_host.game.fields import Namer, move_fields, move_record, occupancy, side_name
from firmware_host.game.snapshot import restore, restore_outcome, snapshot
from firmware_host.game.types import GameClockHooks, SessionError, Store
from firmware_host.recognition.recogniser import MoveIndex, PendingIndex
from firmware_host.store.errors import StoreError
from firmware_host.store.records import GameRecord
from firmware_host.terms.settings import Mode

__all__ = ["Game", "Opening", "Publisher", "Resumed"]

log = logging.getLogger(__name__)

#: Draws the first moves of each new game (an English ballot).
Opening = Callable[[Board], Sequence[Move]]


class Publisher(Protocol):
    """Publishes one live event: its kind and JSON-ready fields."""

    def __call__(self, kind: str, /, **fields: object) -> None: ...


class Pairings(Protocol):
    """The board's pairing (firmware_host/tournament/pairing.py): the next game's PDN tags."""

    def peek(self) -> dict[str, str]: ...

    def take(self) -> dict[str, str] | None: ...


@dataclass(frozen=True)
class Resumed:
    """A saved game was resumed; ``obligation`` is the touch-move obligation it had."""

    obligation: Square | None


class Game:
    """The game in progress and its record.

    Args:
        variant: the rules.
        store: where the game is logged (write-ahead) and the live session kept.
        mode: the session's mode (a saved session of another mode is not resumed).
        publish: where the record's events go.
        human_side: the human's side in play and teach modes (names the computer's PDN tag).
        headers: PDN tags of new games.
        fen: where new games start (None: the variant's initial position).
        opening: draws the first moves of each new game (recorded with ``by="ballot"``).
        wall_clock: wall time for the move records.
        computer_name: the PDN player tag of the computer's side in play and teach modes.
        pairing: the round's pairing of this board (None: no rounds).
        clock: the game clock's keeper, told of every move, result and takeback (None: no
            clock).
    """

    def __init__(
        self,
        variant: Variant,
        store: Store,
        *,
        mode: Mode,
        publish: Publisher,
        human_side: Color = Color.WHITE,
        headers: Mapping[str, str] | None = None,
        fen: str | None = None,
        opening: Opening | None = None,
        wall_clock: Callable[[], float] = time.time,
        computer_name: str = "draughtsboard",
        pairing: Pairings | None = None,
        clock: GameClockHooks | None = None,
    ) -> None:
        self.variant = variant
        self.namer = Namer(variant)
        self._store = store
        self._mode = mode
        self._publish = publish
        self._human_side = human_side
        self._headers = dict(headers or {})
        self._opening = opening
        self._wall_clock = wall_clock
        self._computer_name = computer_name
        #: Where new games start; the current game's own start may differ (a resumed game).
        self.new_game_fen = fen or variant.starting_fen
        self.start_fen = self.new_game_fen
        #: The occupancy of a new game's start position.
        self.initial = occupancy(Board(variant, fen=self.new_game_fen))
        self.board = Board(variant, fen=self.start_fen)
        self.game_id: str | None = None
        self.outcome: Outcome | None = None
        #: The occupancy after each ply of the game (index 0: its start).
        self.history: list[frozenset[Square]] = [occupancy(self.board)]
        self.pending: Move | None = None
        self.index = MoveIndex(self.board)
        self.pending_index: PendingIndex | None = None
        #: The game clock's keeper (None: no clock), told of every move, result and takeback.
        self.clock = clock
        #: The round's pairing of this board (None: no rounds), and whether this game took it.
        self.pairing = pairing
        self._paired = True
        #: The round this game belongs to (the ``Round`` tag it took from a pairing), if any.
        self.round: str | None = None
        #: The side whose draw offer stands (None: none); a move of the other side declines it.
        self.offer: Color | None = None
        #: A remote partner's takeback asked, standing (the side asking, the ply it goes back
        #: to; None: none): this board's player agrees with the takeback button, or declines
        #: by moving.
        self.asked: tuple[Color, int] | None = None
        #: Against a person afar: the minutes their board has been silent, their turn, when the
        #: game may be claimed (None: it may not).
        self.claimable: int | None = None
        #: The players' names of the game in play (its ``White`` and ``Black`` tags).
        self.players: dict[str, str] = {}
        #: The coach's exercises under way (firmware_host/coach/lessons.py; None: none), kept
        #: in every snapshot across the exercises' games, so a restart comes back to them.
        self.lesson: dict[str, object] | None = None

    @property
    def human_side(self) -> Color:
        """The human's side in the game in play (a resumed game's as it was played)."""
        return self._human_side

    # -- facts --------------------------------------------------------------------------------

    @property
    def position(self) -> frozenset[Square]:
        """The occupancy of the game position."""
        return self.history[-1]

    @property
    def started(self) -> bool:
        """The game has moves or a result (so the initial position means something else)."""
        return bool(self.board.move_stack) or self.outcome is not None

    def start_turn(self) -> Color:
        """The side that moved first in this game."""
        plies = len(self.board.move_stack)
        return Color(self.board.turn) if plies % 2 == 0 else Color(self.board.turn).opponent

    def turn_at(self, ply: int) -> Color:
        """The side to move after ``ply`` plies."""
        start = self.start_turn()
        return start if ply % 2 == 0 else start.opponent

    def takeback_target(self, occupied: frozenset[Square], side: Color) -> int | None:
        """The latest earlier ply whose position ``occupied`` shows, with ``side`` to move."""
        for ply in range(len(self.history) - 2, -1, -1):
            if self.history[ply] == occupied and self.turn_at(ply) == side:
                return ply
        return None

    def previous_turn_of(self, side: Color) -> int | None:
        """The latest ply before which ``side`` was to move (what a takeback button returns to)."""
        for ply in range(len(self.board.move_stack) - 1, -1, -1):
            if self.turn_at(ply) == side:
                return ply
        return None

    # -- the record ---------------------------------------------------------------------------

    def open_new(self) -> None:
        """Start a new game from the new-game position and log it (with its opening)."""
        self.start_fen = self.new_game_fen
        self.board = Board(self.variant, fen=self.start_fen)
        self.history = [occupancy(self.board)]
        self.set_pending(None)
        self.outcome = None
        self.offer = None
        self.asked = None
        self.claimable = None
        self.round = None
        headers = dict(self._headers)
        if self.clock is not None:
            headers.update(self.clock.new_game())
        if self.pairing is not None:
            headers.update(self.pairing.peek())
        self._paired = self.pairing is None
        if self._mode in (Mode.PLAY, Mode.TEACH):
            computer = side_name(self._human_side.opponent)
            headers.setdefault(computer.capitalize(), self._computer_name)
        start_fen = None if self.start_fen == self.variant.starting_fen else self.start_fen
        # The new game and the session pointing at it are one store write (the store sets the
        # snapshot's game id): a stop leaves nothing, or a game the session points at.
        self.game_id = None
        self.game_id = self._store.new_game(
            headers, self.variant.name, start_fen, self._mode.value,
            session=self._snapshot(self.board, None, None, None))
        self._name_players(headers)
        self._publish("new_game", game_id=self.game_id, variant=self.variant.name,
                      mode=self._mode.value, fen=self.board.fen())
        self._play_opening()

    def load_other(self, board_id: str, game_id: str) -> tuple[GameRecord, dict[str, object]
                                                                | None]:
        """Another board's game and that board's saved session (None: none saved).

        Raises:
            StoreError: the game cannot be read (no such game, Redis away).
        """
        return self._store.load_game(game_id, board_id), self._store.load_session(board_id)

    def adopt(self, record: GameRecord, note: str) -> None:
        """Open a new game that carries on ``record`` (a game of another board): its tags, its
        start and its moves (with their clock fields, as recorded there) logged as this
        board's game, ``note`` after its last move; the new game is its position, not begun
        here (the clock's keeper sets the clock).

        Raises:
            ValueError: a move of the record is not legal (a damaged record): nothing logged.
        """
        start_fen = record.start_fen or self.variant.starting_fen
        board = Board(self.variant, fen=start_fen)
        history = [occupancy(board)]
        for move in record.moves:
            board.push(board.parse_move(move.pdn))
            history.append(occupancy(board))
        headers = {k: v for k, v in record.headers.items() if k not in ("GameId", "Board")}
        first = Board(self.variant, fen=start_fen)
        self.game_id = None
        self.game_id = self._store.new_game(
            headers, self.variant.name,
            None if start_fen == self.variant.starting_fen else start_fen, self._mode.value,
            session=self._snapshot(first, None, None, None))
        for move in record.moves:
            self._store.append_move(self.game_id, move)
        self._store.note(self.game_id, len(record.moves), note)
        self._name_players(headers)
        self.start_fen, self.board, self.history = start_fen, board, history
        self.outcome = None
        self._paired = True  # the carried game has its names: a pairing waiting is not its
        self.set_pending(None)
        self._publish("new_game", game_id=self.game_id, variant=self.variant.name,
                      mode=self._mode.value, fen=board.fen())
        for tag, value in headers.items():
            self._publish("header", tag=tag, value=value, game_id=self.game_id)

    def seat(self, human_side: Color, headers: Mapping[str, str]) -> None:
        """The next new game's player plays ``human_side``, its tags ``headers`` (a pairing
        with another board, or its end)."""
        self._human_side = human_side
        self._headers = dict(headers)

    def reconfigure(self, variant: Variant, mode: Mode) -> None:
        """Play the next new game (:meth:`open_new`) in ``variant`` and ``mode``."""
        if variant is not self.variant:
            self.variant = variant
            self.namer = Namer(variant)
            self.new_game_fen = variant.starting_fen
            self.initial = occupancy(Board(variant, fen=self.new_game_fen))
        self._mode = mode

    def set_start(self, fen: str, human_side: Color | None = None) -> None:
        """Start the next new game (:meth:`open_new`) from ``fen`` (a position set up by the
        lights) and every new game after it, until the variant changes; ``human_side``: the
        player's side from then on (None: as before).

        Raises:
            engine.errors.InvalidFenError: ``fen`` is no position of the variant.
        """
        start = Board(self.variant, fen=fen)
        if human_side is not None:
            self._human_side = human_side
        self.new_game_fen = start.fen()
        self.initial = occupancy(start)

    def set_header(self, tag: str, value: str) -> None:
        """Add or change a PDN tag of the game in play (a ``headers`` entry of its log)."""
        if self.game_id is not None:
            self._store.set_headers(self.game_id, {tag: value})
            self._name_players({tag: value})

    def _name_players(self, tags: Mapping[str, str]) -> None:
        self.players.update({t: v for t, v in tags.items() if t in ("White", "Black")})

    def abandon(self) -> None:
        """Close a game left unfinished with ``*`` (abandoned), if it had begun."""
        if self.game_id is not None and self.outcome is None and self.started:
            self._store.finish(self.game_id, "*", Termination.ABANDONED.value)

    def _play_opening(self) -> None:
        """Record the opening drawn for this game (an English ballot) as its first moves.

        The board then shows the start position and the game the ballot's: the session's
        re-sync guides the players, square by square, to set the ballot position up.
        """
        if self._opening is None:
            return
        for move in self._opening(self.board.copy()):
            self.play(move, "ballot")
            self.history = [occupancy(self.board)]  # no takeback into the ballot

    def play(self, move: Move, by: str, *, ends: bool = True) -> Outcome | None:
        """Log ``move`` (write-ahead), play it and publish it; return the outcome it brings.

        The move, the result it brings (if it ends the game) and the live session after it are
        one store write: a stop keeps all three or none, so a game that is over stays over.
        ``ends=False``: the move brings no result (an arbiter's correction of a finished game,
        whose result is the arbiter's). A move of the side a draw was offered to declines it.
        """
        game_id = self._open_id()
        mover = Color(self.board.turn)
        clocks = {} if self.clock is None else self.clock.moved(mover, by)
        record = replace(move_record(self.board, move, by, self._wall_clock(), self.namer),
                         clock_white=clocks.get("clock_white"),
                         clock_black=clocks.get("clock_black"))
        after = self.board.copy()
        after.push(move)
        outcome = after.outcome() if ends else None
        if outcome is not None and self.clock is not None:
            self.clock.stopped()
        result = None if outcome is None else self.result_text(outcome)
        self._store.append_move(
            game_id, record, result=result,
            termination="" if outcome is None else outcome.termination.value,
            session=self._snapshot(after, None, None, outcome))
        fields = move_fields(self.board, move, self.namer)
        self.board.push(move)
        self.history.append(occupancy(self.board))
        self.set_pending(None)
        self.outcome = outcome
        self._publish("move", ply=record.ply, by=by, fen=record.fen_after, **fields, **clocks)
        if self.offer is not None and self.offer is not mover:
            self._publish("draw_declined", reason="moved", side=side_name(mover),
                          offered_by=side_name(self.offer))
            self.offer = None
        if self.asked is not None and self.asked[0] is not mover:
            self._publish("takeback_declined", reason="moved", side=side_name(mover))
            self.asked = None
        self.claimable = None
        if not self._paired and by != "ballot":
            self._take_pairing()
        return outcome

    def take_round(self, number: str) -> bool:
        """The arbiter starts round ``number``: the game, not begun yet, takes the pairing of
        that round waiting for it now (its names published); False when none waits (or
        another round's, or the game took its pairing already)."""
        if self.pairing is None or self._paired or self.game_id is None:
            return False
        if self.pairing.peek().get("Round") != number:
            return False
        self._take_pairing()
        return self._paired

    def _take_pairing(self) -> None:
        """The game has begun: it takes the pairing waiting (the tags may be newer than those
        it opened with), and the next game is not named by it again."""
        game_id = self._open_id()
        if self.pairing is None:
            return
        tags = self.pairing.take()
        self._paired = tags is not None  # unread (Redis away): tried again at the next move
        if tags:
            self.round = tags.get("Round") or self.round
            self._store.set_headers(game_id, tags)
            self._name_players(tags)
            for tag, value in tags.items():
                self._publish("header", tag=tag, value=value, game_id=game_id)

    def finish(self, outcome: Outcome, note: str = "") -> str:
        """Log a result that no move brought (resignation, agreed draw); return it as PDN gives
        it. The result and the live session after it are one store write."""
        game_id = self._open_id()
        result = self.result_text(outcome)
        if self.clock is not None:
            self.clock.stopped()
        snapshot = self._snapshot(self.board, None, None, outcome)
        if note:  # why: an arbiter's decision (a comment of the PDN)
            self._store.finish(game_id, result, outcome.termination.value,
                               session=snapshot, note=note)
        else:
            self._store.finish(game_id, result, outcome.termination.value,
                               session=snapshot)
        self.outcome = outcome
        self.offer = None
        self.asked = None
        self.claimable = None
        self.set_pending(None)
        return result

    def _open_id(self) -> str:
        """The id of the game open (raises SessionError without one: a bug of the caller)."""
        if self.game_id is None:
            raise SessionError("no game open")
        return self.game_id

    def result_text(self, outcome: Outcome) -> str:
        """The result as this variant's PDN writes it (``1-0``, ``2-0``, ...)."""
        return outcome.result(self.variant.pdn_gametype)

    def take_back_to(self, ply: int, note: str = "") -> int:
        """Undo the moves after ``ply`` (logged first, with the session after it); return how
        many were undone. ``note``: why (an arbiter's correction, a comment of the PDN)."""
        game_id = self._open_id()
        plies = len(self.board.move_stack) - ply
        before = self.board.copy()
        for _ in range(plies):
            before.pop()
        if self.clock is not None:
            self.clock.switch(Color(before.turn))
        snapshot = self._snapshot(before, None, None, None)
        if note:
            self._store.truncate(game_id, ply, session=snapshot, note=note)
        else:
            self._store.truncate(game_id, ply, session=snapshot)
        for _ in range(plies):
            self.board.pop()
        del self.history[ply + 1:]
        self.set_pending(None)
        self.outcome = None
        self.offer = None
        self.asked = None
        self.claimable = None
        self._publish("takeback", plies=plies, ply=ply, side=side_name(self.board.turn),
                      fen=self.board.fen())
        return plies

    def set_pending(self, move: Move | None) -> None:
        """Set the computer's pending move and rebuild the recogniser's indexes."""
        self.pending = move
        self.index = MoveIndex(self.board)
        self.pending_index = None if move is None else PendingIndex(self.board, move,
                                                                    index=self.index)

    # -- the live session ---------------------------------------------------------------------

    def save(self, obligation: Square | None) -> None:
        """Keep the live session (after the log: the log wins on resume), with the draw offer
        that stands: it is part of the game's state."""
        data = self._snapshot(self.board, self.pending, obligation, self.outcome)
        if self.offer is not None and self.outcome is None:
            data["offer"] = side_name(self.offer)
        self._store.save_session(data)

    def _snapshot(self, board: Board, pending: Move | None, obligation: Square | None,
                  outcome: Outcome | None) -> dict[str, object]:
        data = snapshot(
            variant=self.variant.name, mode=self._mode.value, game_id=self.game_id,
            start_fen=self.start_fen, board=board, pending=pending, obligation=obligation,
            outcome=outcome, human_side=self._human_side,
        )
        clock = None if self.clock is None else self.clock.data()
        if clock is not None:
            data["clock"] = clock
        if self.lesson is not None:
            data["lesson"] = self.lesson
        return data

    def resume(self) -> Resumed | None:
        """Resume the saved session, brought up to the game log.

        Returns None when there is nothing to resume (or it cannot be: a ``resume_failed`` event
        says why). A finished game resumes finished, with no obligation.
        """
        state = self._store.load_session()
        if not state or state.get("variant") != self.variant.name or not state.get("game_id"):
            return None
        if state.get("mode") != self._mode.value:
            return None
        try:
            board, pending = restore(state, lambda fen: Board(self.variant, fen=fen))
            outcome = restore_outcome(state, board)
        except ValueError as exc:
            log.error("session: cannot resume the saved game (%s); starting a new one", exc)
            self._publish("resume_failed", reason=str(exc))
            return None
        self.game_id = str(state["game_id"])
        self.start_fen = str(state["start_fen"])
        self.round = None
        side = state.get("human_side")
        if side in (0, 1) and not isinstance(side, bool):  # a puzzle's side: the side it had
            self._human_side = Color(side)
        lesson = state.get("lesson")
        self.lesson = lesson if isinstance(lesson, dict) else None
        if self.clock is not None:
            self.clock.restore(state.get("clock"))
        saved = state.get("obligation")
        obligation = saved if isinstance(saved, int) and not isinstance(saved, bool) else None
        logged_outcome, changed = self._catch_up(board, outcome)
        if changed:
            pending = None  # the game moved on after the snapshot: its pending move is stale
            obligation = None
        self.board = board
        self.outcome = logged_outcome
        self._paired = self.pairing is None or bool(board.move_stack)
        self.set_pending(None if logged_outcome is not None else pending)
        replay = Board(self.variant, fen=self.start_fen)
        self.history = [occupancy(replay)]
        for move in board.move_stack:
            replay.push(move)
            self.history.append(occupancy(replay))
        self._publish("resumed", game_id=self.game_id, ply=len(board.move_stack),
                      fen=board.fen(), pending=None if self.pending is None
                      else board.move_notation(self.pending))
        offer = state.get("offer")
        self.offer = None if changed or logged_outcome is not None or offer not in (
            "white", "black") else (Color.WHITE if offer == "white" else Color.BLACK)
        if self.offer is not None:  # the offer stands still: said again as the board is back
            self._publish("draw_offer", side=side_name(self.offer), ply=len(board.move_stack))
        return Resumed(None if logged_outcome is not None else obligation)

    def _catch_up(self, board: Board, outcome: Outcome | None) -> tuple[Outcome | None, bool]:
        """Bring ``board`` (from the snapshot) up to the game log, which is written first: a stop
        between the two leaves the log a move ahead, or a takeback behind. Returns the outcome as
        the log has it and whether anything changed.
        """
        try:
            game = self._store.load_game(self._open_id())
            logged = [m.pdn for m in game.moves]
        except (ValueError, KeyError, StoreError) as exc:
            log.error("session: game log unreadable (%s): resuming from the snapshot", exc)
            return outcome, False
        if self.pairing is not None:
            self.round = game.headers.get("Round") or None
        self.players = {}
        self._name_players(game.headers)
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
        result = outcome
        if game.result == "*":
            result = None
        elif outcome is None:
            result = board.outcome() or Outcome.from_result(
                game.result, _termination(game.termination), gametype=self.variant.pdn_gametype)
        return result, changed or result != outcome


def _termination(text: str) -> Termination:
    try:
        return Termination(text)
    except ValueError:
        return Termination.UNKNOWN

