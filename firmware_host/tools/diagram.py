"""The board as ``draughtsboard play`` draws it: pieces, lights by kind, and square numbers.

Each lit square shows the letter of its light's kind on both sides of the piece (``T T`` is an
empty square lit *to*; ``F○F`` the white piece lit *from*), in colour or not, and a legend
under the board names the kinds on show, so ``--no-colour`` tells them apart as well as the
colours do. Numeric variants get a key of their square numbers beside the board (or under
it, when the terminal is too narrow): what a hint prints can be found and typed back.

A still picture cannot blink: every blinking light is drawn lit.

>>> from board_io.types import Led, Pattern, Reading, Role
>>> from engine.variant import find_variant
>>> text = draw(find_variant("russian"), {21: Reading.WHITE}, {21: Led(Pattern.ON, Role.FROM),
...             17: Led(Pattern.SLOW, Role.TO)}, colour=False)
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

from board_io.leds.base import ROLE_COLOURS
from board_io.types import Led, Pattern, Reading, Role, Square
from engine.variant import Variant
from firmware_host.i18n import ENGLISH, N_, Translator

__all__ = ["LEGEND", "LETTERS", "draw", "number_key"]

_FILES = "abcdefghijklmnopqrstuvwxyz"
_PIECES: Mapping[Reading, str] = MappingProxyType({
    Reading.EMPTY: " ", Reading.OCCUPIED: "?", Reading.WHITE: "○", Reading.BLACK: "●",
    Reading.WHITE_KING: "◎", Reading.BLACK_KING: "◉",
})
#: The letter of each kind of light and what it asks for (docs/players.md, "What the lights
#: mean").
LETTERS: Mapping[Role, tuple[str, str]] = MappingProxyType({
    Role.FROM: ("F", "from"),
    Role.TO: ("T", "to"),
    Role.PATH: ("P", "jumps through"),
    Role.REMOVE: ("X", "take off"),
    Role.LEGAL: ("L", "may go"),
    Role.MUST: ("M", "must capture"),
    Role.HINT: ("H", "hint"),
    Role.MISSING: ("B", "put a piece back"),
    Role.EXTRA: ("E", "take this piece away"),
    Role.ADJUST: ("A", "adjust window"),
    Role.CROWN: ("C", "crown this man"),
    Role.RESULT: ("R", "result"),
    Role.FAULT: ("S", "sensor fault"),
    Role.CLOCK: ("U", "under a minute"),
})
#: Each kind's entry of the legend, a sentence of the catalogs whole: a translation names the
#: kind in its language and keeps the letter (it is what is drawn on the board).
LEGEND: Mapping[Role, str] = MappingProxyType({
    Role.FROM: N_("F from"), Role.TO: N_("T to"), Role.PATH: N_("P jumps through"),
    Role.REMOVE: N_("X take off"), Role.LEGAL: N_("L may go"), Role.MUST: N_("M must capture"),
    Role.HINT: N_("H hint"), Role.MISSING: N_("B put a piece back"),
    Role.EXTRA: N_("E take this piece away"), Role.ADJUST: N_("A adjust window"),
    Role.CROWN: N_("C crown this man"), Role.RESULT: N_("R result"),
    Role.FAULT: N_("S sensor fault"), Role.CLOCK: N_("U under a minute"),
})
_RESET = "\x1b[0m"
_DARK = "\x1b[48;2;90;60;40m\x1b[97m"
_LIGHT = "\x1b[48;2;230;210;170m"
#: Widest board plus number key drawn side by side.
_GAP = "    "


def _cell(piece: str, led: Led | None, colour: bool, dark: bool) -> str:
    if led is not None and led.pattern is not Pattern.OFF:
        letter = LETTERS[led.role][0]
        if not colour:
            return f"{letter}{piece}{letter}"
        r, g, b = ROLE_COLOURS[led.role]
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
                 leds: Mapping[Square, Led], colour: bool) -> list[str]:
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


def draw(variant: Variant, pieces: Mapping[Square, Reading], leds: Mapping[Square, Led],
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
    shown = sorted({led.role for led in leds.values() if led.pattern is not Pattern.OFF},
                   key=list(LETTERS).index)
    if shown:
        head = "  " + tr.gettext("lights:") + " "
        lines += _wrap(head, [tr.gettext(LEGEND[role]) for role in shown], columns)
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
