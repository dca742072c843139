"""Reading the boards from Redis (asynchronously): the web service keeps no game state.

Everything a page shows is read from the keys the boards write (docs/events.md): the set of
boards, each board's games, a game's log (replayed with the store's own
:func:`~firmware_host.store.records.apply_op`), and the recent part of its event stream (the
session's state, the LED frame, the sentences of refusals and corrections).

Each board's login writes its own keys as it likes, so every read is bounded, per board: a
session of at most :data:`SESSION_BYTES` (``GETRANGE``), the newest :data:`RECENT` events, a
game's log in pages of :data:`LOG_PAGE` entries up to :data:`MAX_LOG_ENTRIES` (the rest is not
read, and the game says so), the newest :data:`MAX_GAMES` games of a board, a game's analysis
of at most :data:`ANALYSIS_BYTES` (checked by :meth:`~firmware_host.coach.results.
StoredAnalysis.parse`: any program of the hall's coach may write one); and no reply passes
:data:`~firmware_host.web.bounded.REPLY_BYTES`. A key over its bound is skipped like a bad
record: the other keys and the other boards are read as ever.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from engine import Board
from engine.errors import DraughtsError
from firmware_host.coach.results import AnalysisError, StoredAnalysis
from firmware_host.feedback.texts import STATE_NAMES
from firmware_host.store.acl import board_id_of_user
from firmware_host.store.keys import BOARDS, BoardKeys, analysis_key, board_order
from firmware_host.store.records import (
    GameRecord,
    MoveRecord,
    RecordError,
    apply_amendment,
    apply_op,
)
from firmware_host.web import clocks, edge
from firmware_host.web.bounded import ReplyTooLarge
from firmware_host.web.edge import BadRecord, Rejects

__all__ = ["BoardView", "Reader", "events_key"]

log = logging.getLogger(__name__)

#: One event of a board's stream (docs/events.md): a JSON object whose ``event`` names its kind.
Message = dict[str, object]

#: A session snapshot read at most (bytes): a board writes a few KB.
SESSION_BYTES = 256 * 1024
#: A game's analysis read at most (bytes): about 90 bytes a move, a long game 30 KB.
ANALYSIS_BYTES = 256 * 1024
#: A game's log is read this many entries at a time ...
LOG_PAGE = 500
#: ... up to this many (a game of 400 moves with every takeback and correction has far
#: fewer): the rest is not read, and the game's record says so.
MAX_LOG_ENTRIES = 5000
#: A board's games read at most (the newest).
MAX_GAMES = 10_000
#: The most boards a hall has (the set's members, the ACL's board users): a page, the live feed
#: and the console read no more.
MAX_BOARDS = 1000
#: Events looked at, newest first, for a board's live state (a board page; a hall card needs
#: only the state and the LED frame: CARD_RECENT).
RECENT = 400
CARD_RECENT = 50
#: Events whose sentence a board page shows (the board's own words, feedback/texts.py).
SPOKEN = frozenset({"refused", "correction", "adjust", "hint", "hint_refused",
                    "takeback", "takeback_refused", "command_refused", "settings",
                    "settings_applied", "header", "draw_declined", "newgame_requested", "result",
                    "engine_error", "sensor_fault", "sensor_recovered", "link", "resumed",
                    "computer_move", "alternative_move", "synced", "draw_offer", "review"})


def events_key(board_id: str) -> str:
    """The board's live event stream."""
    return BoardKeys(board_id).events


