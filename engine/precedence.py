"""Which of several capture sequences a variant's capture rule lets a player choose.

Captures are compulsory everywhere; where there are several, the rule may narrow the choice:
any (Russian, English), the most pieces (international), a king's before a man's (Czech), the
most valuable (Frisian), or the Spanish and Italian orders (:class:`engine.rulesets.CaptureRule`).

Example:
    >>> from engine.variant import CaptureRule
    >>> single = (31, 22, 1 << 27, False, (22,), (27,))
    >>> double = (32, 14, 1 << 28 | 1 << 19, False, (23, 14), (28, 19))
    >>> allowed_captures(CaptureRule.MAJORITY, [single, double], kings=0) == [double]
    True
    >>> allowed_captures(CaptureRule.KING_FIRST, [single, double], kings=1 << 31) == [single]
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.types import RawMove
from engine.variant import CaptureRule

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; an int when interpreted
    from mypy_extensions import i64

__all__ = ["allowed_captures"]


def allowed_captures(rule: CaptureRule, moves: list[RawMove], kings: i64) -> list[RawMove]:
    """The sequences of ``moves`` (every capture of the position) that ``rule`` allows."""
    if rule is CaptureRule.FREE:
        return moves
    if rule is CaptureRule.MAJORITY:
        best = 0
        for m in moves:
            if len(m[5]) > best:
                best = len(m[5])
        if best == 1:
            return moves  # single jumps only (the usual case): all equal
        return [m for m in moves if len(m[5]) == best]
    if rule is CaptureRule.KING_FIRST:
        by_king = [m for m in moves if (kings >> m[0]) & 1]
        return by_king or moves
    if rule is CaptureRule.VALUE:
        # Frisian: the most valuable capture (a king 199, a man 100, as lidraughts scores
        # "less than two men, more than one"); at equal value a king must capture.
        def value(m: RawMove) -> tuple[int, bool]:
            kings_taken = sum((kings >> b) & 1 for b in m[5])
            return (100 * len(m[5]) + 99 * kings_taken, bool((kings >> m[0]) & 1))

        values = [value(m) for m in moves]
        best_value = max(values)
        return [m for m, v in zip(moves, values, strict=True) if v == best_value]

    def score(m: RawMove) -> tuple[object, ...]:
        n = len(m[5])
        flags = tuple(bool((kings >> b) & 1) for b in m[5])
        if rule is CaptureRule.SPANISH:
            return (n, sum(flags))
        by_king = bool((kings >> m[0]) & 1)
        return (n, by_king, sum(flags), flags)

    scores = [score(m) for m in moves]
    top = max(scores)
    return [m for m, s in zip(moves, scores, strict=True) if s == top]
