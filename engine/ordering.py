"""Move ordering for the search: the transposition-table move first, then the biggest captures,
promotions, the killer moves of the ply and the history of (origin, destination) pairs.

One :class:`MoveOrder` is the ordering memory of one search; it works on the raw moves of
:mod:`engine.movegen`.

Example:
    >>> from engine.movegen import generator_for
    >>> gen = generator_for("english")
    >>> moves = gen.moves(*gen.initial_bitboards(), 0)
    >>> order = MoveOrder(max_ply=8)
    >>> order.reward(moves[3], depth=4, ply=0)
    >>> order.order(moves, None, 0)[0] == moves[3]
    True
    >>> order.order(moves, raw_key(moves[5]), 0)[0] == moves[5]
    True
"""

from __future__ import annotations

from engine.movegen import RawMove

__all__ = ["MoveKey", "MoveOrder", "raw_key", "unique"]

#: A move's identity inside the search: (origin bit, destination bit, captured mask).
MoveKey = tuple[int, int, int]


def raw_key(raw: RawMove) -> MoveKey:
    """The identity of a raw move: capture paths over the same squares share it."""
    return (raw[0], raw[1], raw[2])


def unique(raws: list[RawMove]) -> list[RawMove]:
    """One raw move per effect: capture paths with the same squares lead to the same position."""
    if len(raws) < 2 or not raws[0][2]:
        return raws  # quiet moves are distinct by construction
    seen: set[MoveKey] = set()
    out = []
    for raw in raws:
        key = (raw[0], raw[1], raw[2])
        if key not in seen:
            seen.add(key)
            out.append(raw)
    return out


class MoveOrder:
    """Killers per ply and history per (origin, destination) of one search."""

    def __init__(self, max_ply: int) -> None:
        self.max_ply = max_ply
        self.killers: list[list[MoveKey | None]] = [[None, None] for _ in range(max_ply + 2)]
        self.history: dict[tuple[int, int], int] = {}

    def reward(self, raw: RawMove, depth: int, ply: int) -> None:
        """A quiet move that cut off the search at ``ply``: a killer there, and history."""
        killers = self.killers[ply]
        mkey = raw_key(raw)
        if killers[0] != mkey:
            killers[1] = killers[0]
            killers[0] = mkey
        hkey = (raw[0], raw[1])
        history = self.history
        history[hkey] = history.get(hkey, 0) + depth * depth

    def order(self, moves: list[RawMove], tt_move: MoveKey | None, ply: int) -> list[RawMove]:
        """TT move first, then bigger captures, promotions, killers, and history."""
        killers = self.killers[min(ply, self.max_ply)]
        first, second = killers
        history = self.history
        if moves[0][2]:
            # Captures: the biggest first (all are forced anyway, only the order matters).
            ranks = [len(r[5]) + (r[3] << 6) for r in moves]
        else:
            get = history.get
            ranks = [
                get((r[0], r[1]), 0)
                + ((1 << 29) if r[3] else 0)
                + ((1 << 28) if (r[0], r[1], 0) == first else
                   (1 << 27) if (r[0], r[1], 0) == second else 0)
                for r in moves
            ]
        if tt_move is not None:
            for index, r in enumerate(moves):
                if r[0] == tt_move[0] and r[1] == tt_move[1] and r[2] == tt_move[2]:
                    ranks[index] = 1 << 40
                    break
        order = sorted(range(len(moves)), key=ranks.__getitem__, reverse=True)
        return [moves[i] for i in order]
