"""The search: finds shots and forced wins, stays legal, keeps to its limits, stops when asked."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Board, Move
from engine.compiled import pure_module
from engine.generators import generator_for, routed
from engine.movegen import MoveGen, make_move
from engine.search import (
    TABLE_BOUND,
    WIN_BOUND,
    Limit,
    Searcher,
    SearchOptions,
    SearchResult,
    StopToken,
)
from tests.conftest import sample_size


def _text(board: Board, move: Move | None) -> str:
    assert move is not None
    return board.move_notation(move)


def _after(variant: str, moves: str) -> Board:
    board = Board(variant)
    for text in moves.split():
        board.push(board.parse_move(text))
    return board


class FakeClock:
    """Virtual seconds: every reading advances the time by ``step``."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        self.now += self.step
        return self.now


# Shots that win material by a sacrifice, each reached from the initial position by the moves
# of its source, with the move the source gives and the depth our search needs to find it.
SHOTS = [
    pytest.param(
        # Coup Philippe after a symmetrical opening: 28-22! (18x27) 32x21 (16x27) 34-30 (25x34)
        # 40x16. French Wikipedia, "Coup Philippe" (the 5th-move example), and T. Goedemoed,
        # "A course in international draughts" (2008), ch. 3 "Coup Philippe".
        "international", "33-28 18-23 39-33 12-18 44-39 7-12 31-26 20-25", "28-22", 7,
        id="international-coup-philippe",
    ),
    pytest.param(
        # B. Gertsenzon - F. Semenov, "Igra Kaulena", note to move 17: after 17... e7-d6 White
        # plays 18. f2-g3! h2:f4 19. d4-e5 f6:d4 20. d2-e3 and stays a man up.
        # https://kombinashki.ru/debyuty9.php
        "russian",
        "g3-f4 f6-e5 h2-g3 e5-d4 c3:e5 h6-g5 f4:h6 d6:h2 a3-b4 g7-f6 b4-a5 f6-e5 b2-c3 h8-g7 "
        "c3-b4 g7-f6 a1-b2 e5-f4 e3:g5 f6:h4 d2-e3 b6-c5 b4:d6 c7:e5 b2-c3 e5-f4 e3:g5 h4:f6 "
        "c3-d4 a7-b6 a5:c7 d8:b6 c1-d2 e7-d6",
        "f2-g3", 6, id="russian-kaulen-e7d6",
    ),
    pytest.param(
        # Same source, the other defence 17... b8-a7: 18. f2-g3! h2:f4 19. d4-c5 b6:d4 20. d2-e3.
        "russian",
        "g3-f4 f6-e5 h2-g3 e5-d4 c3:e5 h6-g5 f4:h6 d6:h2 a3-b4 g7-f6 b4-a5 f6-e5 b2-c3 h8-g7 "
        "c3-b4 g7-f6 a1-b2 e5-f4 e3:g5 f6:h4 d2-e3 b6-c5 b4:d6 c7:e5 b2-c3 e5-f4 e3:g5 h4:f6 "
        "c3-d4 a7-b6 a5:c7 d8:b6 c1-d2 b8-a7",
        "f2-g3", 8, id="russian-kaulen-b8a7",
    ),
    pytest.param(
        # Wyllie's Switcher Stroke: 24-19 15x24 20-16 12x19 27x20 18x27 31x6 9x18 26-22 1x10
        # 22x6. B. Boland, "Famous Positions in the Game of Checkers", via The Checker Maven,
        # "Famous Shots IV" (https://www.bobnewell.net/nucleus/checkers.php?itemid=866).
        "english",
        "11-15 21-17 9-13 25-21 8-11 17-14 10x17 21x14 6-10 22-17 13x22 26x17 15-18 24-20 "
        "2-6 28-24 4-8 29-25 11-15 30-26 6-9",
        "24-19", 7, id="english-wyllie-switcher",
    ),
]


@pytest.mark.parametrize(("variant", "moves", "expected", "depth"), SHOTS)
def test_finds_the_shot(variant: str, moves: str, expected: str, depth: int) -> None:
    board = _after(variant, moves)
    result = Searcher(variant).search(board, Limit(depth=depth))
    assert _text(board, result.move) == expected
    assert result.score >= 100  # at least a man up at the end of the line


# Hoyle's Games, "Polish draughts" (the international game): three kings against one on the
# long diagonal win by sacrificing two at 22. First and second coups.
# http://www.childrensnursery.org.uk/hoyles-games/hoyle-games%20-%200510.htm
@pytest.mark.parametrize("fen", ["W:WK46,K37,K27:BK11", "W:WK19,K27,K37:BK11"])
def test_finds_the_forced_win_with_three_kings(fen: str) -> None:
    board = Board("international", fen)
    plain = Searcher("international", options=SearchOptions(endgame_tables=False))
    result = plain.search(board, Limit(depth=8))
    assert _text(board, result.move) == "27-22"
    assert result.score > WIN_BOUND and result.mate_in is not None and result.mate_in <= 7
    # With the endgame tables the replies are table wins: the same move, scored as one.
    tabled = Searcher("international").search(board, Limit(depth=8))
    assert _text(board, tabled.move) == "27-22" and tabled.score > TABLE_BOUND


