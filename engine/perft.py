"""Perft: count the leaf nodes of the legal-move tree, to check the move generator.

``unique`` counting (the default) counts moves with the same origin, destination and captured
set once, as published perft tables do; ``paths`` counts every capture path. The last ply is
counted without playing the moves (bulk counting).

Example:
    >>> from engine.board import Board
    >>> perft(Board("international"), 3)
    658
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.bits import bit
from engine.board import Board
from engine.compiled import pure_module
from engine.movegen import MoveGen, RawMove, routed
from engine.ordering import unique

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["divide", "perft"]


def _play(m: RawMove, own: i64, opp: i64, kings: i64) -> tuple[i64, i64, i64]:
    frm, to, cap, promotes = m[0], m[1], m[2], m[3]
    moved = bit(frm) ^ bit(to)  # 0 when a capture ends where it began
    own ^= moved
    opp &= ~cap
    if kings:
        kings &= ~cap
        if kings >> frm & 1:
            kings ^= moved
    if promotes:
        kings |= bit(to)
    return own, opp, kings


def _perft(gen: MoveGen, own: i64, opp: i64, kings: i64, color: int, depth: int,
           paths: bool) -> int:
    if depth == 1 and not paths:
        return gen.count_moves(own, opp, kings, color)
    moves = gen.moves(own, opp, kings, 0) if color == 0 else gen.moves(opp, own, kings, 1)
    if not paths:
        moves = unique(moves)
    if depth == 1:
        return len(moves)
    total = 0
    nxt = color ^ 1
    for m in moves:
        n_own, n_opp, n_kings = _play(m, own, opp, kings)
        total += _perft(gen, n_opp, n_own, n_kings, nxt, depth - 1, paths)
    return total


def perft(board: Board, depth: int, paths: bool = False) -> int:
    """Number of leaf nodes ``depth`` plies below ``board``'s position.

    Example:
        >>> perft(Board("english"), 2)
        49

    Raises:
        ValueError: negative depth.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    if depth == 0:
        return 1
    if routed(board.variant):  # a board too wide for the compiled build (engine.generators)
        pure_count: int = pure_module("engine.perft").perft(board, depth, paths)
        return pure_count
    white, black, kings = board.bitboards()
    color = int(board.turn)
    own, opp = (white, black) if color == 0 else (black, white)
    return _perft(board._gen, own, opp, kings, color, depth, paths)


def divide(board: Board, depth: int, paths: bool = False) -> dict[str, int]:
    """Perft split by first move, keyed by move text (for hunting generator bugs).

    Raises:
        ValueError: depth below 1.
    """
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, not {depth}")
    out: dict[str, int] = {}
    for move in board.generate_moves() if paths else board.legal_moves:
        text = board.move_notation(move, full=paths)
        board.push(move)
        out[text] = out.get(text, 0) + perft(board, depth - 1, paths)
        board.pop()
    return out
