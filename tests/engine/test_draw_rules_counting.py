"""When a move-count rule's count starts: the moves made *after* its position arose.

The rule texts count "more moves" from the position: FMJD art. 6 ("the game is a draw when
both players have each made 16 more moves"; "after both players have each made 5 more moves"),
the Russian rules ("the strong side's 15th move, counted from when the balance arose"), the
Portuguese 20-move rule ("terá início ao primeiro lance que ocorra após surgir a situação").
The ply that brings the position about (a capture, a promotion, the lone king stepping onto the
main road) is not one of them. Each boundary is checked on both sides: one ply short is no
draw, the boundary ply is. The expected counts are the rule texts' numbers, written out.
"""

from __future__ import annotations

import random

import pytest

from engine import Board
from engine.draw import Material, PlyFacts, evaluate
from engine.endgame_rules import RuleCounters, State
from engine.outcome import Outcome, Termination
from engine.search import Limit, Searcher

WHITE, BLACK = 0, 1


def _quiet(material: Material, plies: int, first: int, road: bool = False,
           road_kings: frozenset[int] = frozenset(), kings: bool = True) -> list[PlyFacts]:
    """Quiet moves (king moves, or man moves with ``kings`` false), all positions different."""
    return [
        PlyFacts((first + i) % 2, kings, False, False, material, ("q", i),
                 lone_king_on_main_road=road, kings_on_main_road=road_kings)
        for i in range(plies)
    ]


# (variant, material before, the creating ply's mover, material after it, plies after the
#  creating ply at which the draw comes, rule, road facts of the plies: lone king on the road,
#  colours with a king on it)
CREATED: list[tuple[str, Material, int, Material, int, str, bool, frozenset[int]]] = [
    # FMJD: 5 more moves each = 10 plies after the capture, whoever made it.
    ("international", Material(0, 2, 0, 2), WHITE, Material(0, 2, 0, 1), 10, "fmjd-5-moves",
     False, frozenset()),
    ("international", Material(0, 3, 0, 1), BLACK, Material(0, 2, 0, 1), 10, "fmjd-5-moves",
     False, frozenset()),
    ("international", Material(0, 1, 1, 1), WHITE, Material(0, 1, 0, 1), 10, "fmjd-5-moves",
     False, frozenset()),
    # FMJD: 16 more moves each = 32 plies.
    ("international", Material(0, 3, 0, 2), WHITE, Material(0, 3, 0, 1), 32, "fmjd-16-moves",
     False, frozenset()),
    ("canadian", Material(1, 2, 0, 2), WHITE, Material(1, 2, 0, 1), 32, "fmjd-16-moves",
     False, frozenset()),
    ("brazilian", Material(0, 4, 0, 1), BLACK, Material(0, 3, 0, 1), 32, "fmjd-16-moves",
     False, frozenset()),
    ("brazilian", Material(0, 2, 0, 2), WHITE, Material(0, 2, 0, 1), 10, "fmjd-5-moves",
     False, frozenset()),
    # Russian, 3 kings v 1: the strong side's 15th move after the capture. White (strong) took:
    # Black moves first, White's 15th move is ply 30; Black took a king: White's 15th is ply 29.
    ("russian", Material(0, 3, 0, 2), WHITE, Material(0, 3, 0, 1), 30,
     "russian-15-moves-3-kings", False, frozenset()),
    ("russian", Material(0, 4, 0, 1), BLACK, Material(0, 3, 0, 1), 29,
     "russian-15-moves-3-kings", False, frozenset()),
    # Russian, 3 pieces v a lone king on the main road: the strong side's 5th move.
    ("russian", Material(1, 2, 0, 2), WHITE, Material(1, 2, 0, 1), 10,
     "russian-5-moves-main-road", True, frozenset({BLACK})),
    # Russian balance with kings on both sides: 5 / 30 / 60 moves each = 10 / 60 / 120 plies.
    ("russian", Material(1, 1, 0, 1), BLACK, Material(0, 1, 0, 1), 10,
     "russian-5-moves-balance", False, frozenset()),
    ("russian", Material(1, 1, 2, 1), WHITE, Material(1, 1, 1, 1), 60,
     "russian-30-moves-balance", False, frozenset()),
    ("diagonal", Material(2, 2, 3, 1), WHITE, Material(2, 2, 2, 1), 120,
     "russian-60-moves-balance", False, frozenset()),
    # Pool, 3 kings v 1: the strong side's 13th move.
    ("pool", Material(0, 3, 0, 2), WHITE, Material(0, 3, 0, 1), 26, "pool-13-moves",
     False, frozenset()),
    ("pool", Material(0, 4, 0, 1), BLACK, Material(0, 3, 0, 1), 25, "pool-13-moves",
     False, frozenset()),
    # Frisian: 2 kings v 1, 7 moves each; one king each, 2 moves each.
    ("frisian", Material(0, 2, 0, 2), WHITE, Material(0, 2, 0, 1), 14, "frisian-7-moves",
     False, frozenset()),
    ("frisian", Material(0, 2, 0, 1), BLACK, Material(0, 1, 0, 1), 4, "frisian-2-moves",
     False, frozenset()),
    # Portuguese "forcada": the strong side's 12th move, a strong king on the rio.
    ("portuguese", Material(0, 3, 0, 2), WHITE, Material(0, 3, 0, 1), 24,
     "portuguese-12-moves-forcada", False, frozenset({WHITE})),
]


