"""The single bridge between the engine's square names and board_io's geometry.

``board_io`` knows squares only as indices with a ``(row, col)`` and a name; the engine's variant
decides both. :func:`layout_for` copies them over once, so the two naming systems cannot drift.

>>> layout = layout_for("russian")
>>> layout.rows, layout.name(28), layout.coords[28]
(8, 'a1', (0, 0))

A board is built for one layout: :func:`check_variant` says whether another variant can be
played on it (the phone's variant setting, the saved settings, the page's choices).

>>> check_variant(find_variant("russian"), "international")
'board_size'
>>> check_variant(find_variant("russian"), "brazilian") is None
True
"""

from __future__ import annotations

from board_io.geometry import Layout
from engine.errors import UnknownVariantError
from engine.variant import Variant, find_variant

__all__ = ["check_variant", "layout_for"]


def layout_for(variant: str | Variant) -> Layout:
    """Return the board_io :class:`~board_io.geometry.Layout` of an engine variant.

    >>> layout_for("international").parse("46")
    45

    Raises:
        engine.errors.UnknownVariantError: no variant has that name.
    """
    v = find_variant(variant)
    squares = range(v.num_squares)
    return Layout(
        rows=v.rows,
        cols=v.cols,
        coords=tuple(v.square_coords(sq) for sq in squares),
        names=tuple(v.square_name(sq) for sq in squares),
    )


def check_variant(current: Variant, name: str) -> str | None:
    """Why ``name`` cannot follow ``current`` on the same board, or None when it can.

    ``unknown_variant``; ``board_size`` (another number of squares: another board);
    ``board_layout`` (the same size, but its squares lie elsewhere on the board).
    """
    try:
        variant = find_variant(name)
    except (UnknownVariantError, ValueError):
        return "unknown_variant"
    here, there = layout_for(current), layout_for(variant)
    if (here.rows, here.cols) != (there.rows, there.cols):
        return "board_size"
    if here.coords != there.coords:
        return "board_layout"
    return None
