"""The search's transposition table: one entry per slot (key, depth, bound, score, best move),
replaced by a deeper search, an exact score or another position.

Scores beyond ``bound`` (forced ends of the game, endgame-table wins) are stored relative to the
node and read back relative to the root of the search that finds them.

The slots are three parallel lists (keys, depth, bound and score packed in one integer, moves),
so storing an entry allocates no container: the search stores one at nearly every inner node,
and a tuple an entry kept Python's cyclic garbage collector busy (about a tenth of the
compiled search's time).

Example:
    >>> table = TranspositionTable(mb=0.01, bound=1000)
    >>> table.store(key=12345, depth=4, flag=EXACT, score=1500, ply=3,
    ...             move=(1, 2, 0, False, (2,), ()))
    >>> slot = table.find(12345)
    >>> table.depth(slot), table.flag(slot), table.score(slot, ply=5), table.move(slot)[:2]
    (4, 0, 1498, (1, 2))
    >>> table.find(54321)
    -1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.movegen import RawMove

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["EXACT", "LOWER", "UPPER", "TranspositionTable"]

#: The kinds of score an entry holds: exact, a lower bound (a cut-off), an upper bound.
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
#: Approximate memory one slot costs, for sizing the table from megabytes.
SLOT_BYTES: Final = 160
#: The packed word: bound kind in 2 bits, depth in 8, then the score offset to be non-negative.
_FLAG_BITS: Final = 2
_DEPTH_BITS: Final = 8
_SCORE_SHIFT: Final = _FLAG_BITS + _DEPTH_BITS
_DEPTH_MASK: Final = (1 << _DEPTH_BITS) - 1
_FLAG_MASK: Final = (1 << _FLAG_BITS) - 1
_SCORE_OFFSET: Final = 1 << 20
#: The key of an empty slot (keys are non-negative).
_EMPTY: Final = -1


class TranspositionTable:
    """A power-of-two number of slots (at least 1024) for about ``mb`` megabytes.

    Raises:
        ValueError: ``mb`` is not positive.
    """

    def __init__(self, mb: float, bound: int) -> None:
        if mb <= 0:
            raise ValueError(f"tt_mb must be positive, not {mb!r}")
        slots = 1 << max(10, int(mb * (1 << 20) / SLOT_BYTES).bit_length() - 1)
        self.mask = slots - 1
        self.bound = bound
        # i64 lists: a key (62 bits) and a packed word (up to 41) read back into machine words,
        # on a 32-bit machine too.
        self._keys: list[i64] = [_EMPTY] * slots
        self._data: list[i64] = [0] * slots
        self._moves: list[RawMove | None] = [None] * slots

    def clear(self) -> None:
        """Forget every entry."""
        slots = self.mask + 1
        self._keys = [_EMPTY] * slots
        self._data = [0] * slots
        self._moves = [None] * slots

    def find(self, key: i64) -> int:
        """The slot holding the position with this key, or -1."""
        slot: int = key & self.mask
        return slot if self._keys[slot] == key else -1

    def depth(self, slot: int) -> int:
        """The depth the slot's entry was searched to."""
        depth: int = self._data[slot] >> _FLAG_BITS & _DEPTH_MASK
        return depth

    def flag(self, slot: int) -> int:
        """The slot's kind of score: EXACT, LOWER or UPPER."""
        flag: int = self._data[slot] & _FLAG_MASK
        return flag

    def move(self, slot: int) -> RawMove | None:
        """The slot's best move (the move generator's own raw move), if any."""
        return self._moves[slot]

    def score(self, slot: int, ply: int) -> int:
        """The slot's score for a node ``ply`` plies below the root."""
        score: int = (self._data[slot] >> _SCORE_SHIFT) - _SCORE_OFFSET
        bound = self.bound
        if score > bound:
            return score - ply
        if score < -bound:
            return score + ply
        return score

    def store(self, key: i64, depth: int, flag: int, score: int, ply: int,
              move: RawMove | None) -> None:
        """Keep a result unless the slot holds a deeper one of the same position (an exact
        score always replaces)."""
        slot: int = key & self.mask
        if self._keys[slot] != key or flag == EXACT or depth >= self.depth(slot):
            bound = self.bound
            if score > bound:
                score += ply
            elif score < -bound:
                score -= ply
            self._keys[slot] = key
            packed: i64 = score + _SCORE_OFFSET
            self._data[slot] = (packed << _SCORE_SHIFT
                                | min(max(depth, 0), _DEPTH_MASK) << _FLAG_BITS | flag)
            self._moves[slot] = move
