"""``draughtsboard demo``: a simulated human plays the computer on the simulated board; the
computer is the built-in engine, or a Hub engine such as Scan (``--hub``, ``--config``)."""

from __future__ import annotations

import argparse

from firmware_host.cli_options import add_language, add_time_control
from firmware_host.opponents.arguments import add_hub_arguments


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``demo``."""
    parser = subparsers.add_parser(
        "demo", help="watch a simulated player play the computer on the simulated board",
        description="Run the whole board service (sensors, move recognition, engine, LEDs, "
                    "game store, PDN files) on a simulated board. A simulated player makes its "
                    "moves by lifting and placing pieces, and carries out the computer's "
                    "replies by following the LEDs. Needs no hardware and no Redis. With "
                    "--hall N: N such boards, each in another variant, recording into a "
                    "private Redis, and the web app serving their hall (docs/web.md).")
    parser.add_argument("--variant", metavar="NAME", default="international",
                        help="rules to play (default international)")
    parser.add_argument("--moves", type=_positive, default=20, metavar="N",
                        help="stop after N plies (half-moves) or at game over (default 20)")
    parser.add_argument("--level", type=int, default=3, choices=range(1, 11), metavar="N",
                        help="the computer's strength, 1-10 (default 3)")
    parser.add_argument("--seed", type=int, default=1, metavar="N",
                        help="seed of the simulated player's choices (default 1)")
    parser.add_argument("--fast", action="store_true",
                        help="no pause between frames (also when output is not a terminal)")
    parser.add_argument("--games-dir", metavar="DIR",
                        help="where the PDN file is written (default: a new temporary "
                             "directory, printed at the end)")
    add_time_control(parser)
    add_language(parser, default="en")
    parser.add_argument("--hall", type=_positive, metavar="N",
                        help="N simulated boards playing, and the web app serving their hall "
                             "(a private store; the address and pairing code are printed; "
                             "Ctrl-C stops)")
    parser.add_argument("--listen", metavar="HOST:PORT", default="127.0.0.1:8080",
                        help="with --hall: where the web app listens (default 127.0.0.1:8080)")
    add_hub_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo (the computer: the built-in engine at ``--level``, or the Hub engine that
    ``--hub``/``--config`` name, at its own ``engine.hub_*`` strength)."""
    from firmware_host.opponents.arguments import hub_config
    from firmware_host.tools.demo import DemoOptions, run_demo

    if args.hall is not None:
        from firmware_host.tools.hall import run_hall

        return run_hall(args.hall, args.listen)

    return run_demo(DemoOptions(variant=args.variant, plies=args.moves, level=args.level,
                                fast=args.fast, games_dir=args.games_dir, seed=args.seed,
                                hub=hub_config(args), time_control=args.time_control or "",
                                language=args.language))
