"""The draw rules inside the search: the counters agree with engine.draw, and the search uses them.

The counters (:mod:`engine.endgame_rules`) are checked against :func:`engine.draw.evaluate` on
random histories of every variant with counting rules (synthetic facts, so every rule and every
reset is met) and on random games on real boards. Then positions from the rule texts:

- FMJD art. 6: three kings against one king, 16 moves each; two kings against one, 5 moves.
  A 4 kings v 1 position that the search wins with a fresh count is a draw when the game
  history has already used up the 25-move count of kings-only moves (drawn by the rules well
  before any 4 v 1 technique can force the capture).
- English: 40 moves without a capture or crowning; two kings against one win, but not when the
  game's count leaves fewer moves than the win takes.
"""

from __future__ import annotations

import random

import pytest

from engine import Board
from engine.draw import DRAW_RULES, Material, PlyFacts, RepetitionRule, evaluate
from engine.endgame_rules import RuleCounters, State
from engine.search import TABLE_BOUND, Limit, Searcher, SearchOptions
from tests.conftest import sample_size

COUNTING = sorted(v for v, rules in DRAW_RULES.items()
                  if any(not isinstance(r, RepetitionRule) for r in rules))

# Materials the rules name (lone kings, 2 v 1, 3 v 1, balances) and a few others.
MATERIALS = [Material(0, 1, 0, 1), Material(0, 2, 0, 1), Material(1, 1, 0, 1),
             Material(0, 3, 0, 1), Material(1, 2, 0, 1), Material(2, 1, 0, 1),
             Material(0, 1, 0, 3), Material(0, 4, 0, 1), Material(1, 1, 1, 1),
             Material(2, 1, 1, 1), Material(3, 1, 2, 1), Material(2, 2, 2, 1),
             Material(4, 1, 0, 1), Material(5, 2, 5, 2), Material(2, 0, 1, 0)]


def _fold(rules: RuleCounters, start: Material, plies: list[PlyFacts]) -> State:
    four = (start.white_men, start.white_kings, start.black_men, start.black_kings)
    state = rules.initial(four)
    before = four
    for ply in plies:
        m = ply.material
        after = (m.white_men, m.white_kings, m.black_men, m.black_kings)
        roads = sum(1 << c for c in ply.kings_on_main_road)
        state = rules.advance(state, ply.mover, ply.king_move, ply.capture, ply.promotion,
                              before, after, ply.lone_king_on_main_road, roads)
        before = after
    return state


def _random_history(rng: random.Random, length: int) -> tuple[Material, list[PlyFacts]]:
    material = rng.choice(MATERIALS)
    start = material
    plies = []
    # Some histories reset often, some hardly ever (so that the long counts are reached).
    man, irreversible = rng.choice([(0.07, 0.03), (0.01, 0.005), (0.0, 0.002)])
    for i in range(length):
        capture = rng.random() < irreversible
        promotion = rng.random() < irreversible / 2
        if capture or promotion or rng.random() < 0.01:
            material = rng.choice(MATERIALS)
        road = frozenset(c for c in (0, 1) if rng.random() < 0.7)
        plies.append(PlyFacts(i % 2, rng.random() >= man, capture, promotion, material,
                              ("p", i), lone_king_on_main_road=rng.random() < 0.8,
                              kings_on_main_road=road))
    return start, plies


def _evaluate_rule(variant: str, start: Material, plies: list[PlyFacts]) -> str | None:
    result = evaluate(variant, plies, start_material=start, start_key="start")
    return None if result is None else result.rule


@pytest.mark.parametrize("variant", COUNTING)
def test_counters_agree_with_draw_evaluate_on_random_histories(variant: str) -> None:
    rules = RuleCounters.for_variant(variant)
    assert rules is not None
    rng = random.Random(f"counters-{variant}")
    decided = 0
    for _ in range(sample_size(ci=80, full=600)):
        start, plies = _random_history(rng, rng.randrange(0, 140))
        # Every prefix: the verdict after each ply (keys differ, so no repetition).
        for n in range(0, len(plies) + 1, 7):
            want = _evaluate_rule(variant, start, plies[:n])
            got = rules.rule_name(_fold(rules, start, plies[:n]))
            assert got == want, (variant, start, n)
            decided += want is not None
    assert decided > 0  # the histories reach the rules


