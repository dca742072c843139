"""A board service that follows a game, in virtual time, and the hand that carries out what it
lights."""

from __future__ import annotations

from pathlib import Path

from engine import Move
from firmware_host.follow.follower import Following
from firmware_host.game.types import State
from tests.firmware_host.web.harness import BoardRig

__all__ = ["FollowingBoard"]


class FollowingBoard(BoardRig):
    """``draughtsboard run --follow SOURCE`` on the simulated board, in virtual time: the test
    polls the source (:meth:`poll`) where the service's thread would."""

    def __init__(self, source: str, directory: Path, *, url: str = "memory",
                 board_id: str = "follower", variant: str = "international") -> None:
        super().__init__(url, board_id, directory, mode="play", variant=variant,
                         extra={"follow": {"source": source}})
        assert self.service.follow is not None
        self.follow: Following = self.service.follow

    def beat(self, state: str = "running") -> None:
        """A heartbeat where there is a Redis (none with the memory store)."""
        if self.url != "memory":
            super().beat(state)

    def poll(self) -> None:
        self.follow.poll()
        self.run(0.5)

    def lit(self) -> Move:
        """The move the LEDs show for the hand to carry out (its squares are lit)."""
        session = self.session
        assert session.state is State.COMPUTER_MOVE_PENDING, session.state
        move: Move = session.pending
        assert {move.origin, move.destination} <= set(session.frame)
        return move

    def carry_out(self) -> Move:
        """The hand carries out the lit move (the captured pieces taken off), and lets go."""
        move = self.lit()
        self.sim.lift(move.origin)
        for square in move.captures:
            self.sim.lift(square)
        self.sim.place(move.destination)
        self.run(1.0)
        return move
