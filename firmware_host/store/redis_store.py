"""The game store on Redis: write-ahead game logs, live session state, live events.

Every key is prefixed ``draughtsboard:<board id>:`` so many boards can share one Redis:

- ``…:games`` sorted set of game ids by start time; ``draughtsboard:boards`` set of board ids;
- ``…:game:<id>`` stream: the game's log of operations (see :mod:`.records`);
- ``…:session`` string: JSON of the live session, so a restart resumes;
- ``…:events`` stream (capped) and pub/sub channel of the same name: live events;
- ``…:spool`` string: how far the disk spool has been flushed (so a flush is applied once).

Each store call is one MULTI/EXEC (one round trip). Every failure of Redis (refused, timed out,
wrong password, an error reply: OOM, MISCONF, READONLY, ...) takes one outage path: the write goes
to a :class:`~.spool.Spool` on disk (fsynced), the outage is logged once, and the spool is flushed
in order, exactly once, when Redis answers again. While Redis is away, the session and the game in
play are answered from the spool and the :class:`~.local.LocalCopy`, so a service that starts
without Redis resumes its game and records it.
"""

from __future__ import annotations

import copy
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import redis

from firmware_host.store.errors import StoreError, StoreUnavailable
from firmware_host.store.local import LocalCopy
from firmware_host.store.publisher import EventPublisher
from firmware_host.store.records import (
    GameRecord,
    MoveRecord,
    RecordError,
    apply_op,
    encode_op,
)
from firmware_host.store.spool import Spool, SpoolEntry

log = logging.getLogger(__name__)

ROOT = "draughtsboard"
EVENTS_MAXLEN = 10_000
#: How often writes try Redis again during an outage (they go to the spool meanwhile).
RETRY_SECONDS = 2.0
#: Spooled transactions sent per MULTI/EXEC when the spool is flushed.
FLUSH_CHUNK = 200
#: Live events only for subscribers: never spooled (no fsync per LED frame in an outage).
LIVE_ONLY = frozenset({"leds", "occupancy"})

#: Every way Redis can fail a write: all take the same outage path.
FAILURES: tuple[type[BaseException], ...] = (
    redis.ConnectionError, redis.TimeoutError, redis.ResponseError, OSError)

Command = tuple[str, tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True)
class GameSummary:
    """One line of ``draughtsboard games``."""

    board_id: str
    game_id: str
    created: float
    variant: str
    white: str
    black: str
    result: str
    moves: int


