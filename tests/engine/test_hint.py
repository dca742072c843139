"""Hints: a legal best move and the reasons for it, as data."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Board
from engine.hint import Reason, ReasonKind, hint
from engine.search import Limit, Searcher, SearchOptions
from tests.conftest import sample_size

#: The endgame tables score a won ending as a table win, not as a forced end the hint can count
#: in moves: the tests of the search's own reasons leave them out.
NO_TABLES = SearchOptions(endgame_tables=False)


def _kinds(reasons: tuple[Reason, ...]) -> dict[ReasonKind, Reason]:
    return {r.kind: r for r in reasons}


def test_capture_of_two_is_named_with_its_count() -> None:
    board = Board("international", "W:W33,48:B28,17,5")
    h = hint(board, Searcher("international"), Limit(depth=4))
    assert h is not None
    assert board.move_notation(h.move) == "33x11"
    reasons = _kinds(h.reasons)
    assert reasons[ReasonKind.CAPTURES].pieces == 2
    assert ReasonKind.ONLY_MOVE in reasons


def test_promotion_is_named() -> None:
    board = Board("english", "W:W6,30:B20")
    h = hint(board, Searcher("english", options=NO_TABLES), Limit(depth=4))
    assert h is not None and h.move.promotes
    assert ReasonKind.PROMOTES in _kinds(h.reasons)
    assert ReasonKind.CAPTURES not in _kinds(h.reasons)


def test_shot_wins_material_in_a_few_moves() -> None:
    # Gertsenzon - Semenov (see test_search.py): 18. f2-g3! wins a man.
    board = Board("russian", "W:Wd2,d4,e1,f2,g1,h6:Bb6,b8,d6,f6,f8,h2")
    h = hint(board, Searcher("russian"), Limit(depth=8))
    assert h is not None and board.move_notation(h.move) == "f2-g3"
    won = _kinds(h.reasons)[ReasonKind.WINS_MATERIAL]
    assert won.pieces == 1 and 2 <= won.moves <= 5
    assert ReasonKind.CAPTURES not in _kinds(h.reasons)  # the first move is a sacrifice


def test_moving_an_attacked_man_away_avoids_the_loss() -> None:
    # Black's 17 threatens 17x26; 22-18 steps out of it.
    board = Board("english", "W:W22,32:B13,17")
    h = hint(board, Searcher("english"), Limit(depth=6))
    assert h is not None and board.move_notation(h.move) == "22-18"
    assert _kinds(h.reasons)[ReasonKind.AVOIDS_LOSS].pieces == 1


def test_quiet_position_has_no_invented_reasons() -> None:
    board = Board("russian")
    h = hint(board, Searcher("russian"), Limit(depth=3))
    assert h is not None and h.reasons == ()


def test_forced_win_is_reported() -> None:
    board = Board("english", "B:W21,22:B13,17")
    h = hint(board, Searcher("english", options=NO_TABLES), Limit(depth=6))
    assert h is not None
    assert _kinds(h.reasons)[ReasonKind.WINS_GAME].moves >= 1


def test_a_table_win_is_reported_as_a_won_ending() -> None:
    # Two kings against one: the tables know the win long before the search sees its end.
    board = Board("english", "W:WK1,K2:BK32")
    h = hint(board, Searcher("english"), Limit(depth=3))
    assert h is not None
    won = _kinds(h.reasons)[ReasonKind.WINS_ENDGAME]
    assert 1 <= won.moves <= 40
    assert ReasonKind.WINS_GAME not in _kinds(h.reasons)
    defended = hint(Board("english", "B:WK1,K2:BK32"), Searcher("english"), Limit(depth=3))
    assert defended is not None and ReasonKind.LOSES_GAME in _kinds(defended.reasons)
    without = hint(board, Searcher("english", options=NO_TABLES), Limit(depth=3))
    assert without is not None and ReasonKind.WINS_ENDGAME not in _kinds(without.reasons)


def test_no_move_no_hint() -> None:
    assert hint(Board("english", "W:W29:B22,25"), Searcher("english"), Limit(depth=2)) is None


@settings(max_examples=sample_size(ci=15, full=150), deadline=None)
@given(st.sampled_from(["international", "russian", "english"]), st.integers(0, 2**32),
       st.integers(0, 60))
def test_hint_is_legal_and_consistent(variant: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    h = hint(board, Searcher(variant, tt_mb=1), Limit(depth=3))
    if not board.legal_moves:
        assert h is None
        return
    assert h is not None and h.move in board.legal_moves
    reasons = _kinds(h.reasons)
    assert (ReasonKind.CAPTURES in reasons) == h.move.is_capture
    if h.move.is_capture:
        assert reasons[ReasonKind.CAPTURES].pieces == len(h.move.captures)
    assert (ReasonKind.PROMOTES in reasons) == h.move.promotes
    assert (ReasonKind.ONLY_MOVE in reasons) == (len(board.legal_moves) == 1)