@dataclass
class BoardView:
    """What a page shows of one board, read from Redis."""

    board_id: str
    game: GameRecord | None
    position: Board | None
    state: str = "unknown"
    #: The LED frame: square name -> (pattern, role).
    leds: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The board's sentences since the game started, oldest first: the events themselves
    #: (their key and values), each page rendering them in its viewer's language.
    messages: list[Message] = field(default_factory=list)
    #: The id of the newest event read (where a live feed goes on).
    last_event_id: str = "0-0"
    correction: bool = False
    #: The game's clock as last read (its newest ``clock`` event, else the session's); None:
    #: the game has no clock.
    clock: clocks.ClockReading | None = None

    @property
    def last_move(self) -> MoveRecord | None:
        """The game's last move, or None."""
        return self.game.moves[-1] if self.game and self.game.moves else None

    @property
    def turn(self) -> str:
        """``white`` or ``black``: the side to move ('' when unknown)."""
        if self.position is None:
            return ""
        return "white" if int(self.position.turn) == 0 else "black"

    @property
    def state_name(self) -> str:
        """The state in words."""
        if self.correction:
            return STATE_NAMES["correction"]
        return STATE_NAMES.get(self.state, self.state)


def _op_fields(raw: object) -> dict[str, str]:
    """An entry of a game's log (or of its amendments) as text, checked at the edge.

    Raises:
        BadRecord: not an entry of a game's log.
    """
    if not isinstance(raw, dict):
        raise BadRecord("an entry without fields")
    fields = {edge.text(k): edge.text(v) for k, v in raw.items()}
    edge.check_op(fields)
    return fields


def replay(game: GameRecord) -> Board | None:
    """The position after the game's moves (from the last move's FEN: no replay needed), or
    None if the record holds no readable position."""
    try:
        if game.moves:
            return Board(game.variant, fen=game.moves[-1].fen_after)
        return Board(game.variant, fen=game.start_fen)
    except (DraughtsError, ValueError) as exc:
        log.warning("game %s: no readable position: %s", game.game_id, exc)
        return None


