"""Draw rules and game end, per variant.

Two layers: the counters of :func:`engine.draw.evaluate` on synthetic histories (exact rule
boundaries, resets), then whole games on real boards from positions named by the rule texts.
Rule texts (docs/rules.md has the full list of sources):

- FMJD Annex 1 ("Official FMJD rules for international draughts") art. 6 and the Russian
  Minsport rules for 100-square draughts (order 722, 2013, section 3.5): threefold repetition;
  25 moves of kings only; 3 kings / 2 kings + man / king + 2 men against one king: 16 moves;
  2 kings / king + man / king against one king: 5 moves. Seed 000 (Japanese FMJD translation)
  art. 53-55 and seed 001 (Korean) give the same rules.
- Russian draughts, seed 001 (Korean page of Russian rules) and the Ukrainian federation rules
  (shashky.in.ua): 3 kings against one king 15 moves; 15 moves of kings only; material balance
  unchanged with kings on both sides 5 / 30 / 60 moves for 2-3 / 4-5 / 6-7 pieces; three pieces
  against a lone king on the main road: the strong side's 5th move.
- English: seed 001 "no crowning or capture in the last 40 moves".
- Brazilian: "20 lances sucessivos de Damas, sem captura ou deslocamento de pedra" (CBD summary).
- Pool: APCA rules, three kings against one king must win within 13 moves.
- Turkish: a lone king against a lone king is a draw (draughts.github.io Turkish rules).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import BLACK, WHITE, Board, Move
from engine.draw import DRAW_RULES, Material, PlyFacts, evaluate, history
from engine.outcome import Outcome, Termination

# --- synthetic histories -------------------------------------------------------------------


def kings_only(material: Material, plies: int, first: int = 0, start: int = 0) -> list[PlyFacts]:
    """``plies`` quiet king moves, all positions different, material unchanged."""
    return [
        PlyFacts((first + i) % 2, True, False, False, material, ("k", start + i))
        for i in range(plies)
    ]


def rule_after(variant: str, plies: list[PlyFacts], start: Material) -> str | None:
    result = evaluate(variant, plies, start_material=start, start_key="start")
    return None if result is None else result.rule


MANY = Material(5, 2, 5, 2)  # men and kings on both sides: only the "kings only" counters apply

# (variant, material, plies at which the draw is declared, rule)
BOUNDARIES = [
    ("international", MANY, 50, "fmjd-25-moves"),
    ("canadian", MANY, 50, "fmjd-25-moves"),
    ("international-giveaway", MANY, 50, "fmjd-25-moves"),
    ("brazilian", MANY, 40, "brazilian-20-moves"),
    ("russian", MANY, 30, "russian-15-king-moves"),
    ("diagonal", MANY, 30, "russian-15-king-moves"),
    ("russian-giveaway", MANY, 30, "russian-15-king-moves"),
    ("english", MANY, 80, "english-40-moves"),
    # FMJD art. 6 (16 moves): three pieces (at least one king) against one king, 16 moves each.
    ("international", Material(0, 3, 0, 1), 32, "fmjd-16-moves"),
    ("international", Material(1, 2, 0, 1), 32, "fmjd-16-moves"),
    ("international", Material(2, 1, 0, 1), 32, "fmjd-16-moves"),
    ("international", Material(0, 1, 0, 3), 32, "fmjd-16-moves"),  # black is the strong side
    ("brazilian", Material(0, 3, 0, 1), 32, "fmjd-16-moves"),
    # FMJD art. 6 (5 moves): two kings, king and man, or a king against one king, 5 moves each.
    ("international", Material(0, 2, 0, 1), 10, "fmjd-5-moves"),
    ("international", Material(1, 1, 0, 1), 10, "fmjd-5-moves"),
    ("international", Material(0, 1, 0, 1), 10, "fmjd-5-moves"),
    ("international", Material(0, 1, 1, 1), 10, "fmjd-5-moves"),
    # Russian: material balance with kings on both sides.
    ("russian", Material(0, 1, 0, 1), 10, "russian-5-moves-balance"),
    ("russian", Material(1, 1, 0, 1), 10, "russian-5-moves-balance"),
    ("russian", Material(1, 1, 1, 1), 60, "russian-30-moves-balance"),
    ("russian", Material(2, 1, 1, 1), 60, "russian-30-moves-balance"),
    ("russian", Material(3, 1, 2, 1), 120, "russian-60-moves-balance"),
    ("russian", Material(2, 2, 2, 1), 120, "russian-60-moves-balance"),
]


@pytest.mark.parametrize(("variant", "material", "plies", "rule"), BOUNDARIES)
def test_counting_rule_boundary(variant: str, material: Material, plies: int, rule: str) -> None:
    # The balance rules count every move (men too); the others count king moves: use men moves
    # where only the balance rule should apply so that "kings only" rules stay silent.
    if rule.endswith("balance"):
        history_ = [
            PlyFacts(i % 2, False, False, False, material, ("m", i)) for i in range(plies)
        ]
    else:
        history_ = kings_only(material, plies)
    assert rule_after(variant, history_[:-1], material) is None
    assert rule_after(variant, history_, material) == rule


def test_a_man_move_or_capture_restarts_the_kings_only_count() -> None:
    before = kings_only(MANY, 30)
    man = PlyFacts(0, False, False, False, MANY, "man")
    after = kings_only(MANY, 49, first=1, start=100)
    assert rule_after("international", [*before, man, *after], MANY) is None
    assert rule_after("international", [*before, man, *after, *kings_only(MANY, 1, 0, 500)],
                      MANY) == "fmjd-25-moves"
    capture = PlyFacts(0, True, True, False, MANY, "cap")
    assert rule_after("international", [*before, capture, *after], MANY) is None


def test_english_counts_man_moves_but_not_captures_or_crownings() -> None:
    men = [PlyFacts(i % 2, False, False, False, MANY, ("m", i)) for i in range(80)]
    assert rule_after("english", men, MANY) == "english-40-moves"
    crowning = PlyFacts(0, False, False, True, MANY, "crown")
    assert rule_after("english", [*men[:79], crowning], MANY) is None
    # Men moves stop the FMJD count: none of them is a king move.
    assert rule_after("international", men, MANY) is None


def test_a_new_endgame_starts_a_new_count() -> None:
    """3 kings vs 1 for 20 plies, then a capture leaves 2 kings vs 1: the 5-move count starts.

    (The question of damforum / leveluplounge "how do the draw rules interact": FEN
    W:WK46,K47,K48:BK3, black captures a king on his 13th move.)
    """
    three = Material(0, 3, 0, 1)
    two = Material(0, 2, 0, 1)
    played = kings_only(three, 20)
    capture = PlyFacts(1, True, True, False, two, "capture")
    # 5 more moves each after the capture: 10 plies, the capture not among them.
    rest = kings_only(two, 10, first=0, start=50)
    assert rule_after("international", [*played, capture, *rest[:9]], three) is None
    assert rule_after("international", [*played, capture, *rest], three) == "fmjd-5-moves"


def test_endgame_rules_need_the_exact_material() -> None:
    for material in (Material(0, 4, 0, 1), Material(0, 2, 0, 2), Material(3, 0, 0, 1),
                     Material(0, 3, 1, 0)):
        assert rule_after("international", kings_only(material, 49), material) is None


def test_russian_three_kings_count_the_strong_sides_moves() -> None:
    three = Material(0, 3, 0, 1)
    # White (strong) moves first: its 15th move is ply 29.
    assert rule_after("russian", kings_only(three, 28), three) is None
    assert rule_after("russian", kings_only(three, 29), three) == "russian-15-moves-3-kings"
    # "Three kings (or more)": four kings too.
    four = Material(0, 4, 0, 1)
    assert rule_after("russian", kings_only(four, 29), four) == "russian-15-moves-3-kings"
    # Black moves first: white's 15th move is ply 30.
    assert rule_after("russian", kings_only(three, 29, first=1), three) is None
    assert rule_after("russian", kings_only(three, 30, first=1), three) == (
        "russian-15-moves-3-kings"
    )


def test_russian_main_road_rule_needs_the_lone_king_on_the_main_road() -> None:
    three = Material(0, 1, 0, 3)
    on_road = [
        PlyFacts(i % 2, True, False, False, three, ("r", i), lone_king_on_main_road=True)
        for i in range(10)
    ]
    # Black is the strong side and moves second: its 5th move is ply 10.
    assert rule_after("russian", on_road[:9], three) is None
    assert rule_after("russian", on_road, three) == "russian-5-moves-main-road"
    off_road = [PlyFacts(p.mover, True, False, False, three, p.key) for p in on_road]
    assert rule_after("russian", off_road, three) is None
    # Leaving the main road restarts the count.
    left = PlyFacts(0, True, False, False, three, "left")
    assert rule_after("russian", [*on_road[:6], left, *on_road[6:]], three) is None


def test_pool_three_kings_against_one_within_thirteen_moves() -> None:
    three = Material(0, 1, 0, 3)
    # Black (strong) moves first in pool: its 13th move is ply 25.
    assert rule_after("pool", kings_only(three, 24, first=1), three) is None
    assert rule_after("pool", kings_only(three, 25, first=1), three) == "pool-13-moves"


def test_turkish_lone_kings_draw_at_once() -> None:
    lone = Material(0, 1, 0, 1)
    assert rule_after("turkish", [], lone) == "turkish-king-vs-king"
    assert rule_after("turkish", [], Material(1, 0, 0, 1)) is None


def test_italian_and_spanish_have_no_move_count() -> None:
    for variant in ("italian", "spanish"):
        assert rule_after(variant, kings_only(Material(0, 3, 0, 1), 300), MANY) is None


def test_threefold_repetition_with_the_same_side_to_move() -> None:
    def ply(i: int, key: str, capture: bool = False) -> PlyFacts:
        return PlyFacts(i % 2, True, capture, False, MANY, key)

    keys = ["B", "C", "D", "start", "B", "C", "D", "start"]
    plies = [ply(i, k) for i, k in enumerate(keys)]
    assert evaluate("italian", plies[:7], start_material=MANY, start_key="start") is None
    result = evaluate("italian", plies, start_material=MANY, start_key="start")
    assert result == Outcome(Termination.REPETITION, None, "repetition")
    # A capture between the repetitions: the earlier occurrences no longer count.
    broken = [*plies[:3], ply(3, "start", capture=True), *plies[4:]]
    assert evaluate("italian", broken, start_material=MANY, start_key="start") is None


def test_unknown_variant_gets_repetition_only() -> None:
    assert "no-such-variant" not in DRAW_RULES
    plies = kings_only(MANY, 400)
    assert evaluate("no-such-variant", plies, start_material=MANY) is None


# --- real boards ---------------------------------------------------------------------------

Allow = Callable[[Board, Move], bool]


def _quiet_walk(board: Board, plies: int, seed: int, allow: Allow | None = None) -> None:
    """Play ``plies`` quiet moves: no capture possible at any point, no position twice."""
    rng = random.Random(seed)
    seen = {(board.zobrist_hash(), board.turn)}
    assert not any(m.captures for m in board.legal_moves), "the start position has a capture"

    def step(left: int) -> bool:
        if left == 0:
            return True
        moves = [m for m in board.legal_moves if allow is None or allow(board, m)]
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            key = (board.zobrist_hash(), board.turn)
            if key not in seen and not any(m.captures for m in board.legal_moves):
                seen.add(key)
                if step(left - 1):
                    return True
                seen.discard(key)
            board.pop()
        return False

    assert step(plies), f"no quiet walk of {plies} plies from {board.fen()}"


def _kings_only(board: Board, move: Move) -> bool:
    piece = board.piece_at(move.origin)
    return piece is not None and piece.king


def _main_road(variant_board: Board) -> set[int]:
    v = variant_board.variant
    return {sq for sq in range(v.num_squares) if v.square_coords(sq)[0] == v.square_coords(sq)[1]}


# (variant, FEN, plies, rule, move filter). Each draw must come exactly at ``plies``.
BOARD_CASES: list[tuple[str, str, int, str, Allow | None]] = [
    ("international", "W:WK46,K47,K48:BK3", 32, "fmjd-16-moves", None),
    ("international", "W:WK46,K47:BK3", 10, "fmjd-5-moves", None),
    ("international", "W:WK1,K2,36,37:BK49,K50,14,15", 50, "fmjd-25-moves", _kings_only),
    ("brazilian", "W:WKb8,Kd8,a3:BKe1,Kg1,h6", 40, "brazilian-20-moves", _kings_only),
    ("english", "B:WK1,K3:BK30,K32", 80, "english-40-moves", None),
    ("pool", "B:WK29:BK1,K2,K3", 25, "pool-13-moves", None),
    ("russian", "W:WKc1,a3:BKh6", 10, "russian-5-moves-balance", None),
    ("russian", "W:WKa1,Kc1,Ke1:BKh2", 29, "russian-15-moves-3-kings", None),
    ("russian", "W:WKc1,Ke1,Kg1:BKa1", 9, "russian-5-moves-main-road", None),
]


@pytest.mark.parametrize(("variant", "fen", "plies", "rule", "allow"), BOARD_CASES)
def test_draw_rule_on_a_real_board(
    variant: str, fen: str, plies: int, rule: str, allow: Allow | None
) -> None:
    board = Board(variant, fen)
    if rule == "russian-5-moves-main-road":
        road = _main_road(board)
        allow = lambda b, m: b.turn is WHITE or m.destination in road  # noqa: E731
    elif rule == "russian-15-moves-3-kings":
        road = _main_road(board)
        allow = lambda b, m: b.turn is WHITE or m.destination not in road  # noqa: E731
    _quiet_walk(board, plies - 1, seed=7, allow=allow)
    assert board.outcome() is None
    _quiet_walk(board, 1, seed=7, allow=allow)
    outcome = board.outcome()
    assert outcome == Outcome(Termination.DRAW_RULE, None, rule)
    assert outcome.result() == ("1-1" if variant == "international" else "1/2-1/2")
    assert board.is_game_over()


def _no_capture_after(board: Board, move: Move) -> bool:
    board.push(move)
    quiet = not any(m.captures for m in board.legal_moves)
    board.pop()
    return quiet


def test_repetition_on_a_real_board() -> None:
    """FMJD art. 6, seed 000 art. 53: the same position a third time, same side to move."""
    board = Board("international", "W:WK48,36:BK3,15")
    white = next(m for m in board.legal_moves
                 if _kings_only(board, m) and _no_capture_after(board, m))
    board.push(white)
    black = next(m for m in board.legal_moves
                 if _kings_only(board, m) and _no_capture_after(board, m))
    board.pop()
    back_white = Move(white.destination, white.origin, (white.origin,))
    back_black = Move(black.destination, black.origin, (black.origin,))
    cycle = [white, black, back_white, back_black]
    for ply in range(7):
        board.push(cycle[ply % 4])
        assert board.outcome() is None, ply
    board.push(cycle[3])
    assert board.outcome() == Outcome(Termination.REPETITION, None, "repetition")


def test_history_replays_the_game_facts() -> None:
    board = Board("russian")
    for text in ("c3-d4", "f6-e5", "d4:f6", "g7:e5"):
        board.push(board.parse_move(text))
    start, _key, plies = history(board)
    assert start == Material(12, 0, 12, 0)
    assert [p.capture for p in plies] == [False, False, True, True]
    assert [p.mover for p in plies] == [WHITE, BLACK, WHITE, BLACK]
    assert plies[-1].material == Material(11, 0, 11, 0)
    assert not any(p.king_move or p.promotion for p in plies)


def test_promotion_is_recorded() -> None:
    board = Board("international", "W:W6:B45")
    board.push(board.parse_move("6-1"))
    _start, _key, plies = history(board)
    assert plies[0].promotion and plies[0].material == Material(0, 1, 1, 0)


@pytest.mark.parametrize(
    ("variant", "fen", "winner"),
    [
        ("english", "B:W18:B", WHITE),  # black has no pieces left
        ("english", "B:W25,26,30:B21", WHITE),  # black's last man is blocked
        ("international", "W:W:B1", BLACK),
        ("russian-giveaway", "W:W:Bh8", WHITE),  # giveaway: no move is a win
        ("international-giveaway", "B:W45:B", BLACK),
    ],
)
def test_no_legal_moves(variant: str, fen: str, winner: object) -> None:
    board = Board(variant, fen)
    assert not board.legal_moves
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.winner is winner


def test_initial_positions_are_not_over() -> None:
    for variant in DRAW_RULES:
        assert Board(variant).outcome() is None, variant