def _created(case: tuple[str, Material, int, Material, int, str, bool, frozenset[int]],
             after: int) -> tuple[Material, list[PlyFacts]]:
    _variant, before, mover, material, _plies, rule, road, kings = case
    capture = PlyFacts(mover, True, True, False, material, "capture",
                       lone_king_on_main_road=road, kings_on_main_road=kings)
    # The balance rules count man moves too: move men so that the kings-only count stays out.
    quiet = _quiet(material, after, 1 - mover, road, kings, kings=not rule.endswith("balance"))
    return before, [capture, *quiet]


def _rule(variant: str, start: Material, plies: list[PlyFacts]) -> str | None:
    result = evaluate(variant, plies, start_material=start, start_key="start")
    return None if result is None else result.rule


def _counted(variant: str, start: Material, plies: list[PlyFacts]) -> str | None:
    rules = RuleCounters.for_variant(variant)
    assert rules is not None
    four = (start.white_men, start.white_kings, start.black_men, start.black_kings)
    state: State = rules.initial(four)
    before = four
    for ply in plies:
        m = ply.material
        now = (m.white_men, m.white_kings, m.black_men, m.black_kings)
        state = rules.advance(state, ply.mover, ply.king_move, ply.capture, ply.promotion,
                              before, now, ply.lone_king_on_main_road,
                              sum(1 << c for c in ply.kings_on_main_road))
        before = now
    return rules.rule_name(state)


@pytest.mark.parametrize("case", CREATED, ids=[f"{c[0]}-{c[5]}-{c[2]}" for c in CREATED])
def test_the_creating_ply_is_not_counted(
    case: tuple[str, Material, int, Material, int, str, bool, frozenset[int]],
) -> None:
    variant, _before, _mover, _material, plies, rule, _road, _kings = case
    for count in (_rule, _counted):  # the game's referee and the search's counters
        start, short = _created(case, plies - 1)
        assert count(variant, start, short) is None
        start, full = _created(case, plies)
        assert count(variant, start, full) == rule


def test_the_lone_king_stepping_onto_the_main_road_is_not_counted() -> None:
    """Russian: three kings v a lone king off the road; Black steps onto it (not counted),
    then White's 5th move (ply 9 after the step) draws."""
    three = Material(0, 3, 0, 1)
    off = _quiet(three, 4, WHITE)
    step = PlyFacts(BLACK, True, False, False, three, "step", lone_king_on_main_road=True)
    for count in (_rule, _counted):
        on = _quiet(three, 9, WHITE, road=True)
        assert count("russian", three, [*off, step, *on[:8]]) is None
        assert count("russian", three, [*off, step, *on]) == "russian-5-moves-main-road"


