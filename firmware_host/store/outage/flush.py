"""The spool flushed into Redis: in order, exactly once, with each game's log renumbered.

Spooled transactions are sent in order, :data:`FLUSH_CHUNK` per MULTI/EXEC, and each chunk also
sets the board's ``…:spool`` marker to ``<epoch>:<n>`` of its last entry: a flush cut short by a
crash is taken up after the marker, never applying a transaction twice.

A game's operations are numbered after what Redis already holds of the game (its last ``seq``),
so readers see 1, 2, 3… with no gap and no repeat. The first spooled transaction of a game whose
operations on its log equal the last ones in Redis (a move, or a move with the result it ends
the game with: two entries) is the write whose reply was lost, and is not sent again.

An error reply no retry can cure (:func:`~.failures.is_poison`: ``WRONGTYPE`` because another
program wrote one of the board's keys, a command Redis refuses) is logged and set aside in
``<board>.rejected.jsonl``, so one bad entry cannot hold the spool back for ever.

>>> import fakeredis, tempfile
>>> from pathlib import Path
>>> from firmware_host.store.outage.spool import SpoolEntry
>>> client, keys = fakeredis.FakeRedis(), BoardKeys("b")
>>> entry = SpoolEntry("e1", 1, [{"cmd": "xadd", "args": [keys.game("g"), {"op": "x"}]}])
>>> replay = SpoolReplay(client, keys, Path(tempfile.mkdtemp()) / "b.rejected.jsonl", "Redis")
>>> replay.send([entry]), client.get(keys.spool)
({'g': 1}, b'e1:1')
>>> SpoolReplay(client, keys, replay.rejected, "Redis").send([entry])  # already sent: skipped
{}
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import redis

from firmware_host.digits import whole_number_or
from firmware_host.store.client import RedisClient, text
from firmware_host.store.keys import BoardKeys
from firmware_host.store.outage.failures import describe_failure, is_poison
from firmware_host.store.outage.spool import SpoolEntry
from firmware_host.store.replies import stream_entries

__all__ = ["FLUSH_CHUNK", "SpoolReplay"]

log = logging.getLogger(__name__)

#: Spooled transactions sent per MULTI/EXEC when the spool is flushed.
FLUSH_CHUNK = 200

#: Per game log key: the last ``seq`` in Redis (or sent so far) and the fields of its last
#: entries, oldest first (as many as the first spooled transaction writes to that log).
Tails = dict[str, tuple[int, list[dict[str, str]]]]


class SpoolReplay:
    """One flush of a board's spooled entries into Redis (make one per flush).

    ``rejected`` is the file where refused writes are kept; ``name`` names Redis in the log.
    """

    def __init__(self, client: RedisClient, keys: BoardKeys, rejected: Path, name: str) -> None:
        self.client = client
        self.keys = keys
        self.rejected = rejected
        self.name = name
        self._tails: Tails = {}
        self._first_seen: set[str] = set()

    def send(self, entries: list[SpoolEntry]) -> dict[str, int]:
        """Send ``entries`` in order, skipping those a flush cut short by a crash already sent;
        return each game touched with its last ``seq`` in Redis.

        Raises:
            redis.RedisError, OSError: Redis failed (an outage: the spool is kept, and the next
                flush takes up after the marker).
        """
        done_epoch, _, done_text = text(self.client.get(self.keys.spool) or "").partition(":")
        done_n = whole_number_or(done_text, 0)
        todo = [e for e in entries if not (e.epoch and e.epoch == done_epoch and e.n <= done_n)]
        first: dict[str, int] = {}  # per game log: how many entries its first transaction adds
        for entry in todo:
            for key, ops in self._game_ops(entry).items():
                first.setdefault(key, len(ops))
        self._tails = self._last_entries(first)
        self._first_seen = set()
        for begin in range(0, len(todo), FLUSH_CHUNK):
            chunk = todo[begin:begin + FLUSH_CHUNK]
            before = self._checkpoint()
            try:
                self._send_chunk(chunk)
            except redis.ResponseError as exc:
                if not is_poison(exc):
                    raise
                if self._marker_at(chunk[-1]):
                    # Refused while running (WRONGTYPE): the rest of the chunk is in Redis.
                    self._set_aside(chunk, exc)
                    continue
                self._restore(before)
                self._send_one_by_one(chunk)
        touched = {}
        for key, (seq, _) in self._tails.items():
            game_id = self.keys.game_id_of(key)
            if game_id is not None:
                touched[game_id] = seq
        return touched

    def _checkpoint(self) -> tuple[Tails, set[str]]:
        return dict(self._tails), set(self._first_seen)

    def _restore(self, checkpoint: tuple[Tails, set[str]]) -> None:
        self._tails, self._first_seen = dict(checkpoint[0]), set(checkpoint[1])

    def _game_ops(self, entry: SpoolEntry) -> dict[str, list[dict[str, str]]]:
        """The entry's operations on each game log, in order."""
        found: dict[str, list[dict[str, str]]] = {}
        for command in entry.commands:
            game_op = self.keys.game_op(command)
            if game_op is not None:
                found.setdefault(game_op[0], []).append(game_op[1])
        return found

    def _send_chunk(self, chunk: list[SpoolEntry]) -> None:
        """One MULTI/EXEC: the chunk's commands (games renumbered) and how far the flush got."""
        pipe = self.client.pipeline(transaction=True)
        for entry in chunk:
            landed: set[str] = set()  # game logs this entry reached before its reply was lost
            for key, ops in self._game_ops(entry).items():
                if key not in self._first_seen:
                    self._first_seen.add(key)
                    if self._tails.get(key, (0, []))[1] == ops:
                        landed.add(key)
            for command in entry.commands:
                name, args = command["cmd"], list(command.get("args", ()))
                game_op = self.keys.game_op(command)
                if game_op is not None:
                    key, fields = game_op
                    if key in landed:
                        continue  # it reached Redis, only its answer was lost
                    seq = self._tails.get(key, (0, []))[0]
                    fields["seq"] = str(seq + 1)
                    self._tails[key] = (seq + 1, [fields])
                    args = [key, fields]
                getattr(pipe, name)(*args, **dict(command.get("kwargs", {})))
        if chunk[-1].epoch:
            pipe.set(self.keys.spool, _marker(chunk[-1]))
        pipe.execute()

    def _send_one_by_one(self, chunk: list[SpoolEntry]) -> None:
        """After an error reply no retry can cure: send each entry alone and set aside those
        Redis refuses."""
        for entry in chunk:
            before = self._checkpoint()
            try:
                self._send_chunk([entry])
            except redis.ResponseError as exc:
                if not is_poison(exc):
                    raise
                if not self._marker_at(entry):
                    self._restore(before)
                self._set_aside([entry], exc)

    def _marker_at(self, entry: SpoolEntry) -> bool:
        return bool(entry.epoch) and text(self.client.get(self.keys.spool) or "") == \
            _marker(entry)

    def _set_aside(self, entries: list[SpoolEntry], exc: BaseException) -> None:
        """Keep what Redis refused in the rejected file (logged) and go past it."""
        log.error("%s refuses a spooled write (%s): kept in %s", self.name,
                  describe_failure(exc), self.rejected)
        lines = "".join(json.dumps({**e.to_json(), "error": str(exc)}, separators=(",", ":"))
                        + "\n" for e in entries)
        try:
            with open(self.rejected, "a", encoding="utf-8") as file:
                file.write(lines)
        except OSError as error:
            log.error("cannot keep the refused write in %s (%s): %s", self.rejected,
                      error.strerror, lines)
        if entries[-1].epoch:
            self.client.set(self.keys.spool, _marker(entries[-1]))

    def _last_entries(self, counts: dict[str, int]) -> Tails:
        """Each game stream's last sequence number (its length if unnumbered) and its last
        ``counts[key]`` entries."""
        if not counts:
            return {}
        keys = sorted(counts)
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.xrevrange(key, count=max(1, counts[key]))
            pipe.xlen(key)
        replies = pipe.execute()
        found: Tails = {}
        for number, key in enumerate(keys):
            tail, length = stream_entries(replies[2 * number]), replies[2 * number + 1]
            if not tail:
                found[key] = (0, [])
                continue
            last = [{text(k): text(v) for k, v in fields.items()} for _, fields in reversed(tail)]
            if not isinstance(length, int):
                length = 0  # XLEN answers an integer
            seq = last[-1].get("seq", "")
            found[key] = (whole_number_or(seq, length), last)
        return found


def _marker(entry: SpoolEntry) -> str:
    """The ``…:spool`` marker saying the flush got as far as ``entry``."""
    return f"{entry.epoch}:{entry.n}"