def test_horizon_sees_the_capture_it_threatens() -> None:
    # 17-11 threatens 11x2 (a man and a crown); Black's only way out, 7-12, lets the man on 11
    # run to the back rank unopposed. Every other white move is quiet. At depth 1 the reply is
    # at the horizon with no capture of its own: the search must look at Black's answers to
    # the threat instead of scoring the position as it stands.
    board = Board("international", "W:W16,17,35,41:B7,15,20,34")
    result = Searcher("international").search(board, Limit(depth=1))
    assert _text(board, result.move) == "17-11"
    assert result.score >= 80


def test_english_stroke_problem() -> None:
    # "A Winter Stroke", The Checker Maven: 17-14 10x17 19-16 12x19 15-10 6x15 27-24 20x27
    # 32x7 3x10 18x4. http://www.bobnewell.net/nucleus/checkers.php?itemid=972
    board = Board("english", "W:W15,17,18,19,22,26,27,28,30,32:B1,3,6,8,9,10,11,12,13,20")
    result = Searcher("english").search(board, Limit(depth=9))
    assert _text(board, result.move) == "17-14"


def test_side_shut_in_after_its_move_scores_a_loss() -> None:
    # White's only move 30-26 lets black block both men: 22-... no; black simply wins by
    # shutting the last man in on 29 (25 and 22 block it).
    board = Board("english", "W:W29:B22,25")
    result = Searcher("english").search(board, Limit(depth=4))
    assert result.move is None and result.score < -WIN_BOUND


def test_no_legal_move_returns_none() -> None:
    board = Board("english", "W:W:B1")
    result = Searcher("english").search(board, Limit(depth=3))
    assert result.move is None and result.score < -WIN_BOUND


def test_giveaway_wants_to_lose_its_pieces() -> None:
    # White can give its last man away: in poddavki that wins.
    board = Board("russian-giveaway", "W:Wc3:Bd6,e5")
    result = Searcher("russian-giveaway").search(board, Limit(depth=4))
    assert result.score > WIN_BOUND


def test_dead_draw_scores_zero_when_no_coup_exists() -> None:
    board = Board("international", "B:WK1,K2,K3:BK46")
    assert Searcher("international").search(board, Limit(depth=5)).score == 0


def test_repetition_of_a_game_position_counts_as_a_draw() -> None:
    # Black, a king down, can bring back the position of two plies ago: with that history the
    # search takes the draw; the same position without history is simply lost.
    start = "W:WK18,K30:BK3"
    board = Board("english", start)
    for text in ("18-22", "3-7", "22-18"):
        board.push(board.parse_move(text))
    with_history = Searcher("english").search(board, Limit(depth=6))
    assert _text(board, with_history.move) == "7-3"
    assert with_history.score == 0
    fresh = Board("english", board.fen())
    assert Searcher("english").search(fresh, Limit(depth=6)).score < -50


# -- legality, limits and interruption ---------------------------------------------------------

VARIANTS = ["international", "russian", "english", "brazilian", "pool", "italian", "spanish",
            "turkish", "canadian", "russian-giveaway"]


def _random_position(variant: str, seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@settings(max_examples=sample_size(ci=30, full=300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 80),
       st.integers(1, 400))
def test_never_returns_an_illegal_move(variant: str, seed: int, plies: int, nodes: int) -> None:
    board = _random_position(variant, seed, plies)
    fen = board.fen()
    result = Searcher(variant, tt_mb=1).search(board, Limit(nodes=nodes, depth=6))
    assert board.fen() == fen  # the caller's board is untouched
    legal = list(board.legal_moves)
    if legal:
        assert result.move in legal
        probe = board.copy()
        for move in result.pv:
            assert move in probe.legal_moves
            probe.push(move)
    else:
        assert result.move is None


def test_stopped_before_starting_still_gives_a_legal_move() -> None:
    token = StopToken()
    token.stop()
    board = Board("international")
    result = Searcher("international").search(board, Limit(), stop=token)
    assert result.move in board.legal_moves


@pytest.mark.parametrize("movetime", [0.5, 2.0])
def test_movetime_is_kept_within_ten_percent(movetime: float) -> None:
    clock = FakeClock(step=0.01)
    board = _after("international", "32-28 19-23 28x19 14x23")
    result = Searcher("international", clock=clock).search(board, Limit(movetime=movetime))
    assert movetime * 0.9 <= result.seconds <= movetime * 1.1
    assert result.move in board.legal_moves


def test_game_clock_budget_is_a_small_share_of_the_time_left() -> None:
    clock = FakeClock(step=0.01)
    board = Board("russian")
    result = Searcher("russian", clock=clock).search(
        board, Limit(time_left=60.0, increment=1.0))
    # 60 s / 30 + 0.8 s increment = 2.8 s target; never more than three targets.
    assert 0 < result.seconds <= 3 * 2.8 * 1.1


def test_time_limit_without_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="clock"):
        Searcher("english").search(Board("english"), Limit(movetime=1.0))