def test_a_promotion_creates_a_position_like_a_capture() -> None:
    """FMJD: a man crowned leaves two kings v one king: 5 more moves each from there."""
    before, after = Material(1, 1, 0, 1), Material(0, 2, 0, 1)
    crown = PlyFacts(WHITE, False, False, True, after, "crown")
    # King and man v king already counts; the crowning starts a new 2 v 1 count.
    for count in (_rule, _counted):
        earlier = _quiet(before, 6, WHITE)
        assert count("international", before, [*earlier, crown, *_quiet(after, 9, BLACK)]) is None
        assert count("international", before, [*earlier, crown,
                                                *_quiet(after, 10, BLACK)]) == "fmjd-5-moves"


def test_a_set_up_position_counts_from_its_first_ply() -> None:
    """A game set up in the configuration (a FEN) has no creating ply: 10 plies draw."""
    two = Material(0, 2, 0, 1)
    for count in (_rule, _counted):
        assert count("international", two, _quiet(two, 9, WHITE)) is None
        assert count("international", two, _quiet(two, 10, WHITE)) == "fmjd-5-moves"


# --- the issue's game on a real board ----------------------------------------------------------

ISSUE_LINE = ["35x13", "46-41", "13-4", "41-37", "4-15", "37-32", "15-4", "32-28", "4-18",
              "28-23"]


def test_fmjd_5_moves_not_a_draw_before_the_creators_fifth_move() -> None:
    """35x13 leaves one king each; White has made 4 moves since, Black 5: no draw yet, and
    White's 5th move 18x29 wins."""
    board = Board("international", "W:WK35:B24,K46")
    for text in ISSUE_LINE:
        board.push(board.parse_move(text))
    assert board.outcome() is None
    board.push(board.parse_move("18x29"))
    assert board.outcome() == Outcome(Termination.NO_MOVES, board.turn.opponent,
                                      gametype=20)


def test_fmjd_5_moves_draw_on_the_creators_fifth_quiet_move() -> None:
    board = Board("international", "W:WK35:B24,K46")
    board.push(board.parse_move("35x13"))
    rng = random.Random(3)
    seen = {board.zobrist_hash()}
    for ply in range(10):
        assert board.outcome() is None, f"drawn after {ply} plies"
        quiet = []
        for move in board.legal_moves:
            board.push(move)
            if board.zobrist_hash() not in seen and not any(m.captures for m in board.legal_moves):
                quiet.append(move)
            board.pop()
        move = rng.choice(quiet)
        board.push(move)
        seen.add(board.zobrist_hash())
    assert board.outcome() == Outcome(Termination.DRAW_RULE, None, "fmjd-5-moves", gametype=20)


def test_search_does_not_walk_into_a_capture_it_counts_as_drawn() -> None:
    """The issue's game one ply before 28-23: Black (to move) must keep its king; after 9
    plies since 35x13 the game is not drawn by the next move, so a king left en prise loses."""
    board = Board("international", "W:WK35:B24,K46")
    for text in ISSUE_LINE[:-1]:
        board.push(board.parse_move(text))
    result = Searcher("international").search(board, Limit(depth=4))
    assert result.score == 0
    assert result.move is not None
    board.push(result.move)
    assert not any(m.captures for m in board.legal_moves), board.fen()


def test_turkish_lone_kings_are_drawn_by_the_capture_that_makes_them() -> None:
    """Turkish: a lone king against a lone king is a draw at once (no moves to count)."""
    before, lone = Material(0, 2, 0, 1), Material(0, 1, 0, 1)
    capture = PlyFacts(BLACK, True, True, False, lone, "capture")  # after W, B, W: Black takes
    for count in (_rule, _counted):
        assert count("turkish", before, _quiet(before, 3, WHITE)) is None
        assert count("turkish", before, [*_quiet(before, 3, WHITE), capture]) == (
            "turkish-king-vs-king")
