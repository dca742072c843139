"""engine.draw.history keeps the last games' replays and goes on from them: whatever a board
does between two questions (moves, takebacks, copies, other games, other variants asked about
in between), its facts are those of a replay from its root, and its outcome too.

A rule-based state machine (Hypothesis): a few boards of a few variants, each started from the
initial position or from a kings' endgame (where the draw rules decide), moves pushed and
popped, boards copied, and after each step a board's history compared with
:func:`engine.draw.replay_history` (the replay from the root every time, nothing kept).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine import Board, Move
from engine.draw import KEPT_REPLAYS, history, replay_history
from tests.conftest import sample_size

#: Starts: each variant's initial position and a kings' endgame its draw rules count.
STARTS = [
    ("international", None), ("international", "W:WK46,K47,K48:BK5"),
    ("russian", None), ("russian", "W:WKa1,Kc1,Ke1:BKh8"),
    ("english", None), ("english", "B:WK29,K30:BK3"),
    ("brazilian", None), ("frisian", None), ("turkish", None),
]


class Boards(RuleBasedStateMachine):
    """More boards than replays are kept, so some questions find none and some find another
    game's."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[Board] = []
        self.rng = random.Random(0)

    @initialize(seed=st.integers(0, 2**16))
    def seeded(self, seed: int) -> None:
        self.rng = random.Random(seed)

    @precondition(lambda self: len(self.boards) < KEPT_REPLAYS + 3)
    @rule(start=st.sampled_from(STARTS))
    def new_board(self, start: tuple[str, str | None]) -> None:
        variant, fen = start
        self.boards.append(Board(variant, fen=fen))

    @precondition(lambda self: bool(self.boards))
    @rule(which=st.integers(0, 100), plies=st.integers(1, 12))
    def play(self, which: int, plies: int) -> None:
        board = self.boards[which % len(self.boards)]
        for _ in range(plies):
            moves = sorted(board.legal_moves, key=board.move_notation)
            if not moves or board.outcome() is not None:
                return
            board.push(self.rng.choice(moves))

    @precondition(lambda self: bool(self.boards))
    @rule(which=st.integers(0, 100), plies=st.integers(1, 6))
    def take_back(self, which: int, plies: int) -> None:
        board = self.boards[which % len(self.boards)]
        for _ in range(min(plies, len(board.move_stack))):
            board.pop()

    @precondition(lambda self: bool(self.boards) and len(self.boards) < KEPT_REPLAYS + 3)
    @rule(which=st.integers(0, 100))
    def copy(self, which: int) -> None:
        self.boards.append(self.boards[which % len(self.boards)].copy())

    @precondition(lambda self: bool(self.boards))
    @rule(which=st.integers(0, 100))
    def asked(self, which: int) -> None:
        board = self.boards[which % len(self.boards)]
        assert history(board) == replay_history(board)

    @invariant()
    def every_board_s_outcome_is_the_root_replay_s(self) -> None:
        for board in self.boards[-2:]:
            material, key, plies = replay_history(board)
            assert history(board) == (material, key, plies)


Boards.TestCase.settings = settings(max_examples=sample_size(40, 400), stateful_step_count=30,
                                    deadline=None)
test_kept_replays_are_the_root_replay = Boards.TestCase


def test_a_long_game_asked_after_every_move_is_replayed_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A board asking after each of its moves (as a session does) has each move replayed once,
    not the whole game again each time."""
    board = Board("international")
    replayed = 0
    push = Board.push

    def counted(self: Board, move: Move) -> None:
        nonlocal replayed
        replayed += 1
        push(self, move)

    rng = random.Random(7)
    for _ in range(60):
        moves = sorted(board.legal_moves, key=board.move_notation)
        if not moves:
            break
        board.push(rng.choice(moves))
        after = board.copy()
        with monkeypatch.context() as patched:
            patched.setattr(Board, "push", counted)
            history(after)
    assert len(board.move_stack) >= 40
    assert replayed == len(board.move_stack)
