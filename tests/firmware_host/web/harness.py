"""Rigs of the web tests: boards playing on a real Redis, and the web service in a thread.

:class:`BoardRig` is one board service (``build_service`` on the simulated board, virtual time)
that a test moves pieces on; :class:`WebServer` runs the aiohttp app of ``draughtsboard web``
on its own event loop in a thread, on a free port.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import redis
from redis.asyncio import Redis

from board_io.clock import VirtualClock
from engine import Board, Move
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service
from firmware_host.config import Config
from firmware_host.store.keys import BoardKeys
from firmware_host.web.app import WebSettings, build_app
from firmware_host.web.arbiter import ArbiterKeys
from firmware_host.web.auth import Keys
from firmware_host.web.connections import PER_ADDRESS, GuardedSite
from firmware_host.web.connections import runner as runner_of
from tests.firmware_host.web.sse import SseClient
from tests.redis_server import free_port

__all__ = ["TOKEN", "BoardRig", "SseClient", "WebServer", "heartbeat"]

TOKEN = "test-token-0123456789abcdef"


def heartbeat(url: str, board_id: str, *, state: str = "running", at: float | None = None
              ) -> None:
    """Write the board's heartbeat as its service does (the contract in docs/events.md)."""
    value = {"time": time.time() if at is None else at, "state": state, "pid": os.getpid()}
    redis.Redis.from_url(url).set(BoardKeys(board_id).alive, json.dumps(value),
                                  px=7 * 86400 * 1000)


class BoardRig:
    """One board service on a simulated board, in virtual time, recording to ``url``
    (``occupied``: the pieces on the board as it starts, a restart's; None: the start)."""

    def __init__(self, url: str, board_id: str, directory: Path, *, mode: str = "record",
                 variant: str = "russian", extra: dict[str, Any] | None = None,
                 occupied: frozenset[int] | None = None, coach: bool = False) -> None:
        self.stack = ExitStack()
        self.clock = VirtualClock()
        self.events: list[dict[str, Any]] = []
        self.board_id = board_id
        sections: dict[str, Any] = {
            "game": {"mode": mode, "variant": variant},
            "board": {"id": board_id},
            "engine": {"level": 1},
            "store": {"url": url, "games_dir": str(directory / "games"),
                      "spool_dir": str(directory / "spool")},
        }
        for section, values in (extra or {}).items():
            sections.setdefault(section, {}).update(values)
        config = Config.from_mapping(sections)
        self.service: Service = build_service(config, self.stack, Wiring(
            clock=self.clock, virtual_time=True, notifier=Notifier(environ={}),
            listeners=[self.events.append], occupied=occupied, coach=coach))
        assert self.service.sim is not None
        self.sim = self.service.sim
        self.url = url
        self.beat()
        self.run(1.0)

    def beat(self, state: str = "running") -> None:
        """Write the heartbeat now (the service's keep-alive does too, every 5 s)."""
        heartbeat(self.url, self.board_id, state=state)

    def go_dark(self) -> None:
        """The board's service stops beating: its keep-alive thread ends and says ``stopped``
        (a heartbeat written by hand would be overwritten by the thread within 5 s)."""
        assert self.service.keepalive is not None
        self.service.keepalive.close()

    @property
    def session(self) -> Any:
        return self.service.session

    def run(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass, scanning as the service does."""
        period = self.service.scan_period
        end = self.clock.monotonic() + seconds
        while self.clock.monotonic() < end:
            now = self.clock.monotonic() + period
            self.clock.set(now)
            self.service.controller.step(now)
        self.service.store.drain_events()

    def play(self, text: str) -> Move:
        """Carry out the legal move ``text`` (``c3-d4``, ``c3:e5``) on the board by hand."""
        board: Board = self.session.board
        move = board.parse_move(text)
        self.sim.lift(move.origin)
        for square in move.captures:
            self.sim.lift(square)
        self.sim.place(move.destination)
        self.run(1.0)
        return move

    def play_computer_move(self) -> None:
        """Carry out the computer's move shown on the LEDs."""
        pending = self.session.pending
        assert pending is not None, "no computer move pending"
        self.play(self.session.board.move_notation(pending))

    def kinds(self) -> list[str]:
        return [str(e.get("event")) for e in self.events]

    def close(self) -> None:
        self.stack.close()


class WebServer:
    """The web app on 127.0.0.1:<free port>, served from a thread of its own."""

    def __init__(self, url: str, *, control: bool = True, rate_per_minute: int = 600,
                 block_ms: int = 1000, alive_every_s: float = 0.2,
                 feeds_per_address: int = 32, arbiter: bool = False,
                 headers_s: float = 10.0, connections_per_address: int = PER_ADDRESS,
                 books: Path | None = None) -> None:
        self.url = url
        #: How long a request's headers may take (web/connections.py).
        self.headers_s = headers_s
        #: Connections one address may hold (web/connections.py).
        self.connections_per_address = connections_per_address
        self.site: GuardedSite | None = None
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.keys = Keys(TOKEN)
        #: The arbiter's credentials (the console's routes only with ``arbiter``).
        self.arbiter = ArbiterKeys(TOKEN)
        self.settings = WebSettings(keys=self.keys, control=control,
                                    arbiter=self.arbiter if arbiter else None,
                                    rate_per_minute=rate_per_minute, block_ms=block_ms,
                                    alive_every_s=alive_every_s,
                                    feeds_per_address=feeds_per_address, books=books)
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="web-test", daemon=True)

    def start(self) -> WebServer:
        self._thread.start()
        assert self._ready.wait(10), "the web app did not start"
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        client = Redis.from_url(self.url)
        runner = runner_of(build_app(self.settings, client), headers_s=self.headers_s,
                           shutdown_timeout=0.5)
        await runner.setup()
        self.site = GuardedSite(runner, "127.0.0.1", self.port,  # as draughtsboard web serves
                                per_address=self.connections_per_address)
        await self.site.start()
        self._ready.set()
        await self._stop.wait()
        await runner.cleanup()
        await client.aclose()

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=10)

    # -- HTTP helpers -------------------------------------------------------------------------

    def get(self, path: str, headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], str]:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, dict(reply.headers), reply.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read().decode()

    def post(self, path: str, form: dict[str, str], headers: dict[str, str] | None = None
             ) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={
            "Accept": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def command(self, board_id: str, command: str, **fields: str) -> dict[str, Any]:
        """Send a control command with the token; return the JSON reply."""
        status, body = self.post(f"/board/{board_id}/command", {"command": command, **fields},
                                 {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200, (status, body)
        reply: dict[str, Any] = json.loads(body)
        return reply

