"""The board's buttons, said once: each one's name and the command a press of it is.

board_io reports a press by the button's name and knows nothing more: the names come from here
(``BackendContext.buttons``, in the serial protocol's id order), the ``gpio`` backend reads
the pin of each (``buttons.<name>_pin``, declared from this table in
:mod:`firmware_host.config.buttons`), the session turns a press into its command through
:func:`command_of`, and the web app's phone presses the same buttons (docs/players.md,
docs/tournament.md).

Example:
    >>> command_of("resign_white")
    (<CommandName.RESIGN: 'resign'>, 'white')
    >>> names()[:3]
    ('adjust', 'hint', 'takeback')
    >>> "clock" in names(), "clock" in names(simulated=True)
    (True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from firmware_host.terms.commands import CommandName

__all__ = ["BUTTONS", "CLOCK", "NEWGAME", "Button", "command_of", "names"]


@dataclass(frozen=True)
class Button:
    """One button: its ``name`` (its config key's and a press's), the ``command`` a press is
    (a :class:`~firmware_host.terms.commands.CommandName`), for which ``side`` (a button at
    one player's edge), and what its pin option says (``words``, ``more``)."""

    name: str
    command: CommandName
    words: str
    side: str | None = None
    more: str = ""


_EDGE = (" At that player's edge of the board, so a press says whose it is (record mode needs "
         "it: docs/players.md).")

#: Every button a board may have, in the serial protocol's id order (id 0 first).
BUTTONS: tuple[Button, ...] = (
    Button("adjust", CommandName.ADJUST, "adjust"),
    Button("hint", CommandName.HINT, "hint"),
    Button("takeback", CommandName.TAKEBACK, "takeback"),
    Button("newgame", CommandName.NEWGAME, "new-game"),
    Button("done", CommandName.DONE, "done"),
    Button("resign", CommandName.RESIGN, "resign"),
    Button("draw", CommandName.DRAW, "draw"),
    Button("clock", CommandName.CLOCK, "clock", more=(
        " Pressed by the player who just moved, it switches the clock; with it, a move let go "
        "no longer does.")),
    Button("draw_white", CommandName.DRAW, "White-side draw", "white", _EDGE),
    Button("draw_black", CommandName.DRAW, "Black-side draw", "black", _EDGE),
    Button("resign_white", CommandName.RESIGN, "White-side resign", "white", _EDGE),
    Button("resign_black", CommandName.RESIGN, "Black-side resign", "black", _EDGE),
    Button("review", CommandName.REVIEW, "review", more=(
        " It reviews the last game on the board (docs/coach.md#review-on-the-board); new-game "
        "leaves the review.")),
    Button("puzzles", CommandName.PUZZLES, "puzzles", more=(
        " Starts the puzzles (a press again stops them): docs/coach.md.")),
    Button("drills", CommandName.DRILLS, "drills", more=(
        " Starts the drills of the physical rules (a press again stops them): docs/coach.md.")),
)
_BY_NAME: Mapping[str, Button] = MappingProxyType({button.name: button for button in BUTTONS})

#: The clock button: the player who just moved presses it to switch the clock.
CLOCK = "clock"
#: The new-game button (the demo presses it between games).
NEWGAME = "newgame"


def names(*, simulated: bool = False) -> tuple[str, ...]:
    """The names of the board's buttons in the protocol's id order; the simulated board has
    every one but the clock button (its moves switch the clock as they are let go)."""
    return tuple(button.name for button in BUTTONS
                 if not (simulated and button.name == CLOCK))


def command_of(name: str) -> tuple[CommandName, str | None] | None:
    """The command a press of the button ``name`` is, and for which side (None: not a button
    of this board's)."""
    button = _BY_NAME.get(name)
    return None if button is None else (button.command, button.side)
