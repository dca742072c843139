"""The arbiter's correction of a move: the game taken back to before a ply, the right move
played there, and the reason kept in the record.

The command ``correct_move`` (:data:`~firmware_host.game.types.CommandName.CORRECT_MOVE`)
carries ``value`` ``"N MOVE"`` (the ply to correct, counted from the game's first move, and the
move that was really played there, in the variant's notation) and ``tag`` the reason. The
board checks it against the game it has: ply N must be one of the game's moves (not a move of
an English ballot) and MOVE a legal move, different from the one recorded, in the position
before it. Then

1. the game is taken back to before ply N: a ``takeback`` in the game's log with the note
   ``arbiter: 32-28 corrected to 33-28 (ply 7; the reason)``, a comment of the game's PDN,
   so the record says what was changed and why (never a silent rewrite; the arbiter's audit
   stream has the decision too);
2. MOVE is played as ply N, ``by`` ``arbiter`` (its own ``move`` event and record);
3. the board guides the players to set up the corrected position, square by square, as after
   any takeback (the ``syncing`` state and its LEDs); the game goes on once it stands.

Moves after ply N are gone from the game (the takeback note names the corrected move; the
players replay what follows). A result the game had goes with them: the corrected game may
end again by its moves, or the arbiter adjudicates. The clock is not rewound: the side to move
after the correction runs, nothing is added (the arbiter gives time with ``add_time``).

A command that does not fit is refused (``command_refused`` with ``reason`` ``no_game``,
``bad_value``, ``bad_ply``, ``not_a_move`` or ``same_move``), the game untouched.
"""

from __future__ import annotations

import logging
from typing import Protocol

from engine import Board
from engine.types import Move
from firmware_host.digits import is_whole_number
from firmware_host.game.facts import GameFacts
from firmware_host.game.game import Game
from firmware_host.game.types import Command, State

__all__ = ["CorrectionHost", "correct_move"]

log = logging.getLogger(__name__)


class CorrectionHost(GameFacts, Protocol):
    """What a correction needs of the session."""

    def publish(self, kind: str, /, **fields: object) -> None: ...
    def set_state(self, state: State) -> None: ...
    def evaluate(self, at: float, settled: bool = False) -> None: ...
    def take_back_to(self, ply: int, at: float, guided: bool = False, note: str = "") -> None:
        ...
    def commit(self, move: Move, by: str, at: float) -> None: ...


def _refuse(s: CorrectionHost, reason: str, detail: str) -> None:
    log.info("correct_move refused (%s): %s", reason, detail)
    s.publish("command_refused", command="correct_move", reason=reason)


def _first_correctable(game: Game, plies: int) -> int:
    """The first ply a correction may reach: the first after an English ballot (the game's
    history starts after the ballot's moves)."""
    return plies - (len(game.history) - 1) + 1


def _before(board: Board, ply: int) -> Board:
    """A copy of ``board`` taken back to before ``ply``."""
    copy = board.copy()
    while len(copy.move_stack) >= ply:
        copy.pop()
    return copy


def _parse(board: Board, text: str) -> Move | None:
    try:
        move = board.parse_move(text)
    except ValueError:
        return None
    return move if move in board.legal_moves else None


#: The largest ply number read from a command (any game has fewer).
MAX_PLY_READ = 10**6


def correct_move(s: CorrectionHost, event: Command) -> None:
    """Carry out the arbiter's ``correct_move`` (module docstring)."""
    if s.game_id is None:
        _refuse(s, "no_game", "no game open")
        return
    parts = (event.value or "").split()
    if len(parts) != 2 or not is_whole_number(parts[0], 0, MAX_PLY_READ):
        _refuse(s, "bad_value", f"{event.value!r}: expected the ply and the move, e.g. 7 33-28")
        return
    ply, text = int(parts[0]), parts[1]
    plies = len(s.board.move_stack)
    first = _first_correctable(s.game, plies)
    if not first <= ply <= plies:
        _refuse(s, "bad_ply", f"ply {ply}: the game's plies that can be corrected are "
                f"{first} to {plies}")
        return
    before = _before(s.board, ply)
    wrong = s.board.move_stack[ply - 1]
    move = _parse(before, text)
    if move is None:
        _refuse(s, "not_a_move", f"{text!r} is not a legal move before ply {ply}")
        return
    if move == wrong:
        _refuse(s, "same_move", f"ply {ply} is {text} already")
        return
    reason = (event.tag or "").strip()
    note = (f"arbiter: {before.move_notation(wrong)} corrected to {before.move_notation(move)}"
            f" (ply {ply}" + (f"; {reason}" if reason else "") + ")")
    if s.outcome is not None:
        note += f", result {s.game.result_text(s.outcome)} withdrawn"
    log.info("%s", note)
    s.take_back_to(ply - 1, event.at, note=note)
    s.commit(move, "arbiter", event.at)
    if s.outcome is None:
        s.set_state(State.SYNCING)  # the players set up the corrected position
        s.evaluate(event.at)
