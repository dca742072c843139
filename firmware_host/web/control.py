"""Control from the web app: a checked form becomes an entry of the board's command stream.

The board service reads the stream (:mod:`firmware_host.remote.reader`) into its event queue,
like a button press. Everything is checked here first, and again by the board at its edge.

>>> command_fields({"command": "level", "value": "3"})
{'name': 'level', 'value': '3'}
>>> command_fields({"command": "white", "value": "Ann Smith"})
{'name': 'header', 'tag': 'White', 'value': 'Ann Smith'}
>>> command_fields({"command": "time_control", "value": "3+2"})
{'name': 'time_control', 'value': '3+2'}
>>> command_fields({"command": "setup", "value": "W:W31,32:B1  "})
{'name': 'setup', 'value': 'W:W31,32:B1'}
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
from engine.variant import find_variant
from firmware_host.i18n import N_
from firmware_host.recognition.layout import check_variant
from firmware_host.store.keys import BoardKeys, board_id_problem
from firmware_host.terms import buttons as board_buttons
from firmware_host.terms.commands import (
    MAX_HEADER_LENGTH,
    MAX_POSITION_LENGTH,
    SIDES,
    STREAM_LENGTH,
    CommandName,
)
from firmware_host.terms.settings import phone_settings, setting

__all__ = ["BUTTONS", "PHONE_ONLY", "SIDED", "SIMPLE", "TAGS", "TAG_FORMS", "buttons_for",
           "choices", "command_fields", "pair_fields", "send", "setting_forms"]

#: Commands without a value: the board's own buttons (terms/buttons.py), a side's by its
#: ``side`` field, but the clock's (its player presses it, at the board); and the phone's own:
#: the claim of a player whose opponent's board is gone (:data:`PHONE_ONLY`).
PHONE_ONLY = (CommandName.CLAIM.value,)
SIMPLE = (*(button.name for button in board_buttons.BUTTONS
            if button.side is None and button.name != board_buttons.CLOCK), *PHONE_ONLY)
#: The board page's buttons, each with its label (one for each of :data:`SIMPLE`).
BUTTONS = (("newgame", N_("New game")), ("hint", N_("Hint")), ("takeback", N_("Take back")),
           ("adjust", N_("J'adoube")), ("done", N_("Adjusted")), ("draw", N_("Offer a draw")),
           ("resign", N_("Resign")), ("claim", N_("Claim the game (opponent gone)")),
           ("review", N_("Review the last game")), ("puzzles", N_("Puzzles")),
           ("drills", N_("Drills")))
#: A recorded game's draw and resign buttons name their side (``command:side``): the board
#: refuses a side-less one in record mode, it never guesses whose it is. A side's draw button
#: offers a draw, or accepts the other side's offer (as the board's own buttons do).
SIDED = {"draw": (("draw:white", N_("White offers or accepts a draw")),
                  ("draw:black", N_("Black offers or accepts a draw"))),
         "resign": (("resign:white", N_("White resigns")),
                    ("resign:black", N_("Black resigns")))}
#: The board page's name forms (a PDN tag each: :data:`TAGS`), each with its label.
TAG_FORMS = (("white", N_("White")), ("black", N_("Black")), ("event", N_("Event")),
             ("round", N_("Round")))
#: The form's name of each PDN tag set from the web app.
TAGS = {"white": "White", "black": "Black", "event": "Event", "round": "Round", "site": "Site"}


def setting_forms(variant: str | None = None) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The board page's settings forms: each phone setting with a label (a choice each), its
    label and the values offered (:func:`choices`, for a board playing ``variant``).

    >>> [name for name, _, _ in setting_forms()]
    ['variant', 'mode', 'level', 'ponder', 'touch_move']
    """
    return tuple((phone.name, phone.label, choices(phone.name, variant))
                 for phone in phone_settings().values() if phone.label is not None)


def choices(name: str, variant: str | None = None) -> tuple[str, ...]:
    """The values a page offers for setting ``name``: for ``variant``, those this board can
    play after ``variant`` (the same squares:
    :func:`~firmware_host.recognition.layout.check_variant`).

    >>> offered = choices("variant", "russian")
    >>> "brazilian" in offered, "international" in offered
    (True, False)
    >>> choices("level")[-1]
    '10'
    """
    phone = setting(name)
    offered = () if phone is None else phone.offered() or ()
    if name != "variant" or variant is None:
        return offered
    try:
        current = find_variant(variant)
    except UnknownVariantError:
        return offered
    return tuple(v for v in offered if check_variant(current, v) is None)


def buttons_for(mode: str | None) -> tuple[tuple[str, str], ...]:
    """The board page's buttons for a game in ``mode``: in record mode a draw and a resign
    button for each side, and no review nor puzzles (they need the engine, which record mode
    runs without).

    >>> [name for name, _ in buttons_for("record") if ":" in name]
    ['draw:white', 'draw:black', 'resign:white', 'resign:black']
    >>> "puzzles" in dict(buttons_for("record")), "puzzles" in dict(buttons_for("play"))
    (False, True)
    """
    if mode != "record":
        return BUTTONS
    return tuple(button for name, label in BUTTONS
                 if name not in (CommandName.CLAIM.value, CommandName.REVIEW.value,
                                 CommandName.PUZZLES.value)
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
            if side not in SIDES:
                raise ValueError(f"bad side {side!r}")
            fields["side"] = side
    elif (phone := setting(name)) is not None:  # for the next game: terms/settings.py
        fields.update(name=name, value=phone.text(phone.parse(value)))
    elif name == CommandName.PAIR.value:  # (a person on another board: docs/remote.md)
        fields.update(pair_fields(value, form.get("side", "")))
    elif name == CommandName.SETUP.value:  # a position to set up by the lights: one line
        value = " ".join(value.split())
        if not value or len(value) > MAX_POSITION_LENGTH or not value.isprintable():
            raise ValueError(f"{name}: a FEN or a PDN game, 1 to {MAX_POSITION_LENGTH} "
                             "printable characters")
        fields.update(name=name, value=value)
    elif name in TAGS:
        if not value or len(value) > MAX_HEADER_LENGTH or not value.isprintable():
            raise ValueError(f"{name}: 1 to {MAX_HEADER_LENGTH} printable characters")
        fields.update(name="header", tag=TAGS[name], value=value)
    else:
        raise ValueError(f"unknown command {name!r}")
    return fields


def pair_fields(partner: str, side: str) -> dict[str, str]:
    """The ``pair`` command's fields: the partner's board ``partner`` (empty: end the pairing)
    and the ``side`` this board's player takes (white when empty).

    >>> pair_fields("club-b-1", "black")
    {'name': 'pair', 'value': 'club-b-1', 'side': 'black'}
    >>> pair_fields("club-b:board-1", "")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the board to play: 'club-b:board-1' is not letters, digits, - and _ ...

    Raises:
        ValueError: no board's id, or a side that is neither.
    """
    problem = board_id_problem(partner) if partner else None
    if problem is not None:
        raise ValueError(f"the board to play: {problem}")
    if side not in ("", *SIDES):
        raise ValueError(f"bad side {side[:20]!r}")
    return {"name": CommandName.PAIR.value, "value": partner, "side": side or "white"}


async def send(client: Redis, board_id: str, fields: Mapping[str, str]) -> str:
    """Add a command to the board's stream; return its stream id."""
    entry = {**fields, "time": f"{time.time():.3f}"}
    entry_id = await client.xadd(BoardKeys(board_id).commands, entry,  # type: ignore[arg-type]
                                 maxlen=STREAM_LENGTH, approximate=True)
    return entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
