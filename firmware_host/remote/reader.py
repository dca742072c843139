"""The board's remote: commands from the web app, read from Redis into the session's queue.

The web service adds each command to the board's stream ``draughtsboard:<board>:commands``
(fields ``name``, and as the command needs them ``side``, ``value``, ``tag``, plus ``time``, the
Unix time it was sent). :class:`CommandReader` is one named thread doing ``XREAD BLOCK`` on that
stream; every entry is checked at the edge (:func:`parse_command`) and posted through
``Controller.post`` as a :class:`~firmware_host.terms.commands.Command`: the same path as a button
press, so the same rules apply and the LEDs answer. What the session made of it is published on
the board's event feed (``settings``, ``command_refused``, ``hint``, ...).

Entries already in the stream when the reader starts are not carried out (a command sent while
the board was off is stale), nor are entries older than :data:`MAX_AGE` seconds, nor entries
without a ``time`` or dated more than :data:`MAX_SKEW` seconds ahead (a forged entry cannot skip
the staleness rule). An arbiter's decision carries its audit entry's ``id`` (the board answers
it: an ``answer`` event) and ``until``, the Unix time after which the console no longer waits
for the answer: read later, it is not carried out, so a decision the console reported as
unanswered never happens behind its back.

The hall's pause is a state in Redis (:mod:`firmware_host.tournament.hall`), not only a
command: the reader reads it as it starts and again whenever Redis answers after a fault, and
posts it as a ``hall`` command, so a board that starts, or comes back, during a pause is
paused. Whoever can write to the stream controls the board within these checks:
docs/security.md. A key of the wrong type or an error reply is one clear line in the log, and
the reader keeps trying: it never stops taking commands silently.

>>> parse_command({b"name": b"hint", b"time": b"100"}, now=101.0)
('hint', None, None, None)
>>> parse_command({b"name": b"format"}, now=0.0)
Traceback (most recent call last):
...
ValueError: unknown command 'format'
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections.abc import Callable, Mapping

import redis

from firmware_host.game.types import SessionEvent
from firmware_host.store.client import text
from firmware_host.store.keys import BoardKeys
from firmware_host.store.replies import newest_id, pairs
from firmware_host.terms.commands import (
    BOARD_ONLY,
    HEADER_TAGS,
    MAX_HEADER_LENGTH,
    MAX_POSITION_LENGTH,
    SIDES,
    Command,
    CommandName,
    is_command,
)
from firmware_host.tournament.hall import read_hall

__all__ = ["MAX_AGE", "MAX_SKEW", "CommandReader", "commands_key", "decision_id",
           "parse_command"]

log = logging.getLogger(__name__)

#: A command older than this (seconds, by its ``time`` field) is dropped as stale.
MAX_AGE = 30.0
#: How far ahead of the board's clock a command may be dated (the web host's clock may differ a
#: little); later than that it is refused.
MAX_SKEW = 5.0
#: How long one XREAD waits (ms): bounds how long :meth:`CommandReader.close` takes.
BLOCK_MS = 250

Parsed = tuple[str, str | None, str | None, str | None]
#: An audit entry's id, as a command carries it.
_DECISION_ID = re.compile(r"\d{1,20}")  # its place in the audit log


def commands_key(board_id: str) -> str:
    """The board's command stream: ``draughtsboard:<board>:commands``."""
    return BoardKeys(board_id).commands


def _text(fields: Mapping[bytes, bytes], key: str, limit: int = MAX_HEADER_LENGTH
          ) -> str | None:
    raw = fields.get(key.encode())
    if raw is None:
        return None
    text = raw.decode("utf-8", errors="strict")
    if len(text) > limit or not text.isprintable():
        raise ValueError(f"field {key} is too long or not printable")
    return text


def parse_command(fields: Mapping[bytes, bytes], now: float) -> Parsed:
    """``(name, side, value, tag)`` of a command stream entry, checked.

    Raises:
        ValueError: an unknown command, a bad side or tag, a value too long, no time, a stale
            or future-dated entry.
    """
    try:
        name = _text(fields, "name") or ""
        # (a position to set up is longer than a name: a FEN, or a PDN game on one line)
        limit = MAX_POSITION_LENGTH if name == CommandName.SETUP.value else MAX_HEADER_LENGTH
        side, value, tag = (_text(fields, "side"), _text(fields, "value", limit),
                            _text(fields, "tag"))
        sent = _text(fields, "time")
    except UnicodeDecodeError:
        raise ValueError("a field is not UTF-8") from None
    if not is_command(name):
        raise ValueError(f"unknown command {name!r}")
    if name in BOARD_ONLY:
        raise ValueError(f"{name!r} comes from the board itself, not from its command stream")
    if side is not None and side not in SIDES:
        raise ValueError(f"bad side {side!r}")
    if name == CommandName.HEADER.value and tag not in HEADER_TAGS:
        raise ValueError(f"bad tag {tag!r}")
    if sent is None:
        raise ValueError("no time: a command says when it was sent")
    try:
        stamp = float(sent)
    except ValueError:
        raise ValueError(f"bad time {sent!r}") from None
    if not math.isfinite(stamp):
        raise ValueError(f"bad time {sent!r}")
    age = now - stamp
    if age > MAX_AGE:
        raise ValueError(f"stale: sent {age:.0f} s ago")
    if age < -MAX_SKEW:
        raise ValueError(f"dated {-age:.0f} s in the future")
    until = _text(fields, "until")
    if until is not None:
        try:
            deadline = float(until)
        except ValueError:
            raise ValueError(f"bad until {until!r}") from None
        if not math.isfinite(deadline) or now > deadline:
            raise ValueError("expired: the console no longer waits for its answer")
    return name, side, value, tag