class RedisStore:
    """The store of one board.

    ``spool`` and ``local`` (both beside each other in ``store.spool_dir``) make it survive a
    Redis that is away; without a spool a failure raises :class:`StoreUnavailable`.
    ``background=True`` sends live events from the ``store-events`` thread.

    >>> import fakeredis
    >>> store = RedisStore(fakeredis.FakeRedis(), "board1")
    >>> game = store.new_game({"Event": "Club"}, "russian", None, "record")
    >>> store.load_game(game).variant
    'russian'
    """

    def __init__(
        self,
        client: redis.Redis,
        board_id: str,
        spool: Spool | None = None,
        on_change: Callable[[GameRecord], None] | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        *,
        local: LocalCopy | None = None,
        name: str = "Redis",
        background: bool = False,
    ) -> None:
        self.client = client
        self.board_id = board_id
        self.prefix = f"{ROOT}:{board_id}:"
        self.name = name
        self.spool = spool
        self.local = local
        self._on_change = on_change
        self._clock = clock
        self._monotonic = monotonic
        self._seq: dict[str, int] = {}
        self._games: dict[str, GameRecord] = {}
        self._event_seq = 0
        self._down_since: float | None = None
        self._backlog = spool is not None and len(spool) > 0
        self._next_retry = 0.0
        self._closed = False
        self._lock = threading.RLock()
        self._publisher = (EventPublisher(self._send_event, self._retry_if_due, RETRY_SECONDS)
                           if background else None)

    # -- keys ----------------------------------------------------------------------------------
    def _key(self, *parts: str, board_id: str | None = None) -> str:
        prefix = self.prefix if board_id is None else f"{ROOT}:{board_id}:"
        return prefix + ":".join(parts)

    def _game_id_of(self, key: Any) -> str | None:
        game_prefix = self._key("game", "")
        text = _text(key)
        return text[len(game_prefix):] if text.startswith(game_prefix) else None

    # -- writing -------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """False while Redis is away or the spool still holds writes it has not taken."""
        return self._down_since is None and not self._backlog

    @property
    def waiting_in_memory(self) -> int:
        """Writes held in memory because the spool's disk refuses them: not durable until it
        takes them again (show it on the LEDs); 0 normally."""
        return 0 if self.spool is None else self.spool.in_memory

    def _execute(self, commands: list[Command], *, sync: bool = True,
                 spoolable: bool = True) -> None:
        """Run ``commands`` in one MULTI/EXEC, or spool them (in order) while Redis is away.

        Raises:
            StoreUnavailable: Redis failed and there is no spool to hold a record.
        """
        with self._lock:
            if self.spool is None:
                self._run_or_raise(commands, spoolable)
                return
            if self._down_since is not None or self._backlog:
                retry_due = self._monotonic() >= self._next_retry
                if self._down_since is None or (retry_due and self._publisher is None):
                    self._flush_locked()
                if self._down_since is not None or self._backlog:
                    self._spool(commands, sync, spoolable)
                    return
            try:
                self._run(commands)
            except FAILURES as exc:
                self._went_down(exc)
                self._spool(commands, sync, spoolable)

    def _run_or_raise(self, commands: list[Command], spoolable: bool) -> None:
        try:
            self._run(commands)
        except FAILURES as exc:
            if spoolable:
                raise StoreUnavailable(self._unavailable(exc)) from None

    def _run(self, commands: Iterable[Command]) -> None:
        pipe = self.client.pipeline(transaction=True)
        for name, args, kwargs in commands:
            getattr(pipe, name)(*args, **kwargs)
        pipe.execute()

    def _spool(self, commands: list[Command], sync: bool, spoolable: bool) -> None:
        assert self.spool is not None
        if not spoolable:
            return  # live only: a subscriber that was not there has no use for it later
        self.spool.append([{"cmd": name, "args": list(args), "kwargs": kwargs}
                           for name, args, kwargs in commands], sync=sync)
        self._backlog = True

    def _unavailable(self, exc: BaseException) -> str:
        return f"{self.name} unreachable: {describe_failure(exc)}"

    def _went_down(self, exc: BaseException) -> None:
        if self._down_since is None:
            self._down_since = self._monotonic()
            log.error("%s; moves wait on disk, in order, until it answers",
                      self._unavailable(exc))
        self._next_retry = self._monotonic() + RETRY_SECONDS

    def _retry_if_due(self) -> None:
        """From the ``store-events`` thread: try Redis again, the slow ping outside the lock so
        the scan thread keeps spooling meanwhile."""
        if not self.connected and self._monotonic() >= self._next_retry:
            self.flush()

    def flush(self) -> bool:
        """Send spooled writes to Redis in order, each exactly once; return whether none are left.

        Called before writes, by the ``store-events`` thread during an outage, and may be called
        periodically by the service. While Redis is away the ping that finds out waits outside
        the store's lock, so other threads keep spooling meanwhile.
        """
        if self._down_since is not None:
            try:
                self.client.ping()
            except FAILURES as exc:
                with self._lock:
                    self._went_down(exc)
                return False
        with self._lock:
            return self._flush_locked()

    def _flush_locked(self, force: bool = True) -> bool:
        """Flush under the lock; unless ``force``, not before the retry time while Redis is away
        (a read during an outage answers from the spool at once, not after a timeout)."""
        if self.spool is None or (self._down_since is None and not self._backlog):
            return True
        if not force and self._down_since is not None and self._monotonic() < self._next_retry:
            return False
        entries = self.spool.entries()
        try:
            self.client.ping()
            touched = self._replay(entries) if entries else set()
        except FAILURES as exc:
            self._went_down(exc)
            return False
        self.spool.clear()
        self._backlog = False
        if self._down_since is not None:
            log.warning("%s is back after %.0f s: %d pending writes flushed", self.name,
                        self._monotonic() - self._down_since, len(entries))
            self._down_since = None
        for game_id in touched:
            self._refresh(game_id)
        return True

    def _replay(self, entries: list[SpoolEntry]) -> set[str]:
        """Send ``entries`` in order; skip those a flush cut short by a crash already sent;
        number each game's operations after what Redis holds. Returns the games touched."""
        marker = self._key("spool")
        done_epoch, _, done_text = _text(self.client.get(marker) or "").partition(":")
        done_n = int(done_text) if done_text.isdigit() else 0
        todo = [e for e in entries if not (e.epoch and e.epoch == done_epoch and e.n <= done_n)]
        game_keys = sorted({_text(c["args"][0]) for e in todo for c in e.commands
                            if self._is_game_op(c)})
        last = self._last_entries(game_keys)
        first_seen: set[str] = set()
        for begin in range(0, len(todo), FLUSH_CHUNK):
            chunk = todo[begin:begin + FLUSH_CHUNK]
            before = (dict(last), set(first_seen))
            try:
                self._send_chunk(chunk, marker, last, first_seen)
            except redis.ResponseError as exc:
                if not _is_poison(exc):
                    raise
                if self._marker_at(marker, chunk[-1]):
                    # Refused while running (WRONGTYPE): the rest of the chunk is in Redis.
                    self._set_aside(chunk, exc, marker)
                    continue
                last.clear()
                last.update(before[0])
                first_seen.clear()
                first_seen.update(before[1])
                self._send_one_by_one(chunk, marker, last, first_seen)
        touched = set()
        for key, (seq, _) in last.items():
            game_id = self._game_id_of(key)
            if game_id is not None:
                self._seq[game_id] = seq
                touched.add(game_id)
        return touched

    def _send_chunk(self, chunk: list[SpoolEntry], marker: str,
                    last: dict[str, tuple[int, dict[str, str] | None]],
                    first_seen: set[str]) -> None:
        """One MULTI/EXEC: the chunk's commands (games renumbered) and how far the flush got."""
        pipe = self.client.pipeline(transaction=True)
        for entry in chunk:
            for command in entry.commands:
                name, args = str(command["cmd"]), list(command.get("args", ()))
                if self._is_game_op(command):
                    key, fields = _text(args[0]), {k: str(v) for k, v in args[1].items()}
                    seq, last_fields = last.get(key, (0, None))
                    if key not in first_seen:
                        first_seen.add(key)
                        if last_fields == fields:
                            continue  # it reached Redis, only its answer was lost
                    fields["seq"] = str(seq + 1)
                    last[key] = (seq + 1, fields)
                    args = [key, fields]
                getattr(pipe, name)(*args, **dict(command.get("kwargs", {})))
        if chunk[-1].epoch:
            pipe.set(marker, f"{chunk[-1].epoch}:{chunk[-1].n}")
        pipe.execute()

    def _send_one_by_one(self, chunk: list[SpoolEntry], marker: str,
                         last: dict[str, tuple[int, dict[str, str] | None]],
                         first_seen: set[str]) -> None:
        """After an error reply no retry can cure (WRONGTYPE: a key another program wrote, a
        command Redis refuses): send each entry alone and set aside those Redis refuses, so one
        bad entry cannot hold the spool back for ever."""
        for entry in chunk:
            before = (dict(last), set(first_seen))
            try:
                self._send_chunk([entry], marker, last, first_seen)
            except redis.ResponseError as exc:
                if not _is_poison(exc):
                    raise
                if not self._marker_at(marker, entry):
                    last.clear()
                    last.update(before[0])
                    first_seen.clear()
                    first_seen.update(before[1])
                self._set_aside([entry], exc, marker)

    def _marker_at(self, marker: str, entry: SpoolEntry) -> bool:
        return bool(entry.epoch) and _text(self.client.get(marker) or "") == \
            f"{entry.epoch}:{entry.n}"

    def _set_aside(self, entries: list[SpoolEntry], exc: BaseException, marker: str) -> None:
        """Keep what Redis refused in ``<board>.rejected.jsonl`` (logged) and go past it."""
        assert self.spool is not None
        rejected = self.spool.path.with_suffix(".rejected.jsonl")
        log.error("%s refuses a spooled write (%s): kept in %s", self.name,
                  describe_failure(exc), rejected)
        lines = "".join(json.dumps({**e.to_json(), "error": str(exc)}, separators=(",", ":"))
                        + "\n" for e in entries)
        try:
            with open(rejected, "a", encoding="utf-8") as file:
                file.write(lines)
        except OSError as error:
            log.error("cannot keep the refused write in %s (%s): %s", rejected, error.strerror,
                      lines)
        if entries[-1].epoch:
            self.client.set(marker, f"{entries[-1].epoch}:{entries[-1].n}")

    def _is_game_op(self, command: Mapping[str, Any]) -> bool:
        args: Any = command.get("args") or []
        return (command.get("cmd") == "xadd" and len(args) >= 2 and isinstance(args[1], dict)
                and self._game_id_of(args[0]) is not None)

    def _last_entries(self, keys: list[str]) -> dict[str, tuple[int, dict[str, str] | None]]:
        """Each game stream's last sequence number and last entry (its length if unnumbered)."""
        if not keys:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.xrevrange(key, count=1)
            pipe.xlen(key)
        replies = pipe.execute()
        found: dict[str, tuple[int, dict[str, str] | None]] = {}
        for number, key in enumerate(keys):
            tail, length = replies[2 * number], int(replies[2 * number + 1])
            if not tail:
                found[key] = (0, None)
                continue
            fields = {_text(k): _text(v) for k, v in tail[0][1].items()}
            seq = fields.get("seq", "")
            found[key] = (int(seq) if seq.isdigit() else length, fields)
        return found

    def _refresh(self, game_id: str) -> None:
        """After a flush: reload a game from Redis and rewrite its PDN file and local copy."""
        try:
            game = self.load_game(game_id)
        except StoreError as exc:
            log.warning("game %s not readable after the flush (%s)", game_id, exc)
            return
        self._remember(game_id, game, None)

    def _remember(self, game_id: str, game: GameRecord | None,
                  session: dict[str, Any] | None) -> None:
        if game is not None:
            self._games[game_id] = game
        if self.local is not None:
            games = {} if game is None else {game_id: (self._seq.get(game_id, 0), game)}
            self.local.save(games, session)
        if game is not None and self._on_change is not None:
            self._on_change(game)

    # -- the game log --------------------------------------------------------------------------
    def _log(self, game_id: str, ops: list[tuple[str, Mapping[str, Any]]],
             extra: list[Command] | None = None,
             session: dict[str, Any] | None = None) -> None:
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
                commands.append(("xadd", (self._key("game", game_id), fields), {}))
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
                 mode: str) -> str:
        """Start a game; return its id (sortable: start time, then a random suffix)."""
        created = self._clock()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(created))
        game_id = f"{stamp}-{secrets.token_hex(2)}"
        data = {"game_id": game_id, "board_id": self.board_id, "headers": headers,
                "variant": variant, "start_fen": start_fen, "mode": mode, "created": created}
        index: list[Command] = [("zadd", (self._key("games"), {game_id: created}), {}),
                                ("sadd", (f"{ROOT}:boards", self.board_id), {})]
        self._log(game_id, [("start", data)], index)
        return game_id

    def append_move(self, game_id: str, record: MoveRecord, *, result: str | None = None,
                    termination: str = "", session: dict[str, Any] | None = None) -> None:
        """Record a move; returns once it is durable (Redis AOF or the fsynced spool).

        With ``result``, the game's result is written with the move, and with ``session`` the
        session snapshot after it: one MULTI/EXEC, so a stop can never keep the move without
        them. Example: ``store.append_move(gid, last, result="1-0", termination="no_moves",
        session=snapshot)``.

        Raises:
            RecordError: the move does not follow the game (wrong ply); nothing is written.
            StoreUnavailable: Redis failed and there is no spool.
        """
        ops: list[tuple[str, Mapping[str, Any]]] = [("move", record.to_json())]
        if result is not None:
            ops.append(("finish", {"result": result, "termination": termination}))
        self._log(game_id, ops, session=session)

    def truncate(self, game_id: str, ply: int, *, session: dict[str, Any] | None = None) -> None:
        """Take back every move after ``ply`` (a takeback is logged, never erased)."""
        self._log(game_id, [("takeback", {"to_ply": ply})], session=session)

    def finish(self, game_id: str, result: str, termination: str, *,
               session: dict[str, Any] | None = None) -> None:
        """Record the result (``1-0``, ``0-1``, ``1/2-1/2`` or the variant's style)."""
        self._log(game_id, [("finish", {"result": result, "termination": termination})],
                  session=session)

    def set_headers(self, game_id: str, headers: dict[str, str]) -> None:
        """Add or change headers (player names entered after the start, say)."""
        self._log(game_id, [("headers", headers)])

    # -- the session ---------------------------------------------------------------------------
    def _session_command(self, state: Mapping[str, Any]) -> Command:
        return ("set", (self._key("session"), json.dumps(state)), {})

    def save_session(self, state: dict[str, Any]) -> None:
        """Save the live session (game id, position, pending move, obligation, mode)."""
        with self._lock:
            self._execute([self._session_command(state)])
            if self.local is not None:
                self.local.save_session(state)

    def load_session(self) -> dict[str, Any] | None:
        """The saved live session, or None (none saved, or corrupt).

        While Redis is away it answers from the spool's latest snapshot, else from the local
        copy: a service that starts without Redis resumes its game.

        Raises:
            StoreUnavailable: Redis failed and there is no spool (nothing to answer from).
        """
        with self._lock:
            try:
                if not self._flush_locked(force=False):
                    return self._offline_session()
                raw = self.client.get(self._key("session"))
            except FAILURES as exc:
                if self.spool is None:
                    raise StoreUnavailable(self._unavailable(exc)) from None
                self._went_down(exc)
                return self._offline_session()
        return self._parse_session(raw, "saved")

    def _offline_session(self) -> dict[str, Any] | None:
        key = self._key("session")
        assert self.spool is not None
        for entry in reversed(self.spool.entries()):
            for command in reversed(entry.commands):
                args: Any = command.get("args") or []
                if command.get("cmd") == "set" and len(args) == 2 and args[0] == key:
                    return self._parse_session(args[1], "spooled")
        if self.local is not None and self.local.session is not None:
            log.warning("%s is away: resuming from the local copy of the session", self.name)
            return dict(self.local.session)
        return None

    def _parse_session(self, raw: Any, where: str) -> dict[str, Any] | None:
        if raw is None:
            return None
        try:
            state = json.loads(raw)
        except ValueError:
            log.error("%s session of board %s is corrupt: starting afresh", where, self.board_id)
            return None
        return state if isinstance(state, dict) else None

    # -- live events ---------------------------------------------------------------------------
    def publish(self, event: dict[str, Any]) -> None:
        """Publish a live event (stream for late readers, pub/sub for live ones).

        Live-only events (:data:`LIVE_ONLY`: LED frames, occupancy) are dropped during an outage;
        the others wait in the spool (without an fsync of their own).
        """
        self._event_seq += 1
        stamped = {"board": self.board_id, "seq": self._event_seq,
                   "time": round(self._clock(), 3), **event}
        message = json.dumps(stamped, separators=(",", ":"), default=str)
        key = self._key("events")
        commands: list[Command] = [
            ("xadd", (key, {"event": message}), {"maxlen": EVENTS_MAXLEN, "approximate": True}),
            ("publish", (key, message), {}),
        ]
        spoolable = event.get("event") not in LIVE_ONLY
        if self._publisher is not None and not self._closed:
            self._publisher.put(commands, spoolable)
        else:
            self._execute(commands, sync=False, spoolable=spoolable)

    def _send_event(self, commands: list[Command], spoolable: bool) -> None:
        if self.spool is not None and self.connected:
            try:
                self._run(commands)  # outside the lock: the scan thread never waits on this
                return
            except FAILURES as exc:
                with self._lock:
                    self._went_down(exc)
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
        try:
            with self._lock:
                if own and not self._flush_locked(force=False):
                    raise redis.ConnectionError("the spool is not flushed yet")
                entries = self.client.xrange(self._key("game", game_id, board_id=board_id))
        except FAILURES as exc:
            game = self._offline_game(game_id) if own else None
            if game is None:
                raise StoreUnavailable(self._unavailable(exc)) from None
            return game
        game, last_seq = _replay_log(game_id, entries)
        if game is None:
            raise RecordError(f"no game {game_id!r} on board {board_id or self.board_id}")
        if own:
            self._seq[game_id] = max(self._seq.get(game_id, 0), last_seq)
            self._games[game_id] = game
        return game

    def _offline_game(self, game_id: str) -> GameRecord | None:
        """The game as the local copy and the spool know it, or None."""
        if self.spool is None:
            return None
        saved = self.local.game(game_id) if self.local is not None else None
        seq, game = saved if saved is not None else (0, None)
        key = self._key("game", game_id)
        for entry in self.spool.entries():
            for command in entry.commands:
                if not self._is_game_op(command) or _text(command["args"][0]) != key:
                    continue
                fields = {k: str(v) for k, v in command["args"][1].items()}
                number = int(fields["seq"]) if fields.get("seq", "").isdigit() else seq + 1
                if number <= seq:
                    continue  # already in the local copy
                try:
                    game = apply_op(game, fields, f"spooled game {game_id}")
                except RecordError as exc:
                    log.error("%s: skipped", exc)
                seq = number
        if game is None:
            return None
        self._seq[game_id] = max(self._seq.get(game_id, 0), seq)
        self._games[game_id] = game
        return game

    def boards(self) -> list[str]:
        """Every board id that has recorded games in this Redis.

        Raises:
            StoreUnavailable: Redis cannot be read.
        """
        try:
            return sorted(_text(b) for b in self.client.smembers(f"{ROOT}:boards"))
        except FAILURES as exc:
            raise StoreUnavailable(self._unavailable(exc)) from None

    def list_games(self, all_boards: bool = False, since: float = 0.0) -> list[GameSummary]:
        """Games of this board (or of every board), oldest first; unreadable ones are reported.

        Raises:
            StoreUnavailable: Redis cannot be read.
        """
        summaries = []
        for board in self.boards() if all_boards else [self.board_id]:
            try:
                ids = self.client.zrangebyscore(self._key("games", board_id=board), since, "+inf")
            except FAILURES as exc:
                raise StoreUnavailable(self._unavailable(exc)) from None
            for game_id in ids:
                try:
                    game = self.load_game(_text(game_id), board)
                except RecordError as exc:
                    log.error("%s: not listed", exc)
                    continue
                summaries.append(_summary(game))
        return sorted(summaries, key=lambda s: s.created)

    def close(self) -> None:
        """Send queued events, flush what can be flushed and close the connection; idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._publisher is not None:
            self._publisher.close()
        self.flush()
        self.client.close()

    def __enter__(self) -> RedisStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def describe_failure(exc: BaseException) -> str:
    """One line saying how Redis failed (never a password: redis-py's messages hold none).

    >>> describe_failure(redis.TimeoutError("Timeout reading from socket"))
    'timed out (Timeout reading from socket)'
    """
    text = (str(exc).strip().splitlines() or [""])[0]
    if isinstance(exc, redis.AuthenticationError) or "WRONGPASS" in text or "NOAUTH" in text:
        return f"authentication failed, check the password in store.url ({text})"
    if isinstance(exc, redis.TimeoutError):
        return f"timed out ({text})"
    if isinstance(exc, redis.ResponseError):
        return f"it answers with an error: {text}"
    return text or type(exc).__name__


#: Error replies that say Redis cannot take writes now: an outage, retried until it can.
_TRANSIENT = ("OOM", "MISCONF", "READONLY", "NOAUTH", "NOPERM", "LOADING", "BUSY", "MASTERDOWN",
              "NOREPLICAS", "TRYAGAIN", "CLUSTERDOWN", "WRONGPASS")


def _is_poison(exc: BaseException) -> bool:
    """Whether an error reply refuses the write itself (no retry will pass it)."""
    if not isinstance(exc, redis.ResponseError) or isinstance(
            exc, (redis.exceptions.OutOfMemoryError, redis.exceptions.ReadOnlyError)):
        return False
    words = str(exc).replace(":", " ").split()
    return not any(word in _TRANSIENT for word in words)


def _replay_log(game_id: str, entries: Any) -> tuple[GameRecord | None, int]:
    game: GameRecord | None = None
    last_seq = 0
    problems: list[str] = []
    for entry_id, raw in entries or ():
        fields = {_text(k): _text(v) for k, v in (raw or {}).items()}
        seq = int(fields["seq"]) if fields.get("seq", "").isdigit() else last_seq + 1
        if seq <= last_seq:
            continue  # written twice by a spool flush interrupted by a crash
        last_seq = seq
        try:
            game = apply_op(game, fields, f"game {game_id} entry {_text(entry_id)}")
        except RecordError as exc:
            log.error("%s: skipped", exc)
            problems.append(str(exc))
    if game is not None:
        game.problems = problems
    return game, last_seq


def _summary(game: GameRecord) -> GameSummary:
    return GameSummary(game.board_id, game.game_id, game.created, game.variant,
                       game.headers.get("White", ""), game.headers.get("Black", ""),
                       game.result, len(game.moves))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
