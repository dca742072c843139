"""The board diagram as SVG, drawn from the position (pure: no I/O).

White is at the bottom (``flip``: Black). The variant's own notation is written on the board:
square numbers in the playing squares of a numeric variant (international, English, ...), files
and ranks along the edge of a letter variant (Russian, Brazilian, Turkish, ...). The last move's
squares are outlined; the LED frame's roles are drawn as coloured rings (the screen colours of
the board's LED language, :mod:`firmware_host.feedback.roles`), so a teacher's screen shows
what the board lights.

The page's script moves the pieces itself when a move arrives on the live feed: every playing
square is a ``rect`` with ``data-sq`` (its name), every piece a ``circle`` with
``data-square``. Squares, pieces and marks are in ``<g class="b">``, which the page rotates to
flip the board; the labels are drawn once for each side (``lab-n``, ``lab-f``) and the page shows
one. A standalone image (``flip`` True or False) is drawn for one side only.

>>> from engine import Board
>>> svg = board_svg(Board("english"), size=160)
>>> svg.startswith("<svg") and svg.count('class="piece') == 24
True
>>> ">32<" in svg and ">a<" not in svg  # English: square numbers
True
>>> svg = board_svg(Board("russian"), size=160, flip=False)
>>> ">a<" in svg and ">8<" in svg and ">b8<" not in svg  # Russian: files and ranks
True
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from engine import Board
from engine.types import WHITE
from engine.variant import Variant
from firmware_host.feedback.roles import ring_colours
from firmware_host.store.records import MoveRecord

__all__ = ["PIECE_COLOURS", "board_svg"]

#: (fill, edge) of a white and a black piece (the page's script draws them the same).
PIECE_COLOURS: Mapping[str, tuple[str, str]] = {"white": ("#fafafa", "#555"),
                                                "black": ("#1c1c1c", "#999")}
LIGHT, DARK, LAST, LABEL = "#f0d9b5", "#8b5a2b", "#3a7bd5", "#f3e3c7"


def board_svg(board: Board, last: MoveRecord | None = None,
              leds: Mapping[str, tuple[str, str]] | None = None, size: int = 400,
              label: str = "", flip: bool | None = None,
              rings: Mapping[str, str] | None = None) -> str:
    """The SVG of ``board`` with the last move outlined and the LED roles ringed.

    ``flip``: None draws both sides' labels for the page to choose (its stylesheet shows
    ``lab-n`` unless the page is flipped); True or False draws a standalone image from Black's or
    White's side. ``rings``: the ring colour of each kind of light (default: the table of
    lights', :func:`~firmware_host.feedback.roles.ring_colours`).
    """
    rings = ring_colours() if rings is None else rings
    variant = board.variant
    rows, cols = variant.rows, variant.cols
    cell = size / max(rows, cols)
    margin = 0.0 if variant.numeric_notation else cell * 0.4
    width, height = cols * cell + 2 * margin, rows * cell + 2 * margin
    marked = {last.origin, last.destination} if last is not None else set()
    rotate = (f' transform="rotate(180 {width / 2:g} {height / 2:g})"' if flip else "")
    # A standalone image (flip given) fits the window it is opened in: a phone shows the
    # whole board (size= stays its width where there is room, and its size in an <img>).
    fit = ' style="max-width:100%;max-height:100vh;height:auto"' if flip is not None else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
             f'width="{width:g}" height="{height:g}" role="img" '
             f'aria-label="{escape(label or variant.name)}" class="diagram"{fit}>',
             f'<rect width="{width:g}" height="{height:g}" fill="#2b2118"/>'
             f'<g class="b"{rotate}><rect x="{margin:g}" y="{margin:g}" '
             f'width="{cols * cell:g}" height="{rows * cell:g}" fill="{LIGHT}"/>']
    for square in range(variant.num_squares):
        x, y = _corner(variant, square, cell, margin)
        parts.append(f'<rect data-sq="{escape(variant.square_name(square))}" x="{x:g}" '
                     f'y="{y:g}" width="{cell:g}" height="{cell:g}" fill="{DARK}"/>')
    pieces = board.pieces()
    leds = leds or {}
    for square in range(variant.num_squares):
        name = variant.square_name(square)
        x, y = _corner(variant, square, cell, margin)
        cx, cy = x + cell / 2, y + cell / 2
        if name in marked:
            parts.append(f'<rect class="last" x="{x + 1.5:g}" y="{y + 1.5:g}" '
                         f'width="{cell - 3:g}" height="{cell - 3:g}" fill="none" '
                         f'stroke="{LAST}" stroke-width="3"/>')
        piece = pieces.get(square)
        if piece is not None:
            side = "white" if piece.color == WHITE else "black"
            colour, edge = PIECE_COLOURS[side]
            kind = "king" if piece.king else "man"
            parts.append(f'<circle class="piece {side} {kind}" data-square="{escape(name)}" '
                         f'cx="{cx:g}" cy="{cy:g}" r="{cell * 0.38:g}" fill="{colour}" '
                         f'stroke="{edge}" stroke-width="{max(1.0, cell / 20):g}"/>')
            if piece.king:
                parts.append(f'<circle class="crown" data-square="{escape(name)}" '
                             f'cx="{cx:g}" cy="{cy:g}" r="{cell * 0.16:g}" fill="none" '
                             f'stroke="#d4af37" stroke-width="{cell / 12:g}"/>')
        led = leds.get(name)
        if led is not None and led[0] != "off":
            ring = rings.get(led[1], "#ffffff")
            parts.append(f'<circle class="led {escape(led[1])} {escape(led[0])}" '
                         f'cx="{cx:g}" cy="{cy:g}" r="{cell * 0.45:g}" fill="none" '
                         f'stroke="{ring}" stroke-width="{cell / 10:g}"/>')
    parts.append("</g>")
    for flipped in (False, True) if flip is None else (flip,):
        parts.append(_labels(variant, cell, margin, flipped))
    parts.append("</svg>")
    return "".join(parts)


def _corner(variant: Variant, square: int, cell: float, margin: float) -> tuple[float, float]:
    """The top left corner of ``square`` seen from White's side."""
    row, col = variant.square_coords(square)
    return margin + col * cell, margin + (variant.rows - 1 - row) * cell


