"""The search's transposition table: one entry per slot (key, depth, bound, score, best move),
replaced by a deeper search, an exact score or another position.

Scores beyond ``bound`` (forced ends of the game, endgame-table wins) are stored relative to the
node and read back relative to the root of the search that finds them.

Example:
    >>> table = TranspositionTable(mb=0.01, bound=1000)
    >>> table.store(key=12345, depth=4, flag=EXACT, score=1500, ply=3, move=(1, 2, 0))
    >>> entry = table.entry(12345)
    >>> entry[1], table.score(entry, ply=5), table.entry(54321) is None
    (4, 1498, True)
"""

from __future__ import annotations

from typing import Final

__all__ = ["EXACT", "LOWER", "UPPER", "Entry", "TranspositionTable"]

#: The kinds of score an entry holds: exact, a lower bound (a cut-off), an upper bound.
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
#: (key, depth, bound kind, score, best move as (origin bit, destination bit, captured mask)).
Entry = tuple[int, int, int, int, tuple[int, int, int] | None]
#: Approximate memory one slot costs, for sizing the table from megabytes.
SLOT_BYTES: Final = 160


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
        self.slots: list[Entry | None] = [None] * slots

    def clear(self) -> None:
        """Forget every entry."""
        self.slots = [None] * (self.mask + 1)

    def entry(self, key: int) -> Entry | None:
        """The entry of the position with this key, or None."""
        entry = self.slots[key & self.mask]
        return entry if entry is not None and entry[0] == key else None

    def score(self, entry: Entry, ply: int) -> int:
        """The entry's score for a node ``ply`` plies below the root."""
        score, bound = entry[3], self.bound
        if score > bound:
            return score - ply
        if score < -bound:
            return score + ply
        return score

    def store(self, key: int, depth: int, flag: int, score: int, ply: int,
              move: tuple[int, int, int] | None) -> None:
        """Keep a result unless the slot holds a deeper one of the same position (an exact
        score always replaces)."""
        slot = key & self.mask
        old = self.slots[slot]
        if old is None or old[0] != key or depth >= old[1] or flag == EXACT:
            bound = self.bound
            if score > bound:
                score += ply
            elif score < -bound:
                score -= ply
            self.slots[slot] = (key, max(depth, 0), flag, score, move)
