"""Strength levels 1-10 as data.

Weak levels make the mistakes of a weak human rather than random moves: a short horizon that
stops in the middle of an exchange (so multi-piece shots, the opponent's and its own, go unseen),
and some noise in judging quiet moves. Level 10 is the full search within the time given.

Example:
    >>> limit_for_level(1).depth
    1
    >>> LEVELS[0].options.quiescence, LEVELS[9].options.quiescence
    (1, None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import Variant
from engine.search import Limit, Searcher, SearchOptions

__all__ = ["LEVELS", "Level", "level", "limit_for_level", "searcher_for_level"]


@dataclass(frozen=True)
class Level:
    """One strength level: how deep and how long it looks, and how it misjudges.

    ``depth`` caps the search (None: as deep as the time allows); ``movetime`` is the default time
    per move in seconds when the caller gives no clock; ``options`` weaken the search.
    """

    number: int
    depth: int | None
    movetime: float
    options: SearchOptions
    description: str


#: Level 1 looks one move ahead and sees the capture that answers it, but not what follows: it
#: takes what is offered and walks into two-for-ones. Levels 2-4 see further but still stop in
#: the middle of long exchanges. From level 5 on the horizon resolves every capture; the noise
#: falls away and the depth grows until level 10 is limited only by the time. Level 9 stops at
#: 9 plies: at a Raspberry Pi's speed level 10 reaches 10-11 plies in its time, and a cap of 10
#: left the two levels a few nodes apart (docs/levels.md).
LEVELS: tuple[Level, ...] = (
    Level(1, 1, 0.2, SearchOptions(quiescence=1, noise=60, max_depth=1),
          "beginner: sees what its move leaves hanging, never the shot behind it"),
    Level(2, 2, 0.3, SearchOptions(quiescence=1, noise=45, max_depth=2),
          "novice: sees the reply, not the combination"),
    Level(3, 3, 0.4, SearchOptions(quiescence=2, noise=35, max_depth=3),
          "casual: short exchanges only"),
    Level(4, 4, 0.5, SearchOptions(quiescence=3, noise=25, max_depth=4),
          "improving: most exchanges, shallow plans"),
    Level(5, 5, 0.6, SearchOptions(noise=15, max_depth=5),
          "club beginner: finishes every exchange"),
    Level(6, 6, 0.8, SearchOptions(noise=10, max_depth=6),
          "club player"),
    Level(7, 7, 1.0, SearchOptions(noise=5, max_depth=7),
          "strong club player"),
    Level(8, 8, 1.5, SearchOptions(max_depth=8),
          "expert"),
    Level(9, 9, 2.0, SearchOptions(max_depth=9),
          "master"),
    Level(10, None, 3.0, SearchOptions(), "full strength within the time"),
)


def level(number: int) -> Level:
    """The :class:`Level` with this number.

    Raises:
        ValueError: the number is not 1-10.
    """
    if not isinstance(number, int) or not 1 <= number <= len(LEVELS):
        raise ValueError(f"level must be an integer 1-{len(LEVELS)}, not {number!r}")
    return LEVELS[number - 1]


def limit_for_level(
    number: int,
    movetime: float | None = None,
    time_left: float | None = None,
    increment: float | None = None,
) -> Limit:
    """The search limit for a level: its depth cap and the time given (or its default time).

    Example:
        >>> limit_for_level(10, movetime=2.0)
        Limit(depth=None, nodes=None, movetime=2.0, time_left=None, increment=None)

    Raises:
        ValueError: the level is not 1-10.
    """
    chosen = level(number)
    if time_left is not None:
        return Limit(depth=chosen.depth, time_left=time_left, increment=increment)
    return Limit(depth=chosen.depth, movetime=movetime if movetime is not None else chosen.movetime)


def searcher_for_level(
    variant: Variant | str,
    number: int,
    seed: int = 0,
    clock: Callable[[], float] | None = None,
    tt_mb: float = 16,
) -> Searcher:
    """A :class:`Searcher` weakened as the level says.

    Raises:
        ValueError: the level is not 1-10, or an unknown variant.
    """
    return Searcher(variant, seed=seed, tt_mb=tt_mb, clock=clock, options=level(number).options)
