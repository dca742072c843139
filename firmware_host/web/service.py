"""The web service process: read the config, open Redis, serve until SIGTERM or SIGINT."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import signal
import sys
from pathlib import Path

from firmware_host.app import logsetup
from firmware_host.config import Config, ConfigError
from firmware_host.config.schema import (
    COACH_MISTAKES_DIR,
    LOG_LEVEL,
    STORE_URL,
    WEB_ARBITERS,
    WEB_CONTROL,
    WEB_LISTEN,
    WEB_RATE_PER_MINUTE,
    WEB_TOKEN_FILE,
)
from firmware_host.errors import InputError, UnavailableError, say
from firmware_host.store import shown_url
from firmware_host.store.connect import async_client
from firmware_host.web.app import WebSettings, build_app, run_forever
from firmware_host.web.arbiter import ArbiterKeys
from firmware_host.web.auth import Keys, load_token
from firmware_host.web.connections import runner as runner_of
from firmware_host.web.paired import PairedDevices, devices_file

__all__ = ["cannot_listen", "parse_listen", "run_web"]

log = logging.getLogger("draughtsboard.web")


def parse_listen(text: str) -> tuple[str, int]:
    """``(host, port)`` of ``host:port``.

    >>> parse_listen("127.0.0.1:8080"), parse_listen("[::1]:80")
    (('127.0.0.1', 8080), ('::1', 80))

    Raises:
        ConfigError: not host:port.
    """
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"web.listen = {text!r} is not host:port (e.g. 127.0.0.1:8080)")
    return host.strip("[]"), int(port)


def cannot_listen(host: str, port: int, exc: OSError) -> UnavailableError | InputError:
    """Why the web app cannot listen, as an error of the exit-code table: a port another program
    holds is an unavailable dependency (69), said with what to do; an address this machine has
    not, or may not take, is a bad ``--listen`` (2).

    >>> taken = cannot_listen("127.0.0.1", 8080, OSError(errno.EADDRINUSE, "in use"))
    >>> print(taken)  # doctest: +NORMALIZE_WHITESPACE
    cannot listen on 127.0.0.1:8080: address already in use (another program has that port:
    choose another with --listen 127.0.0.1:PORT)
    >>> from firmware_host.errors import exit_code
    >>> exit_code(taken), exit_code(cannot_listen("10.9.9.9", 80, OSError(errno.EADDRNOTAVAIL,
    ...                                                                   "not here")))
    (<ExitCode.UNAVAILABLE: 69>, <ExitCode.BAD_INPUT: 2>)
    """
    reason = os.strerror(exc.errno) if exc.errno else str(exc)  # asyncio's strerror repeats
    line = f"cannot listen on {host}:{port}: {reason[:1].lower()}{reason[1:]}"
    if exc.errno != errno.EADDRINUSE:
        return InputError(line)
    shown = f"[{host}]" if ":" in host else host
    return UnavailableError(f"{line} (another program has that port: choose another with "
                            f"--listen {shown}:PORT)")


def run_web(config: Config, out: object = None) -> int:
    """Serve the web app as ``config`` says; return the exit status.

    Prints one banner line with the address, the pairing code and the arbiter code (never the
    token).
    """
    logsetup.configure(config[LOG_LEVEL])
    url = config[STORE_URL]
    if url == "memory":
        print("draughtsboard web: store.url is memory: give the boards' Redis "
              "(--store redis://host:port/0)", file=sys.stderr)
        return 2
    host, port = parse_listen(config[WEB_LISTEN])
    try:
        token = load_token(config[WEB_TOKEN_FILE])
    except OSError as exc:
        print(f"draughtsboard web: cannot use {config[WEB_TOKEN_FILE]}: {exc.strerror or exc} "
              "(choose another with web.token_file)", file=sys.stderr)
        return 1
    settings = WebSettings(keys=Keys(token),
                           arbiter=ArbiterKeys(token, tuple(config[WEB_ARBITERS])),
                           control=config[WEB_CONTROL],
                           devices=PairedDevices(devices_file(config[WEB_TOKEN_FILE])),
                           rate_per_minute=config[WEB_RATE_PER_MINUTE],
                           books=Path(config[COACH_MISTAKES_DIR]))
    return asyncio.run(_serve(settings, url, host, port))


def _arbiter_codes(keys: ArbiterKeys) -> str:
    """The banner's arbiter codes: one, or each named arbiter's."""
    if not keys.names:
        return f"; arbiter code {keys.code}"
    return "; arbiter codes " + ", ".join(f"{name} {code}" for name, code in keys.codes.items())


async def _serve(settings: WebSettings, url: str, host: str, port: int) -> int:
    client = async_client(url, socket_connect_timeout=2,
                          socket_timeout=settings.block_ms / 1000 + 5, health_check_interval=30)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    app = build_app(settings, client)
    runner = runner_of(app)
    shown = f"[{host}]" if ":" in host else host

    def banner() -> None:
        print(f"draughtsboard web: http://{shown}:{port}/ (store {shown_url(url)}); "
              f"pairing code {settings.keys.pairing_code}"
              + ("" if settings.arbiter is None else _arbiter_codes(settings.arbiter)),
              flush=True)
        log.info("web: listening on %s:%d, store %s", host, port, shown_url(url))

    try:
        await run_forever(runner, host, port, stop, banner)
    except OSError as exc:
        return say(cannot_listen(host, port, exc), "draughtsboard web")
    finally:
        await client.aclose()
    return 0
