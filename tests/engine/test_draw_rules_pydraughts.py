"""The FMJD endgame counts against pydraughts, in the games where pydraughts counts them right.

pydraughts (0.6.7) counts the 5- and 16-move endgames from its last capture in plies of kings
only (10 and 32), so in games of kings only, where no man moves and every change of material is
a capture, its count is the rule's: the moves made after the capture that made the endgame.
(With men on the board it restarts the count on a man move, which the FMJD text does not; those
games are left out.) Random games of kings, several of them one capture away from a 5- or
16-move endgame, are played on both boards in lockstep: at every ply both must say the same
about a draw.

Sample size: ``sample_size(ci=40, full=2_000)`` games.
"""

from __future__ import annotations

import random

from draughts import Board as PyBoard

from engine import Board
from tests.conftest import sample_size
from tests.engine.test_differential_pydraughts import _their_fen

STARTS = [
    "W:WK46,K47,K48:BK3,K5",      # a capture of a black king makes the 16-move endgame
    "W:WK46,K47:BK3,K5",          # ... the 5-move endgame
    "W:WK28,K33:BK19",            # 2 kings v 1 from the start
    "B:WK46,K47,K48,K49:BK3,K4",
    "W:WK35:BK46,K24",
    "W:WK35:B24,K46",             # the game: 35x13 makes one king each
]


def _their_move(theirs: PyBoard, key: tuple[int, int, frozenset[int]]) -> object:
    for move in theirs.legal_moves():
        steps = move.board_move
        caps = frozenset(c - 1 for c in (move.captures or []) if c is not None)
        if (steps[0][0] - 1, steps[-1][1] - 1, caps) == key:
            return move
    raise AssertionError(f"pydraughts has no move {key}")


def test_kings_only_endgames_are_drawn_on_the_same_ply_as_pydraughts_says() -> None:
    rng = random.Random(27)
    drawn = 0
    for _ in range(sample_size(ci=40, full=2_000)):
        board = Board("international", rng.choice(STARTS))
        theirs = PyBoard("standard", _their_fen(board))
        for _ply in range(150):
            outcome = board.outcome()
            if outcome is not None and outcome.winner is not None:
                break  # a win: pydraughts' is_draw says nothing about it
            ours = outcome is not None
            assert ours == theirs._game.is_draw(), (board.root().fen(), board.fen(), outcome)
            if ours:
                drawn += 1
                break
            move = rng.choice(list(board.legal_moves))
            theirs.push(_their_move(theirs, move.key()))
            board.push(move)
    assert drawn > 0
