"""Hints for teach mode: the best move and why, as data the session turns into words and LEDs.

Example:
    >>> from engine import Board
    >>> from engine.search import Limit, Searcher
    >>> board = Board("international", fen="W:W33,48:B28,17,5")
    >>> h = hint(board, Searcher("international"), Limit(depth=3))
    >>> board.move_notation(h.move), [reason.kind.name for reason in h.reasons]
    ('33x11', ['WINS_ENDGAME', 'ONLY_MOVE', 'CAPTURES', 'WINS_MATERIAL'])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine import Board, Move
from engine.search import TABLE_BOUND, TABLE_WIN, Limit, Searcher, StopToken

__all__ = ["Hint", "Reason", "ReasonKind", "hint", "line_reasons"]

#: How far past the principal variation captures are resolved when counting material.
_RESOLVE_PLIES = 12
#: Plies searched for the opponent's threat (a shot of sacrifice, capture, recapture fits in 4).
_THREAT_DEPTH = 4


class ReasonKind(Enum):
    """Why the hinted move is good."""

    ONLY_MOVE = "only_move"  # nothing else is legal
    CAPTURES = "captures"  # takes ``pieces`` pieces now
    PROMOTES = "promotes"  # crowns a man
    WINS_MATERIAL = "wins_material"  # ``pieces`` up within ``moves`` of our moves
    AVOIDS_LOSS = "avoids_loss"  # the opponent threatened to win ``pieces``
    WINS_GAME = "wins_game"  # forced win within ``moves`` moves
    WINS_ENDGAME = "wins_endgame"  # the endgame tables: won, converted within ``moves`` moves
    LOSES_GAME = "loses_game"  # every move loses; this one lasts longest


@dataclass(frozen=True)
class Reason:
    """One reason, with its numbers: pieces involved and moves (of the side to move) needed."""

    kind: ReasonKind
    pieces: int = 0
    moves: int = 0


@dataclass(frozen=True)
class Hint:
    """The suggested move, the reasons for it (most important first), score and line."""

    move: Move
    reasons: tuple[Reason, ...]
    score: int
    pv: tuple[Move, ...]


def hint(
    board: Board, searcher: Searcher, limit: Limit, stop: StopToken | None = None
) -> Hint | None:
    """Suggest a move for the side to move, with reasons; None when there is no legal move.

    Raises:
        ValueError: the searcher is for another variant, or a time limit without a clock.
    """
    result = searcher.search(board, limit, stop)
    if result.move is None:
        return None
    move = result.move
    reasons: list[Reason] = []
    mate = result.mate_in
    if mate is not None and not board.variant.giveaway:
        kind = ReasonKind.WINS_GAME if mate > 0 else ReasonKind.LOSES_GAME
        reasons.append(Reason(kind, moves=(abs(mate) + 1) // 2))
    elif abs(result.score) > TABLE_BOUND and not board.variant.giveaway:
        # A table win scores TABLE_WIN less the plies to its conversion (a capture or a
        # crowning into a position the tables or the search finish).
        plies = TABLE_WIN - abs(result.score)
        kind = ReasonKind.WINS_ENDGAME if result.score > 0 else ReasonKind.LOSES_GAME
        reasons.append(Reason(kind, moves=(plies + 1) // 2))
    pv = result.pv if result.pv and result.pv[0] == move else (move,)
    shown, gain = line_reasons(board, pv)
    reasons.extend(shown)
    if not move.is_capture:
        threat = _threat(board, searcher, stop)
        loss_after = max(0, -gain)
        if threat > loss_after:
            reasons.append(Reason(ReasonKind.AVOIDS_LOSS, pieces=threat - loss_after))
    return Hint(move, tuple(reasons), result.score, pv)


def line_reasons(board: Board, line: tuple[Move, ...]) -> tuple[tuple[Reason, ...], int]:
    """What a move and the line after it (``line[0]`` is the move) show by themselves: the only
    move, a capture, a crowning, material won along the line (pending captures resolved); and
    the pieces won along it (negative: lost). The line stops at its first illegal move.

    Used for the built-in engine's hints and for a Hub engine's, whose one search gives no
    threat.

    Example:
        >>> board = Board("international", fen="W:W33,48:B28,17,5")
        >>> move = board.find_move(32, 10, frozenset({27, 16}))
        >>> [r.kind.name for r in line_reasons(board, (move,))[0]]
        ['ONLY_MOVE', 'CAPTURES', 'WINS_MATERIAL']
    """
    move = line[0]
    reasons: list[Reason] = []
    if len(board.legal_moves) == 1:
        reasons.append(Reason(ReasonKind.ONLY_MOVE))
    if move.is_capture:
        reasons.append(Reason(ReasonKind.CAPTURES, pieces=len(move.captures)))
    if move.promotes:
        reasons.append(Reason(ReasonKind.PROMOTES))
    gain, moves = _material_gain(board, line)
    if gain > 0 and not board.variant.giveaway:
        reasons.append(Reason(ReasonKind.WINS_MATERIAL, pieces=gain, moves=moves))
    return tuple(reasons), gain


def _balance(board: Board, side: int) -> int:
    """Pieces of ``side`` minus the opponent's."""
    white, black, _ = board.bitboards()
    diff = white.bit_count() - black.bit_count()
    return diff if side == 0 else -diff


def _material_gain(board: Board, line: tuple[Move, ...]) -> tuple[int, int]:
    """Pieces the side to move is up after ``line`` and the captures it leaves pending.

    Returns (gain, our moves until the gain is first reached and kept).
    """
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
    if not history:
        return 0, 0
    final = history[-1]
    if final <= 0:
        return final, 0
    first = len(history) - 1
    while first > 0 and history[first - 1] >= final:
        first -= 1
    return final, first // 2 + 1


def _threat(board: Board, searcher: Searcher, stop: StopToken | None) -> int:
    """Pieces the opponent would win (by a capture or a shot) if the side to move could pass."""
    fen = board.fen()
    passed = Board(board.variant, fen=("B" if fen[0] == "W" else "W") + fen[1:])
    if not passed.legal_moves:
        return 0
    result = searcher.search(passed, Limit(depth=_THREAT_DEPTH), stop)
    gain, _ = _material_gain(passed, result.pv or ((result.move,) if result.move else ()))
    return max(0, gain)
