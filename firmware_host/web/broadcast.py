"""The broadcast feed: the hall's games as one PDN text, for a broadcast (a relay) to poll.

``/broadcast.pdn`` serves every board's current game (finished or not, so a broadcast sees the
result); ``/broadcast/round/<r>.pdn`` (or ``?round=``) each board's game of round ``r``, kept
there once the board has gone on to the next round; ``?board=`` one board. Tags follow PDN 3.0
(the store's :func:`~firmware_host.store.pdnrender.render_game`: Event, Site, Date, Round,
White, Black, Result, GameType, FEN when set up), and a clocked move is followed by
``{[%clk H:MM:SS]}``, its mover's time left. The ETag is a hash of the text and Last-Modified
the newest move or start time, so a poller gets ``304 Not Modified`` while nothing changed.

What a relay needs (lidraughts' ``modules/relay``, docs/broadcast.md):

- **A stable order.** A relay matches the games of a multi-game file to its chapters by their
  place in the file, and refuses a file whose game at a known place carries another chapter's
  players (``Misplaced``), or that has fewer games than chapters (``Missing``). So each board
  keeps its place: an imported round's boards in the pairing list's order (every event's, in
  the events' name order), the board's game of the round, or the pairing's tags while it has
  none yet (:func:`waiting`); otherwise the boards in id order. A game without a move keeps
  its place too, though pydraughts (0.6.7) reads no game of a file after one without moves:
  moving it to the end would move every game after it at its first move, and the relay would
  refuse the file until the round's last first move. The archive's files (``/games.pdn``, a
  game's ``.pdn``: :func:`render_games`), read by programs rather than relays, put those games
  last.
- **At most 64 games a file** (:data:`RELAY_GAMES`, a study's chapters): ``?part=2`` serves the
  next 64 (one relay per part).
- **A fast answer** (a relay gives up after 4 s): the games are read from Redis only when their
  log changed (:class:`Records`, checked with one pipelined read of every log's newest entry)
  and rendered only then (:class:`Renderings`); ``bench/broadcast.py`` measures it.

>>> etag("1. 32-28 *\\n")[:1]
'"'
>>> [len(part_of(list(range(130)), n)) for n in (1, 2, 3, 4)]
[64, 64, 2, 0]
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from redis.asyncio import Redis

from engine.outcome import Outcome, Termination
from engine.types import Color
from engine.variant import find_variant
from firmware_host.errors import DraughtsboardError
from firmware_host.store import copies
from firmware_host.store.keys import BoardKeys
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord
from firmware_host.terms.settings import Mode
from firmware_host.tournament.arbiter import ArbiterError, stored_rounds
from firmware_host.tournament.pairing import Pairing
from firmware_host.tournament.rounds import BoardDecision, is_the_game
from firmware_host.web.reader import Reader

__all__ = ["RELAY_GAMES", "Broadcast", "NoSuchBoard", "Records", "Renderings", "etag",
           "last_modified", "part_of", "render_games", "round_game", "waiting"]

T = TypeVar("T")

#: The most games a relay reads of one file (lidraughts: a study's 64 chapters): a file holds
#: no more, ``?part=`` serves the next ones.
RELAY_GAMES = 64
#: Games whose record and PDN text are kept between two polls (a hall of 64 boards, the game
#: of the round and the current game of each, and room).
CACHED_GAMES = 512
#: A board's newest games looked at for its game of a round: a round's game is among the
#: newest few while the round is broadcast (the results' export looks further back).
ROUND_LOOK_BACK = 10
#: The variant of a waiting pairing whose board has never played (the hall's default).
DEFAULT_VARIANT = "international"


class NoSuchBoard(DraughtsboardError, LookupError):
    """A broadcast of a board the hall does not have (a typo in a relay's address)."""


def render_games(games: Sequence[GameRecord]) -> str:
    """The games as one multi-game PDN text (empty text for none), those with a move first
    (the archive's files: pydraughts reads no game after one without moves)."""
    ordered = [game for game in games if game.moves] + [g for g in games if not g.moves]
    return "\n".join(render_game(game) for game in ordered)


def part_of(games: Sequence[T], part: int) -> list[T]:
    """The games of file ``part`` (1: the first :data:`RELAY_GAMES`, 2: the next ...)."""
    start = (part - 1) * RELAY_GAMES
    return list(games[start:start + RELAY_GAMES])


def etag(text: str) -> str:
    """A strong ETag of the text."""
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def last_modified(games: Sequence[GameRecord]) -> float:
    """Unix time of the newest change among the games (0 for none)."""
    return max((max([g.created, *(m.time for m in g.moves)]) for g in games), default=0.0)


def waiting(pairing: Pairing, variant: str, decision: BoardDecision | None = None
            ) -> GameRecord:
    """The game a pairing names while its board has none yet: the pairing's tags and the
    board, no move (a relay shows the pairing, at its place, from the round's start); with the
    arbiter's ``decision`` that no game is played there, its result (a forfeit: the player who
    came wins; a bye: its player; neither came: 0-0).

    >>> waiting(Pairing("b1", "Ann", "Bob", "2"), "international").headers["White"]
    'Ann'
    >>> waiting(Pairing("b1", "Ann", "Bob", "2"), "international",
    ...         BoardDecision("forfeit", "black")).result
    '2-0'
    """
    headers = {"Date": "????.??.??", "Time": "??:??:??",  # (PDN's unknown: not begun)
               **pairing.headers(), "Board": pairing.board}
    record = GameRecord(game_id="", board_id=pairing.board, headers=headers, variant=variant,
                        start_fen=None, mode="record", created=0.0)
    if decision is not None:
        gametype = find_variant(variant).pdn_gametype
        if decision.kind == "double_forfeit":
            record.result, record.termination = "0-0", Termination.FORFEIT.value
        else:
            named = Color.WHITE if decision.side == "white" else Color.BLACK
            winner = named.opponent if decision.kind == "forfeit" else named
            record.result = Outcome(Termination.FORFEIT, winner, gametype=gametype).result()
            record.termination = Termination.FORFEIT.value
    return record


#: Where a game's log stands: the newest entry of its log and of its amendments.
Mark = tuple[str, str]


class Records:
    """Game records read again only when their log changed since the last poll.

    ``marks(keys)`` reads the newest entry id of each stream (one round trip); ``read(board,
    game_id)`` replays a game from Redis (``None``: unknown). A record read after its mark is
    kept under that mark: a move written between the two reads is read at the next poll.
    """

    def __init__(self, marks: Callable[[Sequence[str]], Awaitable[list[str]]],
                 read: Callable[[str, str], Awaitable[GameRecord | None]],
                 size: int = CACHED_GAMES) -> None:
        self._marks = marks
        self._read = read
        self._size = size
        self._kept: OrderedDict[tuple[str, str], tuple[Mark, GameRecord | None]] = OrderedDict()

    async def games(self, wanted: Sequence[tuple[str, str]]) -> list[GameRecord | None]:
        """The records of the ``(board, game id)`` pairs, in their order."""
        keys = []
        for board, game_id in wanted:
            board_keys = BoardKeys(board)
            keys += [board_keys.game(game_id), board_keys.amendments(game_id)]
        newest = await self._marks(keys) if keys else []
        out: list[GameRecord | None] = []
        for index, pair in enumerate(wanted):
            mark = (newest[2 * index], newest[2 * index + 1])
            kept = self._kept.get(pair)
            if kept is not None and kept[0] == mark:
                self._kept.move_to_end(pair)
                out.append(kept[1])
                continue
            record = await self._read(*pair)
            self._kept[pair] = (mark, record)
            self._kept.move_to_end(pair)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
            out.append(record)
        return out


class Renderings:
    """The PDN text of each game, rendered again only when its record changed (records are
    kept by :class:`Records`: the same object while the log is unchanged)."""

    def __init__(self, size: int = CACHED_GAMES) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[str, str], tuple[GameRecord, str]] = OrderedDict()

    def text(self, games: Sequence[GameRecord]) -> str:
        """The games as one multi-game PDN text, in their order (empty text for none)."""
        out = []
        for game in games:
            key = (game.board_id, game.game_id)
            kept = self._kept.get(key)
            if kept is None or kept[0] is not game or not game.game_id:
                kept = (game, render_game(game))
                if game.game_id:  # a waiting pairing is no game: rendered each time
                    self._kept[key] = kept
                    while len(self._kept) > self._size:
                        self._kept.popitem(last=False)
            self._kept.move_to_end(key) if key in self._kept else None
            out.append(kept[1])
        return "\n".join(out)


