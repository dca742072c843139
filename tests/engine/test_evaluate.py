"""Static evaluation: symmetric, material first, king values per variant, endgame knowledge."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BLACK, WHITE, Board, find_variant
from engine import VARIANTS as ALL_VARIANTS
from engine.evaluate import CROWNED, FEATURES, Evaluator, Weights, weights_for
from engine.fen import write_fen
from engine.patterns import TABLES, indices
from tests.conftest import sample_size

VARIANTS = [v.name for v in ALL_VARIANTS]  # every variant, the club ones of issue 16 too


def _mirror(board: Board) -> Board:
    """The same position seen from the other side: rotated half a turn, colours swapped."""
    v = board.variant
    white: dict[int, bool] = {}
    black: dict[int, bool] = {}
    for sq, piece in board.pieces().items():
        r, c = v.square_coords(sq)
        target = v.square_at(v.rows - 1 - r, v.cols - 1 - c)
        assert target is not None
        (black if piece.color == WHITE else white)[target] = piece.king
    turn = BLACK if board.turn == WHITE else WHITE
    return Board(v, write_fen(v, turn, white, black))


def _random_position(variant: str, seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return Board(variant, board.fen())


@settings(max_examples=sample_size(ci=60, full=600), deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 120))
def test_evaluation_is_colour_symmetric(variant: str, seed: int, plies: int) -> None:
    board = _random_position(variant, seed, plies)
    evaluator = Evaluator(board.variant)
    assert evaluator.evaluate(board) == evaluator.evaluate(_mirror(board))


@pytest.mark.parametrize("variant", VARIANTS)
def test_initial_position_is_level(variant: str) -> None:
    board = Board(variant)
    evaluator = Evaluator(board.variant)
    assert evaluator.evaluate(board) == evaluator.weights.side_to_move


@pytest.mark.parametrize(("variant", "fen"), [
    ("international", "W:W31-50:B2-20"),  # black's man on 1 is gone
    ("russian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6"),
    ("english", "B:W21-32:B1-11"),
])
def test_a_man_up_is_good_for_its_side_only(variant: str, fen: str) -> None:
    board = Board(variant, fen)
    evaluator = Evaluator(board.variant)
    white_view = evaluator.evaluate(board) if board.turn == WHITE else -evaluator.evaluate(board)
    assert white_view > 60


def _man_worth(variant: str) -> float:
    """What a man is worth to the evaluation: the mean loss when one of White's men is taken off,
    over positions of seeded random games (region patterns share a man's value with its weight:
    see engine.patterns)."""
    evaluator = Evaluator(find_variant(variant))
    rng = random.Random(f"man-worth:{variant}")
    drops: list[int] = []
    for seed in range(200):
        board = _random_position(variant, seed, rng.randrange(10, 60))
        white, black, kings = board.bitboards()
        men = [b for b in range(white.bit_length()) if (white & ~kings) >> b & 1]
        if len(men) < 3 or black.bit_count() < 3:
            continue
        bit = 1 << rng.choice(men)
        drops.append(evaluator.evaluate_bits(white, black, kings, 0)
                     - evaluator.evaluate_bits(white & ~bit, black, kings, 0))
    return sum(drops) / len(drops)


def test_flying_kings_are_worth_far_more_than_short_kings() -> None:
    flying = weights_for(find_variant("international"))
    short = weights_for(find_variant("english"))
    assert flying.king >= 3 * _man_worth("international")
    assert short.man < short.king <= 2 * short.man
    assert short.king <= 2 * _man_worth("english")
    for name in VARIANTS:
        w = weights_for(find_variant(name))
        assert w.king > w.man


@pytest.mark.parametrize(("variant", "fen", "dead"), [
    # FMJD art. 6.3/6.4: up to three pieces with a king against a lone king cannot win.
    ("international", "W:WK1,K2,K3:BK46", True),
    ("international", "W:WK1,K2,30:BK46", True),
    ("international", "W:WK1,K2,K3,K4:BK46", False),
    ("international", "W:WK1:B36", False),  # a king against a man is not a draw
    # Russian: two kings never beat one; three do unless the lone king holds the main road.
    ("russian", "W:WKa1,Kc1:BKh2", True),
    ("russian", "W:WKc1,Ke1,Kg1:BKh2", False),
    ("russian", "W:WKc1,Ke1,Kg1:BKd4", True),  # d4 is on the a1-h8 main road
    # English: one king draws against one, but two kings beat one.
    ("english", "W:WK1:BK32", True),
    ("english", "W:WK1,K2:BK32", False),
    ("russian-giveaway", "W:WKa1:BKh2", False),
])
def test_dead_draws_follow_the_variant(variant: str, fen: str, dead: bool) -> None:
    board = Board(variant, fen)
    evaluator = Evaluator(board.variant)
    assert evaluator.is_dead_draw(board) is dead
    if dead:
        assert evaluator.evaluate(board) == 0


def test_giveaway_prefers_fewer_pieces() -> None:
    board = Board("russian-giveaway", "W:Wc3:Bb6,d6,f6")
    evaluator = Evaluator(board.variant)
    assert evaluator.evaluate(board) > 100


def test_runaway_man_is_worth_more_than_a_blocked_one() -> None:
    evaluator = Evaluator(find_variant("international"))
    free = Board("international", "W:W13,48:B44")  # 13 has nothing in front of it
    held = Board("international", "W:W13,48:B8,44")  # black 8 guards the way
    assert evaluator.evaluate(free) > evaluator.evaluate(held) + 100


def test_trapped_king_costs() -> None:
    evaluator = Evaluator(find_variant("english"))
    free = Board("english", "W:WK14,30:B3,9")
    trapped = Board("english", "W:WK4,30:B3,8")  # K4 shut in by 8 (and the edge)
    assert evaluator.evaluate(free) > evaluator.evaluate(trapped)


@settings(max_examples=sample_size(ci=60, full=600), deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 120))
def test_evaluation_is_the_features_times_the_weights(variant: str, seed: int, plies: int) -> None:
    """The hot path and the tuners' view of the evaluation are the same function: the linear
    terms, plus the region patterns as engine.patterns defines them where a variant has them."""
    board = _random_position(variant, seed, plies)
    evaluator = Evaluator(board.variant)
    white, black, kings = board.bitboards()
    if (board.variant.giveaway or evaluator.dead_draw_bits(white, black, kings)
            or (board.variant.crown_wins and kings)):
        return
    terms = evaluator.features_bits(white, black, kings, int(board.turn))
    assert len(terms) == len(FEATURES)
    white_view = sum(w * t for w, t in zip(evaluator.weights.vector(), terms, strict=True))
    if evaluator.patterns is not None:
        own, mirrored = indices(board)
        table = evaluator.patterns.weights
        white_view += sum(table.get((t, own[t]), 0) - table.get((t, mirrored[t]), 0)
                          for t in range(TABLES))
    expected = white_view if board.turn == WHITE else -white_view
    assert evaluator.evaluate(board) == expected


def _terms(variant: str, fen: str) -> dict[str, int]:
    board = Board(variant, fen)
    evaluator = Evaluator(board.variant)
    terms = evaluator.features_bits(*board.bitboards(), int(board.turn))
    return dict(zip(FEATURES, terms, strict=True))


def test_an_outpost_is_a_man_in_the_enemy_half_held_from_behind() -> None:
    # 23 is White's classic outpost; 28 and 29 stand behind it.
    assert _terms("international", "W:W23,28,29:B5,10")["outpost"] == 1
    assert _terms("international", "W:W23,28:B5,10")["outpost"] == 0  # 29 is missing
    assert _terms("international", "W:W33,38,39:B5,10")["outpost"] == 0  # still in its own half
    # Black's mirror image: 28 held by 22 and 23.
    assert _terms("international", "W:W45,46:B28,22,23")["outpost"] == -1


def test_a_locked_man_faces_enemy_men_on_every_forward_square() -> None:
    # White 33 looks at 28 and 29, both black; each black man still has a free square.
    terms = _terms("international", "W:W33,45:B28,29,5")
    assert terms["locked"] == 1
    assert terms["blocked"] == 1


def test_wing_balance_counts_the_men_left_against_right() -> None:
    # International: columns a-e are the left wing. 46, 41, 36 are on the left; 50 on the right.
    assert _terms("international", "W:W46,41,36,50:B1,2,3,4")["balance"] == 2 - 0


def test_the_race_goes_to_the_runaway_man_nearer_the_crown() -> None:
    # Breakthrough: White's 13 needs two moves, Black's 45 one; White to move still loses it.
    assert _terms("breakthrough", "W:W13,40:B30,45")["race"] == -1
    assert _terms("breakthrough", "W:W8,40:B30,39")["race"] == 1
    assert _terms("breakthrough", "B:W8,40:B30,44")["race"] == -1


def test_a_crowned_king_has_won_breakthrough() -> None:
    board = Board("breakthrough", "B:WK3,40:B30,45")
    evaluator = Evaluator(board.variant)
    assert evaluator.evaluate(board) == -CROWNED  # black to move has lost


def test_breakthrough_men_near_the_crown_outweigh_material() -> None:
    evaluator = Evaluator(find_variant("breakthrough"))
    # White is two men down but its runaway man on 8 crowns first.
    racing = Board("breakthrough", "W:W8,40:B19,20,24,25")
    assert evaluator.evaluate(racing) > 0


def test_kings_beside_men_and_a_king_against_men_are_counted() -> None:
    terms = _terms("frisian", "W:WK28,40:B5,10")
    assert terms["king_with_men"] == 1
    assert terms["sole_king"] == 1
    assert _terms("frisian", "W:WK28:BK5,10")["king_with_men"] == -1  # Black's king has a man


@pytest.mark.parametrize(("variant", "fen", "dead"), [
    ("frisian", "W:WK1:BK46", True),  # one king each: drawn (the Frisian 2-move rule)
    ("frisian", "W:WK1,K2:BK46", False),  # two against one can still win within 7 moves
    ("killer", "W:WK1,K2:BK46", False),  # the killer rule breaks the lone king's defence
    ("thai", "W:WK1,K2:BK32", False),
    ("breakthrough", "W:WK1:BK46", False),  # a king ends breakthrough: never a dead draw
])
def test_dead_draws_of_the_club_variants(variant: str, fen: str, dead: bool) -> None:
    board = Board(variant, fen)
    assert Evaluator(board.variant).is_dead_draw(board) is dead


def test_unknown_weight_names_are_refused() -> None:
    with pytest.raises(ValueError, match="not evaluation features: queen"):
        Weights().with_terms({"queen": 900})