class Reader:
    """Asynchronous reads of the boards' keys on one ``redis.asyncio`` client."""

    def __init__(self, client: Redis, rejects: Rejects | None = None) -> None:
        self.client = client
        #: The bad records skipped (counted, logged at most once a minute a key):
        #: :mod:`~firmware_host.web.edge`.
        self.rejects = Rejects() if rejects is None else rejects
        #: Whether ``ACL USERS`` is worth asking (False once Redis refused it: no ACL users,
        #: or a user without it).
        self._acl_users = True

    async def _read(self, key: str, command: Callable[..., Awaitable[object]], empty: object,
                    *args: object, **options: object) -> object:
        """``command(key, ...)``; ``empty`` when Redis refuses it (a key of the wrong type) or
        its reply is larger than the web app reads: counted and logged like any bad record,
        the page goes on without it."""
        try:
            return await command(key, *args, **options)
        except (ResponseError, ReplyTooLarge) as exc:
            self.rejects.skip(key, "(the key)", exc)
            return empty

    async def _session(self, board_id: str) -> object:
        """The board's session snapshot (at most :data:`SESSION_BYTES`; None: none, or
        larger)."""
        key = BoardKeys(board_id).session
        raw = await self._read(key, self.client.getrange, None, 0, SESSION_BYTES)
        if isinstance(raw, bytes | str) and len(raw) > SESSION_BYTES:
            self.rejects.skip(key, "(the key)", f"more than {SESSION_BYTES} bytes")
            return None
        return raw or None

    def _replies(self, replies: Sequence[object], keys: Sequence[tuple[str, object]]
                 ) -> list[object]:
        """A pipeline's replies, an error reply (a key of the wrong type) as that key's empty
        value; a connection error is raised (the page says Redis is away)."""
        out: list[object] = []
        for reply, (key, empty) in zip(replies, keys, strict=True):
            if isinstance(reply, ResponseError):
                self.rejects.skip(key, "(the key)", reply)
                out.append(empty)
            elif isinstance(reply, Exception):
                raise reply
            else:
                out.append(reply)
        return out

    async def boards(self) -> list[str]:
        """The hall's boards, sorted: the members of the set of boards and, on a hall with ACL
        users, every board's user (``ACL USERS``: ``board-<id>``, which the administrator made
        and no board can make), at most :data:`MAX_BOARDS`. A board user not yet in the set is
        added to it (by the web app: no board may write the set). A member that is not a board
        id is skipped: it could not name keys, links or feed fields."""
        pipe = self.client.pipeline(transaction=False)
        pipe.scard(BOARDS)
        pipe.srandmember(BOARDS, MAX_BOARDS)  # every member while there are no more than that
        if self._acl_users:
            pipe.execute_command("ACL", "USERS")
        replies = await pipe.execute(raise_on_error=False)
        size, members = replies[0], replies[1]
        if isinstance(size, ResponseError) or isinstance(members, ResponseError):
            self.rejects.skip(BOARDS, "(the key)", size if isinstance(size, Exception)
                              else members)
            size, members = 0, []
        for reply in replies:
            if isinstance(reply, Exception) and not isinstance(reply, ResponseError):
                raise reply
        if isinstance(size, int) and size > MAX_BOARDS:
            self.rejects.skip(BOARDS, "(the key)", f"{size} members: the hall reads "
                              f"{MAX_BOARDS} of them")
        found: set[str] = set()
        for member in _items(members):
            try:
                found.add(edge.board_id(member))
            except BadRecord as exc:
                self.rejects.skip(BOARDS, repr(member)[:80], exc)
        if self._acl_users:
            users = replies[2]
            if isinstance(users, ResponseError):  # not allowed, or no ACL: the set alone
                self._acl_users = False
            else:
                named = {b for b in (board_id_of_user(edge.text(u)) for u in _items(users)
                                     if isinstance(u, bytes | str)) if b is not None}
                new = sorted(named - found)[:max(0, MAX_BOARDS - len(found))]
                if new:
                    await self._add_boards(new)
                    found.update(new)
        return sorted(found, key=board_order)

    async def _add_boards(self, boards: Sequence[str]) -> None:
        """Add the hall's board users to the set of boards (a web app whose user may not: the
        set alone is not needed, the ACL names them)."""
        try:
            await self.client.sadd(BOARDS, *boards)
        except ResponseError as exc:
            self.rejects.skip(BOARDS, "(the key)", f"the board users are not added: {exc}")

    async def games_started(self, board_id: str, since: float = 0.0
                            ) -> list[tuple[str, float]]:
        """The board's games with their start times, oldest first (the newest
        :data:`MAX_GAMES`)."""
        key = BoardKeys(board_id).games
        ids = await self._read(key, self.client.zrevrangebyscore, [], "+inf", since,
                               start=0, num=MAX_GAMES, withscores=True)
        out = []
        for member, score in reversed(_pairs(ids)):
            try:
                out.append((edge.game_id(member), edge.number(score, 0, edge.MAX_TIME)))
            except BadRecord as exc:
                self.rejects.skip(key, repr(member)[:80], exc)
        return out

    async def _log(self, key: str) -> tuple[list[tuple[object, object]], bool]:
        """A game log's entries, read a page at a time up to :data:`MAX_LOG_ENTRIES`, and
        whether there were more."""
        entries: list[tuple[object, object]] = []
        after = "-"
        while len(entries) < MAX_LOG_ENTRIES:
            page = _pairs(await self._read(key, self.client.xrange, [], after, "+",
                                           count=LOG_PAGE))
            entries += page
            if len(page) < LOG_PAGE:
                return entries, False
            after = "(" + _str(page[-1][0])
        more = bool(_pairs(await self._read(key, self.client.xrange, [], after, "+", count=1)))
        return entries, more

    async def game(self, board_id: str, game_id: str) -> GameRecord | None:
        """A game replayed from its log (a corrupt entry is skipped), or None if unknown."""
        key = BoardKeys(board_id).game(game_id)
        entries, more = await self._log(key)
        game: GameRecord | None = None
        seen = 0
        for entry_id, raw in entries:
            where = _str(entry_id)
            try:
                fields = _op_fields(raw)
                seq = int(fields.get("seq", "0") or 0)
                if seq and seq <= seen:
                    continue  # replayed twice after a power cut: docs/events.md
                if game is not None and fields.get("op") == "start":
                    raise BadRecord("a second start entry")
                game = apply_op(game, fields, f"{board_id}/{game_id} entry {where}")
                seen = max(seen, seq)
            except (BadRecord, RecordError, TypeError, KeyError, AttributeError) as exc:
                self.rejects.skip(key, where, exc)  # (the last three: a check's own gap)
        if game is None:
            return None
        if more:  # said in the game's record: a comment of its PDN
            said = f"the log has more than {MAX_LOG_ENTRIES} entries: the rest is not read"
            game.problems.append(said)
            game.notes.append((len(game.moves), said))
            self.rejects.skip(key, "(the key)", f"more than {MAX_LOG_ENTRIES} entries")
        amended = BoardKeys(board_id).amendments(game_id)  # the arbiter's, after the log
        for entry_id, raw in _pairs(await self._read(amended, self.client.xrange, [], "-", "+",
                                                     count=LOG_PAGE)):
            where = _str(entry_id)
            try:
                game = apply_amendment(game, _op_fields(raw),
                                       f"{board_id}/{game_id} amendment {where}")
            except (BadRecord, RecordError, TypeError, KeyError, AttributeError) as exc:
                self.rejects.skip(amended, where, exc)
        return game

    async def analysis(self, game: GameRecord) -> StoredAnalysis | None:
        """The analysis of ``game`` as it stands (None: none, unreadable, or of the game before
        a correction rewrote it)."""
        key = analysis_key(game.board_id, game.game_id)
        raw = await self._read(key, self.client.getrange, None, 0, ANALYSIS_BYTES)
        if not isinstance(raw, bytes | str) or not raw:
            return None
        try:
            if len(raw) > ANALYSIS_BYTES:
                raise AnalysisError(f"more than {ANALYSIS_BYTES} bytes")
            found = StoredAnalysis.parse(raw)
            if (found.board, found.game) != (game.board_id, game.game_id):
                raise AnalysisError("the analysis of another game")
        except AnalysisError as exc:
            self.rejects.skip(key, "(the key)", exc)
            return None
        return found if found.fits([m.pdn for m in game.moves]) else None

    async def analysed(self, games: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which of ``games`` (board, game id) have an analysis kept (one round trip)."""
        if not games:
            return set()
        async with self.client.pipeline(transaction=False) as pipe:
            for board_id, game_id in games:
                pipe.exists(analysis_key(board_id, game_id))
            replies = await pipe.execute(raise_on_error=False)
        keys = [(analysis_key(b, g), 0) for b, g in games]
        return {game for game, found in zip(games, self._replies(replies, keys), strict=True)
                if found == 1}

    async def recent_games(self, board_id: str, count: int) -> list[GameRecord]:
        """The board's newest ``count`` games, newest first (a round's game is among them)."""
        found = []
        for game_id, _ in reversed((await self.games_started(board_id))[-count:]):
            game = await self.game(board_id, game_id)
            if game is not None:
                found.append(game)
        return found

    async def current_game_id(self, board_id: str) -> str | None:
        """The game the board plays now: its session's, else its latest."""
        session = await self._session(board_id)
        latest = await self._read(BoardKeys(board_id).games, self.client.zrevrange, [], 0, 0)
        return _current(session, latest)

    async def current_game_ids(self, board_ids: Sequence[str]) -> list[str | None]:
        """Each board's game in play (:meth:`current_game_id`), in one round trip (a reply
        too large to read: each board alone again)."""
        if not board_ids:
            return []
        pipe = self.client.pipeline(transaction=False)
        wanted: list[tuple[str, object]] = []
        for board_id in board_ids:
            keys = BoardKeys(board_id)
            pipe.getrange(keys.session, 0, SESSION_BYTES)
            pipe.zrevrange(keys.games, 0, 0)
            wanted += [(keys.session, None), (keys.games, [])]
        try:
            replies = self._replies(await pipe.execute(raise_on_error=False), wanted)
        except ReplyTooLarge:
            return [await self.current_game_id(board_id) for board_id in board_ids]
        out = []
        for index, board_id in enumerate(board_ids):
            session = replies[2 * index]
            if isinstance(session, bytes | str) and len(session) > SESSION_BYTES:
                self.rejects.skip(BoardKeys(board_id).session, "(the key)",
                                  f"more than {SESSION_BYTES} bytes")
                session = None
            out.append(_current(session or None, replies[2 * index + 1]))
        return out

    async def newest_game_ids(self, board_ids: Sequence[str], count: int) -> list[list[str]]:
        """Each board's newest ``count`` game ids, newest first, in one round trip (an id that
        is none is skipped, counted and logged)."""
        if not board_ids:
            return []
        pipe = self.client.pipeline(transaction=False)
        wanted: list[tuple[str, object]] = []
        for board_id in board_ids:
            key = BoardKeys(board_id).games
            pipe.zrevrange(key, 0, count - 1)
            wanted.append((key, []))
        replies = self._replies(await pipe.execute(raise_on_error=False), wanted)
        out = []
        for (key, _), reply in zip(wanted, replies, strict=True):
            ids = []
            for member in _items(reply):
                try:
                    ids.append(edge.game_id(member))
                except BadRecord as exc:
                    self.rejects.skip(key, repr(member)[:80], exc)
            out.append(ids)
        return out

    def events(self, board_id: str, entries: Sequence[object]
               ) -> list[tuple[str, Message]]:
        """The readable messages of event stream ``entries`` (an unreadable one is skipped,
        counted and logged once)."""
        out = []
        for entry in entries:
            entry_id, message = decode_entry(entry)
            if message is None:
                self.rejects.skip(events_key(board_id), entry_id, "not an event (JSON object)")
            else:
                out.append((entry_id, message))
        return out

    async def recent_events(self, board_id: str, count: int = RECENT
                            ) -> list[tuple[str, Message]]:
        """The board's newest events, oldest first, as ``(stream id, message)``."""
        entries = await self._read(events_key(board_id), self.client.xrevrange, [],
                                   count=count)
        return self.events(board_id, list(reversed(_items(entries))))

    async def board(self, board_id: str, recent: int = RECENT) -> BoardView:
        """The board's live view: its game, position, state, LEDs and the sentences among its
        ``recent`` newest events."""
        keys = BoardKeys(board_id)
        pipe = self.client.pipeline(transaction=False)  # one round trip for three reads
        pipe.getrange(keys.session, 0, SESSION_BYTES)
        pipe.zrevrange(keys.games, 0, 0)
        pipe.xrevrange(events_key(board_id), count=recent)
        try:
            session, latest, entries = self._replies(
                await pipe.execute(raise_on_error=False),
                [(keys.session, None), (keys.games, []), (events_key(board_id), [])])
            if isinstance(session, bytes | str) and len(session) > SESSION_BYTES:
                self.rejects.skip(keys.session, "(the key)", f"more than {SESSION_BYTES} bytes")
                session = None
        except ReplyTooLarge:  # one of them is larger than the web app reads: each alone
            session = await self._session(board_id)
            latest = await self._read(keys.games, self.client.zrevrange, [], 0, 0)
            entries = await self._read(events_key(board_id), self.client.xrevrange, [],
                                       count=recent)
        session = session or None
        game_id = _current(session, latest)
        game = await self.game(board_id, game_id) if game_id else None
        view = BoardView(board_id, game, replay(game) if game else None)
        apply_events(view, self.events(board_id, list(reversed(_items(entries)))))
        if view.clock is None and game is not None and _session_game(session) == game_id:
            view.clock = clocks.from_snapshot(_session(session))
        return view

    async def last_ids(self, board_ids: Sequence[str]) -> dict[str, str]:
        """The newest event id of each board ('0-0' for a board without events)."""
        newest = await self.newest_ids([events_key(b) for b in board_ids])
        return dict(zip(board_ids, newest, strict=True))

    async def newest_ids(self, keys: Sequence[str]) -> list[str]:
        """The id of each stream's newest entry ('0-0': none, or unreadable), in one round
        trip (an entry too large to read: that stream alone again)."""
        if not keys:
            return []
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.xrevrange(key, count=1)
        try:
            replies = self._replies(await pipe.execute(raise_on_error=False),
                                    [(key, []) for key in keys])
        except ReplyTooLarge:  # a newest entry larger than the web app reads: each alone
            replies = [await self._read(key, self.client.xrevrange, [], count=1)
                       for key in keys]
        return [_newest_id(reply) for reply in replies]


