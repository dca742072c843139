"""Whether a board's service is running: its heartbeat key, read by the web app.

Each board service keeps ``draughtsboard:<board id>:alive`` (a string of JSON: ``time``, Unix
seconds; ``state``, ``running`` or ``stopped``; ``pid``), refreshed every 5 s off its scan thread
and written once as ``stopped`` at a clean stop (docs/events.md). A board is **offline** when the
key is missing, says ``stopped``, or is older than :data:`OFFLINE_AFTER_S`; "last seen" is its
``time``.

>>> of(b'{"time": 100.0, "state": "running", "pid": 7}', now=110.0).online
True
>>> of(b'{"time": 100.0, "state": "running", "pid": 7}', now=116.0).online
False
>>> of(b'{"time": 100.0, "state": "stopped", "pid": 7}', now=101.0).online
False
>>> of(None, now=1.0), of(b"not json", now=1.0).seen
(Liveness(online=False, seen=None), None)
>>> of(b'{"time": 1e20, "state": "running"}', 1.0), of(b'{"time": ' + b"9" * 400 + b'}', 1.0)
(Liveness(online=False, seen=None), Liveness(online=False, seen=None))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from firmware_host.i18n import N_
from firmware_host.store.keepalive import OFFLINE_AFTER_S, heard
from firmware_host.store.keys import BoardKeys

__all__ = ["ALIVE_BYTES", "OFFLINE_AFTER_S", "Liveness", "alive_key", "of", "read"]

#: The words of "last seen" (the page's and the feed's, in the viewer's language).
LAST_SEEN = N_("last seen {time}")
NEVER_SEEN = N_("never seen")

#: A heartbeat is a few dozen bytes: no more is read of the key.
ALIVE_BYTES = 1024


def alive_key(board_id: str) -> str:
    """The board's heartbeat key."""
    return BoardKeys(board_id).alive


@dataclass(frozen=True)
class Liveness:
    """A board's liveness: ``seen`` is the Unix time of its last heartbeat (None: never)."""

    online: bool
    seen: float | None

    @property
    def seen_text(self) -> str:
        """When it was last seen, in words (UTC): ``last seen 14:05:09``, ``never seen``.

        >>> Liveness(False, 1795977005.0).seen_text, Liveness(False, None).seen_text
        ('last seen 2026-11-29 18:30:05 UTC', 'never seen')
        """
        if self.seen is None:
            return "never seen"
        return "last seen " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.seen))

    def seen_in(self, gettext: Callable[[str], str]) -> str:
        """:attr:`seen_text` in a viewer's language (``gettext`` its translator's).

        >>> from firmware_host.i18n import translator
        >>> Liveness(False, None).seen_in(translator("ja").gettext)
        '未接続'
        """
        if self.seen is None:
            return gettext(NEVER_SEEN)
        return gettext(LAST_SEEN).format(
            time=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.seen)))

    @property
    def words(self) -> str:
        """``online``, or ``offline, last seen ...``."""
        return "online" if self.online else f"offline, {self.seen_text}"

    def as_json(self) -> dict[str, object]:
        """What the live feed sends: ``{"online": ..., "seen": ..., "seen_text": ...}``."""
        return {"online": self.online, "seen": self.seen, "seen_text": self.seen_text}


def of(raw: object, now: float) -> Liveness:
    """The liveness that the heartbeat key's value ``raw`` (bytes, str or None) says at
    ``now``; anything unreadable counts as no heartbeat (:func:`~firmware_host.store.
    keepalive.heard`)."""
    return Liveness(*heard(raw, now))


async def read(client: Redis, board_ids: Sequence[str], now: float) -> dict[str, Liveness]:
    """Every board's liveness at ``now``, in one round trip (at most :data:`ALIVE_BYTES` of
    each heartbeat: a longer one is no heartbeat, a key of another type none either)."""
    if not board_ids:
        return {}
    pipe = client.pipeline(transaction=False)
    for board in board_ids:
        pipe.getrange(alive_key(board), 0, ALIVE_BYTES)
    values = await pipe.execute(raise_on_error=False)
    for value in values:
        if isinstance(value, Exception) and not isinstance(value, ResponseError):
            raise value
    return {b: of(None if isinstance(v, Exception) or len(v or b"") > ALIVE_BYTES else v, now)
            for b, v in zip(board_ids, values, strict=True)}
