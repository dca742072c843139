"""``draughtsboard demo --hall N``: a hall of N simulated boards and the web app on it.

Each board is the whole board service on the simulated board (:class:`~firmware_host.tools.demo.
Demo`), a simulated player with sloppy hands playing the computer, each in another variant
(``--variant`` names one for all or a list), paced like people (a second or so between hand
movements). A board's service runs from the start to the stop, as a real board's does: when a
game ends, its player sets up the pieces and the same service begins the next game, so the
board never goes offline between games, and what the web app sends between two games (New game,
a level, a variant) is taken for the next one. They record into a private store: a
``redis-server`` started on a free loopback port (no disk: ``--save ""``, no AOF) when one is
installed, else fakeredis's TCP server in this process (:func:`private_store`). Everything the
hall writes (the store's folder, each board's spool and PDN files) is in one temporary
directory, removed when it stops: nothing of a hall outlives it, and two halls never meet. The
web app serves the hall on ``listen``; the address and the pairing code are printed. Ctrl-C (or
SIGTERM) stops it all.
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
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from firmware_host.config import places
from firmware_host.config.schema import STORE_GAMES_DIR
from firmware_host.i18n import ENGLISH, N_, Translator, translator
from firmware_host.tools.demo import (
    Demo,
    DemoError,
    DemoOptions,
    DemoStopped,
    Display,
    check_options,
    engine_line,
)

__all__ = ["HALL_VARIANTS", "HallOptions", "banner_lines", "play_board", "private_store",
           "run_hall"]

log = logging.getLogger(__name__)

#: The variants the boards play, in turn, when ``--variant`` names none.
HALL_VARIANTS = ("international", "russian", "english", "brazilian", "frisian", "italian",
                 "czech", "pool", "turkish", "canadian")
#: Seconds between two hand movements of a simulated player, about.
PACE_S = 0.8
#: A game longer than this (plies) is left, and a new one started.
MAX_PLIES = 160
#: How long a stop waits for the boards to close their services (s).
STOP_WAIT_S = 10.0


@dataclass(frozen=True)
class HallOptions:
    """What ``demo --hall`` was asked for.

    ``variants``: the boards' variants in turn (one: every board; none: :data:`HALL_VARIANTS`);
    ``level``: the computer's level on every board (None: 1, 2 and 3 in turn); ``plies``: a
    game longer than this is left for a new one; ``games_dir``: where the PDN files go (None:
    in the hall's temporary directory, removed at the stop).
    """

    count: int
    listen: str = "127.0.0.1:8080"
    variants: tuple[str, ...] = ()
    level: int | None = None
    language: str = "en"
    time_control: str = ""
    plies: int = MAX_PLIES
    seed: int = 1
    games_dir: str | None = None

    def variant(self, number: int) -> str:
        """Board ``number``'s variant (boards count from 1)."""
        names = self.variants or HALL_VARIANTS
        return names[(number - 1) % len(names)]

    def board(self, number: int, url: str, directory: Path) -> DemoOptions:
        """The demo options of board ``number`` (``table<number>``), recording into ``url``
        with its spool in ``directory``."""
        return DemoOptions(
            variant=self.variant(number), plies=self.plies,
            level=self.level if self.level is not None else 1 + number % 3,
            seed=self.seed * 1000 + number, store_url=url, board_id=f"table{number}",
            language=self.language, time_control=self.time_control,
            spool_dir=str(directory / "spool"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def private_store(directory: Path) -> Iterator[str]:
    """A Redis of the demo's own on a free loopback port, its folder in ``directory``; yields
    its URL.

    ``redis-server`` when it is installed (no persistence: the demo's games go with it), else
    fakeredis's TCP server on a thread of this process.
    """
    port = _free_port()
    binary = shutil.which("redis-server")
    if binary is not None:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(directory), "--protected-mode", "yes"],
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
    try:
        for _ in range(100):
            if process.poll() is not None:
                raise OSError(f"redis-server exited with status {process.returncode}")
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)  # the server is starting: nothing to wait on but the socket
    finally:
        client.close()
    raise OSError("redis-server did not start listening")


class Paced(Display):
    """A display that draws nothing and waits like a person between two steps.

    ``wait(seconds)`` waits and returns True once the hall is stopping (the default: the stop
    event's own wait, in real time; a test passes a virtual one).
    """

    def __init__(self, rng: random.Random, wait: Callable[[float], bool]) -> None:
        super().__init__(sys.stdout, fast=True)
        self.rng = rng
        self.wait = wait

    def frame(self, picture: str, lines: list[str]) -> None:
        if self.wait(self.rng.uniform(0.5, 1.5) * PACE_S):
            raise DemoStopped

    def line(self, text: str) -> None:
        pass


def play_board(number: int, options: HallOptions, url: str, directory: Path,
               stop: threading.Event, wait: Callable[[float], bool] | None = None) -> None:
    """Board ``table<number>``: one service, games one after another until ``stop``.

    Raises:
        ConfigError, StoreError, BoardIOError: the board's service cannot start (its store,
            its spool); the hall says so in one line and stops.
    """
    rng = random.Random(number)
    board = options.board(number, url, directory / f"table{number}")
    games_dir = options.games_dir or str(directory / f"table{number}" / "games")
    display = Paced(rng, wait or stop.wait)
    with ExitStack() as stack:
        demo = Demo(board, stack, display, games_dir, stopped=stop.is_set)
        try:
            while not stop.is_set():
                try:
                    demo.play()
                except DemoError as exc:  # the simulated hands lost the game: another
                    log.warning("demo --hall: table%d: %s; a new game", number, exc)
                demo.next_game()
        except DemoStopped:
            return


def banner_lines(url: str, options: HallOptions, store: str, code: str,
                 tr: Translator = ENGLISH) -> list[str]:
    """The hall's banner, a line each: what runs, where to look, the code, how to stop.

    >>> for line in banner_lines("http://127.0.0.1:8080/", HallOptions(3), "redis://x", "123456"):
    ...     print(line)
    draughtsboard demo --hall: 3 simulated boards (international, russian, english)
      the hall: http://127.0.0.1:8080/
      pairing code: 123456 (to control the boards from a browser)
      private store: redis://x (removed when the demo stops)
      Ctrl-C stops
    """
    variants = ", ".join(options.variant(n) for n in range(1, options.count + 1))
    head = tr.ngettext("draughtsboard demo --hall: {count} simulated board ({variants})",
                       "draughtsboard demo --hall: {count} simulated boards ({variants})",
                       options.count).format(count=options.count, variants=variants)
    return [head, *("  " + tr.gettext(line).format(url=url, code=code, store=store)
                    for line in _BANNER)]


#: The banner's lines after the first (one thing a line, short enough for any terminal).
_BANNER = (N_("the hall: {url}"),
           N_("pairing code: {code} (to control the boards from a browser)"),
           N_("private store: {store} (removed when the demo stops)"),
           N_("Ctrl-C stops"))


def run_hall(options: HallOptions, out: TextIO = sys.stdout) -> int:
    """Run the hall and serve it on ``options.listen`` (``host:port``) until SIGINT/SIGTERM;
    return the exit status by the table (0; 1 when a board cannot start; 2 for a bad option;
    69 when the web app's port is taken).

    Raises:
        ConfigError: an unknown variant, a bad level or time control.
    """
    from firmware_host.config import ConfigError
    from firmware_host.web.service import parse_listen

    try:
        host, port = parse_listen(options.listen)
    except ConfigError as exc:
        print(f"draughtsboard demo: {exc}", file=sys.stderr)
        return 2
    for number in range(1, options.count + 1):  # each board's options, before anything starts
        check_options(options.board(number, "memory", Path()))
    if options.games_dir is not None:
        places.check_writable(options.games_dir, STORE_GAMES_DIR.path, "--games-dir")
    for name in ("draughtsboard", "firmware_host", "board_io", "engine"):
        logging.getLogger(name).setLevel(logging.ERROR)
    stop = threading.Event()
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="draughtsboard-hall-",
                                     ignore_cleanup_errors=True) as folder, \
            private_store(Path(folder)) as url:
        def board(number: int) -> None:
            try:
                play_board(number, options, url, Path(folder), stop)
            except Exception as exc:  # one line, and the hall stops: never a dead thread
                failed.append(f"draughtsboard demo: table{number}: {exc}")
                stop.set()

        threads = [threading.Thread(target=board, args=(n,), name=f"hall-table{n}", daemon=True)
                   for n in range(1, options.count + 1)]
        for thread in threads:
            thread.start()
        try:
            status = asyncio.run(_serve(url, host, port, options, stop, out))
        finally:
            stop.set()  # each board stops at its next step and closes its service
            deadline = time.monotonic() + STOP_WAIT_S
            for thread in threads:
                thread.join(timeout=max(0.0, deadline - time.monotonic()))
    for line in failed:
        print(line, file=sys.stderr)
    return 1 if failed else status


async def _serve(url: str, host: str, port: int, options: HallOptions, halt: threading.Event,
                 out: TextIO) -> int:
    from redis.asyncio import Redis

    from firmware_host.errors import say
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

    async def board_failed() -> None:  # a board that cannot start stops the hall
        await asyncio.to_thread(halt.wait)
        stop.set()

    watcher = asyncio.create_task(board_failed())
    app = build_app(settings, client)
    runner = runner_of(app)

    async def feeds_first() -> None:  # open feeds end before the server waits for them
        await stop.wait()
        await app.shutdown()

    closer = asyncio.create_task(feeds_first())
    shown = f"[{host}]" if ":" in host else host
    tr = translator(options.language)

    def banner() -> None:
        lines = banner_lines(f"http://{shown}:{port}/", options, url,
                             settings.keys.pairing_code, tr)
        out.write("\n".join([engine_line(tr), *lines]) + "\n")
        out.flush()

    try:
        await run_forever(runner, host, port, stop, banner)
    except OSError as exc:
        return say(cannot_listen(host, port, exc), "draughtsboard demo")
    finally:
        closer.cancel()
        halt.set()  # the watcher's thread returns
        watcher.cancel()
        await client.aclose()
    return 0
