"""The move generator's bit layout: dense ("ghost square") where the board allows it."""

from __future__ import annotations

import pytest

from engine import VARIANTS
from engine.generators import generator_for

#: mypyc keeps an int in a machine word below 2**62; bigger ones are Python objects.
WORD = 1 << 62
#: The boards too big for one word even dense: 12x12, and Turkish's orthogonal 8x8 (every cell
#: plays, so it cannot be halved).
WIDE = {"canadian", "turkish"}


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
def test_bits_and_coords_agree_with_the_variant(name: str) -> None:
    gen = generator_for(name)
    variant = gen.variant
    assert sorted(gen.bit2sq[b] for b in gen.sq2bit) == list(range(variant.num_squares))
    for sq, bit in enumerate(gen.sq2bit):
        assert gen.coords[bit] == variant.square_coords(sq)
    # Bits keep the order of the padded cells, so the endgame tables' index (squares in bit
    # order) is the same with or without halving.
    def cell(sq: int) -> int:
        row, col = variant.square_coords(sq)
        return row * (variant.cols + 1) + col

    squares = range(variant.num_squares)
    assert sorted(squares, key=gen.sq2bit.__getitem__) == sorted(squares, key=cell)


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
def test_every_neighbour_is_one_offset_away(name: str) -> None:
    # Mask shifts in the generator and the evaluation rely on it, and on the shift from an
    # edge square never landing on a playing square of another row.
    gen = generator_for(name)
    playing = set(gen.sq2bit)
    for k, offset in enumerate(gen.offsets):
        for bit in gen.sq2bit:
            row, col = gen.coords[bit]
            dr, dc = gen.steps[k]
            target = gen.variant.square_at(row + dr, col + dc)
            if target is None:
                assert gen.nbr[k][bit] == -1
                assert not gen.jump_src[k] >> bit & 1
                if k < 4:  # one-cell steps: the spare column stops a wrap to another row
                    assert bit + offset not in playing
            else:
                assert gen.nbr[k][bit] == bit + offset == gen.sq2bit[target]


@pytest.mark.parametrize("name", sorted(v.name for v in VARIANTS if v.name not in WIDE))
def test_boards_and_keys_fit_a_machine_word(name: str) -> None:
    gen = generator_for(name)
    assert gen.half == 1
    assert gen.board_mask < WORD
    assert all(key < WORD for keys in gen.zobrist for key in keys)
    assert gen.zobrist_black < WORD
