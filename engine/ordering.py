"""Move ordering for the search: the transposition-table move first, then the biggest captures,
promotions, the killer moves of the ply and the history of (origin, destination) pairs.

One :class:`MoveOrder` is the ordering memory of one search; it works on the raw moves of
:mod:`engine.movegen`.

Example:
    >>> from engine.generators import generator_for
    >>> gen = generator_for("english")
    >>> moves = gen.moves(*gen.initial_bitboards(), 0)
    >>> order = MoveOrder(max_ply=8)
    >>> order.reward(moves[3], depth=4, ply=0)
    >>> order.order(moves, None, 0)[0] == moves[3]
    True
    >>> order.order(moves, moves[5], 0)[0] == moves[5]
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.movegen import RawMove

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["MoveKey", "MoveOrder", "raw_key", "unique"]

#: A move's identity inside the search: (origin bit, destination bit, captured mask).
MoveKey = tuple[int, int, "i64"]


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


#: A move's place in its list rides in the low bits of its sort key: ties keep the list's order.
_INDEX_BITS: Final = 12
_LAST: Final = (1 << _INDEX_BITS) - 1
#: The transposition table's move's sort key, above every other (its index added).
_TT_RANK: Final[i64] = (1 << 40) << _INDEX_BITS


class MoveOrder:
    """Killers per ply and history per (origin, destination) of one search.

    ``size``: the move generator's bit count (:attr:`engine.movegen.MoveGen.size`); a quiet move
    is numbered ``origin * size + destination`` in the history and the killers.
    """

    def __init__(self, max_ply: int, size: int = 128) -> None:
        self.max_ply = max_ply
        self.size = size
        self.killers: list[list[int]] = [[-1, -1] for _ in range(max_ply + 2)]
        self.history: list[int] = [0] * (size * size)

    def reward(self, raw: RawMove, depth: int, ply: int) -> None:
        """A quiet move that cut off the search at ``ply``: a killer there, and history."""
        killers = self.killers[ply]
        code = raw[0] * self.size + raw[1]
        if killers[0] != code:
            killers[1] = killers[0]
            killers[0] = code
        self.history[code] += depth * depth

    def order(self, moves: list[RawMove], tt_move: RawMove | None, ply: int) -> list[RawMove]:
        """TT move first, then bigger captures, promotions, killers, and history.

        Each move gets one integer key, its rank above its index in ``moves``, and the keys
        are sorted as plain integers: ties keep the order of ``moves``.
        """
        # Sort keys above 31 bits: i64, machine words on a 32-bit machine too.
        keys: list[i64] = []
        rank: i64
        if moves[0][2]:
            # Captures: the biggest first (all are forced anyway, only the order matters).
            for index, r in enumerate(moves):
                rank = len(r[5]) + (64 if r[3] else 0)
                keys.append(rank << _INDEX_BITS | (_LAST - index))
        else:
            first, second = self.killers[min(ply, self.max_ply)]
            history, size = self.history, self.size
            for index, r in enumerate(moves):
                code = r[0] * size + r[1]
                rank = history[code]
                if r[3]:
                    rank += 1 << 29
                if code == first:
                    rank += 1 << 28
                elif code == second:
                    rank += 1 << 27
                keys.append(rank << _INDEX_BITS | (_LAST - index))
        if tt_move is not None:
            for index, r in enumerate(moves):
                if r[0] == tt_move[0] and r[1] == tt_move[1] and r[2] == tt_move[2]:
                    keys[index] = _TT_RANK | (_LAST - index)
                    break
        keys.sort(reverse=True)
        return [moves[_LAST - (key & _LAST)] for key in keys]
