"""What the session's helpers decide and the session carries out.

Each helper of the session looks at facts and returns a list of decisions; none calls back
into the session. The :class:`~firmware_host.game.judge.Judge` judges the board, the
:class:`~firmware_host.game.commands.Commands` answer a button or a request, the
:class:`~firmware_host.game.timekeeper.Timekeeper` keeps the clock. The session carries the
decisions out in order (``Session._carry_out``): a decision is a plain value, so a test can
read what a helper decided without a session. A decision that cannot be carried out after all
(a pairing gone from Redis between the check and the start of the round, a carried game that
does not replay) is refused as it is carried out, before it changes anything.

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

from engine.outcome import Outcome
from engine.types import Color, Move
from firmware_host.game.carry import Carry
from firmware_host.game.correction import Correction
from firmware_host.game.types import State
from firmware_host.terms.jobs import Purpose

__all__ = ["AskTakeback", "CancelSearch", "CarryOn", "Claimable", "CloseTouch", "Commit",
           "Correct", "Decision", "EnterState", "Evaluate", "Finish", "HoldChanged", "OfferDraw",
           "PressAdjust", "Publish", "Save", "Search", "SetPosition", "StartReview", "StartRound",
           "Synced", "TakeBack"]


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
class SetPosition:
    """Leave the game in play and start a new one from ``fen``, set up by the lights
    (``side``: the player's in it; None: as before)."""

    fen: str
    at: float
    side: Color | None = None


@dataclass(frozen=True)
class StartReview:
    """Review the last game on the board (the session hands the board to the review)."""

    at: float


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


@dataclass(frozen=True)
class Evaluate:
    """Judge the board again now (a new game asked for, the clock held or released)."""

    at: float


@dataclass(frozen=True)
class PressAdjust:
    """The adjust button (or ``done``): open or close the j'adoube window."""

    at: float


@dataclass(frozen=True)
class TakeBack:
    """Take the game back to ``ply`` (``guided``: the board is led back; ``note``: why)."""

    ply: int
    at: float
    guided: bool = False
    note: str = ""


@dataclass(frozen=True)
class Search:
    """Ask the engine for a move (a reply or a hint)."""

    purpose: Purpose


@dataclass(frozen=True)
class Finish:
    """End the game with ``outcome`` (no move brought it); ``note`` says who did what."""

    outcome: Outcome
    at: float
    note: str = ""


@dataclass(frozen=True)
class AskTakeback:
    """A remote partner, ``side``, asks to take the game back to ``ply`` (it stands until this
    board's player agrees with the takeback button or moves)."""

    side: Color
    ply: int


@dataclass(frozen=True)
class Claimable:
    """Against a person afar: the game may be claimed, their board silent for ``minutes``
    (None: no longer, their board is back)."""

    minutes: int | None


@dataclass(frozen=True)
class OfferDraw:
    """``side`` offers a draw (it stands until the other side accepts or moves)."""

    side: Color


@dataclass(frozen=True)
class Correct:
    """Carry out the arbiter's corrected move (:mod:`firmware_host.game.correction`)."""

    correction: Correction
    at: float


@dataclass(frozen=True)
class CarryOn:
    """Carry on a failed board's game here (:mod:`firmware_host.game.carry`)."""

    carry: Carry
    at: float


@dataclass(frozen=True)
class StartRound:
    """The arbiter starts round ``round``: the game takes its pairing, the clock starts full."""

    round: str
    at: float


@dataclass(frozen=True)
class Save:
    """Keep the live session (with its clock) in the store."""


@dataclass(frozen=True)
class HoldChanged:
    """The clock was held or released: the turn pauses or goes on."""

    at: float


Decision = (Publish | EnterState | Synced | CloseTouch | CancelSearch | Commit | Evaluate
            | PressAdjust | TakeBack | Search | Finish | OfferDraw | AskTakeback | Claimable
            | Correct | CarryOn | StartRound | Save | HoldChanged | SetPosition | StartReview)
