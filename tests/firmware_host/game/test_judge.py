"""The judge decides, the session carries out: what the judge returns, read without acting."""

from __future__ import annotations

import pytest

from engine import Board
from firmware_host.game.decisions import CloseTouch, Commit, EnterState
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig, SessionError, State
from firmware_host.store import open_store
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def started(settle_ms: int = 0) -> Session:
    session = Session("english", open_store("memory", Rig.board_id()),
                      SessionConfig(mode=Mode.RECORD, settle_ms=settle_ms))
    session.start(Board("english").occupied_squares(), at=0.0)
    return session


def test_a_released_move_is_a_commit_decision_the_judge_does_not_carry_out() -> None:
    session = started()
    sq = session.variant.parse_square
    session.occupied = (session.game.position - {sq("11")}) | {sq("15")}
    decisions = session._judge.evaluate(1.0)
    assert decisions[0] == EnterState(State.MOVE_IN_PROGRESS)
    assert decisions[1] == CloseTouch(1.0)
    commit = decisions[2]
    assert isinstance(commit, Commit) and commit.by == "human" and commit.at == 1.0
    assert session.board.move_notation(commit.move) == "11-15"
    # Nothing was carried out: the game has no move and the state is the one it was.
    assert session.board.move_stack == [] and session.state is State.HUMAN_TO_MOVE


def test_a_move_held_on_the_board_decides_nothing_yet() -> None:
    session = started(settle_ms=300)
    sq = session.variant.parse_square
    session.occupied = (session.game.position - {sq("11")}) | {sq("15")}
    assert session._judge.evaluate(1.0) == [EnterState(State.MOVE_IN_PROGRESS)]


def test_a_pending_state_without_a_pending_move_is_a_session_error() -> None:
    session = started()
    session.state = State.COMPUTER_MOVE_PENDING  # a bug would leave it so: not an assert
    with pytest.raises(SessionError, match="pending"):
        session._judge.evaluate(1.0)
