"""The board page's key to its lights: what each ring lit on the diagram asks of the player.

The diagram draws the board's LED frame as coloured rings (:func:`~firmware_host.feedback.
roles.ring_colours`); the key under "The board says" names the kinds lit now, in the order of the
table of roles (:mod:`firmware_host.feedback.roles`, docs/players.md), each once, in the
viewer's language (the page script redraws it as the frame changes).

>>> [light.role for light in lit({"c3": ("steady", "from"), "d4": ("steady", "to"),
...                                "e5": ("off", "remove"), "a1": ("slow", "from")})]
['from', 'to']
>>> lit({"c3": ("slow", "no such role")})
[]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from firmware_host.feedback import roles

__all__ = ["Light", "light_words", "lit", "words_json"]


def light_words(kinds: Iterable[roles.Light] | None = None) -> dict[str, str]:
    """What each kind of light asks for, as the key says it, in the table's order (default:
    :func:`~firmware_host.feedback.roles.lights`).

    >>> light_words()["remove"]
    'a captured piece to take off'
    """
    return {kind.word: kind.key for kind in (roles.lights() if kinds is None else kinds)}


@dataclass(frozen=True)
class Light:
    """One entry of the key: a kind of light, its ring's colour and what it asks (English)."""

    role: str
    colour: str
    words: str


def lit(leds: Mapping[str, tuple[str, str]],
        kinds: Iterable[roles.Light] | None = None) -> list[Light]:
    """The key's entries for a frame (square -> (pattern, role)): each kind lit, once, in the
    order of ``kinds`` (default: the table of lights)."""
    shown = {role for pattern, role in leds.values() if pattern != "off"}
    return [Light(kind.word, kind.colour.screen, kind.key)
            for kind in (roles.lights() if kinds is None else kinds) if kind.word in shown]


def words_json(kinds: Iterable[roles.Light] | None = None) -> str:
    """``[role, colour, English words]`` of every kind in the key's order (default: the table
    of lights), for the page script that redraws the key."""
    return json.dumps([[kind.word, kind.colour.screen, kind.key]
                       for kind in (roles.lights() if kinds is None else kinds)],
                      separators=(",", ":"))
