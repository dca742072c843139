"""Helpers for engine tests: positions written with chess-style coordinates on any variant."""

from __future__ import annotations

from engine import Board, Variant, find_variant


def at(variant: Variant | str, name: str) -> int:
    """Square index of a chess-style coordinate ("e1" is White's first rank, file e)."""
    v = find_variant(variant)
    col, row = "abcdefghijkl".index(name[0]), int(name[1:]) - 1
    sq = v.square_at(row, col)
    if sq is None:
        raise ValueError(f"{name} is not a playing square of {v.name}")
    return sq


def position(variant: str, turn: str, white: str, black: str) -> Board:
    """A board from coordinate lists such as ``position("brazilian", "W", "Ke1", "d2,f2")``."""
    v = find_variant(variant)

    def names(spec: str) -> str:
        out = []
        for item in filter(None, (s.strip() for s in spec.split(","))):
            king = item.startswith("K")
            out.append(("K" if king else "") + v.square_name(at(v, item.lstrip("K"))))
        return ",".join(out)

    return Board.from_fen(f"{turn}:W{names(white)}:B{names(black)}", v)


def keys(board: Board) -> set[tuple[str, str, frozenset[str]]]:
    """Legal moves as (from, to, captured) in coordinates, for readable assertions."""
    v = board.variant

    def name(sq: int) -> str:
        r, c = v.square_coords(sq)
        return f"{'abcdefghijkl'[c]}{r + 1}"

    return {
        (name(m.origin), name(m.destination), frozenset(name(c) for c in m.captures))
        for m in board.legal_moves
    }


def move(origin: str, destination: str, *captures: str) -> tuple[str, str, frozenset[str]]:
    """Expected move in the form :func:`keys` returns."""
    return (origin, destination, frozenset(captures))
