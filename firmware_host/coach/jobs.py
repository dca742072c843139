"""The analysis jobs: one Redis stream shared out by a consumer group.

A finished game becomes one entry of ``draughtsboard:coach:jobs`` (:func:`job_fields`): the
board, the game id, the variant, the start position and the moves, so a worker needs nothing
else of the board (it reads no game log: a board's ACL user reads only its own keys). Every
machine that analyses is a consumer of the group ``analysts`` under a name of its own (the
board id, or the worker's host), and :meth:`AnalysisQueue.take` gives it one job at a time:

1. its own pending jobs first (``XREADGROUP ... 0``): what it left when its board got busy or
   it stopped;
2. then a job another consumer left pending longer than ``claim_after_ms`` (``XAUTOCLAIM``):
   a board switched off mid-analysis, or busy for a whole game, loses nothing;
3. then a new one (``XREADGROUP ... >``, blocking up to ``block_ms``).

:meth:`AnalysisQueue.done` writes the result, acknowledges the job and deletes its entry in one
``MULTI``/``EXEC``: a crash cannot keep a result with its job still pending, nor lose one. A
job that cannot be done (a move that is not legal, a variant unknown, delivered more than
:data:`MAX_DELIVERIES` times without an answer) goes to ``draughtsboard:coach:failed`` with the
reason (:meth:`AnalysisQueue.fail`), acknowledged and deleted the same way.

Example (fakeredis; a real Redis in tests/firmware_host/coach/):
    >>> import fakeredis
    >>> from firmware_host.store.records import GameRecord, MoveRecord
    >>> client = fakeredis.FakeRedis()
    >>> game = GameRecord("g1", "b1", {}, "russian", None, "play", 0.0,
    ...                   [MoveRecord(1, "c3-d4", "", 0.0)], "1-0")
    >>> queue = AnalysisQueue(client, "b1")
    >>> queue.submit(game) is not None
    True
    >>> job = queue.take(block_ms=0)
    >>> job.board, job.game, job.moves, job.deliveries
    ('b1', 'g1', ('c3-d4',), 1)
    >>> queue.done(job, "{}")
    >>> queue.take(block_ms=0) is None, client.get("draughtsboard:coach:analysis:b1:g1")
    (True, b'{}')
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Final

import redis

from engine import Board, DraughtsError, find_variant
from firmware_host.errors import DraughtsboardError
from firmware_host.store.client import text
from firmware_host.store.keys import COACH_FAILED, COACH_JOBS, analysis_key, board_id_problem
from firmware_host.store.pdnrender import game_headers
from firmware_host.store.records import GameRecord
from firmware_host.store.replies import items, pairs

__all__ = ["CLAIM_AFTER_MS", "FAILED_MAXLEN", "GROUP", "MAX_DELIVERIES", "AnalysisQueue", "Job",
           "JobError", "job_fields", "parse_job"]

log = logging.getLogger(__name__)

#: The consumer group of every machine that analyses.
GROUP: Final = "analysts"
#: A job delivered this many times without an answer (its worker died each time) is given up.
MAX_DELIVERIES: Final = 5
#: A job pending this long with another consumer is taken over (ms): longer than a game's
#: analysis on a Pi (about a minute at depth 8, docs/coach.md#measured), shorter than a game.
CLAIM_AFTER_MS: Final = 10 * 60 * 1000
#: The failed jobs kept (the oldest go first).
FAILED_MAXLEN: Final = 1000
#: The most moves a job may carry.
MAX_MOVES: Final = 2000
#: The most PDN tags a job may carry.
MAX_TAGS: Final = 40


class JobError(DraughtsboardError, ValueError):
    """A job that cannot be done: the message says why (it goes to the failed stream)."""


@dataclass(frozen=True)
class Job:
    """One finished game to analyse: the stream entry's ``id``, whose game, its variant, start
    position (None: the variant's) and moves (PDN texts), and how often it was delivered."""

    id: str
    board: str
    game: str
    variant: str
    start_fen: str | None
    moves: tuple[str, ...]
    deliveries: int = 1
    #: The game's PDN tags as its PDN file has them (the players, the date): whose mistakes
    #: they are. Empty: a job written before jobs carried them (analysed, nobody's book).
    tags: tuple[tuple[str, str], ...] = ()

    def fields(self) -> dict[str, str]:
        """The job's stream entry (:func:`parse_job` reads it back).

        >>> job = Job("1-0", "b1", "g1", "russian", None, ("c3-d4",), tags=(("White", "Ann"),))
        >>> parse_job(job.id, job.fields(), 1) == job
        True
        """
        return {"board": self.board, "game": self.game, "variant": self.variant,
                "fen": self.start_fen or "", "moves": json.dumps(list(self.moves)),
                "tags": json.dumps(dict(self.tags), ensure_ascii=False)}

    def replay(self) -> Board:
        """The game on a board's move stack.

        Raises:
            JobError: an unknown variant, a bad FEN, a move not legal where it is played.
        """
        try:
            board = Board(find_variant(self.variant), fen=self.start_fen)
            for number, move in enumerate(self.moves, start=1):
                try:
                    board.push(board.parse_move(move))
                except (DraughtsError, ValueError) as exc:
                    raise JobError(f"move {number} {move!r}: {exc}") from None
        except (DraughtsError, ValueError) as exc:
            raise JobError(str(exc)) from None
        return board


def job_fields(game: GameRecord) -> dict[str, str]:
    """The stream entry of a finished game's job.

    >>> game = GameRecord("g1", "b1", {"White": "Ann"}, "russian", None, "play", 0.0)
    >>> fields = job_fields(game)
    >>> {k: fields[k] for k in ("board", "game", "variant", "fen", "moves")}
    {'board': 'b1', 'game': 'g1', 'variant': 'russian', 'fen': '', 'moves': '[]'}
    >>> json.loads(fields["tags"])["White"], json.loads(fields["tags"])["GameId"]
    ('Ann', 'g1')
    """
    return {"board": game.board_id, "game": game.game_id, "variant": game.variant,
            "fen": game.start_fen or "", "moves": json.dumps([m.pdn for m in game.moves]),
            "tags": json.dumps(game_headers(game), ensure_ascii=False)}


def _tags(raw: str) -> tuple[tuple[str, str], ...]:
    """A job's PDN tags, checked (absent: none).

    Raises:
        JobError: not an object of at most :data:`MAX_TAGS` short texts.
    """
    if not raw:
        return ()
    try:
        tags = json.loads(raw)
    except ValueError:
        raise JobError("tags: not JSON") from None
    if not isinstance(tags, dict) or len(tags) > MAX_TAGS or not all(
            isinstance(k, str) and isinstance(v, str) and 0 < len(k) <= 40 and len(v) <= 200
            for k, v in tags.items()):
        raise JobError(f"tags: not an object of at most {MAX_TAGS} PDN tags")
    return tuple(tags.items())


def parse_job(entry_id: str, fields: object, deliveries: int) -> Job:
    """A job from its stream entry.

    Raises:
        JobError: a field missing or out of shape.
    """
    if not isinstance(fields, dict):
        raise JobError("the entry has no fields")
    found = {text(k): text(v) for k, v in fields.items()}
    board, game = found.get("board", ""), found.get("game", "")
    if board_id_problem(board) is not None or board_id_problem(game) is not None:
        raise JobError(f"board {board[:40]!r} or game {game[:40]!r} is no id")
    try:
        moves = json.loads(found.get("moves", ""))
    except ValueError:
        raise JobError("moves: not JSON") from None
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(
            isinstance(m, str) and 0 < len(m) <= 100 for m in moves):
        raise JobError(f"moves: not a list of at most {MAX_MOVES} move texts")
    fen = found.get("fen", "")
    return Job(entry_id, board, game, found.get("variant", "")[:40], fen or None, tuple(moves),
               deliveries, _tags(found.get("tags", "")))


class AnalysisQueue:
    """The jobs stream as one consumer ``consumer`` of the group :data:`GROUP` sees it.

    ``client`` is a Redis client of its own (a blocking read holds its connection). Every
    method raises what the client raises when Redis fails (``redis.RedisError``): the caller
    waits and tries again.
    """

    def __init__(self, client: redis.Redis, consumer: str,
                 claim_after_ms: int = CLAIM_AFTER_MS) -> None:
        self.client = client
        self.consumer = consumer
        self.claim_after_ms = claim_after_ms
        self._group_made = False

    def submit(self, game: GameRecord) -> str:
        """Queue a finished game; return the job's id."""
        return text(self.client.xadd(COACH_JOBS, job_fields(game)))  # type: ignore[arg-type]

    def _ensure_group(self) -> None:
        if self._group_made:
            return
        try:
            self.client.xgroup_create(COACH_JOBS, GROUP, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self._group_made = True

    def take(self, block_ms: int) -> Job | None:
        """The next job for this consumer (its own pending, a stale one, a new one), or None
        when none came within ``block_ms`` (0: do not wait).

        A job whose entry is unreadable is given up at once (:meth:`fail`); one whose entry
        was deleted meanwhile (another worker did it) is acknowledged and skipped.
        """
        self._ensure_group()
        for _ in range(100):  # every round either returns or acknowledges an entry
            entry = self._own_pending() or self._stale()
            if entry is None:
                entry = self._new(block_ms)
                if entry is None:
                    return None
            entry_id, fields = entry
            if not fields:  # deleted after it was delivered: done elsewhere
                self.client.xack(COACH_JOBS, GROUP, entry_id)
                continue
            deliveries = self._deliveries(entry_id)
            try:
                job = parse_job(entry_id, fields, deliveries)
            except JobError as exc:
                self._give_up(entry_id, fields, str(exc))
                continue
            if deliveries > MAX_DELIVERIES:
                self.fail(job, f"delivered {deliveries} times without an answer")
                continue
            return job
        return None

    def _own_pending(self) -> tuple[str, object] | None:
        reply = self.client.xreadgroup(GROUP, self.consumer, {COACH_JOBS: "0"}, count=1)
        return _first(reply)

    def _stale(self) -> tuple[str, object] | None:
        reply = self.client.xautoclaim(COACH_JOBS, GROUP, self.consumer, self.claim_after_ms,
                                       start_id="0-0", count=1)
        claimed = items(reply)
        entries = pairs(claimed[1]) if len(claimed) > 1 else []
        return (text(entries[0][0]), entries[0][1]) if entries else None

    def _new(self, block_ms: int) -> tuple[str, object] | None:
        reply = self.client.xreadgroup(GROUP, self.consumer, {COACH_JOBS: ">"}, count=1,
                                       block=block_ms or None)
        return _first(reply)

    def _deliveries(self, entry_id: str) -> int:
        reply = self.client.xpending_range(COACH_JOBS, GROUP, min=entry_id, max=entry_id,
                                           count=1)
        for row in items(reply):
            if isinstance(row, dict):
                count = row.get("times_delivered")
                if isinstance(count, int):
                    return count
        return 1

    def done(self, job: Job, result: str) -> None:
        """Keep ``result`` (the analysis JSON) as the game's analysis, and the job is done:
        one MULTI/EXEC."""
        with self.client.pipeline(transaction=True) as pipe:
            pipe.set(analysis_key(job.board, job.game), result)
            pipe.xack(COACH_JOBS, GROUP, job.id)
            pipe.xdel(COACH_JOBS, job.id)
            pipe.execute()

    def fail(self, job: Job, reason: str) -> None:
        """Give the job up: kept with ``reason`` in the failed stream (logged once)."""
        self._give_up(job.id, {"board": job.board, "game": job.game}, reason)

    def _give_up(self, entry_id: str, fields: object, reason: str) -> None:
        shown = {text(k): text(v)[:80] for k, v in fields.items()} \
            if isinstance(fields, dict) else {}
        log.warning("coach: job %s (board %s, game %s) given up: %s", entry_id,
                    shown.get("board", "?"), shown.get("game", "?"), reason)
        with self.client.pipeline(transaction=True) as pipe:
            pipe.xadd(COACH_FAILED, {"job": entry_id, "board": shown.get("board", ""),
                                     "game": shown.get("game", ""), "worker": self.consumer,
                                     "reason": reason[:300]},
                      maxlen=FAILED_MAXLEN, approximate=True)
            pipe.xack(COACH_JOBS, GROUP, entry_id)
            pipe.xdel(COACH_JOBS, entry_id)
            pipe.execute()

    def waiting(self) -> tuple[int, int]:
        """How many jobs the stream holds, and how many of them a worker has taken."""
        self._ensure_group()
        length = self.client.xlen(COACH_JOBS)
        summary = self.client.xpending(COACH_JOBS, GROUP)
        pending = summary.get("pending", 0) if isinstance(summary, dict) else 0
        return (length if isinstance(length, int) else 0,
                pending if isinstance(pending, int) else 0)


def _first(reply: object) -> tuple[str, object] | None:
    """The first entry of an ``XREADGROUP`` reply of one stream, or None."""
    for stream in items(reply):
        if isinstance(stream, list | tuple) and len(stream) == 2:
            entries = items(stream[1])
            if entries:
                first = entries[0]
                if isinstance(first, list | tuple) and len(first) == 2:
                    return text(first[0]), first[1]
    return None
