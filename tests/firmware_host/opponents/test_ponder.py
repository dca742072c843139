"""Pondering: the engine thinks on the human's time, on the position after the reply it expects.

The session says when it may (play mode, the ``ponder`` setting: on, or auto where a core is
free; never in teach mode), the worker starts it after a reply, and the engine's process answers
a hit at once or from the search under way, and a miss afresh.
"""

from __future__ import annotations

import threading

import pytest

from board_io.clock import VirtualClock
from engine import Board, Move
from engine.search import Limit, SearchResult, StopToken
from firmware_host.config import Config
from firmware_host.opponents.build import build_opponent
from firmware_host.opponents.opponent import HubOpponent, Ponderer
from firmware_host.opponents.worker import ThreadEngineWorker
from firmware_host.terms.commands import Command
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def reply_job(rig: Rig) -> EngineJob:
    (job,) = [j for j in rig.worker.jobs if j.purpose is Purpose.REPLY]
    return job


@pytest.mark.parametrize(("mode", "ponder", "spare_core", "expected"), [
    (Mode.PLAY, "on", False, True),
    (Mode.PLAY, "auto", True, True),
    (Mode.PLAY, "auto", False, False),  # one core: the service's
    (Mode.PLAY, "off", True, False),
    (Mode.TEACH, "on", True, False),    # teach mode's hints need the engine
])
def test_the_session_lets_the_engine_ponder_after_a_reply(
        mode: Mode, ponder: str, spare_core: bool, expected: bool) -> None:
    rig = Rig("international", mode=mode, manual=True, ponder=ponder, spare_core=spare_core)
    rig.play("32-28")
    assert reply_job(rig).ponder is expected


def test_a_hint_is_never_followed_by_pondering() -> None:
    rig = Rig("international", mode=Mode.PLAY, manual=True, ponder="on")
    rig.command("hint")
    (job,) = rig.worker.jobs
    assert job.purpose is Purpose.HINT and not job.ponder


def test_the_ponder_setting_applies_from_the_next_game() -> None:
    rig = Rig("international", mode=Mode.PLAY, manual=True, ponder="on")
    rig.session.handle(Command("ponder", rig.now, value="sometimes"))
    assert rig.last("command_refused")["reason"] == "bad_value"
    rig.session.handle(Command("ponder", rig.now, value="off"))
    assert rig.last("settings")["pending"] == {"ponder": "off"}
    assert rig.session.config.ponder == "on"
    rig.play("32-28")
    assert reply_job(rig).ponder
    rig.command("newgame")
    rig.set(rig.session.game.initial)
    rig.wait(rig.config.newgame_ms + 10)
    assert rig.session.config.ponder == "off"


class Pondering:
    """An opponent that answers at once and records what it is asked to ponder."""

    def __init__(self, line: list[str]) -> None:
        self.line = line
        self.pondered: list[Board] = []
        self.asked = threading.Event()

    @property
    def name(self) -> str:
        return "pondering"

    def best_move(self, board: Board, limit: Limit, stop: StopToken | None = None
                  ) -> SearchResult:
        probe, pv = board.copy(), []
        for text in self.line:
            move = probe.parse_move(text)
            pv.append(move)
            probe.push(move)
        return SearchResult(pv[0], 0, 1, 1, 0.0, tuple(pv))

    def ponder(self, board: Board, limit: Limit) -> bool:
        self.pondered.append(board)
        self.asked.set()
        return True

    def close(self) -> None:
        pass


def test_the_worker_ponders_on_the_position_after_the_expected_reply() -> None:
    opponent = Pondering(["32-28", "19-23"])
    assert isinstance(opponent, Ponderer)
    results: list[EngineResult] = []
    worker = ThreadEngineWorker(opponent, Limit(depth=3), VirtualClock(), post=results.append)
    worker.submit(EngineJob(1, Purpose.REPLY, Board(), ponder=True))
    assert opponent.asked.wait(30)
    worker.close()
    (pondered,) = opponent.pondered
    expected = Board()
    expected.push(expected.parse_move("32-28"))
    expected.push(expected.parse_move("19-23"))
    assert pondered.fen() == expected.fen() and len(pondered.move_stack) == 2
    assert results[0].move == pondered.move_stack[0]  # the reply was posted first


@pytest.mark.parametrize("job", [EngineJob(1, Purpose.REPLY, Board(), ponder=False),
                                 EngineJob(1, Purpose.HINT, Board(), ponder=True)],
                         ids=["off", "hint"])
def test_the_worker_does_not_ponder_unasked(job: EngineJob) -> None:
    opponent = Pondering(["32-28", "19-23"])
    done = threading.Event()
    worker = ThreadEngineWorker(opponent, Limit(depth=3), VirtualClock(),
                                post=lambda result: done.set())
    worker.submit(job)
    assert done.wait(30)
    worker.close()  # joins the thread: it would have pondered before it ended
    assert opponent.pondered == []


def builtin_process(level: int) -> HubOpponent:
    opponent, _ = build_opponent(Config.from_mapping({"engine": {"level": level}}),
                                 Board().variant)
    assert isinstance(opponent, HubOpponent) and opponent.engine.config.builtin
    return opponent


def expected_reply(board: Board, result: SearchResult) -> tuple[Move, Move]:
    assert len(result.pv) >= 2 and result.move == result.pv[0]
    return result.pv[0], result.pv[1]


def test_a_ponder_hit_in_the_engines_process_is_answered_from_its_search() -> None:
    limit = Limit(depth=3, movetime=5.0)
    with builtin_process(3) as opponent:
        board = Board()
        first = opponent.best_move(board, limit)
        ours, theirs = expected_reply(board, first)
        board.push(ours)
        board.push(theirs)
        assert opponent.ponder(board, limit)
        result = opponent.best_move(board, limit)  # the human played the expected reply
        assert result.move in board.legal_moves
        assert opponent.hits == 1
        assert opponent.engine.starts == 1


def test_a_ponder_miss_in_the_engines_process_searches_the_move_played() -> None:
    limit = Limit(depth=3, movetime=5.0)
    with builtin_process(3) as opponent:
        board = Board()
        ours, theirs = expected_reply(board, opponent.best_move(board, limit))
        board.push(ours)
        pondered = board.copy()
        pondered.push(theirs)
        assert opponent.ponder(pondered, limit)
        other = next(m for m in board.legal_moves if m.key() != theirs.key())
        board.push(other)
        result = opponent.best_move(board, limit)
        assert result.move in board.legal_moves and opponent.hits == 0
