"""Two boards playing each other in virtual time (whole services on simulated boards, one real
redis-server): the helpers the duel's scenario tests share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from firmware_host.game.fields import occupancy
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import Command
from tests.firmware_host.web.harness import BoardRig

#: The name White's player has on Black's board (White's board knows Black's board only).
WHITE = "Ann Smit"


@contextmanager
def two_boards(url: str, directory: Path, **remote: Any) -> Iterator[tuple[BoardRig, BoardRig]]:
    """Board ``<dir>-a`` plays White against ``<dir>-b``, Black, on one Redis (``remote``: more
    of the ``[remote]`` section)."""
    a, b = f"{directory.name[:20]}-a", f"{directory.name[:20]}-b"
    rigs = []
    try:
        for me, partner, side, names in ((a, b, "white", {}),
                                         (b, a, "black", {"white": WHITE})):
            rigs.append(BoardRig(url, me, directory / me, mode="play", variant="international",
                                 extra={"game": {"human_side": side, **names},
                                        "remote": {"opponent": partner, **remote}}))
        poll(*rigs)
        yield rigs[0], rigs[1]
    finally:
        for rig in rigs:
            rig.close()


def poll(*rigs: BoardRig) -> None:
    for _ in range(2):  # (what one board writes, the other reads at its next poll)
        for rig in rigs:
            assert rig.service.duel is not None
            rig.service.duel.poll()
            rig.run(0.3)


def press(rig: BoardRig, name: str, value: str | None = None) -> None:
    rig.service.controller.post(Command(name, rig.clock.monotonic(), value=value))
    rig.run(0.3)


def move(mover: BoardRig, receiver: BoardRig, text: str) -> None:
    """``mover``'s player moves by hand; it is lit on ``receiver`` and carried out there."""
    mover.play(text)
    poll(mover, receiver)
    receiver.play_computer_move()
    poll(mover, receiver)


def set_up(rig: BoardRig) -> None:
    """The hands put the board as its game stands (after a takeback)."""
    wanted = occupancy(rig.session.board)
    for square in rig.sim.occupied - wanted:
        rig.sim.lift(square)
    for square in wanted - rig.sim.occupied:
        rig.sim.place(square)
    rig.run(1.0)


def said(rig: BoardRig, kind: str) -> list[dict[str, object]]:
    return [e for e in rig.events if e.get("event") == kind]


def record(rig: BoardRig) -> GameRecord:
    return rig.service.store.load_game(rig.session.game_id)
