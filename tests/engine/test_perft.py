"""Perft from the initial position against published figures.

Sources:
- International: Aart Bik, "BikDam: international checkers" (aartbik.blogspot.com, 2012):
  9, 81, 658, 4265, 27117, 167140, 1049442, 6483961 (duplicate captures removed).
- English / American checkers: Aart Bik, "perft for 8x8 checkers" (talkchess.com, 2009), OEIS
  A133046: 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680.
- Russian: Rein Halbersma, "Perft for all recognized draughts variants" (damforum.nl t=2822,
  post 80038): 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586.
- Brazilian: same thread, first derived on the shashki.com forum: 7, 49, 302, 1469, 7473, 37628,
  187302.
- Pool (Russian rules but for kings and promotion), Spanish and Italian: the same author's dctl,
  ``test/src/ai/traversal/initial/board8x8.cpp`` (rhalbersma/dctl; the figures of the threads
  above): pool 7 .. 929896, 4570534; Spanish 7 .. 828783, 3860866; Italian 7 .. 828783, 3860875
  (Italian and Spanish part at depth 9, where a man's capture precedence first matters).

Shallow depths run in CI; ``DRAUGHTSBOARD_SAMPLE=full`` goes deeper.
"""

from __future__ import annotations

import pytest

from engine import Board
from engine.perft import divide, perft
from tests.conftest import sample_size

PUBLISHED = {
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961],
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534],
    "spanish": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875],
}
CI_DEPTH = {"international": 5, "english": 7, "russian": 6, "brazilian": 6, "pool": 6,
            "spanish": 6, "italian": 6}
FULL_DEPTH = {"international": 8, "english": 9, "russian": 9, "brazilian": 7, "pool": 9,
              "spanish": 9, "italian": 9}


@pytest.mark.parametrize("variant", sorted(PUBLISHED))
def test_perft_matches_published_figures(variant: str) -> None:
    depth = sample_size(ci=CI_DEPTH[variant], full=FULL_DEPTH[variant])
    board = Board(variant)
    for d in range(1, depth + 1):
        assert perft(board, d) == PUBLISHED[variant][d - 1], f"{variant} perft({d})"


def test_aliases_and_pool() -> None:
    """"checkers" is English. Pool plays Russian rules until a king appears (men capture
    backwards, free choice; only kings and promotion differ), and no man can be crowned within
    six plies, so its first six perft figures are Russia's published ones."""
    assert perft(Board("checkers"), 5) == 7361
    assert [perft(Board("pool"), d) for d in range(1, 7)] == PUBLISHED["russian"][:6]


def test_perft_leaves_board_untouched() -> None:
    board = Board("russian")
    before = (board.fen(), board.zobrist_hash())
    perft(board, 4)
    assert (board.fen(), board.zobrist_hash()) == before


def test_depth_zero_is_one_and_negative_rejected() -> None:
    assert perft(Board(), 0) == 1
    with pytest.raises(ValueError, match="-1"):
        perft(Board(), -1)


def test_divide_sums_to_perft() -> None:
    parts = divide(Board("international"), 3)
    assert len(parts) == 9
    assert sum(parts.values()) == 658
    board = Board("international")
    board.push(board.parse_move("32-28"))
    assert parts["32-28"] == perft(board, 2)


def test_unique_and_paths_counting_differ_on_a_capture_loop() -> None:
    """An English king ringed by four men can capture them clockwise or anticlockwise.

    Both paths start and end on e3 and take the same men: one move, two paths.
    """
    board = Board.from_fen("W:WK23:B10,11,18,19", "english")  # Ke3; d6, f6, d4, f4
    assert perft(board, 1) == 1
    assert perft(board, 1, paths=True) == 2
    (move,) = board.legal_moves
    assert move.origin == move.destination == 22
    assert sorted(move.captures) == [9, 10, 17, 18]