def test_node_limit_is_kept() -> None:
    result = Searcher("international").search(Board(), Limit(nodes=3000))
    assert 3000 <= result.nodes < 3000 + 64


def test_stops_within_one_check_interval_of_a_stop_request() -> None:
    # How soon a stop is noticed is counted in nodes, not wall-clock time (the stop latency in
    # seconds is a figure of bench/search.py): the flag is read every _CHECK_MASK + 1 nodes.
    from engine.search import _CHECK_MASK

    board = Board("international")
    searcher = Searcher("international", clock=time.monotonic)
    token = StopToken()
    asked_at: list[int] = []

    def on_iteration(result: SearchResult) -> None:
        if not asked_at and result.depth >= 3:
            asked_at.append(result.nodes)
            token.stop()

    # Bounded, so a stop that is never noticed fails the test instead of hanging it.
    result = searcher.search(board, Limit(depth=9), stop=token, on_iteration=on_iteration)
    assert asked_at, "the search never reached depth 3"
    assert asked_at[0] <= result.nodes <= asked_at[0] + _CHECK_MASK + 1
    assert result.move in board.legal_moves


def test_deterministic_for_a_seed() -> None:
    board = _after("russian", "c3-d4 f6-g5 g3-h4 g7-f6")
    options = SearchOptions(noise=40)
    first = Searcher("russian", seed=7, options=options).search(board, Limit(depth=5))
    again = Searcher("russian", seed=7, options=options).search(board, Limit(depth=5))
    assert (first.move, first.score, first.nodes, first.pv) == (
        again.move, again.score, again.nodes, again.pv)
    others = {Searcher("russian", seed=s, options=options).search(board, Limit(depth=2)).move
              for s in range(12)}
    assert len(others) > 1  # the seed does change the noisy choice


def test_limit_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        Limit(depth=0)
    with pytest.raises(ValueError):
        Limit(movetime=-1.0)
    with pytest.raises(ValueError):
        Searcher("english", tt_mb=0)


def test_board_of_another_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="russian"):
        Searcher("russian").search(Board("english"), Limit(depth=1))


@settings(max_examples=sample_size(ci=40, full=400), deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 100))
def test_tree_moves_agree_with_board_push(variant: str, seed: int, plies: int) -> None:
    # The tree plays moves on raw bitboards; every child must be the position Board.push makes.
    board = _random_position(variant, seed, plies)
    _check_children(board, generator_for(variant))


def test_king_capture_ending_on_its_own_square() -> None:
    board = Board("russian", "W:WKc1:Bd2,d4,b4,b2,h8")  # c1:e3:c5:a3:c1
    _check_children(board, generator_for("russian"))
    result = Searcher("russian").search(board, Limit(depth=3))
    assert result.move is not None and result.move.origin == result.move.destination


def _check_children(board: Board, gen: MoveGen) -> None:
    white, black, kings = board.bitboards()
    colour = int(board.turn)
    z, z_black, b2s = gen.zobrist, gen.zobrist_black, gen.bit2sq
    # A board wider than the compiled build's words is played by the pure copy (compiled
    # install): its make_move, as the search there uses it.
    play = pure_module("engine.movegen").make_move if routed(board.variant) else make_move
    for raw in gen.moves(white, black, kings, colour):
        key = (b2s[raw[0]], b2s[raw[1]], frozenset(b2s[b] for b in raw[5]))
        move = next(m for m in board.legal_moves if m.key() == key)
        child = board.copy()
        child.push(move)
        assert play(z, z_black, raw, white, black, kings, colour, board.zobrist_hash()) == (
            *child.bitboards(), child.zobrist_hash())


def test_search_only_the_root_moves_asked_for() -> None:
    board = Board("international")
    moves = list(board.legal_moves)
    best = Searcher("international").search(board, Limit(depth=4)).move
    others = [m for m in moves if m != best]
    found = Searcher("international").search(board, Limit(depth=4), moves=others)
    assert found.move in others
    one = Searcher("international").search(board, Limit(depth=4), moves=[others[0]])
    assert one.move == others[0] and one.depth == 4  # searched, not played at once
    with pytest.raises(ValueError, match="none of the moves"):
        Searcher("russian").search(Board("russian"), Limit(depth=2), moves=others)
