"""The archive's index: every game's summary read once, searched in memory, a page at a time.

The archive page filters a hall's games by board, dates, player, event, variant and result. It
once replayed every game's log for every request (a search for a player nobody is cost 10 s of
CPU on a 5,000-game archive, and anyone may ask it over and over). Here each game is read once
into a :class:`Summary` (players, event, round, variant, result, moves, start), kept with an
index by player and by event, and a request costs:

- the boards' game lists (``ZRANGEBYSCORE``, each board's newest
  :data:`~firmware_host.web.reader.MAX_GAMES`);
- the games new since the last request, at most :data:`NEW_PER_REQUEST` of them (the page then
  says how many wait), and the games in play again (``XREVRANGE ... COUNT 1``: read again when
  their log grew); a finished game is looked at again at most every :data:`RECHECK_S`;
- a search of the summaries in memory; one page of :data:`PAGE` rows.

The index holds :data:`MAX_GAMES_INDEXED` games at most (the newest); the routes are
rate-limited per address (web/app.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from firmware_host.store import copies
from firmware_host.store.keys import BoardKeys
from firmware_host.store.records import GameRecord
from firmware_host.web.reader import Reader

__all__ = ["MAX_GAMES_INDEXED", "NEW_PER_REQUEST", "PAGE", "Archive", "Found", "Summary"]

#: Rows of an archive page.
PAGE = 100
#: Games read into the index by one request at most (the rest by the next ones).
NEW_PER_REQUEST = 300
#: Games the index holds at most (the newest).
MAX_GAMES_INDEXED = 50_000
#: A finished game's log is looked at again after this long (s): a corrected result shows then.
RECHECK_S = 60.0
Key = tuple[str, str]


@dataclass(frozen=True)
class Summary:
    """What the archive shows and searches of one game."""

    board_id: str
    game_id: str
    created: float
    headers: Mapping[str, str]
    variant: str
    result: str
    plies: int

    @classmethod
    def of(cls, game: GameRecord) -> Summary:
        """The summary of a game read from its log."""
        tags = {k: v for k, v in game.headers.items()
                if k in ("White", "Black", "Event", "Round", *copies.TAGS)}
        return cls(game.board_id, game.game_id, game.created, tags, game.variant, game.result,
                   len(game.moves))

    @property
    def finished(self) -> bool:
        return self.result != "*"


@dataclass
class Found:
    """A page of games that match (newest first), whether older ones match too, and how many
    games are not in the index yet."""

    games: list[Summary]
    more: bool
    waiting: int = 0


@dataclass
class _Entry:
    summary: Summary
    version: str
    checked: float


@dataclass
class Archive:
    """The index of a hall's games, read through ``reader``."""

    reader: Reader
    clock: Callable[[], float] = time.monotonic
    _games: dict[Key, _Entry] = field(default_factory=dict)
    _players: dict[str, set[Key]] = field(default_factory=dict)
    _events: dict[str, set[Key]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self._games)

    async def search(self, filters: Mapping[str, str], since: float, until: float,
                     page: int = 1, size: int = PAGE) -> Found:
        """The ``page``-th page (from 1) of the games that match ``filters`` (``board``,
        ``player``, ``event``, ``variant``, ``result``: the results, comma-separated; "" for
        any) started from ``since`` to before ``until`` (Unix times), newest first."""
        boards = await self.reader.boards()
        if filters.get("board"):
            boards = [b for b in boards if b == filters["board"]]
        started: list[tuple[float, Key]] = []
        for board in boards:
            started += [(created, (board, game_id)) for game_id, created
                        in await self.reader.games_started(board, since) if created < until]
        started.sort(reverse=True)
        waiting = await self._refresh([key for _, key in started[:MAX_GAMES_INDEXED]])
        chosen = self._matching(filters)
        rows = copies.one_copy([self._games[key].summary for _, key in started
                                if key in self._games and key in chosen],
                               lambda s: (s.board_id, s.game_id, s.headers))
        first = (page - 1) * size
        return Found(rows[first:first + size], len(rows) > first + size, waiting)

    def _matching(self, filters: Mapping[str, str]) -> set[Key]:
        chosen = set(self._games)
        player, event = filters.get("player", "").lower(), filters.get("event", "").lower()
        if player:
            chosen &= _containing(self._players, player)
        if event:
            chosen &= _containing(self._events, event)
        variant = filters.get("variant", "")
        results = set(filter(None, filters.get("result", "").split(",")))
        if variant or results:
            chosen = {k for k in chosen if (not variant or self._games[k].summary.variant ==
                                            variant) and
                      (not results or self._games[k].summary.result in results)}
        return chosen

    async def _refresh(self, keys: list[Key]) -> int:
        """Read into the index the games of ``keys`` it does not have (up to
        :data:`NEW_PER_REQUEST`) and those whose log grew; how many wait still."""
        now = self.clock()
        known = [k for k in keys if k in self._games and (
            not self._games[k].summary.finished or now - self._games[k].checked >= RECHECK_S)]
        versions = await self._versions(known)
        stale = [k for k in known if versions[k] != self._games[k].version]
        for key in known:
            self._games[key].checked = now
        new = [k for k in keys if k not in self._games]
        for key in stale + new[:NEW_PER_REQUEST]:
            await self._read(key, now)
        for gone in set(self._games) - set(keys):  # beyond the newest, or no longer listed
            self._forget(gone)
        return max(0, len(new) - NEW_PER_REQUEST)

    async def _versions(self, keys: Iterable[Key]) -> dict[Key, str]:
        """Each game log's newest entry id (its version: a log only grows)."""
        keys = list(keys)
        newest = await self.reader.newest_ids([BoardKeys(b).game(g) for b, g in keys])
        return dict(zip(keys, newest, strict=True))

    async def _read(self, key: Key, now: float) -> None:
        board, game_id = key
        version = (await self._versions([key]))[key]
        game = await self.reader.game(board, game_id)
        self._forget(key)
        if game is None:
            return
        summary = Summary.of(game)
        self._games[key] = _Entry(summary, version, now)
        for name in (summary.headers.get("White", ""), summary.headers.get("Black", "")):
            if name:
                self._players.setdefault(name.lower(), set()).add(key)
        if summary.headers.get("Event"):
            self._events.setdefault(summary.headers["Event"].lower(), set()).add(key)

    def _forget(self, key: Key) -> None:
        entry = self._games.pop(key, None)
        if entry is None:
            return
        tags = entry.summary.headers
        for index, name in ((self._players, tags.get("White", "")),
                            (self._players, tags.get("Black", "")),
                            (self._events, tags.get("Event", ""))):
            keys = index.get(name.lower())
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del index[name.lower()]


def _containing(index: Mapping[str, set[Key]], text: str) -> set[Key]:
    """The games of every name in ``index`` that contains ``text`` (a name, not every game, is
    looked at)."""
    found: set[Key] = set()
    for name, keys in index.items():
        if text in name:
            found |= keys
    return found