def apply_events(view: BoardView, events: Sequence[tuple[str, Mapping[str, object]]]) -> None:
    """Fill ``view``'s state, LEDs and sentences from its events (oldest first)."""
    game_id = view.game.game_id if view.game else None
    for entry_id, message in events:
        view.last_event_id = entry_id
        kind = message.get("event")
        if kind == "new_game":
            view.messages.clear()
            view.correction = False
            view.clock = None
            if message.get("game_id") != game_id:
                continue
        if kind == "state":
            state = message.get("state")
            view.state = state if isinstance(state, str) and len(state) <= 40 \
                and state.isprintable() else view.state
            view.correction = False
        elif kind == "leds":
            view.leds = edge.led_frame(message.get("frame"))
        elif kind == "correction":
            view.correction = True
        elif kind == "synced":
            view.correction = False
        elif kind == "clock":
            view.clock = clocks.from_event(message) or view.clock
        if kind in SPOKEN:
            view.messages.append(dict(message))
    del view.messages[:-12]


def decode_entry(entry: object) -> tuple[str, Message | None]:
    """``(id, message)`` of an events stream entry (message None when unreadable)."""
    pairs = _pairs([entry])
    if not pairs or not isinstance(pairs[0][1], dict):
        return (_str(pairs[0][0]) if pairs else "?"), None
    entry_id, fields = pairs[0][0], pairs[0][1]
    raw = fields.get(b"event", fields.get("event"))
    try:
        message = edge.load_json(raw) if raw is not None else None
    except BadRecord:
        message = None
    if isinstance(message, dict) and not isinstance(message.get("event"), str):
        message = None  # every event names its kind
    return _str(entry_id), message if isinstance(message, dict) else None


