"""A terminal picture of the simulated board and its LEDs (ANSI colours, blinking by phase).

Example:
    >>> from board_io.geometry import dark_squares
    >>> from board_io.types import Led, Pattern
    >>> text = render(dark_squares(8), {0: Reading.OCCUPIED}, {1: Led(Pattern.ON, (0, 255, 0))},
    ...               now=0.0, colour=False)
    >>> text.splitlines()[1]
    '8 |    ?    [ ]            |'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from board_io.geometry import FILES, Layout
from board_io.leds.base import pattern_lit
from board_io.types import Led, Reading, Square

_PIECES: Mapping[Reading, str] = MappingProxyType({
    Reading.EMPTY: " ", Reading.OCCUPIED: "?", Reading.WHITE: "○", Reading.BLACK: "●",
    Reading.WHITE_KING: "◎", Reading.BLACK_KING: "◉",
})
_RESET = "\x1b[0m"
_DARK = "\x1b[48;2;90;60;40m"
_LIGHT = "\x1b[48;2;230;210;170m"


def _cell(piece: str, led: Led | None, now: float, colour: bool, dark: bool) -> str:
    lit = led if led is not None and pattern_lit(led.pattern, now) else None
    if not colour:
        return f"[{piece}]" if lit is not None else f" {piece} "
    if lit is not None:
        r, g, b = lit.colour
        return f"\x1b[48;2;{r};{g};{b}m\x1b[30m {piece} {_RESET}"
    return f"{_DARK if dark else _LIGHT}\x1b[97m {piece} {_RESET}"


def render(layout: Layout, pieces: Mapping[Square, Reading], leds: Mapping[Square, Led] | None,
           now: float, *, colour: bool = True) -> str:
    """Return the board as text: top row first (Black's side), files and ranks labelled.

    Squares of the layout are drawn dark, others light; a lit LED (at ``now``, blinking by its
    phase) is drawn in its colour, or in brackets without colour.
    """
    leds = leds or {}
    width = len(str(layout.rows))
    border = " " * width + " +" + "-" * (3 * layout.cols) + "+"
    lines = [border]
    for row in reversed(range(layout.rows)):
        cells = []
        for col in range(layout.cols):
            sq = layout.square_at(row, col)
            if sq is None:
                cells.append(_cell(" ", None, now, colour, dark=False))
                continue
            piece = _PIECES[pieces.get(sq, Reading.EMPTY)]
            cells.append(_cell(piece, leds.get(sq), now, colour, dark=True))
        lines.append(f"{row + 1:>{width}} |{''.join(cells)}|")
    lines.append(border)
    lines.append(" " * width + "  " + "".join(f" {FILES[c]} " for c in range(layout.cols)))
    return "\n".join(lines)
