"""The LED language, said once: every kind of light the board shows, and every name it goes by.

Each :class:`Role` is one row of the table: its word (in ``leds`` events, on the web, in the
docs), its blink pattern, its colour (as an RGB board lights it, as a page draws it, as the docs
name it), its rank where several claim one square, its letter and words in the terminal's
legend, its words in the web page's key and in the demo's line, and its sentence in the docs.
board_io knows none of it: it is handed a pattern and a colour (:attr:`Role.led`).

The other places that show the lights read this table or are generated from it, and tests
fail when one differs: the frames' patterns and priority (:mod:`~firmware_host.feedback.leds`),
the terminal's letters (:mod:`firmware_host.tools.diagram`), the web diagram's rings, the
page's key and its script's ring colours (:mod:`firmware_host.web.diagram`,
:mod:`firmware_host.web.lights`, the page's ``data-rings``), the table in docs/players.md
(:func:`docs_table`, ``python -m firmware_host.feedback.roles``), and the firmware, which gets
each light's colour with the frame (docs/serial-protocol.md). A new kind of light is one row
here: no new protocol version, no firmware change.

Example:
    >>> Role.REMOVE.pattern, Role.REMOVE.colour.word, Role.REMOVE.letter
    (<Pattern.SLOW: 'slow'>, 'red', 'X')
    >>> Role.ADJUST.led
    Led(pattern=<Pattern.ON: 'on'>, colour=(0, 15, 64))
    >>> Role("fault") is Role.FAULT, [role.value for role in by_rank()][:3]
    (True, ['fault', 'missing', 'extra'])
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from board_io.leds.base import scale
from board_io.types import Led, Pattern, Rgb
from firmware_host.i18n import N_

__all__ = ["LIGHTS", "Colour", "Light", "Role", "by_rank", "by_word", "docs_table", "lights",
           "ring_colours", "rings_json"]


@dataclass(frozen=True)
class Colour:
    """A colour of the LED language: its word in the docs, as an RGB LED lights it at full
    brightness, and as a page draws it (a CSS colour chosen for a screen)."""

    word: str
    rgb: Rgb
    screen: str


GREEN = Colour("green", (0, 255, 0), "#2e9e44")
PURPLE = Colour("purple", (160, 0, 255), "#8e44ad")
RED = Colour("red", (255, 0, 0), "#d0342c")
WHITE = Colour("white", (255, 255, 255), "#f4f4f4")
ORANGE = Colour("orange", (255, 110, 0), "#f39c12")
YELLOW = Colour("yellow", (255, 220, 0), "#f1c40f")
BLUE = Colour("blue", (0, 60, 255), "#3a7bd5")
GOLD = Colour("gold", (255, 170, 0), "#d4af37")
MAGENTA = Colour("magenta", (255, 0, 192), "#c2188f")
#: A black piece to put on a square (a position set up by the lights): lit dim, so that a
#: single-colour board tells it from a white one by its brightness.
CYAN = Colour("cyan", (0, 190, 255), "#1b8fb8")


@dataclass(frozen=True)
class Light:
    """One kind of light: a row of the table (a :class:`Role` is one).

    ``rank``: where several kinds claim one square the lowest rank shows. ``legend``: the
    terminal's letter, a space and its words (translated; the letter stays). ``key``: the web
    page's words. ``told``: the demo's words, with ``{squares}``. ``means``: the docs'
    sentence. ``level``: the share of the colour's brightness it is lit at (a dim light).
    """

    word: str
    pattern: Pattern
    colour: Colour
    rank: int
    legend: str
    key: str
    told: str
    means: str
    level: float = 1.0

    @property
    def letter(self) -> str:
        """The letter the terminal draws on a square lit so."""
        return self.legend[0]

    @property
    def led(self) -> Led:
        """The LED state that shows it, in board_io's terms: a pattern and a colour."""
        return Led(self.pattern, scale(self.colour.rgb, self.level))


