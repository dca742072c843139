"""A feed opened as the shared reader starts misses nothing: the reader took its place in the
streams after the feed's catch-up, and an event written between the two never reached the
feed (a board page waited for ever: a CI run's ``test_a_board_feed_survives_a_bad_event``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import redis
from redis.asyncio import Redis

from firmware_host.store.keys import BoardKeys
from firmware_host.web.fanout import FanOut
from tests.redis_server import RedisServer
from tests.security.records import add_event, seed_board


async def _card(board: str) -> str:
    return f"<p>{board}</p>"


async def _scenario(url: str) -> list[str]:
    sync = redis.Redis.from_url(url)
    seed_board(sync, "b1")
    cursor = sync.xrevrange(BoardKeys("b1").events, count=1)[0][0].decode()
    client = Redis.from_url(url)
    hub = FanOut(client, _card, _card, block_ms=200, alive_every_s=0.2)
    # The reader's first look at the streams waits until the test has written its event:
    # the order a loaded machine can take.
    reached, written = asyncio.Event(), asyncio.Event()
    last_ids = hub.reader.last_ids

    async def gated(board_ids: Sequence[str]) -> dict[str, str]:
        if board_ids:
            reached.set()
            await written.wait()
        return await last_ids(board_ids)

    hub.reader.last_ids = gated  # type: ignore[method-assign]
    opened: asyncio.Queue[object] = asyncio.Queue()

    async def page() -> list[str]:
        async with hub.open("b1", {"b1": cursor}) as feed:
            opened.put_nowait(feed)
            seen: list[str] = []
            async for chunk in hub.chunks(feed, 0.2):
                seen.append(chunk.decode())
                if "engine_thinking" in chunk.decode():
                    return seen
        return seen

    reading = asyncio.create_task(page())
    # Whichever comes first: the reader's first look, or the page's feed open.
    waits = {asyncio.create_task(reached.wait()), asyncio.create_task(opened.get())}
    _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    add_event(sync, "b1", {"event": "state", "state": "engine_thinking"})
    written.set()
    try:
        # A bound on a hang, not a measure: the event is read within one XREAD.
        async with asyncio.timeout(30):
            return await reading
    except TimeoutError:
        return []
    finally:
        reading.cancel()
        await hub.close()
        await client.aclose()
        sync.close()


def test_an_event_written_as_the_reader_starts_reaches_the_feed(redis_server: RedisServer
                                                                ) -> None:
    redis.Redis.from_url(redis_server.url).flushall()
    seen = asyncio.run(_scenario(redis_server.url))
    assert any(json.loads(line[len("data: "):]).get("state_key") == "engine_thinking"
               for chunk in seen for line in chunk.splitlines() if line.startswith("data: "))
