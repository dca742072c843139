"""The hall's pause: a state kept in Redis, not only a command sent to the boards.

The arbiter's *Pause all clocks* (a fire alarm, a break) writes ``draughtsboard:hall`` (JSON:
``paused``, ``since`` Unix time, ``decision`` the audit entry's id, ``reason``) and sends a
``hall`` command to every board online; *Resume all clocks* deletes it and sends ``hall``
``resume``. Each board reads the key as its command reader starts and whenever Redis answers
again after a fault (:mod:`firmware_host.remote.reader`), so a board powered off, restarted
or cut off during the pause comes back paused, its clock as it was saved, and a board that was
away during the resume comes back running.

>>> HallState.from_json(b'{"paused": true, "since": 1795977005.0, "reason": "fire alarm"}')
HallState(paused=True, since=1795977005.0, decision='', reason='fire alarm')
>>> HallState.from_json(None), HallState.from_json(b"not json").paused
(HallState(paused=False, since=None, decision='', reason=''), True)
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass

import redis
from redis.asyncio import Redis as AsyncRedis

from firmware_host.store.keys import HALL

__all__ = ["HALL", "HallState", "clear_hall", "hall_state", "read_hall", "store_hall"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HallState:
    """The hall's pause: ``paused`` since ``since`` (Unix time), by the audit entry
    ``decision``, for ``reason``."""

    paused: bool
    since: float | None = None
    decision: str = ""
    reason: str = ""

    @classmethod
    def from_json(cls, raw: object) -> HallState:
        """The state a value of the key says (absent: the clocks run). A value that cannot be
        read says paused: the safe side, until the arbiter resumes (which deletes it)."""
        if raw is None:
            return cls(False)
        try:
            data = json.loads(raw.decode() if isinstance(raw, bytes) else str(raw))
        except (ValueError, UnicodeDecodeError):
            log.warning("hall: %s is not JSON: the hall counts as paused", HALL)
            return cls(True)
        if not isinstance(data, dict):
            return cls(True)
        since = data.get("since")
        return cls(bool(data.get("paused", True)),
                   float(since) if isinstance(since, int | float)
                   and not isinstance(since, bool) else None,
                   str(data.get("decision", ""))[:40], str(data.get("reason", ""))[:80])

    def to_json(self) -> str:
        """The key's value."""
        return json.dumps(asdict(self), sort_keys=True)


def read_hall(client: redis.Redis) -> HallState:
    """The hall's pause (a board's reader, synchronous).

    Raises:
        redis.RedisError: Redis cannot be read.
    """
    raw: object = client.get(HALL)
    return HallState.from_json(raw)


async def hall_state(client: AsyncRedis) -> HallState:
    """The hall's pause (the web service)."""
    raw: object = await client.get(HALL)
    return HallState.from_json(raw)


async def store_hall(client: AsyncRedis, state: HallState) -> None:
    """Keep ``state`` as the hall's (the pause begins)."""
    await client.set(HALL, state.to_json())


async def clear_hall(client: AsyncRedis) -> None:
    """The pause ends: the clocks run."""
    await client.delete(HALL)
