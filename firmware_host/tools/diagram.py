"""The board as ``draughtsboard play`` draws it: pieces, lights by kind, and square numbers.

Each lit square shows the letter of its light's kind on both sides of the piece (``T T`` is an
empty square lit *to*; ``F○F`` the white piece lit *from*), in colour or not, and a legend
under the board names the kinds on show, so ``--no-colour`` tells them apart as well as the
colours do. Numeric variants get a key of their square numbers beside the board (or under
it, when the terminal is too narrow): what a hint prints can be found and typed back.

A still picture cannot blink: every blinking light is drawn lit.

>>> from board_io.types import Reading
>>> from engine.variant import find_variant
>>> from firmware_host.feedback.roles import Role
>>> text = draw(find_variant("russian"), {21: Reading.WHITE}, {21: Role.FROM, 17: Role.TO},
...             colour=False)
>>> print(text.splitlines()[5])
4 |         T T            |
>>> print(text.splitlines()[6])
3 |      F○F               |
>>> print(text.splitlines()[-1])
  lights: F from, T to
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

from board_io.types import Reading, Square
from engine.variant import Variant
from firmware_host.feedback.roles import Light, lights
from firmware_host.i18n import ENGLISH, Translator

__all__ = ["draw", "number_key"]

_FILES = "abcdefghijklmnopqrstuvwxyz"
_PIECES: Mapping[Reading, str] = MappingProxyType({
    Reading.EMPTY: " ", Reading.OCCUPIED: "?", Reading.WHITE: "○", Reading.BLACK: "●",
    Reading.WHITE_KING: "◎", Reading.BLACK_KING: "◉",
})
_RESET = "\x1b[0m"
_DARK = "\x1b[48;2;90;60;40m\x1b[97m"
_LIGHT = "\x1b[48;2;230;210;170m"
#: Widest board plus number key drawn side by side.
_GAP = "    "


def _cell(piece: str, light: Light | None, colour: bool, dark: bool) -> str:
    if light is not None:
        letter = light.letter
        if not colour:
            return f"{letter}{piece}{letter}"
        r, g, b = light.colour.rgb
        return f"\x1b[48;2;{r};{g};{b}m\x1b[30m{letter}{piece}{letter}{_RESET}"
    if not colour:
        return f" {piece} "
    return f"{_DARK if dark else _LIGHT} {piece} {_RESET}"


def _frame_lines(variant: Variant, cell: dict[tuple[int, int], str], blank: str) -> list[str]:
    width = len(str(variant.rows))
    border = " " * width + " +" + "-" * (3 * variant.cols) + "+"
    lines = [border]
    for row in reversed(range(variant.rows)):
        cells = "".join(cell.get((row, col), blank) for col in range(variant.cols))
        lines.append(f"{row + 1:>{width}} |{cells}|")
    lines.append(border)
    lines.append(" " * width + "  " + "".join(f" {_FILES[c]} " for c in range(variant.cols)))
    return lines


def _board_lines(variant: Variant, pieces: Mapping[Square, Reading],
                 leds: Mapping[Square, Light], colour: bool) -> list[str]:
    cells = {}
    for row in range(variant.rows):
        for col in range(variant.cols):
            sq = variant.square_at(row, col)
            cells[(row, col)] = (_cell(" ", None, colour, dark=False) if sq is None else
                                 _cell(_PIECES[pieces.get(sq, Reading.EMPTY)], leds.get(sq),
                                       colour, dark=True))
    return _frame_lines(variant, cells, "   ")


def number_key(variant: Variant) -> list[str]:
    """The numbers of the squares, drawn in the same frame (numeric variants).

    >>> from engine.variant import find_variant
    >>> print(number_key(find_variant("english"))[1])
    8 |    1     2     3     4 |
    """
    cells = {variant.square_coords(sq): f"{variant.square_name(sq):>2} "
             for sq in range(variant.num_squares)}
    return _frame_lines(variant, cells, "   ")


def draw(variant: Variant, pieces: Mapping[Square, Reading], leds: Mapping[Square, Light],
         *, colour: bool, key: bool = True, columns: int = 80,
         tr: Translator = ENGLISH) -> str:
    """The board with its lights, the number key of a numeric variant (with ``key``: beside
    the board when ``columns`` allow, else under it) and the legend of the lights on show, in
    ``tr``'s language."""
    lines = _board_lines(variant, pieces, leds, colour)
    if key and variant.numeric_notation:
        numbers = number_key(variant)
        plain = len(numbers[0])
        if 2 * plain + len(_GAP) <= columns:
            # Every line is ``plain`` characters wide but the files' line, one shorter.
            lines = [f"{line}{' ' * (i == len(lines) - 1)}{_GAP}{numbers[i]}"
                     for i, line in enumerate(lines)]
        else:
            lines += ["", "  " + tr.gettext("square numbers:"), *numbers]
    table = lights()  # the legend names the kinds on show in the table's order
    shown = sorted(set(leds.values()),
                   key=lambda light: table.index(light) if light in table else len(table))
    if shown:
        head = "  " + tr.gettext("lights:") + " "
        lines += _wrap(head, [tr.gettext(light.legend) for light in shown], columns)
    return "\n".join(line.rstrip() for line in lines)


def _wrap(head: str, items: list[str], columns: int) -> list[str]:
    """``head`` and the comma-separated ``items``, on as many lines as ``columns`` need.

    >>> _wrap("  lights: ", ["F from", "T to", "X take off"], 24)
    ['  lights: F from, T to,', '          X take off']
    """
    lines, line = [], head
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if line.strip() and _width(line) + _width(text) + 1 > columns and line != head:
            lines.append(line.rstrip())
            line = " " * _width(head)
        line += text + " "
    lines.append(line.rstrip())
    return lines


def _width(text: str) -> int:
    """The columns ``text`` takes in a terminal (wide East Asian characters take two).

    >>> _width("T to"), _width("T 移動先")
    (4, 8)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
