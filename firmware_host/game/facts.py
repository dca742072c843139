"""The facts of a session and its guards, read from its game, board and touch tracker.

:class:`SessionFacts` is the base of :class:`~firmware_host.game.session.Session`: what the
session *is* now, apart from what it does. A collaborator reads these facts through a narrow
Protocol of its own (:class:`~firmware_host.game.judge.Table`, ...), never the session.
"""

from __future__ import annotations

from typing import Protocol

from engine import Board
from engine.outcome import Outcome
from engine.types import Move, Square
from firmware_host.game.game import Game
from firmware_host.game.touch import TouchTracker
from firmware_host.game.types import SessionConfig
from firmware_host.terms.settings import Mode

__all__ = ["GameFacts", "SessionFacts"]


class GameFacts(Protocol):
    """The facts of the game in play, as the collaborators' Protocols (commands, timekeeper,
    correction) read them."""

    @property
    def game(self) -> Game: ...
    @property
    def board(self) -> Board: ...
    @property
    def game_id(self) -> str | None: ...
    @property
    def outcome(self) -> Outcome | None: ...


class SessionFacts:
    """The read-only facts of a session (its game, config, touch tracker and the board's
    stable occupancy are set by the session)."""

    game: Game
    config: SessionConfig
    touch: TouchTracker
    occupied: frozenset[Square]

    @property
    def board(self) -> Board:
        """The game position (with its move stack)."""
        return self.game.board

    @property
    def game_id(self) -> str | None:
        """The store's id of the current game."""
        return self.game.game_id

    @property
    def pending(self) -> Move | None:
        """The computer's move shown on the LEDs, not yet carried out."""
        return self.game.pending

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        return self.game.outcome

    @property
    def obligation(self) -> Square | None:
        """The square of the touched piece that must move (strict touch-move), or None."""
        return self.touch.obliged

    @property
    def human_turn(self) -> bool:
        """Guard: the side to move is played by a human."""
        return self.config.mode is Mode.RECORD or self.board.turn == self.config.human_side

    @property
    def in_sync(self) -> bool:
        """Guard: the board shows the game position."""
        return self.occupied == self.game.position

    def is_initial(self) -> bool:
        """Guard: the board shows a new game's start position."""
        return self.occupied == self.game.initial

    def takeback_target(self) -> int | None:
        """The latest earlier ply whose position the board shows, with the human to move."""
        return self.game.takeback_target(self.occupied, self.config.human_side)
