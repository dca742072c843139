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


#: A king and two men against a king, drawn by the FMJD 16-move rule after 32 plies: the men's
#: moves 46-41 and 36-31 among them (the count runs across them).
SIXTEEN_MOVES = ("international", "W:WK28,36,46:BK1",
                 "28-5 1-12 5-19 12-40 19-13 40-45 13-4 45-50 4-15 50-6 15-42 6-22 42-20 22-28 "
                 "20-25 28-11 25-3 11-33 3-14 33-15 46-41 15-47 14-19 47-20 36-31 20-15 19-35 "
                 "15-29 35-49 29-45 49-44 45-18")

#: Portuguese: the 20 moves each drawn after 40 plies, the king's capture 1x19 of the man on 14
#: the first of them (only a king's capture restarts that count).
PORTUGUESE_20_MOVES = ("portuguese", "W:WK29,K1:BK3,14",
                       "1x19 3-6 29-26 6-2 19-1 2-24 26-19 24-31 19-15 31-24 15-26 24-20 26-21 "
                       "20-16 21-17 16-20 1-32 20-15 17-13 15-24 32-1 24-31 13-17 31-24 1-14 "
                       "24-15 14-7 15-22 7-21 22-15 21-25 15-29 17-6 29-8 6-17 8-15 25-29 15-24 "
                       "29-19 24-20")


def played(game: tuple[str, str | None, str]) -> Board:
    """The board of ``(variant, fen, moves)``, the moves (PDN, space-separated) played."""
    variant, fen, moves = game
    board = Board(variant, fen=fen)
    for text in moves.split():
        board.push(board.parse_move(text))
    return board
