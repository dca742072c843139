"""The game store on Redis: write-ahead game logs, live session state, live events.

:class:`RedisStore` is the store of one board; its keys are those of :mod:`.keys`. Each store
call is one MULTI/EXEC (one round trip). Every failure of Redis (:mod:`.outage.failures`:
refused, timed out, wrong password, an error reply: OOM, MISCONF, READONLY, ...) takes one
outage path (:mod:`.outage`, one room): the write goes to a :class:`~.outage.spool.Spool` on
disk (fsynced), the outage is logged once, and the spool is flushed in order, exactly once, when
Redis answers again (:mod:`.outage.flush`). While Redis is away, the session and the game in
play are answered from the spool and the :class:`~.outage.local.LocalCopy`
(:mod:`.outage.offline`), so a service that starts without Redis resumes its game and records
it. Games are read back by replaying their log (:mod:`.reading`).
"""

from __future__ import annotations

import copy
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from functools import partial

import redis

from firmware_host.store.client import Command, RedisClient, run, text
from firmware_host.store.errors import StoreError, StoreUnavailable
from firmware_host.store.keys import BOARDS, BoardKeys, new_game_id
from firmware_host.store.outage.failures import FAILURES, describe_failure
from firmware_host.store.outage.local import LocalCopy
from firmware_host.store.outage.offline import offline_game, offline_session
from firmware_host.store.outage.route import RETRY_SECONDS, Outage
from firmware_host.store.outage.spool import Spool
from firmware_host.store.publisher import EVENTS_MAXLEN, LIVE_ONLY, EventPublisher, event_commands
from firmware_host.store.reading import GameSummary, parse_session, replay_log, summaries
from firmware_host.store.records import (
    GameRecord,
    MoveRecord,
    RecordError,
    Session,
    apply_op,
    encode_op,
)

__all__ = ["EVENTS_MAXLEN", "LIVE_ONLY", "RETRY_SECONDS", "GameSummary", "RedisStore",
           "describe_failure"]

log = logging.getLogger(__name__)

