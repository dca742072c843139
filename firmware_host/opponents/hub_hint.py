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

from engine import Board
from engine.hint import line_reasons
from engine.search import SearchResult
from firmware_host.terms.jobs import Reason

__all__ = ["hub_reasons"]

def hub_reasons(board: Board, result: SearchResult) -> tuple[Reason, ...]:
    """Why the Hub engine's move (``result.move``, legal in ``board``) is good, most important
    first; empty when the line shows nothing in particular."""
    move = result.move
    if move is None:
        return ()
    line = result.pv if result.pv and result.pv[0] == move else (move,)
    shown, _ = line_reasons(board, line)
    return tuple(Reason(r.kind.value, r.pieces, r.moves) for r in shown)