class Role(Light, Enum):
    """Why a square is lit, and how (docs/players.md#what-the-lights-mean): the table.

    The value of a role is its word (``Role("from")``); its fields are :class:`Light`'s.
    """

    # word, pattern, colour, rank, legend, key words, demo words, docs sentence[, level]
    FROM = ("from", Pattern.ON, GREEN, 9, N_("F from"), N_("the computer's piece to move"),
            N_("from {squares}"), "the computer's piece to move")
    TO = ("to", Pattern.ON, GREEN, 8, N_("T to"), N_("where the computer's piece goes"),
          N_("to {squares}"), "where the computer's piece goes")
    PATH = ("path", Pattern.ON, PURPLE, 10, N_("P jumps through"),
            N_("a square it jumps through"), N_("path {squares}"),
            "a square the computer's piece jumps through (multi-capture)")
    REMOVE = ("remove", Pattern.SLOW, RED, 7, N_("X take off"),
              N_("a captured piece to take off"), N_("remove {squares}"),
              "a captured piece still to take off the board")
    LEGAL = ("legal", Pattern.ON, WHITE, 12, N_("L may go"), N_("where the lifted piece may go"),
             N_("legal {squares}"),
             "where the piece you lifted may go (teach mode, or the piece you must move)")
    MUST = ("must", Pattern.SLOW, ORANGE, 13, N_("M must capture"),
            N_("a piece that must capture"), N_("must {squares}"),
            "a piece that must capture (teach mode at the start of your turn; any mode after a "
            "refused quiet move)")
    HINT = ("hint", Pattern.SLOW, YELLOW, 14, N_("H hint"), N_("the suggested move"),
            N_("hint {squares}"), "the suggested move (origin and landing squares)")
    MISSING = ("missing", Pattern.FAST, GREEN, 1, N_("B put a piece back"),
               N_("put a piece back here"), N_("missing {squares}"), "put a piece back here")
    EXTRA = ("extra", Pattern.FAST, RED, 2, N_("E take this piece away"),
             N_("take the piece off this square"), N_("extra {squares}"),
             "take the piece off this square")
    # A position set up by the lights (firmware_host/game/setup.py): what to put on each
    # square, by colour and crown, since presence sensors cannot tell them.
    SET_WHITE = ("set_white", Pattern.ON, WHITE, 3, N_("W put a white man"),
                 N_("put a white man here"), N_("white man {squares}"),
                 "setting up a position: put a white man here")
    SET_BLACK = ("set_black", Pattern.ON, CYAN, 4, N_("D put a black man"),
                 N_("put a black man here"), N_("black man {squares}"),
                 "setting up a position: put a black man here", 0.4)
    SET_WHITE_KING = ("set_white_king", Pattern.FAST, WHITE, 5, N_("Q put a white king"),
                      N_("put a white king here"), N_("white king {squares}"),
                      "setting up a position: put a white king here (a crowned man)")
    SET_BLACK_KING = ("set_black_king", Pattern.FAST, CYAN, 6, N_("Y put a black king"),
                      N_("put a black king here"), N_("black king {squares}"),
                      "setting up a position: put a black king here (a crowned man)", 0.4)
    ADJUST = ("adjust", Pattern.ON, BLUE, 15, N_("A adjust window"),
              N_("the adjust window is open"), N_("adjust {squares}"),
              "the adjust window is open (all pieces of the side to move)", 0.25)
    # Below the computer's move: a piece crowned a moment ago may be the one it moves or
    # takes, and the player must see what to do with it before the reminder to crown it.
    CROWN = ("crown", Pattern.FAST, GOLD, 11, N_("C crown this man"), N_("crown this man"),
             N_("crown {squares}"),
             "a man was promoted: put a crown on it, for a moment (the sensors cannot see "
             "crowns)")
    RESULT = ("result", Pattern.SLOW, WHITE, 16, N_("R result"), N_("the game is over"),
              N_("result {squares}"), "game over: the winner's pieces, or every square on a draw")
    # A square whose sensor cannot be trusted shows that, never a correction on it.
    FAULT = ("fault", Pattern.SLOW, MAGENTA, 0, N_("S sensor fault"),
             N_("this square's sensor cannot be trusted"), N_("fault {squares}"),
             "this square's sensor cannot be trusted")
    # Reviewing a game on the board (firmware_host/coach/review.py): at a mistake, the move
    # that was played and the better one, each by its origin and landing squares.
    PLAYED = ("played", Pattern.ON, ORANGE, 20, N_("O move played"),
              N_("the move that was played here"), N_("played {squares}"),
              "reviewing a game: the move that was played here (origin and landing squares)")
    BETTER = ("better", Pattern.SLOW, GREEN, 21, N_("G better move"),
              N_("the better move"), N_("better {squares}"),
              "reviewing a game: the better move (origin and landing squares): try it by hand")
    # Shown only on a frame nothing else lights (feedback.leds.low_time).
    CLOCK = ("clock", Pattern.SLOW, BLUE, 30, N_("U under a minute"),
             N_("a minute or less on the clock"), N_("clock {squares}"),
             "on a clock, the side to move has a minute or less: the corner square of its "
             "first rank at its player's left hand (square 46 for White, 5 for Black in "
             "international draughts)", 0.25)

    def __new__(cls, *row: Any) -> Role:
        role = Light.__new__(cls)
        role._value_ = row[0]
        return role

    def __repr__(self) -> str:
        return f"<Role.{self.name}: {self.value!r}>"


