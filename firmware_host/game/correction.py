"""The arbiter's correction of a move: the game taken back to before a ply, the right move
played there, and the reason kept in the record. A correction never changes a result by itself.

The command ``correct_move`` (:data:`~firmware_host.terms.commands.CommandName.CORRECT_MOVE`)
carries ``value`` ``"N MOVE [RESULT]"`` (the ply to correct, counted from the game's first
move; the move that was really played there, in the variant's notation; for a finished game
what becomes of its result) and ``tag`` the reason. The board checks it against the game it
has: ply N must be one of the game's moves (not a move of an English ballot) and MOVE a legal
move, different from the one recorded, in the position before it. :func:`plan` returns the
:class:`Correction`, which the session carries out:

1. the game is taken back to before ply N: a ``takeback`` in the game's log with the note
   ``arbiter: 32-28 corrected to 33-28 (ply 7; the reason)``, a comment of the game's PDN,
   so the record says what was changed and why (never a silent rewrite; the arbiter's audit
   stream has the decision too);
2. MOVE is played as ply N, ``by`` ``arbiter`` (its own ``move`` event and record);
3. a finished game keeps its result (``keep``, the default: its termination too, the note
   says ``result 1-1 kept``) or takes the arbiter's (``white``, ``black``, ``draw``: an
   adjudication) and stays over: no clock runs and nothing is to set up. ``withdraw`` (or a
   game in play) goes on from the corrected position: the board guides the players to set it
   up, square by square (the ``syncing`` state and its LEDs), and the clock of the side to
   move stays held (:class:`~firmware_host.game.timekeeper.Hold` ``SETUP``) until the board
   shows it and the arbiter (``resume``) or the clock button releases it.

Moves after ply N are gone from the game (the takeback note names the corrected move; the
players replay what follows). The clock is not rewound: the side to move after the correction
is the one whose time runs once released, nothing is added (the arbiter gives time with
``add_time``).

A command that does not fit is refused (``command_refused`` with ``reason`` ``no_game``,
``bad_value``, ``bad_ply``, ``not_a_move`` or ``same_move``), the game untouched.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine import Board
from engine.outcome import Outcome, Termination
from engine.types import Color, Move
from firmware_host.digits import is_whole_number
from firmware_host.game.game import Game
from firmware_host.game.types import Refused
from firmware_host.terms.commands import Command

__all__ = ["RESULT_CHOICES", "Correction", "plan"]

log = logging.getLogger(__name__)

#: What becomes of a finished game's result (``keep`` when not said).
RESULT_CHOICES = ("keep", "withdraw", "white", "black", "draw")
_WINNERS = {"white": Color.WHITE, "black": Color.BLACK, "draw": None}


@dataclass(frozen=True)
class Correction:
    """A checked correction: ply ``ply`` (1 the first) becomes ``move``; ``note`` says so in
    the record; ``result`` is the game's result after it (None: the game goes on from the
    corrected position, its clock held until the position is set up and released)."""

    ply: int
    move: Move
    note: str
    result: Outcome | None


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


def _refused(reason: str, detail: str) -> Refused:
    log.info("correct_move refused (%s): %s", reason, detail)
    return Refused(reason, command="correct_move")


def plan(game: Game, event: Command) -> Correction:
    """The correction ``event`` asks of ``game`` (module docstring).

    Raises:
        Refused: it does not fit the game (nothing changes).
    """
    if game.game_id is None:
        raise _refused("no_game", "no game open")
    parts = (event.value or "").split()
    if len(parts) not in (2, 3) or not is_whole_number(parts[0], 0, MAX_PLY_READ) or (
            len(parts) == 3 and parts[2] not in RESULT_CHOICES):
        raise _refused("bad_value", f"{event.value!r}: expected the ply and the move, e.g. "
                       "7 33-28, and for a finished game keep, withdraw, white, black or draw")
    ply, text = int(parts[0]), parts[1]
    choice = parts[2] if len(parts) == 3 else "keep"
    board = game.board
    plies = len(board.move_stack)
    first = _first_correctable(game, plies)
    if not first <= ply <= plies:
        raise _refused("bad_ply", f"ply {ply}: the game's plies that can be corrected are "
                       f"{first} to {plies}")
    before = _before(board, ply)
    wrong = board.move_stack[ply - 1]
    move = _parse(before, text)
    if move is None:
        raise _refused("not_a_move", f"{text!r} is not a legal move before ply {ply}")
    if move == wrong:
        raise _refused("same_move", f"ply {ply} is {text} already")
    reason = (event.tag or "").strip()
    note = (f"arbiter: {before.move_notation(wrong)} corrected to {before.move_notation(move)}"
            f" (ply {ply}" + (f"; {reason}" if reason else "") + ")")
    old = game.outcome
    result: Outcome | None = None
    if choice in _WINNERS:
        result = Outcome(Termination.ADJUDICATION, _WINNERS[choice])
        new = game.result_text(result)
        note += (f", result {game.result_text(old)} changed to {new}" if old is not None
                 else f", result {new}")
    elif old is not None and choice == "keep":
        result = old
        note += f", result {game.result_text(old)} kept"
    elif old is not None:
        note += f", result {game.result_text(old)} withdrawn: play resumes"
    log.info("%s", note)
    return Correction(ply, move, note, result)
