"""Region patterns: the blocks cover the board, the lookup agrees with the patterns' definition,
the score is colour-symmetric, the shipped file loads, bad tables and files are refused."""

from __future__ import annotations

import gzip
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Board, find_variant
from engine.evaluate import Evaluator
from engine.patterns import (
    BLOCK,
    PATTERNS,
    TABLES,
    PatternError,
    PatternTable,
    block_squares,
    indices,
)
from tests.conftest import sample_size
from tests.engine.test_evaluate import _mirror, _random_position

INTERNATIONAL = find_variant("international")


def _random_table(seed: int, entries: int = 3000) -> PatternTable:
    rng = random.Random(seed)
    return PatternTable(INTERNATIONAL, {(rng.randrange(TABLES), rng.randrange(PATTERNS)):
                                        rng.randint(-40, 40) for _ in range(entries)})


def _by_definition(table: PatternTable, board: Board) -> int:
    """The score as the module's docstring defines it, from the squares (no bitboards)."""
    own, mirrored = indices(board)
    return sum(table.weights.get((t, own[t]), 0) - table.weights.get((t, mirrored[t]), 0)
               for t in range(TABLES))


def test_the_blocks_cover_the_board_and_pair_by_the_half_turn() -> None:
    blocks = block_squares(INTERNATIONAL)
    assert len(blocks) == 2 * TABLES
    assert all(len(block) == BLOCK for block in blocks)
    assert {sq for block in blocks for sq in block} == set(range(50))
    for k, block in enumerate(blocks):
        assert sorted(49 - sq for sq in block) == sorted(blocks[15 - k])


def test_a_pattern_counts_the_men_of_its_block_only() -> None:
    # Block 0 is squares 1, 2, 6, 7, 11, 12, 16, 17: a black man on 2 is digit 2 at place 1.
    own, mirrored = indices(Board("international", "W:W47:B2"))
    assert own[0] == 2 * 3
    assert mirrored[0] == 0  # squares 50, 49, 45, ... hold nothing
    # Kings count as empty squares.
    own, _ = indices(Board("international", "W:WK7:B2"))
    assert own[0] == 2 * 3


@settings(max_examples=sample_size(ci=40, full=400), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120), st.integers(0, 1000))
def test_the_lookup_agrees_with_the_definition_and_is_symmetric(seed: int, plies: int,
                                                                 table_seed: int) -> None:
    board = _random_position("international", seed, plies)
    table = _random_table(table_seed)
    score = table.score(board)
    assert score == _by_definition(table, board)
    assert table.score(_mirror(board)) == -score


def test_the_shipped_patterns_load_and_play_a_part() -> None:
    assert PatternTable.available("international")
    table = PatternTable.load("international")
    assert PatternTable.load(INTERNATIONAL) is table  # read once
    assert len(table.weights) > 1000
    board = _random_position("international", 7, 30)
    with_patterns = Evaluator(INTERNATIONAL)
    without = Evaluator(INTERNATIONAL, shipped_patterns=False)
    assert with_patterns.patterns is table and without.patterns is None
    white = with_patterns.evaluate(board) - without.evaluate(board)
    assert white == (table.score(board) if int(board.turn) == 0 else -table.score(board))


def test_other_boards_have_none_and_refuse_them() -> None:
    assert Evaluator(find_variant("russian")).patterns is None
    assert not PatternTable.available("frisian")
    with pytest.raises(PatternError, match="10x10"):
        PatternTable(find_variant("russian"), {})
    with pytest.raises(PatternError, match="no patterns ship for russian"):
        PatternTable.load("russian")


@pytest.mark.parametrize(("weights", "message"), [
    ({(TABLES, 0): 1}, "no pattern 0 in table 8"),
    ({(0, PATTERNS): 1}, "no pattern 6561 in table 0"),
    ({(-1, 5): 1}, "no pattern 5 in table -1"),
])
def test_a_table_out_of_range_is_refused(weights: dict[tuple[int, int], int],
                                         message: str) -> None:
    with pytest.raises(PatternError, match=message):
        PatternTable(INTERNATIONAL, weights)


@pytest.mark.parametrize(("text", "line"), [
    ("0 1 2\n0 1", "line 2: '0 1'"),
    ("# header\n0 x 2", "line 2: '0 x 2'"),
    ("0 1 2 3", "line 1: '0 1 2 3'"),
])
def test_a_damaged_pattern_file_says_which_line(text: str, line: str) -> None:
    with pytest.raises(PatternError, match=line):
        PatternTable.from_text(INTERNATIONAL, text)


def test_the_text_round_trips() -> None:
    table = _random_table(3, entries=200)
    text = table.to_text({"variant": "international", "command": "test"})
    again = PatternTable.from_text(INTERNATIONAL, text)
    assert again.weights == table.weights
    # The shipped file is gzip text in the same format.
    from importlib import resources

    raw = resources.files("engine").joinpath("data", "patterns_international.txt.gz").read_bytes()
    shipped = gzip.decompress(raw).decode()
    assert shipped.startswith("# variant: international\n# command: draughtsboard tune patterns")


def test_hints_teach_mode_and_the_levels_search_with_the_patterns() -> None:
    from engine.levels import searcher_for_level
    from engine.search import Searcher

    table = PatternTable.load("international")
    # Hints and teach mode search with a plain Searcher; every level builds one too.
    assert Searcher("international").evaluator.patterns is table
    assert all(searcher_for_level("international", level).evaluator.patterns is table
               for level in (1, 5, 10))