#: The table as every place that shows or names the lights reads it (through :func:`lights`):
#: the roles, in their order.
LIGHTS: tuple[Light, ...] = tuple(Role)


def lights() -> tuple[Light, ...]:
    """Every kind of light, in the table's order (read when asked: a test may add one to
    :data:`LIGHTS`, and every place that shows the lights shows it)."""
    return LIGHTS


def by_rank(table: Iterable[Light] | None = None) -> list[Light]:
    """The kinds of light (default: :func:`lights`), the one that shows first where several
    claim a square first."""
    return sorted(lights() if table is None else table, key=lambda light: light.rank)


def by_word(table: Iterable[Light] | None = None) -> dict[str, Light]:
    """The kinds of light (default: :func:`lights`) by their word (a ``leds`` event's, as
    the web reads it)."""
    return {light.word: light for light in (lights() if table is None else table)}


def ring_colours(table: Iterable[Light] | None = None) -> dict[str, str]:
    """``{word: ring colour}`` of every kind (default: :func:`lights`): its colour as a
    screen shows it.

    Example:
        >>> ring_colours()["remove"]
        '#d0342c'
    """
    return {light.word: light.colour.screen for light in (lights() if table is None else table)}


def rings_json(table: Iterable[Light] | None = None) -> str:
    """:func:`ring_colours` as JSON, for the pages' script (``data-rings``).

    Example:
        >>> rings_json()[:40]
        '{"from":"#2e9e44","to":"#2e9e44","path":'
    """
    return json.dumps(ring_colours(table), separators=(",", ":"))


_PATTERN_WORDS = {Pattern.ON: "steady", Pattern.SLOW: "slow", Pattern.FAST: "fast"}


def docs_table(table: Iterable[Light] | None = None) -> str:
    """The table of docs/players.md ("What the lights mean"), one row per kind (default:
    :func:`lights`).

    Example:
        >>> print(docs_table().splitlines()[2])
        | from | steady | green | the computer's piece to move |
    """
    rows = ["| light | pattern | colour | meaning |", "|---|---|---|---|"]
    for light in lights() if table is None else table:
        pattern = _PATTERN_WORDS[light.pattern] + (", dim" if light.level < 1 else "")
        rows.append(f"| {light.word} | {pattern} | {light.colour.word} | {light.means} |")
    return "\n".join(rows) + "\n"


#: Where the generated table stands in docs/players.md.
DOCS_BEGIN = "<!-- lights: generated by python -m firmware_host.feedback.roles -->\n"
DOCS_END = "<!-- end of the generated lights -->\n"


def docs_page(page: str, table: Iterable[Light] | None = None) -> str:
    """``page`` (docs/players.md) with its generated table replaced by the current one.

    Raises:
        ValueError: the page has no place for the table.
    """
    head, begin, rest = page.partition(DOCS_BEGIN)
    _, end, tail = rest.partition(DOCS_END)
    if not begin or not end:
        raise ValueError("docs/players.md has no generated lights table")
    return head + DOCS_BEGIN + docs_table(table) + DOCS_END + tail


def main(argv: list[str]) -> int:
    """``python -m firmware_host.feedback.roles [PAGE]``: rewrite the page's table in place
    (default: docs/players.md of this tree)."""
    page = Path(argv[0]) if argv else Path(__file__).parents[2] / "docs" / "players.md"
    page.write_text(docs_page(page.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
