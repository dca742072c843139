"""What a board follows, as ``run --follow`` and ``follow.source`` write it.

A PDN broadcast's ``http://`` or ``https://`` URL (``#N`` after it: the file's Nth game, 1 by
default; the fragment is never sent), or a board of the hall by its id.

>>> parse("https://club.example/broadcast.pdn#3")
Broadcast(url='https://club.example/broadcast.pdn', game=3)
>>> parse("hall-3")
HallBoard(board_id='hall-3')
>>> problem("ftp://x/y.pdn")
"'ftp://x/y.pdn': an http(s):// URL of a PDN file, or a board's id"
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from firmware_host.digits import whole_number
from firmware_host.store.keys import board_id_problem

__all__ = ["Broadcast", "HallBoard", "Source", "parse", "problem"]

#: The most games a followed file is looked into (a relay's file holds at most 64).
MAX_GAME = 1000


@dataclass(frozen=True)
class Broadcast:
    """The ``game``-th game (1: the first) of the PDN file at ``url``."""

    url: str
    game: int = 1


@dataclass(frozen=True)
class HallBoard:
    """The game a board of the same store plays now."""

    board_id: str


Source = Broadcast | HallBoard


def parse(text: str) -> Source:
    """The source ``text`` names.

    Raises:
        ValueError: neither a URL of a PDN file nor a board's id; the message says which.
    """
    text = text.strip()
    if "://" in text:
        url, _, fragment = text.partition("#")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{text[:200]!r}: an http(s):// URL of a PDN file, or a "
                             "board's id")
        try:
            game = whole_number(fragment, 1, MAX_GAME) if fragment else 1
        except ValueError:
            raise ValueError(f"{text[:200]!r}: #{fragment[:20]} is not a game's number "
                             f"1..{MAX_GAME}") from None
        return Broadcast(url, game)
    reason = board_id_problem(text)
    if reason is not None:
        raise ValueError(f"{text[:200]!r}: an http(s):// URL of a PDN file, or a board's id")
    return HallBoard(text)


def problem(text: str) -> str | None:
    """Why ``text`` is no source (None: it is one; an empty text: not following)."""
    if not text:
        return None
    try:
        parse(text)
    except ValueError as exc:
        return str(exc)
    return None
