"""The broadcast feed: the hall's games as one PDN text, for a broadcast to poll.

``/broadcast.pdn`` serves every ongoing game (each board's current game, finished or not, so a
broadcast sees the result). The games without a move (a board waiting for its first move, a
round just started) come after those with moves: pydraughts (0.6.7) reads no game of a file
after one without moves, so it reads every game that has a move (and the first without),
while a relay that reads PDN as written sees every pairing from the start. ``?round=`` and
``?board=`` select. Tags
follow PDN 3.0 (the store's :func:`~firmware_host.store.pdnrender.render_game`: Event, Site,
Date, Round, White, Black, Result, GameType, FEN when set up). The ETag is a hash of the text
and Last-Modified the newest move or start time, so a poller gets ``304 Not Modified`` while
nothing changed.

>>> etag("1. 32-28 *\\n")[:1]
'"'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord

__all__ = ["etag", "last_modified", "render_games"]


def render_games(games: Sequence[GameRecord]) -> str:
    """The games as one multi-game PDN text (empty text for none), those with a move first."""
    ordered = [game for game in games if game.moves] + [g for g in games if not g.moves]
    return "\n".join(render_game(game) for game in ordered)


def etag(text: str) -> str:
    """A strong ETag of the text."""
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def last_modified(games: Sequence[GameRecord]) -> float:
    """Unix time of the newest change among the games (0 for none)."""
    return max((max([g.created, *(m.time for m in g.moves)]) for g in games), default=0.0)
