"""The engine's jobs: what the session asks of the engine and the answer that comes back.

The session submits an :class:`EngineJob` to its :class:`Thinker` (the engine worker,
:mod:`firmware_host.opponents.worker`), which runs it off the scan thread and posts an
:class:`EngineResult` to the controller's queue: the one event type both sides know.

>>> from engine import Board
>>> EngineJob(1, Purpose.HINT, Board("english")).purpose.value
'hint'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine import Board
from engine.types import Move

__all__ = ["EngineJob", "EngineResult", "Purpose", "Reason", "Thinker"]


class Purpose(Enum):
    """Why the session asked the engine for a move."""

    REPLY = "reply"
    HINT = "hint"


@dataclass(frozen=True)
class Reason:
    """Why a hinted move is good: its kind and how many pieces and moves it concerns."""

    kind: str
    pieces: int
    moves: int


@dataclass(frozen=True)
class EngineResult:
    """The engine worker finished a job: ``move`` is None when it failed (``error`` says why)."""

    token: int
    purpose: Purpose
    move: Move | None
    at: float
    error: str | None = None
    #: Why the move is good (hints).
    reasons: tuple[Reason, ...] = ()
    #: A remote opponent's move: the time its mover has left, as its own board's clock says
    #: (None: no clock there, or an engine's move).
    clock: float | None = None


@dataclass(frozen=True)
class EngineJob:
    """A search the session asks for; ``ponder``: once it has answered (a reply), the engine
    may think on the position after the reply it expects, on the human's time."""

    token: int
    purpose: Purpose
    board: Board
    ponder: bool = False


class Thinker(Protocol):
    """Runs engine jobs off the scan thread and posts an :class:`EngineResult` per job."""

    def submit(self, job: EngineJob) -> None:
        """Start ``job``; the result arrives later as an event."""
        ...

    def cancel(self) -> None:
        """Stop the running job, if any; its result, if it still comes, is ignored."""
        ...
