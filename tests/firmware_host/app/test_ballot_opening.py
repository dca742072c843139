"""English tournament ballots: a new game starts with a random ballot's moves (config
``game.ballot``); they are recorded, and the board is guided to the ballot position."""

from __future__ import annotations

import pytest

from board_io.events import OccupancyChanged
from engine import Board, find_variant
from engine.book import ballot_board, ballots
from firmware_host.app.service import ballot_opening
from firmware_host.config.loader import Config, ConfigError
from firmware_host.feedback.roles import Role
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig
from firmware_host.store import open_store
from firmware_host.terms.settings import Mode


def run_timers(session: Session, until: float) -> None:
    while (deadline := session.next_deadline()) is not None and deadline <= until:
        for event in session.due_timers(deadline):
            session.handle(event)


def test_ballot_moves_are_recorded_and_the_board_is_guided_to_them() -> None:
    ballot = ballots(3)[36]
    after = ballot_board(ballot)
    store = open_store("memory", "ballot-test")
    frames: list[dict[int, object]] = []
    session = Session("english", store, SessionConfig(mode=Mode.RECORD, error_ms=500),
                      opening=lambda board: list(after.move_stack), show_leds=frames.append,
                      wall_clock=lambda: 1_700_000_000.0)
    events: list[dict[str, object]] = []
    session.subscribe(events.append)
    start = Board("english").occupied_squares()
    session.start(start, 0.0)

    moves = [e for e in events if e["event"] == "move"]
    assert [m["pdn"] for m in moves] == list(ballot.moves)
    assert {m["by"] for m in moves} == {"ballot"}
    assert session.board.fen() == after.fen()
    stored = store.load_game(str(session.game_id))
    assert [m.pdn for m in stored.moves] == list(ballot.moves)

    # The board still shows the initial position: after error_ms the LEDs say what to change.
    run_timers(session, 1.0)
    shown = session.frame
    assert frames[-1] == {sq: role.led for sq, role in shown.items()}  # as the LEDs show it
    missing = after.occupied_squares() - start
    extra = start - after.occupied_squares()
    assert {sq for sq, led in shown.items() if led is Role.MISSING} == missing
    assert {sq for sq, led in shown.items() if led is Role.EXTRA} == extra

    session.handle(OccupancyChanged(after.occupied_squares(), None, 1.5))
    assert session.state.value == "human_to_move"
    reply = next(iter(after.legal_moves))
    board = after.copy()
    board.push(reply)
    session.handle(OccupancyChanged(board.occupied_squares(), None, 2.0))
    run_timers(session, 3.0)
    assert len(store.load_game(str(session.game_id)).moves) == len(ballot.moves) + 1


def test_ballot_option_is_for_english_only() -> None:
    config = Config.from_mapping({"game": {"variant": "russian", "ballot": "3-move"}})
    with pytest.raises(ConfigError, match="applies to English checkers only"):
        ballot_opening(config, find_variant("russian"))
    english = Config.from_mapping({"game": {"variant": "english", "ballot": "2-move"},
                                   "engine": {"seed": 7}})
    opening = ballot_opening(english, find_variant("english"))
    assert opening is not None
    drawn = opening(Board("english"))
    assert len(drawn) == 2
    assert ballot_opening(Config.from_mapping({}), find_variant("english")) is None
