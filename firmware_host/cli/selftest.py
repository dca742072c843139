"""``draughtsboard selftest``: light each LED in turn, then print every sensor change.

Example::

    $ draughtsboard selftest --seconds 120
    LEDs: each square lights alone for 0.3 s; ...: 1 2 3 ... 50
    Sensors: lift and place pieces on every square during the next 120 s ...
      r9c1 (square 1): occupied
      r9c1 (square 1): empty
    ...
    Report:
      49 of 50 squares seen changing
      never changed: 27
"""

from __future__ import annotations

import argparse

from firmware_host.cli.options import add_backends


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"seconds must be in (0, 86400], not {text}")
    return value


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``selftest``."""
    parser = subparsers.add_parser(
        "selftest", help="check every LED and sensor of the board",
        description="Lights each square's LED alone, in turn; then prints every sensor change "
                    "while you lift and place pieces, and reports squares that never changed, "
                    "dead sensor rows or columns and noisy cells. Exits 0 when every square "
                    "responded, 1 otherwise.")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--variant", metavar="NAME", help="rules the board is used for")
    add_backends(parser)  # --sensors (--board), --leds
    parser.add_argument("--seconds", type=_seconds, default=60.0, metavar="N",
                        help="how long to watch the sensors (default 60)")
    parser.add_argument("--script", metavar="FILE",
                        help="sim board only: play this file of timed events (virtual time)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the self-test."""
    from firmware_host.tools.selftest import SelftestOptions, selftest

    return selftest(SelftestOptions(
        config_path=args.config, variant=args.variant, sensors=args.board, leds=args.leds,
        script=args.script, seconds=args.seconds))
