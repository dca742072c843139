"""A handler that fails half-way: the controller logs it and the session re-syncs from the board."""

from __future__ import annotations

from typing import Any

import pytest

from board_io.clock import VirtualClock
from board_io.scanner import Scanner
from board_io.sim import ScriptPlayer, SimulatedBoard, parse_script
from engine import Board
from firmware_host.game.controller import Controller, run_script
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig, State
from firmware_host.recognition.layout import layout_for
from firmware_host.store import open_store
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def record_rig() -> tuple[SimulatedBoard, Controller[Session], Session]:
    clock = VirtualClock()
    board = SimulatedBoard(layout_for("english"), occupied=Board("english").occupied_squares(),
                           clock=clock)
    scanner = Scanner(board.sensor_matrix, board.cell_map, buttons=board.buttons)
    session = Session("english", open_store("memory", Rig.board_id()),
                      SessionConfig(mode=Mode.RECORD))
    return board, Controller(session, scanner, clock=clock), session


def fail_once(target: Any, name: str, after: int = 0) -> list[str]:
    """Make ``target.name`` raise once, at its call after the first ``after``; the list records
    the failure."""
    real, failed, calls = getattr(target, name), list[str](), [0]

    def broken(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if not failed and calls[0] > after:
            failed.append(name)
            raise RuntimeError(f"{name} broke")
        return real(*args, **kwargs)

    setattr(target, name, broken)
    return failed


def moves(session: Session) -> list[str]:
    assert session.game_id is not None
    return [m.pdn for m in session._store.load_game(session.game_id).moves]


@pytest.mark.logs_errors
def test_a_failed_commit_is_recovered_from_the_board(caplog: pytest.LogCaptureFixture) -> None:
    board, controller, session = record_rig()
    failed = fail_once(session.game, "play")
    script = parse_script("100 lift 11\n250 place 15\n", board.layout, initial=board.occupied)
    run_script(controller, ScriptPlayer(board, script).ticks())
    assert failed == ["play"]
    assert "handling" in caplog.text  # logged, and the board goes on
    # Nobody touched the board after the failure: the session re-synced from it.
    assert moves(session) == ["11-15"]
    assert session.state is State.HUMAN_TO_MOVE


@pytest.mark.logs_errors
def test_a_turn_left_half_entered_is_entered_again() -> None:
    board, controller, session = record_rig()
    failed = fail_once(session.timekeeper, "turn", after=1)  # the first turn: at the start
    script = parse_script("100 lift 11\n250 place 15\n", board.layout, initial=board.occupied)
    run_script(controller, ScriptPlayer(board, script).ticks())
    assert failed == ["turn"]
    assert moves(session) == ["11-15"]
    assert session.state is State.HUMAN_TO_MOVE and session.in_sync
    assert controller.quiet
    # The game goes on: White's reply is recorded.
    script = parse_script("100 lift 23\n250 place 19\n", board.layout, initial=board.occupied)
    run_script(controller, ScriptPlayer(board, script).ticks())
    assert moves(session) == ["11-15", "23-19"]


@pytest.mark.logs_errors
def test_a_recovery_that_fails_too_does_not_stop_the_loop(
        caplog: pytest.LogCaptureFixture) -> None:
    board, controller, session = record_rig()
    fail_once(session.game, "play")
    fail_once(session, "recover")
    script = parse_script("100 lift 11\n250 place 15\n", board.layout, initial=board.occupied)
    run_script(controller, ScriptPlayer(board, script).ticks())
    assert "recover" in caplog.text
    # The next board change is judged again (the move is still on the board).
    script = parse_script("100 lift 23\n250 place 19\n", board.layout, initial=board.occupied)
    run_script(controller, ScriptPlayer(board, script).ticks())
    assert controller.started
