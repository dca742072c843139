"""The shared feed reader stops when the web app stops, even where the Redis client turns the
cancellation into an error: Python 3.11's ``asyncio.timeout`` (inside redis-py's read of a
blocking ``XREAD``) can report an outside cancel as its own timeout, and the reader, which
retries after a Redis error, then went on reading for ever (the app's stop hung)."""

from __future__ import annotations

import asyncio

from redis.exceptions import TimeoutError as RedisTimeoutError

from firmware_host.web.fanout import FanOut


class SwallowingRedis:
    """A client whose blocking read turns a cancel into redis-py's TimeoutError (until
    ``swallow`` is cleared, so a test of the old reader can still end)."""

    def __init__(self) -> None:
        self.reads = 0
        self.swallow = True
        self.reading = asyncio.Event()

    async def _block(self) -> object:
        self.reads += 1
        self.reading.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if self.swallow:
                raise RedisTimeoutError("Timeout reading from socket") from None
            raise
        return None

    async def smembers(self, key: str) -> set[bytes]:
        return {b"b1"}

    async def xrevrange(self, *args: object, **kwargs: object) -> list[object]:
        return []

    async def xread(self, *args: object, **kwargs: object) -> object:
        return await self._block()

    async def get(self, key: str) -> None:
        return None

    async def mget(self, *args: object, **kwargs: object) -> list[None]:
        return [None]

    def pipeline(self, *args: object, **kwargs: object) -> Pipeline:
        return Pipeline()


class Pipeline:
    """The reader asks the hall's boards (one: b1) and every board's newest event id in
    pipelines: there are none."""

    def __init__(self) -> None:
        self.replies: list[object] = []

    def scard(self, *args: object) -> None:
        self.replies.append(1)

    def srandmember(self, *args: object) -> None:
        self.replies.append([b"b1"])

    def execute_command(self, *args: object) -> None:
        self.replies.append([b"default"])  # ACL USERS: no board users

    def xrevrange(self, *args: object, **kwargs: object) -> None:
        self.replies.append([])

    async def execute(self, raise_on_error: bool = True) -> list[object]:
        return self.replies


async def _card(board: str) -> str:
    return ""


def test_close_ends_the_reader_even_when_the_cancel_becomes_a_redis_error() -> None:
    async def scenario() -> tuple[bool, int]:
        client = SwallowingRedis()
        hub = FanOut(client, _card, _card, block_ms=50, alive_every_s=0.05)  # type: ignore[arg-type]
        hub._start()
        await client.reading.wait()  # the reader is in its blocking read
        closing = asyncio.create_task(hub.close())
        # A bound on a hang, not a measure: the fixed reader ends at its next turn.
        await asyncio.wait({closing}, timeout=10)
        stopped = closing.done()
        client.swallow = False  # let an old reader end, so the test itself ends
        for task in hub._tasks:
            task.cancel()
        await asyncio.gather(closing, *hub._tasks, return_exceptions=True)
        return stopped, client.reads

    stopped, reads = asyncio.run(scenario())
    assert stopped
    assert reads == 1  # no read after the stop
