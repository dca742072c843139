"""A finished game stays finished across a restart, and keeps nothing of its last turn."""

from __future__ import annotations

import contextlib

import pytest

from engine import Board
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig
from firmware_host.store import RedisStore, open_store
from firmware_host.store.records import MoveRecord
from firmware_host.terms.settings import Mode
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



def _watched_session(store: RedisStore, variant: str) -> Session:
    """A session with its sensor watch, as the service builds it (a diode-less matrix)."""
    from board_io.geometry import CellMap
    from firmware_host.recognition.health import HealthTracker, Wiring
    from firmware_host.recognition.layout import layout_for

    wiring = Wiring.from_cell_map(CellMap.identity(layout_for(variant)))
    start = Board(variant).occupied_squares()
    return Session(variant, store, SessionConfig(mode=Mode.RECORD),
                   health=HealthTracker(wiring, expected=start, at=0.0))


def _watch(rig: Rig, session: Session, occupied: frozenset[int], at: float) -> None:
    rig.session, rig.now, rig.occupied = session, at, set(occupied)
    session.subscribe(rig.events.append)
    session.start(occupied, at=at)


def test_a_start_position_set_up_in_one_scan_after_a_restart_starts_a_new_game() -> None:
    # Issue 26: after a restart with a finished game on the board, the start position set up in
    # one scan (the microcontroller reconnecting with the pieces already reset) was read as 21
    # ghosts (sensor_fault missing_diode on every new piece) and no new game started.
    rig = Rig("russian", fen="B:Wb2:Bc3")
    rig.lift("c3")
    rig.lift("b2")
    rig.place("a1")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.last("result")["winner"] == "black"
    rig.events.clear()
    _watch(rig, _watched_session(rig.store, "russian"), frozenset(rig.occupied), 100.0)
    assert rig.state == "game_over"
    rig.set(Board("russian").occupied_squares())
    rig.wait(rig.config.newgame_ms + 100)
    assert not rig.published("sensor_fault")
    assert rig.published("new_game")
    rig.play("c3-d4")
    assert rig.moves() == ["c3-d4"]


@pytest.mark.parametrize("scans", [1, 2], ids=["one scan", "two scans"])
def test_a_start_position_set_up_on_a_cleared_board_starts_a_new_game(scans: int) -> None:
    # The same without a restart: a game resigned, the board cleared, the start position put
    # down at once (or in two handfuls): a set-up, not ghosts.
    rig = Rig("russian", start=False)
    start = Board("russian").occupied_squares()
    _watch(rig, _watched_session(rig.store, "russian"), start, 0.0)
    rig.play("c3-d4")
    rig.command("resign", side="black")
    assert rig.state == "game_over"
    rig.set(set())
    ordered = sorted(start)
    for part in range(scans):
        rig.set(set(ordered[:len(ordered) * (part + 1) // scans]))
    rig.wait(rig.config.newgame_ms + 100)
    assert not rig.published("sensor_fault")
    assert len(rig.published("new_game")) == 2
    rig.play("c3-b4")
    assert rig.moves() == ["c3-b4"]


def test_a_ghost_beside_a_start_position_is_still_a_ghost() -> None:
    # Ghost diagnosis stays where the readings are not a legal set-up: the start position put
    # down in one scan with a square of the empty middle rows that closes a rectangle with it.
    from board_io.geometry import CellMap
    from firmware_host.recognition.layout import layout_for

    rig = Rig("russian", start=False)
    start = Board("russian").occupied_squares()
    _watch(rig, _watched_session(rig.store, "russian"), start, 0.0)
    rig.play("c3-d4")
    rig.command("resign", side="black")
    rig.set(set())
    # Two squares of one empty middle row put down with the start position: each closes a
    # rectangle with the other and two start squares, so the one without a piece is a ghost.
    cells = CellMap.identity(layout_for("russian")).cells
    row = cells[rig.sq("a5")][0]
    extra = {sq for sq in range(len(cells)) if cells[sq][0] == row and sq not in start}
    pair = set(sorted(extra)[:2])
    rig.set(start | pair)
    rig.wait(rig.config.newgame_ms + 100)
    faults = rig.published("sensor_fault")
    assert {(e["square"], e["cause"]) for e in faults} == {
        (rig.variant.square_name(sq), "missing_diode") for sq in pair}
    assert len(rig.published("new_game")) == 1
