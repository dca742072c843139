"""``draughtsboard web``: the web app of the hall (live boards, control, archive, broadcast)."""

from __future__ import annotations

import argparse

from firmware_host.config.schema import STORE_URL, WEB_LISTEN, WEB_TOKEN_FILE
from firmware_host.errors import ExitCode, InputError, say


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``web``."""
    parser = subparsers.add_parser(
        "web", help="serve the web app: live boards, control from a phone, archive, broadcast",
        description="Serve the hall, each board's live page, the game archive and the "
                    "broadcast PDN from the boards' Redis. Prints the pairing code that "
                    "gives a phone control.")
    parser.add_argument("--config", metavar="FILE",
                        help="configuration file ([web] and [store] sections)")
    parser.add_argument("--store", metavar="URL", help="the boards' Redis: redis://host:port/db")
    parser.add_argument("--listen", metavar="HOST:PORT",
                        help="address to listen on (default web.listen, 127.0.0.1:8080)")
    parser.add_argument("--devices", action="store_true",
                        help="list the paired devices (id, when, what) and exit")
    parser.add_argument("--revoke", metavar="ID",
                        help="revoke the paired device ID (from --devices) and exit")
    parser.set_defaults(run=run)


def _devices(config: object, revoke: str | None) -> int:
    """``--devices`` and ``--revoke``: the paired devices of web.token_file's web app."""
    from firmware_host.config.loader import Config
    from firmware_host.web.paired import PairedDevices, devices_file

    if not isinstance(config, Config):
        raise TypeError(f"a Config, not {type(config).__name__}")
    devices = PairedDevices(devices_file(config[WEB_TOKEN_FILE]))
    if revoke is not None:
        if not devices.revoke(revoke):
            return say(InputError(f"no paired device {revoke!r} (see --devices)"),
                       "draughtsboard web")
        print(f"revoked device {revoke}: its control ends at its next request")
        return 0
    paired = devices.list()
    for device in paired:
        print(f"{device.device_id}  {device.created_text}  {device.label}")
    if not paired:
        print("no paired device")
    return 0


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM or SIGINT."""
    import sys

    from firmware_host.config.loader import Config

    try:
        from firmware_host.web.service import run_web
    except ImportError as exc:  # a board installed without the web app's libraries
        print(f"draughtsboard web: {exc.name or exc} is missing: pip install "
              "'draughtsboard[web]'", file=sys.stderr)
        return ExitCode.UNAVAILABLE

    config = Config.load(args.config) if args.config else Config.from_mapping({})
    config = config.with_overrides({STORE_URL: args.store, WEB_LISTEN: args.listen})
    if args.devices or args.revoke is not None:
        try:
            return _devices(config, args.revoke)
        except OSError as exc:
            print(f"draughtsboard web: the devices file: {exc.strerror or exc}", file=sys.stderr)
            return 1
    return run_web(config)
