"""A finished game stays finished across a restart, and keeps nothing of its last turn."""

from __future__ import annotations

from engine import Board
from firmware_host.game.session import Session
from firmware_host.game.types import Mode, SessionConfig
from tests.firmware_host.session_harness import Rig


def test_a_finished_games_touch_obligation_does_not_outlive_a_restart() -> None:
    # Issue 12: black's last move c3:a1 was touched (strict touch-move in record mode); after a
    # restart the new game must not start with a phantom "touch c3" that refuses White's c3-d4.
    rig = Rig("russian", fen="B:Wb2:Bc3")
    rig.lift("c3")
    assert rig.last("touch")["square"] == "c3"
    rig.lift("b2")
    rig.place("a1")
    assert rig.last("result")["winner"] == "black"
    restarted = Session("russian", rig.store, SessionConfig(mode=Mode.RECORD))
    restarted.start(frozenset(rig.occupied), at=100.0)
    assert restarted.state.value == "game_over"
    rig.session = restarted
    rig.events.clear()
    restarted.subscribe(rig.events.append)
    rig.now = 100.0
    rig.set(Board("russian").occupied_squares())
    rig.wait(2000)
    assert rig.published("new_game")
    assert restarted.obligation is None
    assert not rig.published("touch")
    rig.play("c3-d4")
    assert rig.moves() == ["c3-d4"]
