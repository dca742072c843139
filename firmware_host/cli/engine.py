"""``draughtsboard engine``: the built-in engine as a Hub engine on stdin/stdout.

A Hub GUI runs ``draughtsboard engine --variant normal --level 10`` and talks to it (Hub is the
only protocol; ``--hub`` is still taken, for the command lines written when it was required):

>>> import subprocess, sys
>>> argv = [sys.executable, "-m", "firmware_host.cli", "engine", "--level", "10"]
>>> answer = subprocess.run(argv, input="hub\\ninit\\nquit\\n", capture_output=True, text=True,
...                         timeout=60)
>>> answer.stdout.splitlines()[0].startswith("id name=draughtsboard")
True
>>> answer.stdout.splitlines()[-2:], answer.returncode
(['wait', 'ready'], 0)
"""

from __future__ import annotations

import argparse
import io
import logging
import sys

from firmware_host.cli.options import add_setting
from firmware_host.terms.settings import ENGINE_LEVEL, phone_settings


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``engine``."""
    parser = subparsers.add_parser(
        "engine", help="run the built-in engine for another program (Hub protocol)",
        description="Speak the Hub protocol (Scan's, version 2) on stdin/stdout so any Hub GUI "
                    "or client can use the built-in engine. Logs go to stderr.")
    parser.add_argument("--hub", action="store_true",
                        help="speak the Hub protocol (the default and only protocol)")
    parser.add_argument("--variant", metavar="NAME", default="normal",
                        help="initial variant: a Hub name (normal, losing) or one of ours "
                             "(default: normal, i.e. international); the GUI may change it")
    add_setting(parser, phone_settings()[ENGINE_LEVEL.key], default=10,
                help="initial strength, 1-10; the GUI may change it")
    parser.add_argument("--tt-mb", metavar="MB", type=int, default=16, help="hash table size in MB")
    parser.add_argument("--seed", metavar="N", type=int, default=0,
                        help="seed of the weaker levels' noise")
    parser.add_argument("--log-level", default="warning",
                        choices=("debug", "info", "warning", "error"),
                        help="stderr log level; debug logs every protocol line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until ``quit`` or end of input. Returns 2 on bad settings."""
    from firmware_host.opponents.hub.protocol import HubProtocolError
    from firmware_host.opponents.hub.server import serve

    # stdout carries the protocol: logs must go to stderr.
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(name)s %(levelname)s: %(message)s")
    # Garbage bytes from the GUI must not crash the reader.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    try:
        return serve(stdin, sys.stdout, variant=args.variant, strength=args.level,
                     tt_mb=args.tt_mb, seed=args.seed)
    except (HubProtocolError, ValueError) as exc:
        print(f"draughtsboard engine: {exc}", file=sys.stderr)
        return 2
