"""``draughtsboard web``: the web app of the hall (live boards, control, archive, broadcast)."""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``web``."""
    parser = subparsers.add_parser(
        "web", help="serve the web app: live boards, control from a phone, archive, broadcast",
        description="Serve the hall, each board's live page, the game archive and the "
                    "broadcast PDN from the boards' Redis. Prints the pairing code that "
                    "gives a phone control.")
    parser.add_argument("--config", help="configuration file ([web] and [store] sections)")
    parser.add_argument("--store", help="the boards' Redis: redis://host:port/db")
    parser.add_argument("--listen", metavar="HOST:PORT",
                        help="address to listen on (default web.listen, 127.0.0.1:8080)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM or SIGINT."""
    import sys

    from firmware_host.config.loader import Config

    try:
        from firmware_host.web.service import run_web
    except ImportError as exc:  # a board installed without the web app's libraries
        print(f"draughtsboard web: {exc.name or exc} is missing: pip install "
              "'draughtsboard[web]'", file=sys.stderr)
        return 2

    config = Config.load(args.config) if args.config else Config.from_mapping({})
    config = config.with_overrides({"store.url": args.store, "web.listen": args.listen})
    return run_web(config)