def decision_id(fields: Mapping[bytes, bytes]) -> str | None:
    """The arbiter's decision a command entry carries out (its audit id), if any.

    >>> decision_id({b"id": b"1207"}), decision_id({b"id": b"x" * 99})
    ('1207', None)
    """
    raw = fields.get(b"id")
    try:
        text = raw.decode("ascii") if isinstance(raw, bytes) else None
    except UnicodeDecodeError:
        return None
    return text if text is not None and _DECISION_ID.fullmatch(text) else None


class CommandReader:
    """A named thread reading one board's command stream into ``post``.

    Args:
        client: the Redis client (its socket timeout must exceed :data:`BLOCK_MS`).
        board_id: the board.
        post: ``Controller.post``.
        monotonic: the controller's clock (the ``at`` of the commands).
        wall_clock: Unix time, to drop stale entries.
    """

    def __init__(self, client: redis.Redis, board_id: str,
                 post: Callable[[SessionEvent], None], monotonic: Callable[[], float],
                 wall_clock: Callable[[], float] = time.time) -> None:
        self._client = client
        self._key = commands_key(board_id)
        #: Whether the hall is paused, as last posted (None: not read yet).
        self._hall: bool | None = None
        self._post = post
        self._monotonic = monotonic
        self._wall_clock = wall_clock
        self._stop = threading.Event()
        self._posted = threading.Condition()
        self.posted = 0
        self._last_id = "$"
        self._thread = threading.Thread(target=self._run, name=f"remote-{board_id}",
                                        daemon=True)

    def start(self) -> CommandReader:
        """Start reading (from the entries added from now on), once the hall's pause is read
        and posted."""
        self._last_id = self._newest_id()
        self._read_hall()
        self._thread.start()
        return self

    def _read_hall(self) -> None:
        """Post the hall's pause as Redis has it (a ``hall`` command), when it is not the one
        posted last (Redis away: tried again once it answers)."""
        try:
            paused = read_hall(self._client).paused
        except redis.exceptions.NoPermissionError:
            if self._hall is None:  # said once: the hall's pause then reaches it as a command
                log.warning("cannot read the hall's pause (an ACL file of an earlier version: "
                            "run `python -m firmware_host.store.acl` again, docs/security.md)")
                self._hall = False
            return
        except redis.RedisError:
            return
        if paused != self._hall:
            self._hall = paused
            self._post(Command(CommandName.HALL.value, self._monotonic(),
                               value="pause" if paused else "resume"))

    def _newest_id(self) -> str:
        try:
            newest: object = self._client.xrevrange(self._key, count=1)
        except redis.RedisError:
            return "$"  # Redis away: from whatever comes once it is back
        return newest_id(newest)

    def _run(self) -> None:
        trouble = ""  # the fault last logged ("" while reading works)
        while not self._stop.is_set():
            try:
                if self._last_id == "$":
                    self._last_id = newest_id(self._client.xrevrange(self._key, count=1))
                reply: object = self._client.xread({self._key: self._last_id}, block=BLOCK_MS)
                if trouble:
                    log.info("remote commands: reading %s again", self._key)
                    trouble = ""
                    self._read_hall()  # it may have changed while Redis was away
                for _key, entries in pairs(reply):
                    for entry_id, fields in pairs(entries):
                        self._last_id = text(entry_id)
                        if isinstance(fields, dict):  # (a reply of another shape is skipped)
                            self._handle(fields)
            except Exception as exc:  # the reader never dies: one line, then it retries
                fault = _fault(self._key, exc)
                if fault != trouble:
                    log.warning("remote commands: %s: retrying every second", fault)
                    trouble = fault
                self._stop.wait(1.0)

    def _handle(self, fields: Mapping[bytes, bytes]) -> None:
        try:
            name, side, value, tag = parse_command(fields, self._wall_clock())
        except (ValueError, AttributeError, TypeError) as exc:
            log.warning("remote command refused: %s", str(exc)[:200])
            return
        log.info("remote command %s", name)
        if name == CommandName.HALL.value:
            self._hall = value == "pause"
        self._post(Command(name, self._monotonic(), side=side, value=value, tag=tag,
                           id=decision_id(fields)))
        with self._posted:
            self.posted += 1
            self._posted.notify_all()

    def wait_posted(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` commands have been posted in all; False on timeout."""
        with self._posted:
            return self._posted.wait_for(lambda: self.posted >= count, timeout)

    def close(self) -> None:
        """Stop the thread (idempotent)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2 * BLOCK_MS / 1000 + 2)

    def __enter__(self) -> CommandReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fault(key: str, exc: Exception) -> str:
    """One line saying what stops the reader now (the key named when Redis refuses it)."""
    if isinstance(exc, redis.ResponseError):  # WRONGTYPE and other error replies
        return f"Redis refuses to read {key}: {str(exc)[:200]}"
    if isinstance(exc, redis.RedisError):
        return f"Redis unreachable ({type(exc).__name__})"
    return f"unexpected {type(exc).__name__} reading {key}: {str(exc)[:200]}"
