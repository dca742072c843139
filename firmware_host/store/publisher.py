"""Live events sent to Redis from a thread of their own, so publishing never waits on Redis.

The scan thread only queues an event (no round trip); the ``store-events`` thread sends what is
queued in one pipeline, and while Redis is away it retries the store's spool every
``retry_seconds`` so a board that is only showing LEDs still catches up.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Mapping
from functools import partial

from firmware_host.store.client import Command

log = logging.getLogger(__name__)

#: Entries kept in a board's events stream (``XADD ... MAXLEN ~``): the web app reads at most
#: the newest 400 (web/reader.py ``RECENT``); a longer history costs Redis memory on every board
#: for nothing (docs/events.md: *Memory*).
EVENTS_MAXLEN = 1_000
#: Live events only for subscribers: never spooled (no fsync per LED frame in an outage).
LIVE_ONLY = frozenset({"leds", "occupancy"})

#: One queued event: its Redis commands and whether it may wait in the spool.
Item = tuple[list[Command], bool]


def event_commands(key: str, stamped: Mapping[str, object]) -> Item:
    """One live event's commands (an entry of the capped stream ``key`` for late readers, a
    message on the channel ``key`` for live ones) and whether it may wait in the spool.

    >>> commands, spoolable = event_commands("k", {"seq": 1, "event": "leds"})
    >>> [name for name, _, _ in commands], spoolable
    (['xadd', 'publish'], False)
    """
    message = json.dumps(stamped, separators=(",", ":"), default=str)
    commands: list[Command] = [
        ("xadd", (key, {"event": message}), {"maxlen": EVENTS_MAXLEN, "approximate": True}),
        ("publish", (key, message), {}),
    ]
    return commands, stamped.get("event") not in LIVE_ONLY


class EventPublisher:
    """A named thread that sends queued events with ``send(commands, spoolable)``.

    >>> sent = []
    >>> publisher = EventPublisher(lambda c, s: sent.append(c), lambda: None)
    >>> publisher.put([("publish", ("k", "m"), {})], True)
    >>> publisher.drain()
    >>> publisher.close()
    >>> sent
    [[('publish', ('k', 'm'), {})]]
    """

    def __init__(self, send: Callable[[list[Command], bool], None],
                 upkeep: Callable[[], None], retry_seconds: float = 2.0) -> None:
        self._send = send
        self._upkeep = upkeep
        self._retry = retry_seconds
        self._queue: queue.Queue[Item | None] = queue.Queue()
        self._failed = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="store-events", daemon=True)
        self._thread.start()

    def put(self, commands: list[Command], spoolable: bool) -> None:
        """Queue one event's commands (returns at once)."""
        self._queue.put((commands, spoolable))

    def drain(self) -> None:
        """Wait until every queued event has been sent (or spooled, or dropped)."""
        self._queue.join()

    def close(self) -> None:
        """Send what is queued, then stop the thread; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=self._retry)
            except queue.Empty:
                self._safely(self._upkeep)
                continue
            batch: list[Item] = []
            stop = item is None
            if item is not None:
                batch.append(item)
            while not stop:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                else:
                    batch.append(more)
            try:
                self._send_batch(batch)
            finally:
                for _ in range(len(batch) + (1 if stop else 0)):
                    self._queue.task_done()
            if stop:
                return
            self._safely(self._upkeep)

    def _send_batch(self, batch: list[Item]) -> None:
        # Consecutive events with the same spool rule go in one pipeline, in their order.
        start = 0
        while start < len(batch):
            end = start
            while end < len(batch) and batch[end][1] == batch[start][1]:
                end += 1
            commands = [c for item in batch[start:end] for c in item[0]]
            self._safely(partial(self._send, commands, batch[start][1]))
            start = end

    def _safely(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as exc:  # a broken bus must never stop the thread
            if not self._failed:
                log.error("live events not sent: %s", exc)
            self._failed = True
        else:
            self._failed = False
