"""The old live feed's bytes, for bench/web.py to print beside the new feed's.

Until the feed sent what changed (small JSON), every message carried the board's whole hall
card or board panel as HTML, the batch's events, and as its id the cursor of every board the
feed followed (about 14 KB a message). :class:`OldFeed` draws that message for a batch the new
feed delivered, at the same moment, with the same templates and the same Redis: so the two
figures are measured in the same run.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from redis.asyncio import Redis

from firmware_host.web import liveness
from firmware_host.web.feed import LIVE_EVENTS, format_cursor, parse_cursor
from firmware_host.web.reader import CARD_RECENT, RECENT, Reader, events_key
from firmware_host.web.views import Views


def old_sse(data: object, event_id: str) -> bytes:
    """An SSE message as the old feed wrote it (``json.dumps`` with its default spacing)."""
    lines = ["event: board", f"id: {event_id}"]
    lines.extend(f"data: {line}" for line in json.dumps(data).splitlines())
    return ("\n".join(lines) + "\n\n").encode()


class OldFeed:
    """The old feed's messages for the batches a new feed delivered (``hall``: the hall's)."""

    def __init__(self, redis_url: str, hall: bool) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = Redis.from_url(redis_url)
        self.reader = Reader(self.client)
        self.views = Views()
        self.hall = hall
        self.cursor: dict[str, str] = {}
        self.bytes = self.moves = self.messages = 0
        if hall:
            self.cursor = self.loop.run_until_complete(self._cursor())

    async def _cursor(self) -> dict[str, str]:
        return await self.reader.last_ids(await self.reader.boards())

    def add(self, board: str, event_id: str, moves: int) -> None:
        """The new feed delivered ``board``'s batch up to ``event_id`` (``moves`` moves)."""
        entry = parse_cursor(event_id).get(board)
        previous = self.cursor.get(board)
        if entry is None:
            return
        self.cursor[board] = entry
        if previous is not None and previous != entry:
            self.loop.run_until_complete(self._add(board, previous, entry, moves))

    async def _add(self, board: str, previous: str, entry: str, moves: int) -> None:
        entries: Any = await self.client.xrange(events_key(board), "(" + previous, entry)
        events = [m for _, m in self.reader.events(board, entries)
                  if m.get("event") in LIVE_EVENTS and m.get("event") != "leds"]
        view = await self.reader.board(board, CARD_RECENT if self.hall else RECENT)
        alive = liveness.of(await self.client.get(liveness.alive_key(board)), time.time())
        html = self.views.card(view, alive) if self.hall else self.views.panel(view, alive)
        data = {"board": board, "events": events, "card" if self.hall else "panel": html}
        self.bytes += len(old_sse(data, format_cursor(self.cursor)))
        self.moves += moves
        self.messages += 1