def _labels(variant: Variant, cell: float, margin: float, flipped: bool) -> str:
    """The notation written on the board, seen from White's side or (``flipped``) Black's:
    square numbers in the corner of each playing square, or files and ranks on the edge."""
    rows, cols = variant.rows, variant.cols
    size = cell * (0.24 if variant.numeric_notation else 0.3)
    out = [f'<g class="lab lab-{"f" if flipped else "n"}" font-family="sans-serif" '
           f'font-size="{size:g}" fill="{LABEL}" stroke="{DARK}" '  # readable on a piece too
           f'stroke-width="{size / 4:g}" paint-order="stroke">']
    if variant.numeric_notation:
        for square in range(variant.num_squares):
            row, col = variant.square_coords(square)
            if flipped:
                row, col = rows - 1 - row, cols - 1 - col
            x, y = col * cell + cell * 0.06, (rows - 1 - row) * cell + size
            out.append(f'<text x="{x:g}" y="{y:g}">{escape(variant.square_name(square))}</text>')
    else:
        files = "abcdefghijklmnopqrstuvwxyz"[:cols]
        for col in range(cols):
            shown = files[cols - 1 - col] if flipped else files[col]
            x = margin + col * cell + cell / 2
            out.append(f'<text x="{x:g}" y="{margin + rows * cell + margin * 0.75:g}" '
                       f'text-anchor="middle">{shown}</text>')
        for row in range(rows):
            shown = str(row + 1) if flipped else str(rows - row)
            y = margin + row * cell + cell / 2 + size / 3
            out.append(f'<text x="{margin / 2:g}" y="{y:g}" text-anchor="middle">{shown}'
                       f'</text>')
    out.append("</g>")
    return "".join(out)
