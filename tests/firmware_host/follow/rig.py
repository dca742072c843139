"""A board service that follows a game, in virtual time, and the hand that carries out what it
lights."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

from board_io.clock import VirtualClock
from engine import Move
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service
from firmware_host.config import Config
from firmware_host.follow.follower import Following
from firmware_host.game.types import State

__all__ = ["FollowingBoard"]


class FollowingBoard:
    """``draughtsboard run --follow SOURCE`` on the simulated board, in virtual time: the test
    polls the source (:meth:`poll`) where the service's thread would."""

    def __init__(self, source: str, directory: Path, *, url: str = "memory",
                 board_id: str = "follower", variant: str = "international") -> None:
        self.stack = ExitStack()
        self.clock = VirtualClock()
        self.events: list[dict[str, Any]] = []
        config = Config.from_mapping({
            "game": {"variant": variant}, "follow": {"source": source},
            "board": {"id": board_id},
            "store": {"url": url, "games_dir": str(directory / "games"),
                      "spool_dir": str(directory / "spool")}})
        self.service: Service = build_service(config, self.stack, Wiring(
            clock=self.clock, virtual_time=True, notifier=Notifier(environ={}),
            listeners=[self.events.append]))
        assert self.service.sim is not None and self.service.follow is not None
        self.sim = self.service.sim
        self.follow: Following = self.service.follow
        self.run(1.0)

    @property
    def session(self) -> Any:
        return self.service.session

    def run(self, seconds: float) -> None:
        period = self.service.scan_period
        end = self.clock.monotonic() + seconds
        while self.clock.monotonic() < end:
            now = self.clock.monotonic() + period
            self.clock.set(now)
            self.service.controller.step(now)

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

    def close(self) -> None:
        self.stack.close()