class RedisStore:
    """The store of one board.

    ``spool`` and ``local`` (both beside each other in ``store.spool_dir``) make it survive a
    Redis that is away; without a spool a failure raises :class:`StoreUnavailable`. With
    ``confirm_ms`` (a replicated Redis) a durable write counts once a replica confirmed it
    (:mod:`.outage.replicas`), else it waits in the spool.
    ``background=True`` sends live events from the ``store-events`` thread, which also retries
    Redis during an outage. ``joins_hall=False`` (a board logged in as its own ACL user, which
    may not write the shared set): a new game does not add the board to the set of boards (the
    web app adds the hall's board users itself).

    >>> import fakeredis
    >>> store = RedisStore(fakeredis.FakeRedis(), "board1")
    >>> game = store.new_game({"Event": "Club"}, "russian", None, "record",
    ...                       session={"game_id": None, "ply": 0})
    >>> store.load_game(game).variant, store.load_session()["game_id"] == game
    ('russian', True)
    """

    def __init__(
        self,
        client: RedisClient,
        board_id: str,
        spool: Spool | None = None,
        on_change: Callable[[GameRecord], None] | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        *,
        local: LocalCopy | None = None,
        name: str = "Redis",
        background: bool = False,
        confirm_ms: int | None = None,
        joins_hall: bool = True,
    ) -> None:
        self.client = client
        self.joins_hall = joins_hall
        self.board_id = board_id
        self.keys = BoardKeys(board_id)
        self.prefix = self.keys.prefix
        self.name = name
        self.spool = spool
        self.local = local
        self._on_change = on_change
        self._clock = clock
        self._seq: dict[str, int] = {}
        self._games: dict[str, GameRecord] = {}
        self._event_seq = 0
        self._closed = False
        self._lock = threading.RLock()
        self._outage = Outage(client, self.keys, spool, lock=self._lock, name=name,
                              monotonic=monotonic, on_flushed=self._flushed,
                              confirm_ms=confirm_ms)
        self._publisher = (EventPublisher(self._send_event, self._retry_if_due, RETRY_SECONDS)
                           if background else None)

    # -- writing -------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """False while Redis is away or the spool still holds writes it has not taken."""
        return self._outage.connected

    @property
    def waiting_in_memory(self) -> int:
        """Writes held in memory because the spool's disk refuses them: not durable until it
        takes them again (show it on the LEDs); 0 normally."""
        return 0 if self.spool is None else self.spool.in_memory

    def _execute(self, commands: list[Command], *, sync: bool = True,
                 spoolable: bool = True) -> None:
        """Run ``commands`` in one MULTI/EXEC, or spool them (in order) while Redis is away;
        without the events thread, a write retries Redis itself when the retry is due.

        Raises:
            StoreUnavailable: Redis failed and there is no spool to hold a record.
        """
        with self._lock:
            self._outage.execute(commands, sync=sync, spoolable=spoolable,
                                 retry=self._publisher is None)

    # -- flushing the spool --------------------------------------------------------------------
    def flush(self) -> bool:
        """Send spooled writes to Redis in order, each exactly once; return whether none are left.

        Safe on the scan thread: it never waits on Redis for writes the ``store-events`` thread
        retries (``background=True``: it returns False at once, the thread tries every
        :data:`RETRY_SECONDS`), nor on another flush under way (False at once). Without that
        thread it tries now; the ping that finds out whether Redis answers waits outside the
        store's lock, so other threads keep spooling meanwhile.
        """
        if self._publisher is not None and not self._closed and not self._outage.connected:
            return False
        return self._outage.try_flush()

    def _retry_if_due(self) -> None:
        """From the ``store-events`` thread: try Redis again when the retry is due."""
        if not self._outage.connected and self._outage.retry_due():
            self._outage.try_flush()

    def _flushed(self, touched: dict[str, int]) -> None:
        """After a flush: reload each game it touched from Redis, rewriting its PDN file and its
        local copy."""
        self._seq.update(touched)
        for game_id in touched:
            try:
                game = self.load_game(game_id)
            except StoreError as exc:
                log.warning("game %s not readable after the flush (%s)", game_id, exc)
                continue
            self._remember(game_id, game, None)

    def _remember(self, game_id: str, game: GameRecord | None, session: Session | None) -> None:
        if game is not None:
            self._games[game_id] = game
        if self.local is not None:
            games = {} if game is None else {game_id: (self._seq.get(game_id, 0), game)}
            self.local.save(games, session)
        if game is not None and self._on_change is not None:
            self._on_change(game)

    # -- the game log --------------------------------------------------------------------------
    def _log(self, game_id: str, ops: list[tuple[str, Mapping[str, object]]],
             extra: list[Command] | None = None, session: Session | None = None) -> None:
        """Write ``ops`` to the game's log, with ``extra`` and the session, in one MULTI/EXEC.

        Raises:
            RecordError: an operation does not fit the game (nothing is written).
            StoreUnavailable: Redis failed and there is no spool.
        """
        with self._lock:  # the events thread may be flushing (and rewriting this PDN file)
            if ops[0][0] != "start" and game_id not in self._games:
                self._load_cached(game_id)
            after = copy.deepcopy(self._games.get(game_id))
            seq = self._seq.get(game_id, 0)
            commands: list[Command] = []
            for op, data in ops:
                seq += 1
                fields = encode_op(op, seq, data)
                if op == "start" or after is not None:
                    # Validate before writing: a bad operation must never reach the record.
                    after = apply_op(after, fields, f"game {game_id}")
                commands.append(("xadd", (self.keys.game(game_id), fields), {}))
            commands.extend(extra or [])
            if session is not None:
                commands.append(self._session_command(session))
            self._execute(commands)
            self._seq[game_id] = seq
            self._remember(game_id, after, session)

    def _load_cached(self, game_id: str) -> None:
        try:
            self.load_game(game_id)
        except StoreError as exc:
            log.warning("game %s not readable now (%s): its PDN file waits", game_id, exc)

    def new_game(self, headers: dict[str, str], variant: str, start_fen: str | None,
                 mode: str, *, session: Session | None = None) -> str:
        """Start a game; return its id (sortable: start time, then a random suffix).

        With ``session`` (the snapshot of the new game, its ``game_id`` whatever it holds: the
        store sets it to the new id) the session is saved in the same MULTI/EXEC, so a stop
        keeps either nothing or a game the session points at. Example:
        ``store.new_game(headers, "international", None, "play", session=snapshot)``.

        Raises:
            StoreUnavailable: Redis failed and there is no spool.
        """
        created = self._clock()
        game_id = new_game_id(created)
        data = {"game_id": game_id, "board_id": self.board_id, "headers": headers,
                "variant": variant, "start_fen": start_fen, "mode": mode, "created": created}
        index: list[Command] = [("zadd", (self.keys.games, {game_id: created}), {})]
        if self.joins_hall:
            index.append(("sadd", (BOARDS, self.board_id), {}))
        self._log(game_id, [("start", data)], index,
                  session=None if session is None else {**session, "game_id": game_id})
        return game_id

    def append_move(self, game_id: str, record: MoveRecord, *, result: str | None = None,
                    termination: str = "", session: Session | None = None) -> None:
        """Record a move; returns once it is durable (Redis AOF or the fsynced spool).

        With ``result``, the game's result is written with the move, and with ``session`` the
        session snapshot after it: one MULTI/EXEC, so a stop can never keep the move without
        them. Example: ``store.append_move(gid, last, result="1-0", termination="no_moves",
        session=snapshot)``.

        Raises:
            RecordError: the move does not follow the game (wrong ply); nothing is written.
            StoreUnavailable: Redis failed and there is no spool.
        """
        ops: list[tuple[str, Mapping[str, object]]] = [("move", record.to_json())]
        if result is not None:
            ops.append(("finish", {"result": result, "termination": termination}))
        self._log(game_id, ops, session=session)

    def truncate(self, game_id: str, ply: int, *, session: Session | None = None,
                 note: str = "") -> None:
        """Take back every move after ``ply`` (a takeback is logged, never erased); ``note``:
        why (an arbiter's correction), a comment of the game's PDN after move ``ply``."""
        data = {"to_ply": ply, **({"note": note} if note else {})}
        self._log(game_id, [("takeback", data)], session=session)

    def finish(self, game_id: str, result: str, termination: str, *,
               session: Session | None = None, note: str = "") -> None:
        """Record the result (``1-0``, ``0-1``, ``1/2-1/2`` or the variant's style); ``note``:
        why (an arbiter's decision), a comment of the game's PDN."""
        data = {"result": result, "termination": termination, **({"note": note} if note else {})}
        self._log(game_id, [("finish", data)], session=session)

    def set_headers(self, game_id: str, headers: dict[str, str]) -> None:
        """Add or change headers (player names entered after the start, say)."""
        self._log(game_id, [("headers", headers)])

    def note(self, game_id: str, ply: int, text: str) -> None:
        """Keep ``text`` in the game's record after its ``ply``-th move (a PDN comment)."""
        self._log(game_id, [("note", {"ply": ply, "text": text})])

    # -- the session ---------------------------------------------------------------------------
    def _session_command(self, state: Mapping[str, object]) -> Command:
        return ("set", (self.keys.session, json.dumps(state)), {})

    def save_session(self, state: Session) -> None:
        """Save the live session (game id, position, pending move, obligation, mode)."""
        with self._lock:
            self._execute([self._session_command(state)])
            if self.local is not None:
                self.local.save_session(state)

    def load_session(self, board_id: str | None = None) -> Session | None:
        """The saved live session, or None (none saved, or corrupt); ``board_id``: another
        board's, as Redis has it (a spare board carrying on its game).

        While Redis is away it answers from the spool's latest snapshot, else from the local
        copy: a service that starts without Redis resumes its game.

        Raises:
            StoreUnavailable: Redis failed and there is no spool (nothing to answer from), or
                another board's is asked for.
        """
        if board_id not in (None, self.board_id):
            try:
                raw = self.client.get(BoardKeys(board_id or "").session)
            except FAILURES as exc:
                raise StoreUnavailable(self._outage.unavailable(exc)) from None
            return parse_session(raw, "saved", board_id or "")
        with self._lock:
            try:
                if not self._outage.flush_locked(force=False):
                    return self._offline_session()
                raw = self.client.get(self.keys.session)
            except FAILURES as exc:
                if self.spool is None:
                    raise StoreUnavailable(self._outage.unavailable(exc)) from None
                self._outage.went_down(exc)
                return self._offline_session()
        return parse_session(raw, "saved", self.board_id)

    def _offline_session(self) -> Session | None:
        if self.spool is None:
            raise RuntimeError("an offline session needs the spool")
        return offline_session(self.spool, self.local, self.keys, self.name)

    # -- live events ---------------------------------------------------------------------------
    def publish(self, event: Mapping[str, object]) -> None:
        """Publish a live event (stream for late readers, pub/sub for live ones).

        Live-only events (:data:`LIVE_ONLY`: LED frames, occupancy) are dropped during an outage;
        the others wait in the spool (without an fsync of their own).
        """
        self._event_seq += 1
        commands, spoolable = event_commands(self.keys.events, {
            "board": self.board_id, "seq": self._event_seq, "time": round(self._clock(), 3),
            **event})
        if self._publisher is not None and not self._closed:
            self._publisher.put(commands, spoolable)
        else:
            self._execute(commands, sync=False, spoolable=spoolable)

    def _send_event(self, commands: list[Command], spoolable: bool) -> None:
        if self.spool is not None and self.connected:
            try:
                run(self.client, commands)  # outside the lock: the scan thread never waits
                return
            except FAILURES as exc:
                with self._lock:
                    self._outage.went_down(exc)
        self._execute(commands, sync=False, spoolable=spoolable)

    def drain_events(self) -> None:
        """Wait until every published event has been sent, spooled or dropped."""
        if self._publisher is not None:
            self._publisher.drain()

    # -- reading -------------------------------------------------------------------------------
    def load_game(self, game_id: str, board_id: str | None = None) -> GameRecord:
        """Replay a game's log. Corrupt entries are reported in ``game.problems`` and skipped.

        While Redis is away, the game in play is answered from the local copy and the spool.

        Raises:
            RecordError: the game does not exist or its start entry is unreadable.
            StoreUnavailable: Redis is away and the game is not known locally.
        """
        own = board_id in (None, self.board_id)
        keys = self.keys if board_id is None else BoardKeys(board_id)
        try:
            with self._lock:
                if own and not self._outage.flush_locked(force=False):
                    raise redis.ConnectionError("the spool is not flushed yet")
                entries = self.client.xrange(keys.game(game_id))
                amendments = self.client.xrange(keys.amendments(game_id))
        except FAILURES as exc:
            found = (offline_game(self.spool, self.local, self.keys, game_id)
                     if own and self.spool is not None else None)
            if found is None:
                raise StoreUnavailable(self._outage.unavailable(exc)) from None
            return self._known(game_id, *found)
        game, last_seq = replay_log(game_id, entries, amendments)
        if game is None:
            raise RecordError(f"no game {game_id!r} on board {board_id or self.board_id}")
        return self._known(game_id, last_seq, game) if own else game

    def _known(self, game_id: str, seq: int, game: GameRecord) -> GameRecord:
        """Keep what was read of one of the board's games (its log goes on from ``seq``)."""
        self._seq[game_id] = max(self._seq.get(game_id, 0), seq)
        self._games[game_id] = game
        return game

    def boards(self) -> list[str]:
        """Every board id that has recorded games in this Redis.

        Raises:
            StoreUnavailable: Redis cannot be read.
        """
        try:
            return sorted(text(b) for b in self.client.smembers(BOARDS))
        except FAILURES as exc:
            raise StoreUnavailable(self._outage.unavailable(exc)) from None

    def list_games(self, all_boards: bool = False, since: float = 0.0) -> list[GameSummary]:
        """Games of this board (or of every board), oldest first; unreadable ones are reported.

        Raises:
            StoreUnavailable: Redis cannot be read.
        """
        found: list[GameSummary] = []
        for board in self.boards() if all_boards else [self.board_id]:
            try:
                ids = self.client.zrangebyscore(BoardKeys(board).games, since, "+inf")
            except FAILURES as exc:
                raise StoreUnavailable(self._outage.unavailable(exc)) from None
            found += summaries((text(game_id) for game_id in ids),
                               partial(self.load_game, board_id=board))
        return sorted(found, key=lambda s: s.created)

    def close(self) -> None:
        """Send queued events, flush what can be flushed and close the connection; idempotent,
        and it never raises (a stop goes on whatever Redis or the disk does: the spool keeps
        what was not flushed)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._publisher is not None:
                self._publisher.close()
            self.flush()
        except Exception as exc:  # the stop must go on: the spool keeps it all
            log.error("store: not flushed at stop (%s): the spool keeps it for the next start",
                      describe_failure(exc))
        try:
            self.client.close()
        except Exception as exc:  # a socket already gone
            log.debug("store: closing the connection: %s", exc)

    def __enter__(self) -> RedisStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
