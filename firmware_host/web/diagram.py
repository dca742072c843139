"""The board diagram as SVG, drawn from the position (pure: no I/O).

White is at the bottom. The last move's squares are outlined; the LED frame's roles are drawn as
coloured rings (the colours of the board's LED language, docs/players.md), so a teacher's screen
shows what the board lights.

>>> from engine import Board
>>> svg = board_svg(Board("english"), size=160)
>>> svg.startswith("<svg") and svg.count('class="piece') == 24
True
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from engine import Board
from engine.types import WHITE
from firmware_host.store.records import MoveRecord

__all__ = ["ROLE_COLOURS", "board_svg"]

#: LED role -> ring colour (as the RGB board shows them).
ROLE_COLOURS: Mapping[str, str] = {
    "from": "#2e9e44", "to": "#2e9e44", "path": "#8e44ad", "remove": "#d0342c",
    "legal": "#f4f4f4", "must": "#f39c12", "hint": "#f1c40f", "missing": "#2e9e44",
    "extra": "#d0342c", "adjust": "#3a7bd5", "crown": "#d4af37", "result": "#f4f4f4",
}
LIGHT, DARK, LAST = "#f0d9b5", "#8b5a2b", "#3a7bd5"


def board_svg(board: Board, last: MoveRecord | None = None,
              leds: Mapping[str, tuple[str, str]] | None = None, size: int = 400,
              label: str = "") -> str:
    """The SVG of ``board`` with the last move outlined and the LED roles ringed."""
    variant = board.variant
    rows, cols = variant.rows, variant.cols
    cell = size / max(rows, cols)
    marked = set()
    if last is not None:
        marked = {last.origin, last.destination}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {cols * cell:g} '
             f'{rows * cell:g}" width="{cols * cell:g}" height="{rows * cell:g}" role="img" '
             f'aria-label="{escape(label or variant.name)}" class="diagram">']
    for row in range(rows):
        for col in range(cols):
            x, y = col * cell, (rows - 1 - row) * cell
            square = variant.square_at(row, col)
            fill = LIGHT if square is None else DARK
            parts.append(f'<rect x="{x:g}" y="{y:g}" width="{cell:g}" height="{cell:g}" '
                         f'fill="{fill}"/>')
    pieces = board.pieces()
    leds = leds or {}
    for square in range(variant.num_squares):
        row, col = variant.square_coords(square)
        name = variant.square_name(square)
        cx, cy = (col + 0.5) * cell, (rows - 1 - row + 0.5) * cell
        if name in marked:
            parts.append(f'<rect class="last" x="{col * cell + 1:g}" '
                         f'y="{(rows - 1 - row) * cell + 1:g}" width="{cell - 2:g}" '
                         f'height="{cell - 2:g}" fill="none" stroke="{LAST}" stroke-width="3"/>')
        piece = pieces.get(square)
        if piece is not None:
            white = piece.color == WHITE
            colour, edge = ("#fafafa", "#555") if white else ("#1c1c1c", "#999")
            kind = "king" if piece.king else "man"
            parts.append(f'<circle class="piece {"white" if white else "black"} {kind}" '
                         f'data-square="{escape(name)}" cx="{cx:g}" cy="{cy:g}" '
                         f'r="{cell * 0.38:g}" fill="{colour}" stroke="{edge}" '
                         f'stroke-width="{max(1.0, cell / 20):g}"/>')
            if piece.king:
                parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{cell * 0.16:g}" '
                             f'fill="none" stroke="#d4af37" stroke-width="{cell / 12:g}"/>')
        led = leds.get(name)
        if led is not None and led[0] != "off":
            ring = ROLE_COLOURS.get(led[1], "#ffffff")
            parts.append(f'<circle class="led {escape(led[1])} {escape(led[0])}" '
                         f'cx="{cx:g}" cy="{cy:g}" r="{cell * 0.45:g}" fill="none" '
                         f'stroke="{ring}" stroke-width="{cell / 10:g}"/>')
    parts.append("</svg>")
    return "".join(parts)