def _current(session: object, latest: object) -> str | None:
    """The game in play: the session's (its JSON), else the latest game's id."""
    newest = _items(latest)
    for candidate in _session_game(session), newest[0] if newest else None:
        if candidate is not None:
            try:
                return edge.game_id(candidate)
            except BadRecord:
                continue
    return None


def _items(reply: object) -> list[object]:
    """A reply that should be a list (or set) of items, as a list; anything else is empty."""
    return list(reply) if isinstance(reply, list | tuple | set) else []


def _pairs(reply: object) -> list[tuple[object, object]]:
    """The two-item entries of a list reply (``(member, score)``, ``(id, fields)``); another
    shape of entry is left out."""
    return [(item[0], item[1]) for item in _items(reply)
            if isinstance(item, list | tuple) and len(item) == 2]


def _newest_id(reply: object) -> str:
    """The id of an ``XREVRANGE ... COUNT 1`` reply's entry ('0-0' for none)."""
    entries = _pairs(reply)
    return _str(entries[0][0]) if entries else "0-0"


def _session(session: object) -> object:
    """The session snapshot's JSON (None: none, or unreadable)."""
    if not session:
        return None
    try:
        return edge.load_json(session, 1 << 20)
    except BadRecord:
        return None


def _session_game(session: object) -> object:
    data = _session(session)
    return data.get("game_id") if isinstance(data, dict) else None


def _str(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
