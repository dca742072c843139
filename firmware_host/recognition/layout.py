"""The single bridge between the engine's square names and board_io's geometry.

``board_io`` knows squares only as indices with a ``(row, col)`` and a name; the engine's variant
decides both. :func:`layout_for` copies them over once, so the two naming systems cannot drift.

>>> layout = layout_for("russian")
>>> layout.rows, layout.name(28), layout.coords[28]
(8, 'a1', (0, 0))
"""

from __future__ import annotations

from board_io.geometry import Layout
from engine.variant import Variant, find_variant


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