def round_game(games: Sequence[GameRecord | None], round_: str,
               pairing: Pairing | None) -> GameRecord | None:
    """The board's game of the round among its games (newest first): the one the pairing
    names, or, without a pairing, the newest tagged with the round that was played (a move,
    or a result), else the newest tagged with it: a game opened after the round's game ended
    (the board set up again, its tags kept) does not take its place.

    >>> played = GameRecord("g1", "b1", {"Round": "2"}, "international", None, "record", 0.0,
    ...                     result="1-0")
    >>> empty = GameRecord("g2", "b1", {"Round": "2"}, "international", None, "record", 1.0)
    >>> round_game([empty, played], "2", None) is played, round_game([empty], "2", None) is empty
    (True, True)
    """
    found = [g for g in games if g is not None]
    if pairing is not None:
        return next((g for g in found if is_the_game(g, pairing)), None)
    tagged = [g for g in found if g.headers.get("Round") == round_]
    return next((g for g in tagged if g.moves or g.finished), tagged[0] if tagged else None)


class Broadcast:
    """The games a broadcast shows, read from the boards' Redis through ``reader``; records
    and texts are kept between two polls (:class:`Records`, :class:`Renderings`)."""

    def __init__(self, reader: Reader, client: Redis) -> None:
        self.reader = reader
        self.client = client
        self.records = Records(reader.newest_ids, reader.game)
        self.renderings = Renderings()

    async def games(self, round_: str = "", board: str = "") -> list[GameRecord]:
        """The games in the broadcast's order: with ``round_``, each board's game of that round
        (an imported round: every pairing, in the list's order); without, each board's current
        game (boards in id order); ``board``: that board's alone.

        Raises:
            NoSuchBoard: ``board`` is no board of the hall.
        """
        boards = await self.reader.boards()
        if board and board not in boards:
            raise NoSuchBoard(board)
        if round_:
            found = await self._round(round_, board, boards)
        else:
            chosen = [board] if board else boards
            ids = await self.reader.current_game_ids(chosen)
            wanted = [(b, g) for b, g in zip(chosen, ids, strict=True) if g is not None]
            found = [g for g in await self.records.games(wanted) if g is not None]
        # A board that follows another game shows a copy of it: not a game of the hall's; a
        # game between two boards of the hall is shown once (the White board's copy).
        return copies.one_copy([g for g in found if g.mode != Mode.FOLLOW.value],
                               copies.of_record)

    def text(self, games: Sequence[GameRecord]) -> str:
        """The games as one multi-game PDN text, each rendered once while it does not change."""
        return self.renderings.text(games)

    async def _pairings(self, round_: str) -> list[tuple[Pairing, BoardDecision | None]]:
        """The imported round's pairings, each with the arbiter's decision there (if any)."""
        try:
            return [(p, stored.decisions.get(p.board))
                    for stored in await stored_rounds(self.client, round_)
                    for p in stored.pairings]
        except ArbiterError:
            return []

    async def _round(self, round_: str, board: str, boards: Sequence[str]
                     ) -> list[GameRecord]:
        """Each board's game of the round, at the board's place (a waiting pairing's tags
        while its board has no game of the round yet, or has not joined the hall yet)."""
        pairings = await self._pairings(round_)
        decisions = {p.board: d for p, d in pairings}
        places: list[tuple[str, Pairing | None]] = (
            [(p.board, p) for p, _ in pairings if not board or p.board == board] if pairings
            else [(b, None) for b in boards if not board or b == board])
        newest = await self.reader.newest_game_ids([b for b, _ in places], ROUND_LOOK_BACK)
        seen: list[list[GameRecord | None]] = [[] for _ in places]
        for depth in range(ROUND_LOOK_BACK):
            open_ = [i for i, ids in enumerate(newest) if depth < len(ids)
                     and not _settled(seen[i], round_, places[i][1])]
            if not open_:
                break
            found = await self.records.games([(places[i][0], newest[i][depth]) for i in open_])
            for i, record in zip(open_, found, strict=True):
                seen[i].append(record)
        out = []
        for (_, pairing), records in zip(places, seen, strict=True):
            game = round_game(records, round_, pairing)
            if game is not None:
                out.append(game)
            elif pairing is not None:
                latest = next((r for r in records if r is not None), None)
                out.append(waiting(pairing, DEFAULT_VARIANT if latest is None
                                   else latest.variant, decisions.get(pairing.board)))
        return out


def _settled(records: Sequence[GameRecord | None], round_: str, pairing: Pairing | None) -> bool:
    """Guard: the board's game of the round is among ``records`` (newest first) and no older
    game could replace it."""
    game = round_game(records, round_, pairing)
    return game is not None and (pairing is not None or bool(game.moves) or game.finished)
