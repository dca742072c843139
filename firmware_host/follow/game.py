"""The followed game, read from its source: a PDN broadcast's URL or a board of the hall.

:class:`Followed` is what the follower needs of it: the rules, where it starts, its moves (each
checked by the rules), its result and its players' tags. A reader returns it afresh at each
poll; what cannot be read is one :class:`FollowError` saying why (the follower logs it and
tries again at the next poll: the board keeps what it has).

>>> followed = from_pdn('[White "Ann"]\\n[GameType "20"]\\n\\n1. 32-28 19-23 *\\n', 1)
>>> [followed.variant, len(followed.moves), followed.result, followed.tags["White"]]
['international', 2, '*', 'Ann']
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from engine import Board
from engine.pdn import PdnError, read_games
from engine.types import Move
from firmware_host.errors import InputError
from firmware_host.follow.address import Broadcast, HallBoard
from firmware_host.store.errors import StoreError
from firmware_host.store.records import GameRecord

__all__ = ["BoardReader", "FollowError", "Followed", "Reader", "UrlReader", "from_pdn",
           "from_record"]

#: The tags of the followed game a following board's record takes.
TAGS = ("White", "Black", "Event", "Site", "Round")
#: The largest PDN file read (bytes): a relay's 64 long games are about 200 kB.
MAX_BYTES = 8 * 1024 * 1024
#: How long a fetch of the followed file may take (s).
TIMEOUT_S = 10.0


class FollowError(InputError):
    """The followed game cannot be read now; the message says why."""


@dataclass(frozen=True)
class Followed:
    """The followed game as its source has it now."""

    variant: str
    #: Its set-up position (None: the variant's start).
    start_fen: str | None
    moves: tuple[Move, ...]
    #: The PDN result (``*``: going on).
    result: str
    tags: Mapping[str, str] = field(default_factory=dict)


def from_pdn(text: str | bytes, game: int) -> Followed:
    """The ``game``-th game (1: the first) of a PDN text.

    Raises:
        FollowError: the file has no such game, or it cannot be read.
    """
    errors: list[PdnError] = []
    try:
        games = read_games(text, errors=errors)
    except PdnError as exc:
        raise FollowError(f"the PDN cannot be read: {exc}") from None
    if len(games) < game:
        why = f" ({errors[0]})" if errors else ""
        raise FollowError(f"the file has {len(games)} readable games, not a game {game}{why}")
    found = games[game - 1]
    start = None if found.start_fen == found.variant.starting_fen else found.start_fen
    return Followed(found.variant.name, start, tuple(found.moves), found.result,
                    {k: v for k, v in found.headers.items() if k in TAGS and v and v != "?"})


def from_record(record: GameRecord) -> Followed:
    """A board's game as its log has it.

    Raises:
        FollowError: a move of the record does not replay (a damaged record).
    """
    board = Board(record.variant, fen=record.start_fen)
    moves = []
    for move in record.moves:
        try:
            played = board.parse_move(move.pdn)
        except ValueError as exc:
            raise FollowError(f"{record.board_id}'s game {record.game_id}: {exc}") from None
        board.push(played)
        moves.append(played)
    return Followed(record.variant, record.start_fen, tuple(moves), record.result,
                    {k: v for k, v in record.headers.items() if k in TAGS and v})


class Reader(Protocol):
    """Reads the followed game afresh."""

    def read(self) -> Followed:
        """The followed game now (raises :class:`FollowError`)."""
        ...


Opener = Callable[..., object]


class UrlReader:
    """The followed game of a PDN broadcast: one GET a poll, ``304`` when nothing changed (the
    last game read is kept with its ``ETag``)."""

    def __init__(self, source: Broadcast, opener: Opener = urllib.request.urlopen,
                 timeout_s: float = TIMEOUT_S) -> None:
        self.source = source
        self._open = opener
        self._timeout = timeout_s
        self._etag: str | None = None
        self._last: Followed | None = None

    def read(self) -> Followed:
        headers = {"User-Agent": "draughtsboard (follow)"}
        if self._etag is not None and self._last is not None:
            headers["If-None-Match"] = self._etag
        request = urllib.request.Request(self.source.url, headers=headers)
        try:
            with self._open(request, timeout=self._timeout) as reply:  # type: ignore[attr-defined]
                body = reply.read(MAX_BYTES + 1)
                etag = reply.headers.get("ETag")
        except urllib.error.HTTPError as exc:
            if exc.code == 304 and self._last is not None:
                return self._last
            raise FollowError(f"{self.source.url}: HTTP {exc.code} {exc.reason}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise FollowError(f"{self.source.url}: {reason}") from None
        if len(body) > MAX_BYTES:
            raise FollowError(f"{self.source.url}: more than {MAX_BYTES} bytes")
        followed = from_pdn(body, self.source.game)
        self._etag, self._last = etag, followed
        return followed


class GameStore(Protocol):
    """What a board's game is read from (the store's reads of another board)."""

    def load_session(self, board_id: str | None = None) -> dict[str, object] | None: ...

    def load_game(self, game_id: str, board_id: str | None = None) -> GameRecord: ...


class BoardReader:
    """The game a board of the hall plays now: its session's game, from the same store."""

    def __init__(self, source: HallBoard, store: GameStore) -> None:
        self.source = source
        self._store = store

    def read(self) -> Followed:
        board = self.source.board_id
        try:
            session = self._store.load_session(board)
            game_id = session.get("game_id") if session else None
            if not isinstance(game_id, str):
                raise FollowError(f"board {board} has no game (is its service running on this "
                                  "store?)")
            return from_record(self._store.load_game(game_id, board))
        except (StoreError, KeyError) as exc:
            raise FollowError(f"board {board}: {exc}") from None
