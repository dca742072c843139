"""The live feed: Server-Sent Events fed by ``XREAD BLOCK`` on the boards' event streams.

A feed follows a set of boards (one board page, or the whole hall). Its cursor is the last
stream id it delivered per board; every SSE message carries the whole cursor as its ``id``
(``board1=1764590000000-0,board2=...``), so a browser that reconnects sends it back as
``Last-Event-ID`` and the feed resumes after exactly what it delivered: nothing is missed, nothing
repeated. Boards that appear while a feed is open are followed from their first event.

>>> parse_cursor("b1=1-0,b2=5-3")
{'b1': '1-0', 'b2': '5-3'}
>>> format_cursor({"b1": "1-0", "b2": "5-3"})
'b1=1-0,b2=5-3'
>>> parse_cursor("garbage,b3=x")
{}
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

from redis.asyncio import Redis

from firmware_host.web.reader import SPOKEN, Reader, decode_entry, events_key

__all__ = ["LIVE_EVENTS", "follow", "format_cursor", "parse_cursor", "sse"]

#: How long one XREAD BLOCK waits (ms); a comment line keeps the connection alive after it.
BLOCK_MS = 15_000
#: A hall feed looks for new boards at least this often (ms).
NEW_BOARD_MS = 2_000
#: Events a page redraws on (the LED frames too: the board page draws them).
LIVE_EVENTS = SPOKEN | {"new_game", "synced", "state", "move", "leds", "touch"}
_ID = re.compile(r"\d{1,20}-\d{1,20}")
_BOARD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")


def parse_cursor(text: str) -> dict[str, str]:
    """The cursor of a ``Last-Event-ID``; anything malformed in it is ignored."""
    out = {}
    for part in text.split(",")[:1000]:
        board, sep, entry = part.partition("=")
        if sep and _BOARD.fullmatch(board) and _ID.fullmatch(entry):
            out[board] = entry
    return out


def format_cursor(cursor: Mapping[str, str]) -> str:
    """The ``id`` of an SSE message: every board's last delivered stream id."""
    return ",".join(f"{board}={entry}" for board, entry in sorted(cursor.items()))


def sse(event: str, data: object, event_id: str | None = None) -> bytes:
    """One Server-Sent Events message."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.extend(f"data: {line}" for line in json.dumps(data).splitlines())
    return ("\n".join(lines) + "\n\n").encode()


async def follow(client: Redis, cursor: dict[str, str], boards: list[str] | None,
                 block_ms: int = BLOCK_MS) -> AsyncIterator[list[tuple[str, dict[str, Any]]]]:
    """Yield the live events after ``cursor`` as they come, one batch per XREAD reply.

    Each batch is a list of ``(board, message)``, oldest first; ``cursor`` is updated past it
    before it is yielded. ``boards``: the boards to follow (None: every board, new ones
    included). An empty batch is yielded after a quiet ``block_ms`` (time for a keep-alive).
    Runs until the caller stops iterating.
    """
    reader = Reader(client)
    while True:
        if boards is None:
            for board in await reader.boards():
                cursor.setdefault(board, "0-0")
        wanted: dict[Any, Any] = {events_key(b): cursor.get(b, "0-0")
                                  for b in (boards or list(cursor))}
        if not wanted:  # no board yet: look again in a second
            await asyncio.sleep(1.0)
            yield []
            continue
        block = block_ms if boards is not None else min(block_ms, NEW_BOARD_MS)
        reply: Any = await client.xread(wanted, block=block, count=500)
        batch = []
        for key, entries in reply or ():
            board = (key.decode() if isinstance(key, bytes) else str(key)).split(":")[1]
            for entry in entries:
                entry_id, message = decode_entry(entry)
                cursor[board] = entry_id
                if message is not None and message.get("event") in LIVE_EVENTS:
                    batch.append((board, message))
        yield batch
