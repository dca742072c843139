"""What the judge decides and the session carries out.

The :class:`~firmware_host.game.judge.Judge` looks at the board and returns a list of
decisions; it never calls back into the session. The session carries them out in order
(``Session._carry_out``): a decision is a plain value, so a test can read what the judge
decided without a session.

>>> from engine import Board
>>> move = next(iter(Board("english").legal_moves))
>>> decision = Commit(move, "human", at=1.5)
>>> decision.by, decision.replay
('human', False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.types import Move
from firmware_host.game.types import State

__all__ = ["CancelSearch", "CloseTouch", "Commit", "Decision", "EnterState", "Publish", "Synced"]


@dataclass(frozen=True)
class Publish:
    """Publish the live event ``kind`` with ``fields`` (a refusal, a correction, ...)."""

    kind: str
    fields: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class EnterState:
    """Enter ``state`` (published when it changes)."""

    state: State


@dataclass(frozen=True)
class Synced:
    """The board shows the game: say so and go to the turn of the side to move."""

    at: float


@dataclass(frozen=True)
class CloseTouch:
    """A move ends the adjust window: close it (and publish what the touch tracker says)."""

    at: float


@dataclass(frozen=True)
class CancelSearch:
    """Forget the engine's search under way (the human moved for the computer)."""


@dataclass(frozen=True)
class Commit:
    """Record and play ``move`` (``by``: human, computer, human-for-computer).

    ``replay``: the lifts the board shows after it were the opponent's touch (they oblige him).
    """

    move: Move
    by: str
    at: float
    replay: bool = False


Decision = Publish | EnterState | Synced | CloseTouch | CancelSearch | Commit
