"""engine.generators: one move generator a variant, and the boards too wide for the compiled
build (Canadian, Turkish) handed to the pure copies of the hot path (engine.compiled.pure_module).

Run by the main (pure) run and by .ci/compiled against the compiled wheel
(``DRAUGHTSBOARD_ENGINE_BUILD=compiled``), where the routing is live: the same trees, node for
node, in both.
"""

from __future__ import annotations

import importlib
import os
import types

import pytest

from engine import Board
from engine.compiled import COMPILABLE, WORD_BITS, pure_module
from engine.evaluate import Evaluator
from engine.generators import generator_for, routed
from engine.movegen import board_bits
from engine.perft import perft
from engine.search import Limit, Searcher
from engine.variant import VARIANTS

COMPILED = os.environ.get("DRAUGHTSBOARD_ENGINE_BUILD", "pure") == "compiled"

#: Fixed-depth searches and the nodes the engine visited before its boards became ``i64``
#: (commit 1b6f1cf, pure and compiled alike): the same tree, node for node, in either build.
TREES = [
    ("international", None, 7, 13766, 5),
    ("international", "W:W32-36,40,42,45-50:B1-6,8,13,14,16,18,21,24", 6, 17368, 4),
    ("international", "W:WK29,K37,K41,47:BK3,36", 6, 33912, 291),
    ("frisian", None, 6, 6307, 2),
    ("russian", "W:Wa1,a3,b4,c1,e1,e3,f2,g3,h2:Ba7,b8,c5,d6,e5,f8,h4,h6,h8", 7, 6987, 22),
    ("english", "B:W13,19,21-24,27,29-31:B1,3,4,6,9-12,14,20", 8, 11751, 45),
    ("canadian", None, 5, 2753, 9),
    ("turkish", None, 5, 2420, 7),
]


@pytest.mark.parametrize(("variant", "fen", "depth", "nodes", "score"), TREES)
def test_a_fixed_depth_search_visits_the_nodes_it_visited_before(
    variant: str, fen: str | None, depth: int, nodes: int, score: int
) -> None:
    board = Board(variant, fen) if fen else Board(variant)
    result = Searcher(variant, tt_mb=4).search(board, Limit(depth=depth))
    assert (result.nodes, result.score) == (nodes, score)


def test_only_the_boards_wider_than_a_word_are_routed_and_only_when_compiled() -> None:
    wide = {v.name for v in VARIANTS if board_bits(v) > WORD_BITS}
    assert wide == {"canadian", "turkish"}
    assert {v.name for v in VARIANTS if routed(v)} == (wide if COMPILED else set())


@pytest.mark.parametrize("variant", ["canadian", "turkish"])
def test_a_wide_variant_is_searched_by_the_pure_copy_when_compiled(variant: str) -> None:
    searcher = Searcher(variant, tt_mb=1)
    assert (searcher.pure is not None) == COMPILED
    board = Board(variant)
    result = searcher.search(board, Limit(depth=4))
    copy = pure_module("engine.search").Searcher(variant, tt_mb=1).search(board, Limit(depth=4))
    assert (result.move, result.score, result.nodes) == (copy.move, copy.score, copy.nodes)
    assert result.move in board.legal_moves
    assert searcher.nodes == result.nodes


@pytest.mark.parametrize("variant", ["canadian", "turkish"])
def test_a_wide_variant_is_counted_and_evaluated_as_the_pure_copy_does(variant: str) -> None:
    board = Board(variant)
    assert perft(board, 3) == pure_module("engine.perft").perft(board, 3)
    evaluator = Evaluator(board.variant)
    assert (evaluator.pure is not None) == COMPILED
    reference = pure_module("engine.evaluate").Evaluator(board.variant)
    assert evaluator.evaluate(board) == reference.evaluate(board)
    assert evaluator.features_bits(*board.bitboards(), 0) == reference.features_bits(
        *board.bitboards(), 0)
    assert evaluator.is_dead_draw(board) is reference.is_dead_draw(board) is False
    assert evaluator.dead_draw_bits(*board.bitboards()) is False
    assert generator_for(variant).size == board_bits(board.variant)


def test_the_pure_copies_are_interpreted_and_import_each_other() -> None:
    if not COMPILED:  # a pure install: the modules are interpreted already, no copies
        assert all(pure_module(name) is importlib.import_module(name) for name in COMPILABLE)
        return
    search = pure_module("engine.search")
    assert search.__name__ == "engine._pure.search"  # the build's copy, byte-compiled as any
    assert isinstance(search.make_move, types.FunctionType)
    assert search.make_move is pure_module("engine.movegen").make_move
    assert search.Evaluator is pure_module("engine.evaluate").Evaluator
    assert pure_module("engine.search") is search  # loaded once
    assert all(pure_module(name).__name__.startswith("engine._pure.") for name in COMPILABLE)


def test_only_a_hot_path_module_has_a_pure_copy() -> None:
    with pytest.raises(ValueError, match=r"engine\.board"):
        pure_module("engine.board")


def test_the_copies_never_route_so_a_routed_search_ends() -> None:
    """A compiled install routes the wide boards to the copies, which never route again (a
    copy that did would hand the search on and on); a pure install routes nothing."""
    if not COMPILED:
        assert not any(routed(v) for v in VARIANTS)
        return
    assert routed("canadian") and not routed("international")
    assert not pure_module("engine.movegen").routed(Board("canadian").variant)
    searcher = Searcher("canadian", tt_mb=1)
    assert searcher.pure is not None and searcher.pure.pure is None
    assert searcher.search(Board("canadian"), Limit(depth=3)).move in Board("canadian").legal_moves
    assert perft(Board("turkish"), 2) == pure_module("engine.perft").perft(Board("turkish"), 2)
    assert Evaluator(Board("turkish").variant).pure is not None
