"""A hall of boards answering the arbiter console while it waits, on one Redis (a fakeredis
server, or a real redis-server's URL).

Each board is a :class:`~tests.firmware_host.session_harness.Rig` recording into the shared
Redis, with the real :class:`~firmware_host.remote.reader.CommandReader` reading its command
stream on a thread of its own (as the board service does) and a heartbeat. What the reader
posts is handed to the board's session on the test's event loop, so the console's decision,
waiting for the board's answer there, gets it: the board carries the command out in virtual
time (the rig's ``now``), at the moment it reads it.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import fakeredis
import redis

from firmware_host.game.types import SessionEvent
from firmware_host.remote.reader import CommandReader
from firmware_host.store import RedisStore
from firmware_host.store.keys import BoardKeys
from firmware_host.terms.commands import Command
from firmware_host.tournament.pairing import PairingSource
from tests.firmware_host.session_harness import Rig


class Hall:
    """Boards on ``server`` (a fakeredis server, or a redis-server's URL), each online until
    powered off."""

    def __init__(self, server: fakeredis.FakeServer | str) -> None:
        self.server = server
        self.sync = self.connect()
        self.rigs: dict[str, Rig] = {}
        self.readers: dict[str, CommandReader] = {}
        self.loop = asyncio.get_running_loop()
        self.handled = 0
        self._news = asyncio.Condition()

    def connect(self) -> redis.Redis:
        """A new connection to the hall's Redis."""
        if isinstance(self.server, str):
            return redis.Redis.from_url(self.server)
        return fakeredis.FakeRedis(server=self.server)

    def board(self, board_id: str, *, online: bool = True, paired: bool = False,
              occupied: set[int] | None = None, now: float = 0.0, **settings: Any) -> Rig:
        """A board playing international draughts on a 3+2 clock (``settings`` override),
        ``online`` (its reader started, its heartbeat beating); ``paired``: its games read the
        round's pairing from Redis, as a tournament board's do."""
        options: dict[str, Any] = {"time_control": "3+2", **settings}
        rig = Rig("international", store=RedisStore(self.sync, board_id, name="test"),
                  start=False, **options)
        if paired:
            rig.session.game.pairing = PairingSource(self.sync, board_id)
        rig.occupied = set(rig.session.game.initial) if occupied is None else set(occupied)
        rig.now = now
        rig.session.start(frozenset(rig.occupied), rig.now)
        rig._drain()
        self.rigs[board_id] = rig
        if online:
            self.power_on(board_id)
        return rig

    def power_on(self, board_id: str) -> None:
        """The board's service runs: its heartbeat, and its reader (which reads the hall's
        pause first, as the service's does)."""
        self.beat(board_id, "running")
        reader = CommandReader(self.connect(), board_id, self._post(board_id),
                               lambda: self.rigs[board_id].now)
        self.readers[board_id] = reader.start()

    def power_off(self, board_id: str) -> None:
        """The board goes dark: its reader stops and its heartbeat says so."""
        reader = self.readers.pop(board_id, None)
        if reader is not None:
            reader.close()
        self.beat(board_id, "stopped")

    def restart(self, board_id: str, **settings: Any) -> Rig:
        """The board's service starts again (after a power cut): it resumes its saved game,
        then reads the hall's pause as it comes online."""
        before = self.rigs[board_id]
        self.power_off(board_id)
        rig = self.board(board_id, online=False, occupied=before.occupied, now=before.now,
                         **settings)
        self.power_on(board_id)
        return rig

    def beat(self, board_id: str, state: str) -> None:
        value = {"time": time.time(), "state": state, "pid": os.getpid()}
        self.sync.set(BoardKeys(board_id).alive, json.dumps(value))

    def _post(self, board_id: str) -> Any:
        owner = threading.get_ident()

        def post(event: SessionEvent) -> None:
            if threading.get_ident() == owner:  # the reader's start (the hall's pause, read
                self._handle(board_id, event)   # first): handled as the service starts
            else:
                self.loop.call_soon_threadsafe(self._handle, board_id, event)
        return post

    def _handle(self, board_id: str, event: SessionEvent) -> None:
        rig = self.rigs[board_id]
        if isinstance(event, Command):
            event = replace(event, at=rig.now)
        rig.session.handle(event)
        rig._drain()
        self.handled += 1
        self.loop.create_task(self._tell())

    async def _tell(self) -> None:
        async with self._news:
            self._news.notify_all()

    async def until(self, done: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until ``done()`` holds, looking again each time a board handled a command (a
        command sent without waiting for the board's answer: a forfeit's adjudication)."""
        async with self._news:
            await asyncio.wait_for(self._news.wait_for(done), timeout)

    def close(self) -> None:
        for board_id in list(self.readers):
            self.readers.pop(board_id).close()
