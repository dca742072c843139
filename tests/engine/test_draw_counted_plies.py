"""engine.draw.counted_plies: the game's last plies its rules still look back on.

An engine in another process is sent a position and the moves since (a Hub ``pos`` line). Set up
at the position before the counted plies, with them played, a board must end, draw and move as
the whole game does, now and after every later move of the game: a count cut short (the
16-move rule across a man's move, Portuguese's 20 moves across a king's capture of a man,
Turkish repetitions across a man's sideways move) would let that engine play for a win the
arbiter has already drawn, or miss a draw it could claim.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Board, Move
from engine.draw import counted_plies
from tests.conftest import sample_size
from tests.engine.helpers import PORTUGUESE_20_MOVES, SIXTEEN_MOVES, played

#: Endgames where the counts run while men still move, and the initial positions of the
#: variants whose men move without being irreversible (Turkish men step sideways).
STARTS: list[tuple[str, str | None]] = [
    ("international", "W:WK47,36,26:BK5"),  # the 16-move rule: a king and two men v a king
    ("international", "W:WK47,36:BK5"),  # the 5-move rule: a king and a man v a king
    ("international", "W:WK47,K48,36,26:BK5,K4"),  # the 25-move rule, restarted by men
    ("frisian", "W:WK47,36,26:BK5,1"),  # one king's run of quiet moves, men on the board
    ("russian", "W:WKa1,c3,e3:BKh8"),
    ("english", "B:WK29,K30,21:BK3,5"),  # the 40 moves: men's moves are no progress
    ("portuguese", "W:WK29,K30,21:BK3,5,8"),  # 20 moves: only a king's capture restarts them
    ("turkish", None),
    ("russian-giveaway", None),
]


def _cut(board: Board) -> Board:
    """A board set up at the position before ``board``'s counted plies, with them played."""
    root = board.copy()
    moves = [root.pop() for _ in range(counted_plies(board))]
    cut = Board(board.variant.name, fen=root.fen())
    for move in reversed(moves):
        cut.push(move)
    return cut


def _random_game(start: tuple[str, str | None], rng: random.Random, plies: int) -> Board:
    """A game of random moves that mostly give nothing away, the kings' quiet moves preferred
    (so that the games last and the counts run)."""
    variant, fen = start
    board = Board(variant, fen=fen)
    while len(board.move_stack) < plies and board.outcome() is None:
        moves = sorted(board.legal_moves, key=board.move_notation)
        safe = [m for m in moves if not _gives_a_capture(board, m)]
        pool = safe if safe and rng.random() < 0.9 else moves
        kings = [m for m in pool if (p := board.piece_at(m.origin)) is not None and p.king]
        board.push(rng.choice(kings if kings and rng.random() < 0.8 else pool))
    return board


def _gives_a_capture(board: Board, move: Move) -> bool:
    board.push(move)
    try:
        return any(m.captures for m in board.legal_moves)
    finally:
        board.pop()


def _legal(board: Board) -> list[str]:
    return sorted(board.move_notation(m) for m in board.legal_moves)


@pytest.mark.parametrize("start", STARTS, ids=lambda s: f"{s[0]}-{s[1] or 'start'}")
@settings(max_examples=sample_size(2, 80), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_board_cut_to_its_counted_plies_ends_draws_and_moves_as_the_game(
        start: tuple[str, str | None], seed: int) -> None:
    _plays_as_the_game(start, seed)


def test_a_frisian_kings_run_goes_on_across_the_other_sides_capture() -> None:
    # Found at full size: a king's run of quiet moves is ended only by its own side's capture or
    # man's move; cut at the other side's capture, the board let the tired king move again.
    _plays_as_the_game(("frisian", "W:WK47,36,26:BK5,1"), 1462)


def _plays_as_the_game(start: tuple[str, str | None], seed: int) -> None:
    """A random game of ``start``, cut at each man's quiet move and a few other plies: the cut
    board ends, draws and moves as the whole game after every later move."""
    rng = random.Random(seed)
    game = _random_game(start, rng, plies=100)
    moves = game.move_stack
    # Cut after each quiet move of a man (where a count that stops at men would be cut short)
    # and at a few other plies.
    replay, after_men = Board(start[0], fen=start[1]), set()
    for index, move in enumerate(moves):
        piece = replay.piece_at(move.origin)
        if piece is not None and not piece.king and not move.captures:
            after_men.add(index + 1)
        replay.push(move)
    others = rng.sample(range(len(moves) + 1), min(3, len(moves) + 1))
    for at in sorted(after_men.union(others)):
        whole = Board(start[0], fen=start[1])
        for move in moves[:at]:
            whole.push(move)
        cut = _cut(whole)
        for move in moves[at:]:
            assert cut.outcome() == whole.outcome(), (whole.fen(), at, counted_plies(whole))
            assert _legal(cut) == _legal(whole)
            whole.push(move)
            cut.push(move)
        assert cut.outcome() == whole.outcome(), (whole.fen(), at, counted_plies(whole))


@pytest.mark.parametrize(("game", "rule", "plies"), [
    # Cut after the last man's move, the board saw 7 plies and played on.
    (SIXTEEN_MOVES, "fmjd-16-moves", 32),
    # Only a man's move, a promotion or the capture of a king restarts the Portuguese count: the
    # king's capture 1x19 (of the man on 14) is one of the 20 moves each, not their start.
    (PORTUGUESE_20_MOVES, "portuguese-20-moves", 40),
], ids=["16-moves-across-a-mans-move", "portuguese-20-moves-across-a-kings-capture"])
def test_a_count_runs_across_a_ply_that_does_not_restart_it(
        game: tuple[str, str | None, str], rule: str, plies: int) -> None:
    board = played(game)
    outcome = board.outcome()
    assert outcome is not None and outcome.rule == rule
    assert counted_plies(board) == plies
    assert _cut(board).outcome() == outcome


def test_no_more_than_the_counts_need() -> None:
    # After a capture nothing before it is counted in international draughts.
    board = played(("international", None, "32-28 19-23 28x19 14x23"))
    assert counted_plies(board) == 0
    board.push(board.parse_move("37-32"))
    assert counted_plies(board) == 1