@pytest.mark.parametrize("variant", ["international", "russian", "english", "brazilian"])
def test_counters_agree_with_the_board_on_random_games(variant: str) -> None:
    """Random king endings on real boards: ``start(board)`` is the board's own verdict."""
    rules = RuleCounters.for_variant(variant)
    assert rules is not None
    rng = random.Random(f"games-{variant}")
    fens = {"international": ["W:WK46,K47,K48,K49:BK5", "W:WK46,K47,28:BK5,K4"],
            "brazilian": ["W:WKa1,Kc1,Ke1:BKh8", "W:WKa1,e3:BKh8,d6"],
            "russian": ["W:WKa1,Kc1,Ke1:BKh8", "W:WKa1,Kc1:BKh8,Kf8", "W:WKa1,e3:BKh8,d6"],
            "english": ["W:WK29,K30:BK1", "W:WK29,22:BK1,9"]}
    checked = ended = 0
    for fen in fens[variant]:
        for _game in range(8):
            board = Board(variant, fen=fen)
            for _ply in range(120):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
                outcome = board.outcome()
                state = rules.start(board)
                checked += 1
                if outcome is not None:
                    if outcome.rule != "repetition":
                        assert rules.rule_name(state) == outcome.rule, board.fen()
                        ended += 1
                    break
                assert rules.rule_name(state) is None, board.fen()
    assert checked > 30 and ended > 0


def test_start_counts_the_games_history() -> None:
    rules = RuleCounters.for_variant("international")
    assert rules is not None
    board = Board("international", fen="W:WK47,K48,K49:BK4")
    assert rules.plies_left(rules.start(board), (0, 3, 0, 1)) == 32
    for text in ("48-42", "4-9", "42-48", "9-4"):
        board.push(board.parse_move(text))
    assert rules.plies_left(rules.start(board), (0, 3, 0, 1)) == 28


# --- the search ---------------------------------------------------------------------------------


def quiet_walk(board: Board, plies: int, seed: int) -> None:
    """Play ``plies`` random quiet moves that leave no capture to the opponent and end nothing.

    The material stays as it is and no position comes twice, so only the counting rules'
    counts grow (the caller keeps ``plies`` below the count that ends the game).
    """
    rng = random.Random(seed)
    seen = {board.zobrist_hash()}
    for _ in range(plies):
        choices = []
        for move in board.legal_moves:
            assert not move.is_capture and not move.promotes, board.fen()
            board.push(move)
            if board.zobrist_hash() not in seen and not any(
                m.is_capture for m in board.legal_moves
            ):
                choices.append(move)
            board.pop()
        assert choices, f"the walk is stuck in {board.fen()}"
        board.push(rng.choice(choices))
        seen.add(board.zobrist_hash())
    assert board.outcome() is None


def test_english_40_move_rule_leaves_no_time_to_win() -> None:
    """English, two kings against one king (a win: the lone king is driven to a corner and
    taken) — but after 79 plies without a capture or a crowning the 80th ends the game drawn,
    and White has no capture this move: nothing can be won any more.
    """
    board = Board("english", fen="B:WK29,K30:BK15")
    quiet_walk(board, 79, seed=1)
    assert board.turn == 0 and not any(m.is_capture for m in board.legal_moves)
    counted = Searcher("english").search(board, Limit(depth=4))
    assert counted.score == 0
    fresh = Searcher("english").search(Board("english", fen=board.fen()), Limit(depth=4))
    assert fresh.score > TABLE_BOUND  # the same position with a fresh count is won
    blind = Searcher("english", options=SearchOptions(draw_rules=False)).search(board,
                                                                             Limit(depth=4))
    assert blind.score > TABLE_BOUND


def test_fmjd_25_move_rule_ends_four_kings_against_one() -> None:
    """International, four kings against one: after 49 plies of king moves only, Black's next
    move — a quiet one, Black has no capture — is the 50th and draws by the 25-move rule
    (FMJD art. 6), however lost the lone king is."""
    board = Board("international", fen="W:WK46,K47,K48,K49:BK3")
    quiet_walk(board, 49, seed=2)
    assert board.turn == 1 and not any(m.is_capture for m in board.legal_moves)
    assert Searcher("international").search(board, Limit(depth=3)).score == 0
    blind = Searcher("international", options=SearchOptions(draw_rules=False))
    assert blind.search(board, Limit(depth=3)).score < -100  # four kings up, for the evaluation


def test_russian_15_moves_with_three_kings_against_one() -> None:
    """Russian: three kings against a lone king must win by the strong side's 15th move. With
    Petrov's triangle on the board (a win with a fresh count) but 14 moves made, White's next
    move is the 15th: unless it takes the king, the game is drawn — and no capture is on."""
    board = Board("russian", fen="W:WKa1,Kc1,Ke1:BKh2")
    quiet_walk(board, 28, seed=5)
    assert board.turn == 0 and not any(m.is_capture for m in board.legal_moves)
    assert Searcher("russian").search(board, Limit(depth=3)).score == 0
    # With a fresh count the same kind of position is a win the search plays for (it searches
    # on: the 5-move main-road count could end a slow table win, so the table is not trusted).
    fresh = Board("russian", fen="W:WKa1,Kc1,Ke1:BKh2")
    assert Searcher("russian").search(fresh, Limit(depth=3)).score > 100
