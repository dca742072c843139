"""The search's inner loop allocates no container where it need not: each one it keeps alive
for a while counts towards a run of Python's cyclic garbage collector, which took about a
tenth of the compiled search's time (docs/benchmarks.md)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import pytest

from engine.generators import generator_for
from engine.ttable import EXACT, LOWER, TranspositionTable


def tracked_allocations(work: Callable[[], object]) -> int:
    """Containers allocated (net) by ``work``, with the collector held off meanwhile."""
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        kept = work()
        after = gc.get_count()[0]
    finally:
        gc.enable()
    del kept
    return after - before


@pytest.fixture(autouse=True)
def _collector_back_on() -> Iterator[None]:
    yield
    gc.enable()


def test_storing_an_entry_allocates_no_container() -> None:
    table = TranspositionTable(mb=1, bound=1000)
    move = (1, 2, 0, False, (2,), ())

    def fill() -> None:
        for key in range(2000):
            table.store(key * 7919, 5, EXACT if key & 1 else LOWER, key - 1000, 3, move)

    assert tracked_allocations(fill) <= 5  # a tuple an entry was 2,000
    slot = table.find(1999 * 7919)
    assert (table.depth(slot), table.flag(slot), table.score(slot, 3)) == (5, EXACT, 999)


@pytest.mark.parametrize("variant", ["international", "russian", "english", "frisian"])
def test_quiet_moves_are_the_generators_own(variant: str) -> None:
    # A list a call, not a tuple a move: the quiet moves are built once, with the generator.
    gen = generator_for(variant)
    white, black, kings = gen.initial_bitboards()
    calls = 50

    def generate() -> list[object]:
        return [gen.quiet_moves(white, black, kings, 0) for _ in range(calls)]

    moves = gen.quiet_moves(white, black, kings, 0)
    assert len(moves) >= 7
    # The lists and the list of them, give or take the call's own: a tuple a move was 15 a call.
    assert tracked_allocations(generate) <= calls + 5
    assert gen.quiet_moves(white, black, kings, 0)[0] is moves[0]


def test_a_single_jump_is_the_generators_own_and_a_double_is_built() -> None:
    gen = generator_for("international")
    # A white man on 32 takes 28 and lands on 23. Add a man on 33 and black men on 29 and 20:
    # 32 goes on from 23 over 29 to 34, and 33 takes 29 and 20 (to 15); the single is gone
    # (majority rule), and the doubles are built.
    single = gen.squares_to_mask([31]), gen.squares_to_mask([27]), 0
    (move,) = gen.captures(single[0], single[1], 0, 0)
    assert gen.captures(single[0], single[1], 0, 0)[0] is move
    assert [gen.bit2sq[b] + 1 for b in (move[0], move[1], *move[5])] == [32, 23, 28]
    double = gen.squares_to_mask([31, 32]), gen.squares_to_mask([27, 28, 19]), 0
    moves = gen.captures(double[0], double[1], 0, 0)
    assert [[gen.bit2sq[b] + 1 for b in (m[0], m[1], *m[5])] for m in moves] == [[32, 34, 28, 29],
                                                                         [33, 15, 29, 20]]
