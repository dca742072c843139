"""Control from the web app: a checked form becomes an entry of the board's command stream.

The board service reads the stream (:mod:`firmware_host.remote.commands`) into its event queue,
like a button press. Everything is checked here first, and again by the board at its edge.

>>> command_fields({"command": "level", "value": "3"})
{'name': 'level', 'value': '3'}
>>> command_fields({"command": "white", "value": "Ann Smith"})
{'name': 'header', 'tag': 'White', 'value': 'Ann Smith'}
>>> command_fields({"command": "time_control", "value": "3+2"})
{'name': 'time_control', 'value': '3+2'}
>>> command_fields({"command": "rm -rf"})
Traceback (most recent call last):
...
ValueError: unknown command 'rm -rf'

A paired phone presses the board's own buttons, with the board's own rule for the side: in
``play`` the player's (the board refuses another), in ``record`` the side of the button, as a
board has a draw and a resign button at each player's edge (docs/players.md). It names no
``side`` field of its own (a script with the control token may name one); each press of a
side's button from a phone is in the audit log with the device.

>>> command_fields({"command": "resign", "side": "white"})
Traceback (most recent call last):
...
ValueError: resign: a button of the board names no side
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from redis.asyncio import Redis

from engine.errors import UnknownVariantError
from engine.variant import VARIANTS, find_variant
from firmware_host.game.settings import MAX_HEADER_LENGTH, TOUCH_MOVE_VALUES, check_variant
from firmware_host.game.timekeeper import control_of
from firmware_host.i18n import N_
from firmware_host.remote.commands import STREAM_LENGTH, commands_key

__all__ = ["BUTTONS", "SETTINGS", "SIDED", "SIMPLE", "TAGS", "TAG_FORMS", "buttons_for",
           "choices", "command_fields", "send"]

#: The board page's buttons, each with its label.
BUTTONS = (("newgame", N_("New game")), ("hint", N_("Hint")), ("takeback", N_("Take back")),
           ("adjust", N_("J'adoube")), ("done", N_("Adjusted")), ("draw", N_("Offer a draw")),
           ("resign", N_("Resign")))
#: A recorded game's draw and resign buttons name their side (``command:side``): the board
#: refuses a side-less one in record mode, it never guesses whose it is. A side's draw button
#: offers a draw, or accepts the other side's offer (as the board's own buttons do).
SIDED = {"draw": (("draw:white", N_("White offers or accepts a draw")),
                  ("draw:black", N_("Black offers or accepts a draw"))),
         "resign": (("resign:white", N_("White resigns")),
                    ("resign:black", N_("Black resigns")))}
#: The board page's settings forms (a choice each: :func:`choices`), each with its label.
SETTINGS = (("variant", N_("Variant")), ("mode", N_("Mode")), ("level", N_("Engine level")),
            ("touch_move", N_("Touch-move")))
#: The board page's name forms (a PDN tag each: :data:`TAGS`), each with its label.
TAG_FORMS = (("white", N_("White")), ("black", N_("Black")), ("event", N_("Event")),
             ("round", N_("Round")))
#: Commands without a value (the board's buttons and requests).
SIMPLE = ("newgame", "hint", "takeback", "resign", "draw", "adjust", "done")
#: The form's name of each PDN tag set from the web app.
TAGS = {"white": "White", "black": "Black", "event": "Event", "round": "Round", "site": "Site"}
#: Allowed values of each setting.
CHOICES: Mapping[str, tuple[str, ...]] = {
    "variant": tuple(v.name for v in VARIANTS),
    "mode": ("play", "record", "teach"),
    "level": tuple(str(n) for n in range(1, 11)),
    "touch_move": TOUCH_MOVE_VALUES,
}


def choices(name: str, variant: str | None = None) -> tuple[str, ...]:
    """The values a page offers for setting ``name``: for ``variant``, those this board can
    play after ``variant`` (the same squares: :func:`~firmware_host.game.settings.check_variant`).

    >>> offered = choices("variant", "russian")
    >>> "brazilian" in offered, "international" in offered
    (True, False)
    """
    if name != "variant" or variant is None:
        return CHOICES[name]
    try:
        current = find_variant(variant)
    except UnknownVariantError:
        return CHOICES[name]
    return tuple(v for v in CHOICES[name] if check_variant(current, v) is None)


def buttons_for(mode: str | None) -> tuple[tuple[str, str], ...]:
    """The board page's buttons for a game in ``mode``: in record mode a draw and a resign
    button for each side.

    >>> [name for name, _ in buttons_for("record")][-4:]
    ['draw:white', 'draw:black', 'resign:white', 'resign:black']
    """
    if mode != "record":
        return BUTTONS
    return tuple(button for name, label in BUTTONS
                 for button in SIDED.get(name, ((name, label),)))


def command_fields(form: Mapping[str, str], sides: bool = False) -> dict[str, str]:
    """The command stream fields of a control form (without ``time``); ``sides``: a ``side``
    field may be named (the control token's scripts, not a paired device). A button of each
    side (``draw:white``, ``resign:black``: the board's own buttons of ``record`` mode, where a
    side-less one is refused) names its side on either; the board takes a side only in
    ``record`` mode (in ``play`` only the player's: docs/players.md).

    >>> command_fields({"command": "resign:black"})
    {'name': 'resign', 'side': 'black'}
    >>> command_fields({"command": "newgame:black"})
    Traceback (most recent call last):
    ...
    ValueError: newgame: a button of the board names no side

    Raises:
        ValueError: an unknown command, a value not allowed, a side named (or not white or
            black).
    """
    name, _, sided = form.get("command", "").partition(":")
    fields: dict[str, str] = {}
    value = form.get("value", "").strip()
    if name in SIMPLE:
        fields["name"] = name
        side = form.get("side", "")
        if side and not sides:  # a paired device presses the board's own buttons, for the
            raise ValueError(f"{name}: a button of the board names no side")  # side they do
        if sided:  # a button of one side (record mode's own): draw and resign only
            if name not in SIDED:
                raise ValueError(f"{name}: a button of the board names no side")
            side = sided
        if side:
            if side not in ("white", "black"):
                raise ValueError(f"bad side {side!r}")
            fields["side"] = side
    elif name in CHOICES:
        if value not in CHOICES[name]:
            raise ValueError(f"{name}: {value!r} is not one of {', '.join(CHOICES[name])}")
        fields.update(name=name, value=value)
    elif name == "time_control":  # the next game's clock (3+2, off): firmware_host/game/clock.py
        try:
            control_of(value)
        except ValueError as exc:
            raise ValueError(f"time_control: {exc}") from None
        fields.update(name=name, value=value or "off")
    elif name in TAGS:
        if not value or len(value) > MAX_HEADER_LENGTH or not value.isprintable():
            raise ValueError(f"{name}: 1 to {MAX_HEADER_LENGTH} printable characters")
        fields.update(name="header", tag=TAGS[name], value=value)
    else:
        raise ValueError(f"unknown command {name!r}")
    return fields


async def send(client: Redis, board_id: str, fields: Mapping[str, str]) -> str:
    """Add a command to the board's stream; return its stream id."""
    entry = {**fields, "time": f"{time.time():.3f}"}
    entry_id = await client.xadd(commands_key(board_id), entry,  # type: ignore[arg-type]
                                 maxlen=STREAM_LENGTH, approximate=True)
    return entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
