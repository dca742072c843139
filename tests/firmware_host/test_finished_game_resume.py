"""A finished game stays finished across a restart, and keeps nothing of its last turn."""

from __future__ import annotations

import contextlib

from engine import Board
from firmware_host.game.session import Session
from firmware_host.game.types import Mode, SessionConfig
from firmware_host.store import RedisStore, open_store
from firmware_host.store.records import MoveRecord
from tests.firmware_host.session_harness import Rig


def test_a_finished_games_touch_obligation_does_not_outlive_a_restart() -> None:
    # Issue 12: black's last move c3:a1 was touched (strict touch-move in record mode); after a
    # restart the new game must not start with a phantom "touch c3" that refuses White's c3-d4.
    rig = Rig("russian", fen="B:Wb2:Bc3")
    rig.lift("c3")
    assert rig.last("touch")["square"] == "c3"
    rig.lift("b2")
    rig.place("a1")
    rig.wait(rig.config.settle_ms + 10)  # released
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


class Killed(BaseException):
    """The process died here (not an error the service could catch)."""


class DiesAfterTheLastMove:
    """A store that works until the game's last move is durable; then the process is killed."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.dead = False

    def __getattr__(self, name: str) -> object:
        if self.dead and name not in ("publish",):
            raise Killed(name)
        return getattr(self.store, name)

    def append_move(self, game_id: str, record: MoveRecord, **extra: object) -> None:
        if self.dead:
            raise Killed("append_move")
        self.store.append_move(game_id, record, **extra)  # type: ignore[arg-type]
        self.dead = True

    def publish(self, event: dict[str, object]) -> None:
        """A dead process publishes nothing."""


def test_a_kill_right_after_the_last_move_keeps_the_result() -> None:
    # Issue 12: killed between a game's last move and its result, the game used to stay "*"
    # forever and resume in a dead position.
    store = open_store("memory", "killed-at-the-end")
    rig = Rig("russian", fen="B:Wb2:Bc3", store=DiesAfterTheLastMove(store))
    rig.lift("c3")
    rig.lift("b2")
    with contextlib.suppress(Killed):  # whatever the session writes next is never written
        rig.place("a1")
        rig.wait(1000)  # the settle time: a new king might still capture on
    assert store.load_game(rig.session.game_id or "").moves[-1].pdn == "c3:a1"
    assert store.load_game(rig.session.game_id or "").result == "0-1"
    restarted = Session("russian", store, SessionConfig(mode=Mode.RECORD))
    restarted.start(frozenset(rig.occupied), at=100.0)
    assert restarted.state.value == "game_over"
    assert restarted.outcome is not None and restarted.outcome.winner == 1
