"""The board page's key to its lights: what each ring lit on the diagram asks of the player.

The diagram draws the board's LED frame as coloured rings (:data:`~firmware_host.web.diagram.
ROLE_COLOURS`); the key under "The board says" names the kinds lit now, in the order of the
table in docs/players.md, each once, in the viewer's language (the page script redraws it as
the frame changes).

>>> [light.role for light in lit({"c3": ("steady", "from"), "d4": ("steady", "to"),
...                                "e5": ("off", "remove"), "a1": ("slow", "from")})]
['from', 'to']
>>> lit({"c3": ("slow", "no such role")})
[]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from firmware_host.i18n import N_
from firmware_host.web.diagram import ROLE_COLOURS

__all__ = ["LIGHT_WORDS", "Light", "lit", "words_json"]

#: What each kind of light asks for, as the key says it (docs/players.md, "What the lights
#: mean"), in that table's order.
LIGHT_WORDS: Mapping[str, str] = MappingProxyType({
    "from": N_("the computer's piece to move"),
    "to": N_("where the computer's piece goes"),
    "path": N_("a square it jumps through"),
    "remove": N_("a captured piece to take off"),
    "legal": N_("where the lifted piece may go"),
    "must": N_("a piece that must capture"),
    "hint": N_("the suggested move"),
    "missing": N_("put a piece back here"),
    "extra": N_("take the piece off this square"),
    "adjust": N_("the adjust window is open"),
    "crown": N_("crown this man"),
    "result": N_("the game is over"),
    "fault": N_("this square's sensor cannot be trusted"),
    "clock": N_("a minute or less on the clock"),
})


@dataclass(frozen=True)
class Light:
    """One entry of the key: a kind of light, its ring's colour and what it asks (English)."""

    role: str
    colour: str
    words: str


def lit(leds: Mapping[str, tuple[str, str]]) -> list[Light]:
    """The key's entries for a frame (square -> (pattern, role)): each kind lit, once."""
    shown = {role for pattern, role in leds.values() if pattern != "off"}
    return [Light(role, ROLE_COLOURS[role], words) for role, words in LIGHT_WORDS.items()
            if role in shown]


def words_json() -> str:
    """``[role, colour, English words]`` of every kind in the key's order, for the page script
    that redraws the key."""
    return json.dumps([[role, ROLE_COLOURS[role], words] for role, words in LIGHT_WORDS.items()],
                      separators=(",", ":"))
