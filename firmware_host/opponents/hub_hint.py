"""Hints from a Hub engine: its move, and the reasons that the move and its line show.

The built-in engine's hints (:func:`engine.hint.hint`) search again for the opponent's threat;
a Hub engine gives one search, so a hint from it says what its move and its principal variation
show: the only move, a capture, a crowning, material won along the line (captures still
pending at its end resolved, as :mod:`engine.hint` does). The kinds are
:class:`engine.hint.ReasonKind`'s, so the session words them the same way.

>>> from engine import Board
>>> from engine.search import SearchResult
>>> board = Board("international", fen="W:W33,48:B28,17,5")
>>> move = board.find_move(32, 10, frozenset({27, 16}))
>>> [r.kind for r in hub_reasons(board, SearchResult(move, 200, 9, 1000, 0.1, (move,)))]
['only_move', 'captures', 'wins_material']
"""

from __future__ import annotations

from engine import Board, Move
from engine.hint import ReasonKind
from engine.search import SearchResult
from firmware_host.game.types import Reason

__all__ = ["hub_reasons"]

#: Plies of pending captures resolved after the line, as engine.hint resolves them.
_RESOLVE_PLIES = 12


def _balance(board: Board, side: int) -> int:
    white, black, _ = board.bitboards()
    diff = white.bit_count() - black.bit_count()
    return diff if side == 0 else -diff


def _gain(board: Board, line: tuple[Move, ...]) -> tuple[int, int]:
    """Pieces won by the side to move along ``line`` (pending captures resolved), and in how
    many of its own moves the gain is first reached and then kept."""
    side = int(board.turn)
    start = _balance(board, side)
    probe = board.copy()
    history: list[int] = []
    for move in line:
        if move not in probe.legal_moves:
            break
        probe.push(move)
        history.append(_balance(probe, side) - start)
    for _ in range(_RESOLVE_PLIES):
        captures = [m for m in probe.legal_moves if m.is_capture]
        if not captures:
            break
        probe.push(max(captures, key=lambda m: len(m.captures)))
        history.append(_balance(probe, side) - start)
    if not history or history[-1] <= 0:
        return 0, 0
    first = len(history) - 1
    while first > 0 and history[first - 1] >= history[-1]:
        first -= 1
    return history[-1], first // 2 + 1


def hub_reasons(board: Board, result: SearchResult) -> tuple[Reason, ...]:
    """Why the Hub engine's move (``result.move``, legal in ``board``) is good, most important
    first; empty when the line shows nothing in particular."""
    move = result.move
    if move is None:
        return ()
    reasons: list[Reason] = []
    if len(board.legal_moves) == 1:
        reasons.append(Reason(ReasonKind.ONLY_MOVE.value, 0, 0))
    if move.is_capture:
        reasons.append(Reason(ReasonKind.CAPTURES.value, len(move.captures), 0))
    if move.promotes:
        reasons.append(Reason(ReasonKind.PROMOTES.value, 0, 0))
    line = result.pv if result.pv and result.pv[0] == move else (move,)
    gain, moves = _gain(board, line)
    if gain > 0 and not board.variant.giveaway:
        reasons.append(Reason(ReasonKind.WINS_MATERIAL.value, gain, moves))
    return tuple(reasons)
