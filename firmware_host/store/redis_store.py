"""The game store on Redis: write-ahead game logs, live session state, live events.

Every key is prefixed ``draughtsboard:<board id>:`` so many boards can share one Redis:

- ``…:games`` sorted set of game ids by start time; ``draughtsboard:boards`` set of board ids;
- ``…:game:<id>`` stream: the game's log of operations (see :mod:`.records`);
- ``…:session`` string: JSON of the live session, so a restart resumes;
- ``…:events`` stream (capped) and pub/sub channel of the same name: live events.

Writes go in one MULTI/EXEC each. When Redis is unreachable they go to a :class:`~.spool.Spool`
on disk (fsynced), the outage is logged once, and the spool is flushed in order when Redis answers
again, so nothing is dropped and moves keep their order.
"""

from __future__ import annotations

import copy
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import redis

from firmware_host.store.records import (
    GameRecord,
    MoveRecord,
    RecordError,
    apply_op,
    encode_op,
)
from firmware_host.store.spool import Spool

log = logging.getLogger(__name__)

ROOT = "draughtsboard"
EVENTS_MAXLEN = 10_000
#: How often writes try Redis again during an outage (they go to the spool meanwhile).
RETRY_SECONDS = 2.0

_REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError, OSError)

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
    ) -> None:
        self.client = client
        self.board_id = board_id
        self.prefix = f"{ROOT}:{board_id}:"
        self.spool = spool
        self._on_change = on_change
        self._clock = clock
        self._monotonic = monotonic
        self._seq: dict[str, int] = {}
        self._games: dict[str, GameRecord] = {}
        self._event_seq = 0
        self._down_since: float | None = None
        self._next_retry = 0.0
        self._closed = False

    # -- keys ----------------------------------------------------------------------------------
    def _key(self, *parts: str, board_id: str | None = None) -> str:
        prefix = self.prefix if board_id is None else f"{ROOT}:{board_id}:"
        return prefix + ":".join(parts)

    # -- writing -------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """False while Redis is unreachable and writes go to the spool."""
        return self._down_since is None

    def _execute(self, commands: list[Command]) -> None:
        """Run ``commands`` atomically, or spool them durably if Redis is unreachable."""
        if self._down_since is not None and self._monotonic() < self._next_retry:
            self._spool(commands)
            return
        if not self.flush():
            self._spool(commands)
            return
        try:
            self._run(commands)
        except _REDIS_DOWN as exc:
            self._went_down(exc)
            self._spool(commands)

    def _run(self, commands: Iterable[Command]) -> None:
        pipe = self.client.pipeline(transaction=True)
        for name, args, kwargs in commands:
            getattr(pipe, name)(*args, **kwargs)
        pipe.execute()

    def _spool(self, commands: list[Command]) -> None:
        if self.spool is None:
            raise ConnectionError("Redis is unreachable and no spool directory is configured")
        for name, args, kwargs in commands:
            self.spool.append({"cmd": name, "args": list(args), "kwargs": kwargs})

    def _went_down(self, exc: BaseException) -> None:
        if self._down_since is None:
            self._down_since = self._monotonic()
            log.error("Redis unreachable (%s): moves and events wait on disk until it returns",
                      type(exc).__name__)
        self._next_retry = self._monotonic() + RETRY_SECONDS

    def flush(self) -> bool:
        """Send spooled writes to Redis in order; return whether none are left.

        Called before every write and periodically by the controller.
        """
        if self.spool is None:
            return True
        entries = self.spool.entries()
        if not entries and self._down_since is None:
            return True
        try:
            self.client.ping()
            if entries:
                self._run((e["cmd"], tuple(e["args"]), dict(e.get("kwargs", {}))) for e in entries)
        except _REDIS_DOWN as exc:
            self._went_down(exc)
            return False
        self.spool.clear()
        if self._down_since is not None:
            log.warning("Redis is back after %.0f s: %d pending writes flushed",
                        self._monotonic() - self._down_since, len(entries))
            self._down_since = None
        return True

    def _next_seq(self, game_id: str) -> int:
        self._seq[game_id] = self._seq.get(game_id, 0) + 1
        return self._seq[game_id]

    def _log(self, game_id: str, op: str, data: dict[str, Any],
             extra: list[Command] | None = None) -> None:
        if op != "start" and game_id not in self._games:
            self._load_cached(game_id)
        fields = encode_op(op, self._next_seq(game_id), data)
        cached = self._games.get(game_id)
        after = None
        if op == "start" or cached is not None:
            # Validate before writing: a bad operation must never reach the record.
            after = apply_op(copy.deepcopy(cached), fields, f"game {game_id}")
        self._execute([("xadd", (self._key("game", game_id), fields), {}), *(extra or [])])
        if after is not None:
            self._games[game_id] = after
            if self._on_change is not None:
                self._on_change(after)

    def _load_cached(self, game_id: str) -> None:
        try:
            self.flush()
            self.load_game(game_id)
        except (RecordError, *_REDIS_DOWN) as exc:
            log.warning("game %s not readable now (%s): its PDN file waits", game_id, exc)

    def new_game(self, headers: dict[str, str], variant: str, start_fen: str | None,
                 mode: str) -> str:
        """Start a game; return its id (sortable: start time, then a random suffix)."""
        created = self._clock()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(created))
        game_id = f"{stamp}-{secrets.token_hex(2)}"
        data = {"game_id": game_id, "board_id": self.board_id, "headers": headers,
                "variant": variant, "start_fen": start_fen, "mode": mode, "created": created}
        index = [("zadd", (self._key("games"), {game_id: created}), {}),
                 ("sadd", (f"{ROOT}:boards", self.board_id), {})]
        self._log(game_id, "start", data, index)
        return game_id

    def append_move(self, game_id: str, record: MoveRecord) -> None:
        """Record a move; returns once it is durable (Redis AOF or the fsynced spool)."""
        self._log(game_id, "move", record.to_json())

    def truncate(self, game_id: str, ply: int) -> None:
        """Take back every move after ``ply`` (a takeback is logged, never erased)."""
        self._log(game_id, "takeback", {"to_ply": ply})

    def finish(self, game_id: str, result: str, termination: str) -> None:
        """Record the result (``1-0``, ``0-1``, ``1/2-1/2`` or the variant's style)."""
        self._log(game_id, "finish", {"result": result, "termination": termination})

    def set_headers(self, game_id: str, headers: dict[str, str]) -> None:
        """Add or change headers (player names entered after the start, say)."""
        self._log(game_id, "headers", headers)

    def save_session(self, state: dict[str, Any]) -> None:
        """Save the live session (game id, position, pending move, obligation, mode)."""
        self._execute([("set", (self._key("session"), json.dumps(state)), {})])

    def load_session(self) -> dict[str, Any] | None:
        """The saved live session, or None (none saved, corrupt, or Redis unreachable)."""
        if not self.flush():
            return None
        raw = self.client.get(self._key("session"))
        if raw is None:
            return None
        try:
            state = json.loads(raw)
        except ValueError:
            log.error("saved session of board %s is corrupt: starting afresh", self.board_id)
            return None
        return state if isinstance(state, dict) else None

    def publish(self, event: dict[str, Any]) -> None:
        """Publish a live event (stream for late readers, pub/sub for live ones)."""
        self._event_seq += 1
        stamped = {"board": self.board_id, "seq": self._event_seq,
                   "time": round(self._clock(), 3), **event}
        message = json.dumps(stamped, separators=(",", ":"), default=str)
        key = self._key("events")
        self._execute([
            ("xadd", (key, {"event": message}), {"maxlen": EVENTS_MAXLEN, "approximate": True}),
            ("publish", (key, message), {}),
        ])

    # -- reading -------------------------------------------------------------------------------
    def load_game(self, game_id: str, board_id: str | None = None) -> GameRecord:
        """Replay a game's log. Corrupt entries are reported in ``game.problems`` and skipped.

        Raises:
            RecordError: the game does not exist or its start entry is unreadable.
        """
        entries = self.client.xrange(self._key("game", game_id, board_id=board_id))
        game: GameRecord | None = None
        last_seq = 0
        problems: list[str] = []
        for entry_id, raw in entries:
            fields = {_text(k): _text(v) for k, v in raw.items()}
            seq = int(fields["seq"]) if fields.get("seq", "").isdigit() else last_seq + 1
            if seq <= last_seq:
                continue  # written twice by a spool flush interrupted by a crash
            last_seq = seq
            try:
                game = apply_op(game, fields, f"game {game_id} entry {_text(entry_id)}")
            except RecordError as exc:
                log.error("%s: skipped", exc)
                problems.append(str(exc))
        if game is None:
            raise RecordError(f"no game {game_id!r} on board {board_id or self.board_id}")
        game.problems = problems
        if board_id in (None, self.board_id):
            self._seq[game_id] = max(self._seq.get(game_id, 0), last_seq)
            self._games[game_id] = game
        return game

    def boards(self) -> list[str]:
        """Every board id that has recorded games in this Redis."""
        return sorted(_text(b) for b in self.client.smembers(f"{ROOT}:boards"))

    def list_games(self, all_boards: bool = False, since: float = 0.0) -> list[GameSummary]:
        """Games of this board (or of every board), oldest first; unreadable ones are reported."""
        summaries = []
        for board in self.boards() if all_boards else [self.board_id]:
            ids = self.client.zrangebyscore(self._key("games", board_id=board), since, "+inf")
            for game_id in ids:
                try:
                    game = self.load_game(_text(game_id), board)
                except RecordError as exc:
                    log.error("%s: not listed", exc)
                    continue
                summaries.append(_summary(game))
        return sorted(summaries, key=lambda s: s.created)

    def close(self) -> None:
        """Flush what can be flushed and close the connection; idempotent."""
        if self._closed:
            return
        self._closed = True
        self.flush()
        self.client.close()

    def __enter__(self) -> RedisStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _summary(game: GameRecord) -> GameSummary:
    return GameSummary(game.board_id, game.game_id, game.created, game.variant,
                       game.headers.get("White", ""), game.headers.get("Black", ""),
                       game.result, len(game.moves))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
