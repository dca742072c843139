"""``draughtsboard demo --hall N``: a hall of N simulated boards and the web app on it.

Each board is the whole board service on the simulated board (:class:`~firmware_host.tools.demo.
Demo`), a simulated player with sloppy hands playing the computer, each in another variant,
paced like people (a second or so between hand movements); when a game ends the board starts the
next one. They record into a private store: a ``redis-server`` started on a free loopback port
(no disk: ``--save ""``, no AOF) when one is installed, else fakeredis's TCP server in this
process (:func:`private_store`). The web app serves the hall on ``listen``; the address and the
pairing code are printed. Ctrl-C (or SIGTERM) stops it all and removes the store.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TextIO

from firmware_host.tools.demo import Demo, DemoError, DemoOptions, Display

__all__ = ["HALL_VARIANTS", "private_store", "run_hall"]

log = logging.getLogger(__name__)

#: The variants the boards play, in turn.
HALL_VARIANTS = ("international", "russian", "english", "brazilian", "frisian", "italian",
                 "czech", "pool", "turkish", "canadian")
#: Seconds between two hand movements of a simulated player, about.
PACE_S = 0.8
#: A game longer than this (plies) is left, and a new one started.
MAX_PLIES = 160
#: How long a stop waits for the boards to close their services (s).
STOP_WAIT_S = 5.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def private_store() -> Iterator[str]:
    """A Redis of the demo's own on a free loopback port; yields its URL.

    ``redis-server`` when it is installed (no persistence: the demo's games go with it), else
    fakeredis's TCP server on a thread of this process.
    """
    port = _free_port()
    binary = shutil.which("redis-server")
    if binary is not None:
        with tempfile.TemporaryDirectory(prefix="draughtsboard-hall-") as directory:
            process = subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", directory, "--protected-mode", "yes"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                _wait_listening(port, process)
                yield f"redis://127.0.0.1:{port}/0"
            finally:
                process.terminate()
                process.wait(timeout=10)
        return
    from fakeredis import TcpFakeServer

    server = TcpFakeServer(("127.0.0.1", port), server_type="redis")
    thread = threading.Thread(target=server.serve_forever, name="hall-store", daemon=True)
    thread.start()
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.shutdown()
        server.server_close()


def _wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    import redis

    client = redis.Redis(port=port, socket_connect_timeout=0.5)
    for _ in range(100):
        if process.poll() is not None:
            raise OSError(f"redis-server exited with status {process.returncode}")
        try:
            client.ping()
            return
        except redis.ConnectionError:
            time.sleep(0.05)  # the server is starting: nothing to wait on but the socket
    raise OSError("redis-server did not start listening")


class _Paced(Display):
    """A display that draws nothing and waits like a person between two steps."""

    def __init__(self, rng: random.Random, stop: threading.Event) -> None:
        super().__init__(sys.stdout, fast=True)
        self.rng = rng
        self.stop = stop

    def frame(self, picture: str, lines: list[str]) -> None:
        if self.stop.wait(self.rng.uniform(0.5, 1.5) * PACE_S):
            raise _Stopped

    def line(self, text: str) -> None:
        pass


class _Stopped(Exception):
    """The hall is stopping."""


def _play_board(number: int, url: str, stop: threading.Event) -> None:
    """Board ``table<number>``: games one after another until ``stop``."""
    rng = random.Random(number)
    variant = HALL_VARIANTS[(number - 1) % len(HALL_VARIANTS)]
    games = 0
    while not stop.is_set():
        games += 1
        options = DemoOptions(variant=variant, plies=MAX_PLIES, level=1 + (number + games) % 3,
                              seed=number * 1000 + games, store_url=url,
                              board_id=f"table{number}")
        try:
            with ExitStack() as stack, tempfile.TemporaryDirectory() as games_dir:
                Demo(options, stack, _Paced(rng, stop), games_dir).play()
        except _Stopped:
            return
        except DemoError as exc:  # the simulated hands lost the game: start another
            log.warning("demo --hall: table%d: %s; a new game", number, exc)
        if stop.wait(3.0):
            return


def run_hall(count: int, listen: str, out: TextIO = sys.stdout) -> int:
    """Run the hall of ``count`` boards and serve it on ``listen`` (``host:port``) until
    SIGINT/SIGTERM; return the exit status."""
    from firmware_host.config import ConfigError
    from firmware_host.web.service import parse_listen

    try:
        host, port = parse_listen(listen)
    except ConfigError as exc:
        print(f"draughtsboard demo: {exc}", file=sys.stderr)
        return 2
    for name in ("draughtsboard", "firmware_host", "board_io", "engine"):
        logging.getLogger(name).setLevel(logging.ERROR)
    stop = threading.Event()
    with private_store() as url:
        threads = [threading.Thread(target=_play_board, args=(n, url, stop), daemon=True,
                                    name=f"hall-table{n}") for n in range(1, count + 1)]
        for thread in threads:
            thread.start()
        try:
            return asyncio.run(_serve(url, host, port, count, out))
        finally:
            stop.set()  # each board stops at its next step; one thinking is not waited for
            deadline = time.monotonic() + STOP_WAIT_S
            for thread in threads:
                thread.join(timeout=max(0.0, deadline - time.monotonic()))


async def _serve(url: str, host: str, port: int, count: int, out: TextIO) -> int:
    from redis.asyncio import Redis

    from firmware_host.web.app import WebSettings, build_app, run_forever
    from firmware_host.web.auth import Keys
    from firmware_host.web.connections import runner as runner_of
    from firmware_host.web.service import cannot_listen

    settings = WebSettings(keys=Keys(secrets.token_hex(16)))
    client = Redis.from_url(url, socket_connect_timeout=2,
                            socket_timeout=settings.block_ms / 1000 + 5)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    app = build_app(settings, client)
    runner = runner_of(app)

    async def feeds_first() -> None:  # open feeds end before the server waits for them
        await stop.wait()
        await app.shutdown()

    closer = asyncio.create_task(feeds_first())
    shown = f"[{host}]" if ":" in host else host
    variants = ", ".join(HALL_VARIANTS[n % len(HALL_VARIANTS)] for n in range(count))

    def banner() -> None:
        out.write(f"draughtsboard demo --hall: http://{shown}:{port}/ ({count} simulated "
                  f"board{'s' if count != 1 else ''}: {variants}; a private store "
                  f"{url}); pairing code {settings.keys.pairing_code}; Ctrl-C stops\n")
        out.flush()

    try:
        await run_forever(runner, host, port, stop, banner)
    except OSError as exc:
        print(cannot_listen("draughtsboard demo", host, port, exc), file=sys.stderr)
        return 1
    finally:
        closer.cancel()
        await client.aclose()
    return 0
