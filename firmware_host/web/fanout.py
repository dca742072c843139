"""The live feeds' one reader: every board's events read once, fanned out to every open feed.

However many pages are open, the web app reads the boards' event streams with **one**
``XREAD BLOCK`` (one Redis connection), turns each board's batch into one small message
(:class:`~firmware_host.web.feed.Delta`, encoded once for the board pages and once for the hall)
and puts it on each open feed's queue (an :class:`asyncio.Queue`); a second task reads the
boards' heartbeats every few seconds and tells the feeds when a board goes offline or comes
back. A feed that opens with a cursor behind the reader first gets what it missed (read with
``XRANGE``, a few at a time: :data:`CATCH_UP_AT_ONCE`), then the live messages after it.

A feed whose client stops reading is closed: its queue is bounded (:data:`QUEUE`); a write that
does not complete in :data:`WRITE_TIMEOUT_S` ends it; a client gone away ends it at the next
keep-alive. The browser comes back with its cursor and misses nothing.

Nothing a client sends and nothing a board writes can stop the reader for the others:

- what it reads is the hall's boards (the set the web app and the administrator write, at most
  :data:`~firmware_host.web.reader.MAX_BOARDS`), each from the newest id Redis gave; a feed's
  cursor is checked (:func:`~firmware_host.web.feed.parse_cursor`) and compared with its
  stream before the feed is registered, and only ever serves that feed's catch-up: it never
  enters the reader's ``XREAD``;
- a board whose events key Redis refuses to read (a key of another type), or whose stream holds
  more than a board writes (:data:`EVENTS_BYTES`: its ``XREAD`` reply would be larger than the
  web app reads), is set aside with one log line and read again once it is well formed, from its
  newest entry; the other boards are read on;
- any other fault is logged once with its cause and the reader goes on; a reader task that ends
  anyway is started again and counted (:attr:`FanOut.restarts`, in ``/health.json``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError
from redis.typing import KeyT, StreamIdT

from firmware_host.store.replies import pairs
from firmware_host.web import liveness
from firmware_host.web.bounded import ReplyTooLarge
from firmware_host.web.feed import LIVE_EVENTS, Delta, format_cursor, id_key, sse
from firmware_host.web.liveness import Liveness
from firmware_host.web.reader import Reader, events_key

__all__ = ["FanOut", "Feed"]

log = logging.getLogger(__name__)

#: A hall looks for new boards at least this often (s).
NEW_BOARD_S = 2.0
#: Messages waiting for one feed at most; beyond, the feed is closed (its client is too slow).
#: Room for a whole hall's round start (every board's new card at once): the queue holds
#: references to messages shared by every feed, not copies.
QUEUE = 2048
#: A write to a feed's client that takes longer ends the feed (s).
WRITE_TIMEOUT_S = 30.0
#: Events a reconnecting feed may have missed and still catch up on; beyond, the page reloads.
CATCH_UP_MAX = 2000
#: Feeds reading what they missed at the same time (each uses a Redis connection meanwhile).
CATCH_UP_AT_ONCE = 4
#: Whole cards or panels drawn at the same time (each reads Redis on a connection of its own):
#: a round start asks for every board's at once.
DRAW_AT_ONCE = 6
#: How often the heartbeats are read (s).
ALIVE_EVERY_S = 5.0
#: After a reply, the reader waits this long before the next read (s), so a move and the state
#: and LED frame that follow it reach the pages as one message, not three.
GATHER_S = 0.05
#: Entries read from one board's stream per ``XREAD`` at most (cut to a quarter while the replies
#: are too large for the web app, doubled back after each read that fits).
READ_COUNT = 500
#: A board's events stream holding more than this (Redis's ``MEMORY USAGE``) is not a board's
#: doing (1,000 events of at most 2 KB each: EVENTS_MAXLEN in store/publisher.py): it is set
#: aside until it is back under.
EVENTS_BYTES = 16 * 1024 * 1024
#: Stream types the reader reads ("none": a board that has published nothing yet).
_READABLE = ("stream", "none")
_END = b""
#: (board, first entry id, last entry id, board page's bytes, hall's bytes)
Item = tuple[str, str, str, bytes, bytes]
Render = Callable[[str], Awaitable[str]]
Direct = Callable[[bytes], bool]


@dataclass(eq=False)
class Feed:
    """One open feed: its boards (None: the hall), its cursor and its queue."""

    boards: frozenset[str] | None
    cursor: dict[str, str]
    queue: asyncio.Queue[Item | bytes] = field(
        default_factory=lambda: asyncio.Queue(QUEUE))
    closed: bool = False
    #: While the feed is caught up: writes a message straight to its client (False: not written,
    #: the client's buffer is full: the message takes the queue's path, which waits for the
    #: client), so a message fans out to a thousand feeds without waking a task for each.
    direct: Direct | None = None
    #: Set when the queue has something again, or the feed closed.
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def wants(self, board_id: str) -> bool:
        """Whether the feed follows ``board_id``."""
        return self.boards is None or board_id in self.boards

    def offer(self, item: Item | bytes) -> None:
        """Send ``item`` straight to the client when the feed is caught up and the client's
        buffer has room, else queue it; a feed whose queue is full is closed (its client is too
        slow)."""
        if self.closed:
            return
        if self.direct is not None:
            data = self._now(item)
            if data == b"":
                return
            if data is not None and self.direct(data):
                if not isinstance(item, bytes):
                    self.cursor[item[0]] = item[2]
                return
            self.direct = None  # a read first, or the client busy: the queue's path
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.close()
        self.wake.set()

    def _now(self, item: Item | bytes) -> bytes | None:
        """What ``item`` writes now (b"": nothing), or None when it needs the queue's path (a
        new board's card; a batch partly delivered already)."""
        if isinstance(item, bytes):
            return item
        board, first, last, page, hall = item
        if self.boards is None and board not in self.cursor:
            return None
        seen = self.cursor.get(board, "0-0")
        if id_key(last) <= id_key(seen):
            return b""
        if id_key(first) <= id_key(seen):
            return None
        return hall if self.boards is None else page

    def close(self) -> None:
        """End the feed (its client reconnects with its cursor)."""
        self.closed = True
        self.direct = None
        with suppress(asyncio.QueueFull):
            self.queue.put_nowait(_END)
        self.wake.set()


