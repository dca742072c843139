"""The layout bridge: board_io's names and coordinates agree with the engine's, every variant."""

from __future__ import annotations

import pytest

from engine.variant import VARIANTS
from firmware_host.recognition.layout import layout_for


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_names_and_coords_agree(variant) -> None:
    layout = layout_for(variant.name)
    assert (layout.rows, layout.cols) == (variant.rows, variant.cols)
    assert layout.num_squares == variant.num_squares
    for sq in range(variant.num_squares):
        name = variant.square_name(sq)
        assert layout.name(sq) == name
        assert layout.parse(name) == sq == variant.parse_square(name)
        assert layout.coords[sq] == variant.square_coords(sq)


@pytest.mark.parametrize(
    ("variant", "name", "index", "coords"),
    [
        ("international", "46", 45, (0, 0)),
        ("international", "1", 0, (9, 1)),
        ("english", "1", 0, (7, 1)),
        ("russian", "a1", 28, (0, 0)),
        ("russian", "h8", 3, (7, 7)),
        ("brazilian", "a1", 28, (0, 0)),  # PDN 3.0 GameType 26 is alphanumeric, as Russian
        ("brazilian", "h8", 3, (7, 7)),
        ("turkish", "a1", 0, (0, 0)),
        ("turkish", "h8", 63, (7, 7)),
    ],
)
def test_known_squares(variant: str, name: str, index: int, coords: tuple[int, int]) -> None:
    layout = layout_for(variant)
    assert layout.parse(name) == index
    assert layout.coords[index] == coords