class FanOut:
    """The one reader of the boards' events and heartbeats, and the open feeds it feeds.

    ``card`` and ``panel`` render a board's whole hall card and board panel (HTML) when a batch
    asks for them; ``clock`` is the Unix time (a test's clock decides when a board is offline).
    """

    def __init__(self, client: Redis, card: Render, panel: Render, *, block_ms: int = 15_000,
                 clock: Callable[[], float] = time.time, alive_every_s: float = ALIVE_EVERY_S
                 ) -> None:
        self.client = client
        self.reader = Reader(client)
        self.card, self.panel = card, panel
        self.block_ms = block_ms
        self.clock = clock
        self.alive_every_s = alive_every_s
        self.feeds: set[Feed] = set()
        #: The newest entry id read of each board.
        self.head: dict[str, str] = {}
        #: Each board's session state as last read (for a ``synced`` after a correction).
        self.states: dict[str, str] = {}
        self.alive: dict[str, Liveness] = {}
        self._boards_read = 0.0
        self._tasks: dict[str, asyncio.Task[None]] = {}
        #: Set by :meth:`close`: the reader's loops end at their next turn, even where the Redis
        #: client turned the cancel into an error (Python 3.11's ``asyncio.timeout`` inside
        #: redis-py's read can take an outside cancel for its own timeout).
        self._closing = False
        self._catch_up = asyncio.Semaphore(CATCH_UP_AT_ONCE)
        self._draw = asyncio.Semaphore(DRAW_AT_ONCE)
        self._beginning = asyncio.Lock()
        #: Boards set aside (their events key is not a stream Redis reads, or too large): why.
        self.set_aside: dict[str, str] = {}
        #: Reader tasks started again after they ended (a fault that escaped them).
        self.restarts = 0
        #: Faults the reader logged (each kind once until the reader reads again).
        self.faults = 0
        self._count = READ_COUNT
        self._said: set[str] = set()
        #: How long the reader waits after a fault before it reads again (s).
        self.retry_s = 1.0

    # -- feeds ------------------------------------------------------------------------------

    @asynccontextmanager
    async def open(self, board_id: str | None, cursor: dict[str, str]) -> AsyncIterator[Feed]:
        """Open a feed of ``board_id`` (None: the hall; a board of the hall: the caller
        checked) after ``cursor`` (checked by :func:`~firmware_host.web.feed.parse_cursor`):
        what it missed is queued first. The cursor is held against the streams before the feed
        is registered: a board the hall does not have is left out, an id ahead of its stream
        (a stream emptied or replaced since) is dropped, and that board's whole card or panel
        is sent instead. Raises RedisError if the boards' Redis does not answer."""
        await self._begin()
        boards = [board_id] if board_id is not None else await self.reader.boards()
        newest = await self.reader.last_ids(boards)
        kept = {b: i for b, i in cursor.items()
                if b in newest and id_key(i) <= id_key(newest[b])}
        ahead = {b for b in cursor if b in newest and b not in kept}
        feed = Feed(None if board_id is None else frozenset({board_id}), kept)
        self.feeds.add(feed)
        try:
            async with self._catch_up:
                await self._prime(feed, board_id, boards, newest, ahead)
            yield feed
        finally:
            self.feeds.discard(feed)
            feed.closed = True

    async def _prime(self, feed: Feed, board_id: str | None, boards: Sequence[str],
                     newest: dict[str, str], ahead: set[str]) -> None:
        known = {b: newest[b] for b in boards if b not in feed.cursor}
        cards = board_id is None and (bool(feed.cursor) or bool(ahead))  # a hall page without
        missed = 0  # them: no cursor
        for board in boards:
            if board in known:  # not in the page's cursor: from now on (a hall page that has
                feed.cursor[board] = known[board]  # no card of it gets the card)
                if cards:
                    feed.offer(self._full(board, known[board], await self.card(board))[4])
                elif board in ahead:  # a board page ahead of its stream: the whole panel
                    feed.offer(self._full(board, known[board], await self.panel(board))[4])
                continue
            try:
                entries = pairs(await self.client.xrange(
                    events_key(board), "(" + feed.cursor[board], count=CATCH_UP_MAX + 1))
            except ReplyTooLarge:  # more than the web app reads: from now on, drawn whole
                feed.cursor[board] = newest[board]
                render = self.card if board_id is None else self.panel
                feed.offer(self._full(board, newest[board], await render(board))[4])
                continue
            missed += len(entries)
            if missed > CATCH_UP_MAX:  # away too long: the page loads itself again
                feed.offer(sse("reload", {}))
                return
            if entries:
                item = await self._item(board, entries,
                                        hall=board_id is None, page=board_id is not None)
                data = b"" if item is None else item[4] if board_id is None else item[3]
                if data:  # as bytes: the cursor below is already past it
                    feed.offer(data)
                feed.cursor[board] = _str(entries[-1][0])
        now = self.alive or await self._read_alive(boards)
        for board in boards:
            state = now.get(board)
            if state is not None and not state.online:
                feed.offer(sse("alive", {"board": board, **state.as_json()}))

    async def chunks(self, feed: Feed, keep_alive_s: float, direct: Direct | None = None
                     ) -> AsyncIterator[bytes]:
        """What to write to the feed's client, as it comes (a keep-alive comment after
        ``keep_alive_s`` of quiet) until the feed is closed. With ``direct`` (a writer straight
        to the client), whenever the feed has caught up the messages are written by it as they
        come, and nothing is yielded until the feed needs the queue's path again."""
        while not feed.closed or not feed.queue.empty():
            try:
                item = feed.queue.get_nowait()
            except asyncio.QueueEmpty:
                if direct is not None:
                    feed.wake.clear()
                    feed.direct = direct
                    try:
                        async with asyncio.timeout(keep_alive_s):
                            await feed.wake.wait()
                    except TimeoutError:
                        if feed.direct is not None and not direct(b": keep-alive\n\n"):
                            feed.direct = None  # its buffer is full: the queue's path waits
                            yield b": keep-alive\n\n"
                    continue
                try:
                    async with asyncio.timeout(keep_alive_s):  # no task per wait (wait_for's)
                        item = await feed.queue.get()
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
            if item == _END:
                return
            if isinstance(item, bytes):
                yield item
                continue
            board, first, last, page, hall = item
            if feed.boards is None and board not in feed.cursor:  # a new board: its card
                feed.cursor[board] = last
                yield self._full(board, last, await self.card(board))[4]
                continue
            seen = feed.cursor.get(board, "0-0")
            if id_key(last) <= id_key(seen):
                continue  # caught up on it already
            if id_key(first) <= id_key(seen):  # partly: read the rest for this feed alone
                try:
                    again_entries = pairs(
                        await self.client.xrange(events_key(board), "(" + seen, last))
                except ReplyTooLarge:
                    feed.cursor[board] = last
                    continue
                again = await self._item(board, again_entries,
                                         hall=feed.boards is None, page=feed.boards is not None)
                if again is None:
                    continue
                page, hall = again[3], again[4]
            feed.cursor[board] = last
            data = hall if feed.boards is None else page
            if data:
                yield data

    # -- the reader ---------------------------------------------------------------------------

    async def _begin(self) -> None:
        """Start the reader, its place in every board's stream taken first: a feed primes after
        it (up to each stream's end), so nothing falls between the feed's catch-up and the
        reader's first read (a reader that took its place after a feed's catch-up skipped the
        events between the two for good)."""
        async with self._beginning:
            if not self.head and not self._tasks:
                self._boards_read = time.monotonic()
                self.head.update(await self.reader.last_ids(await self.reader.boards()))
        self._start()

    def health(self) -> dict[str, object]:
        """The reader's figures for ``/health.json``."""
        return {"feeds": len(self.feeds), "streams": len(self.head),
                "set_aside": dict(sorted(self.set_aside.items())), "restarts": self.restarts,
                "faults": self.faults}

    def _start(self) -> None:
        if self._closing:
            return
        for name, run in (("web-feed-reader", self._read_events),
                          ("web-feed-alive", self._watch_alive)):
            task = self._tasks.get(name)
            if task is None or task.done():
                task = asyncio.create_task(run(), name=name)
                task.add_done_callback(self._ended)
                self._tasks[name] = task

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A reader task ended: unless the hub is closing, it is started again (and counted)."""
        if self._closing or task.cancelled():
            return
        self.restarts += 1
        log.warning("web: %s ended (%s): started again", task.get_name(),
                    repr(task.exception())[:200] if task.exception() else "returned")
        self._start()

    async def close(self) -> None:
        """Stop reading and end every feed."""
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError):
                await task
        self._tasks = {}
        for feed in list(self.feeds):
            feed.close()

    def _fault(self, kind: str, message: str, *args: object) -> None:
        """Log a fault of the reader once (until the reader reads again)."""
        self.faults += 1
        if kind not in self._said:
            self._said.add(kind)
            log.warning(message, *args)

    async def _read_events(self) -> None:
        failing = False
        while not self._closing:
            try:
                await self._read_once()
                failing = False
            except RedisError as exc:  # every feed ends; their browsers come back with cursors
                if self._closing:
                    return
                if not failing:
                    log.warning("web: live feeds ended, the boards' Redis does not answer: %s",
                                type(exc).__name__)
                failing = True
                for feed in list(self.feeds):
                    feed.close()
                await asyncio.sleep(self.retry_s)
            except Exception as exc:  # never the end of every feed: logged, the reader goes on
                if self._closing:
                    return
                self._fault(type(exc).__name__, "web: the feeds' reader: %s: %.200s (going on)",
                            type(exc).__name__, exc)
                await asyncio.sleep(self.retry_s)

    async def _refresh_boards(self) -> None:
        """The hall's boards again: a new one read from its first event, one gone from the set
        no longer read, one set aside read again once its stream is well formed."""
        self._boards_read = time.monotonic()
        boards = await self.reader.boards()
        hall = set(boards)
        for gone in [b for b in self.head if b not in hall]:
            del self.head[gone]
        for gone in [b for b in self.set_aside if b not in hall]:
            del self.set_aside[gone]
        # A board new since the reader began (_begin): from its first event.
        self.head.update({b: "0-0" for b in boards
                          if b not in self.head and b not in self.set_aside})
        if self.set_aside:
            await self._take_back(sorted(self.set_aside))

    async def _take_back(self, boards: Sequence[str]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for board in boards:
            pipe.type(events_key(board))
            pipe.memory_usage(events_key(board))
        replies = await pipe.execute(raise_on_error=False)
        well = [b for n, b in enumerate(boards)
                if _str(replies[2 * n]) in _READABLE
                and not (isinstance(replies[2 * n + 1], int)
                         and replies[2 * n + 1] > EVENTS_BYTES)]
        newest = await self.reader.last_ids(well) if well else {}
        for board in well:
            log.info("web: the live feed reads board %s again (from its newest event)", board)
            del self.set_aside[board]
            self.head[board] = newest[board]

    def _set_aside(self, board: str, why: str) -> None:
        if board not in self.set_aside:
            log.warning("web: the live feed sets board %s aside: %s (its pages still show it; "
                        "read again once that is mended)", board, why)
        self.set_aside[board] = why

    async def _refused(self, exc: ResponseError) -> None:
        """Redis refused the ``XREAD``: set aside the boards whose events key is not a stream
        (a key of another type), or, if none is, take every board's place again from its
        newest id (the ids Redis gave are all the reader ever uses)."""
        boards = sorted(self.head)
        pipe = self.client.pipeline(transaction=False)
        for board in boards:
            pipe.type(events_key(board))
        kinds = await pipe.execute(raise_on_error=False)
        bad = [(b, _str(k)) for b, k in zip(boards, kinds, strict=True)
               if _str(k) not in _READABLE]
        for board, kind in bad:
            self._set_aside(board, f"{events_key(board)} is a {kind[:20]}, not a stream")
            self.head.pop(board, None)
        if not bad:
            self._fault("refused", "web: Redis refused the feeds' read (%.200s): every board "
                        "read again from its newest event", exc)
            self.head.update(await self.reader.last_ids(boards))

    async def _too_large(self) -> None:
        """The ``XREAD`` reply was larger than the web app reads: set aside the boards whose
        stream holds more than a board writes (:data:`EVENTS_BYTES`), or whose own read alone
        is too large; if none, read fewer entries a stream at a time."""
        boards = sorted(self.head)
        pipe = self.client.pipeline(transaction=False)
        for board in boards:
            pipe.memory_usage(events_key(board))
        sizes = await pipe.execute(raise_on_error=False)
        found = False
        for board, size in zip(boards, sizes, strict=True):
            if isinstance(size, int) and size > EVENTS_BYTES:
                self._set_aside(board, f"its events stream holds {size // 1024} KB, more than "
                                f"{EVENTS_BYTES // 1024} KB")
                self.head.pop(board, None)
                found = True
        if found:
            return
        if self._count > 1:
            self._count = max(1, self._count // 4)
            return
        for board in boards:  # one entry of one stream is too large: which?
            try:
                await self.client.xread({events_key(board): self.head[board]}, count=1)
            except ReplyTooLarge:
                self._set_aside(board, "one of its events is larger than the web app reads")
                self.head.pop(board, None)

    async def _read_once(self) -> None:
        if time.monotonic() - self._boards_read >= NEW_BOARD_S:
            await self._refresh_boards()
        if not self.head:
            await asyncio.sleep(NEW_BOARD_S)
            return
        streams: dict[KeyT, StreamIdT] = {events_key(b): i for b, i in self.head.items()}
        try:
            reply: object = await self.client.xread(
                streams, count=self._count, block=int(min(self.block_ms, NEW_BOARD_S * 1000)))
        except ReplyTooLarge:
            await self._too_large()
            return
        except ResponseError as exc:
            await self._refused(exc)
            return
        self._count = min(READ_COUNT, self._count * 2)
        self._said.clear()  # it reads again: a fault is worth a line again
        batches: list[tuple[str, Sequence[tuple[object, object]], list[Feed]]] = []
        for key, reply_entries in pairs(reply):
            board = _str(key).split(":")[1]
            entries = pairs(reply_entries)
            if not entries or board not in self.head:
                continue
            self.head[board] = _str(entries[-1][0])
            wanted = [f for f in self.feeds if f.wants(board)]
            if not wanted:
                self._track_state(board, entries)
                continue
            batches.append((board, entries, wanted))
        # Every board's message as soon as it is ready: the whole cards of a round start are
        # drawn side by side (DRAW_AT_ONCE) while the other boards' moves go out at once.
        await asyncio.gather(*(self._deliver(board, entries, wanted)
                               for board, entries, wanted in batches))
        if pairs(reply):
            await asyncio.sleep(GATHER_S)

    async def _deliver(self, board: str, entries: Sequence[tuple[object, object]],
                       wanted: list[Feed]) -> None:
        try:
            item = await self._item(board, entries, hall=any(f.boards is None for f in wanted),
                                    page=any(f.boards is not None for f in wanted), live=True)
        except RedisError:
            raise
        except Exception as exc:  # this board's batch is skipped; the others go out
            self._fault(f"{board}:{type(exc).__name__}", "web: board %s: its events could not "
                        "be sent (%s: %.200s): skipped", board, type(exc).__name__, exc)
            return
        if item is not None:
            for feed in wanted:
                feed.offer(item)

    def _track_state(self, board: str, entries: Sequence[tuple[object, object]]) -> None:
        for _, message in self.reader.events(board, entries):
            if message.get("event") == "state":
                self.states[board] = str(message.get("state", ""))

    async def _item(self, board: str, entries: Sequence[tuple[object, object]], *, hall: bool,
                    page: bool, live: bool = False) -> Item | None:
        """The messages of one board's batch (stream ``entries``, oldest first) for its board
        pages and the hall, each encoded once; None when the batch is empty."""
        if not entries:
            return None
        first, last = _str(entries[0][0]), _str(entries[-1][0])
        delta = Delta(state=self.states.get(board, ""))
        for _, message in self.reader.events(board, entries):
            if message.get("event") in LIVE_EVENTS:
                delta.add(message)
        if live:
            self.states[board] = delta.state
        event_id = format_cursor({board: last})
        if delta.full:
            async with self._draw:
                return (board, first, last,
                        self._full(board, last, await self.panel(board))[4] if page else b"",
                        self._full(board, last, await self.card(board))[4] if hall else b"")
        now = self.clock()
        page_data = delta.message(board, hall=False, now=now)
        hall_data = delta.message(board, hall=True, now=now)
        if page_data is None:
            return (board, first, last, b"", b"")  # the cursor moves on, nothing to show
        return (board, first, last, sse("board", page_data, event_id),
                sse("board", hall_data, event_id) if hall_data else b"")

    @staticmethod
    def _full(board: str, last: str, html: str) -> Item:
        data = sse("board", {"board": board, "html": html}, format_cursor({board: last}))
        return (board, last, last, data, data)

    # -- liveness -----------------------------------------------------------------------------

    async def _read_alive(self, boards: Sequence[str]) -> dict[str, Liveness]:
        return await liveness.read(self.client, list(boards), self.clock())

    async def _watch_alive(self) -> None:
        while not self._closing:
            try:
                now = await self._read_alive(sorted(self.head))
            except RedisError:
                now = {}
            except Exception as exc:  # logged once; read again at the next turn
                self._fault(f"alive:{type(exc).__name__}", "web: the heartbeats' reader: %s: "
                            "%.200s (going on)", type(exc).__name__, exc)
                now = {}
            for board, state in now.items():
                before = self.alive.get(board)
                if before is not None and before.online == state.online:
                    continue
                self.alive[board] = state
                if before is None and state.online:
                    continue  # as every page drew it
                message = sse("alive", {"board": board, **state.as_json()})
                for feed in list(self.feeds):
                    if feed.wants(board):
                        feed.offer(message)
            await asyncio.sleep(self.alive_every_s)


def _str(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
