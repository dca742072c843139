"""``draughtsboard demo``: a simulated human plays the computer on the simulated board; the
computer is the built-in engine, or a Hub engine such as Scan (``--hub``, ``--config``)."""

from __future__ import annotations

import argparse

from firmware_host.cli.options import add_language, add_setting
from firmware_host.opponents.arguments import add_hub_arguments
from firmware_host.terms.settings import CLOCK_TIME_CONTROL, ENGINE_LEVEL, phone_settings

#: The single demo's length when ``--moves`` is not given.
DEMO_PLIES = 20
#: A hall board's longest game when ``--moves`` is not given (``tools.hall.MAX_PLIES``, said
#: here for the help without importing the hall; a test holds them equal).
HALL_PLIES = 160


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
    parser.add_argument("--variant", metavar="NAME",
                        help="rules to play (default international); with --hall a "
                             "comma-separated list, the boards' in turn, or one for all")
    parser.add_argument("--moves", type=_positive, metavar="N",
                        help="stop after N plies (half-moves) or at game over (default 20); "
                             "with --hall a game longer than N plies is left for a new one "
                             f"(default {HALL_PLIES})")
    add_setting(parser, phone_settings()[ENGINE_LEVEL.key],
                help="the computer's strength, 1-10 (default 3; with --hall: 1, 2 and 3 in "
                     "turn)")
    parser.add_argument("--seed", type=int, default=1, metavar="N",
                        help="seed of the simulated player's choices (default 1)")
    parser.add_argument("--fast", action="store_true",
                        help="no pause between frames (also when output is not a terminal); "
                             "not with --hall, whose players keep a person's pace")
    parser.add_argument("--games-dir", metavar="DIR",
                        help="where the PDN file is written (default: "
                             "~/.local/share/draughtsboard/games, $XDG_DATA_HOME/draughtsboard/"
                             "games where that is set; with --hall: a temporary directory "
                             "removed at the stop)")
    add_setting(parser, phone_settings()[CLOCK_TIME_CONTROL.key])
    add_language(parser, default="en")
    parser.add_argument("--hall", type=_positive, metavar="N",
                        help="N simulated boards playing, and the web app serving their hall "
                             "(a private store; the address and pairing code are printed; "
                             "Ctrl-C stops)")
    parser.add_argument("--listen", metavar="HOST:PORT",
                        help="with --hall: where the web app listens (default 127.0.0.1:8080)")
    add_hub_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo (the computer: the built-in engine at ``--level``, or the Hub engine that
    ``--hub``/``--config`` name, at its own ``engine.hub_*`` strength), or with ``--hall`` the
    hall of simulated boards; an option that does not apply is refused in one line."""
    from firmware_host.config import ConfigError
    from firmware_host.opponents.arguments import hub_config
    from firmware_host.tools.demo import DemoOptions, run_demo

    if args.hall is not None:
        return _hall(args)
    if args.listen is not None:
        raise ConfigError("--listen is where --hall serves its web app: give --hall N too")
    variant = args.variant or "international"
    if "," in variant:
        raise ConfigError(f"--variant {variant!r}: one variant (a list is for --hall)")
    return run_demo(DemoOptions(variant=variant, plies=args.moves or DEMO_PLIES,
                                level=args.level or 3, fast=args.fast,
                                games_dir=args.games_dir, seed=args.seed, hub=hub_config(args),
                                time_control=args.time_control or "",
                                language=args.language))


def _hall(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError
    from firmware_host.tools.hall import HallOptions, run_hall

    if args.fast:
        raise ConfigError("--fast: the hall's players keep a person's pace (the web app "
                          "shows them); leave it out with --hall")
    if args.hub or args.config or args.hub_param or args.hub_cwd:
        raise ConfigError("--hub and --config put one engine behind one demo board: leave "
                          "them out with --hall")
    variants = tuple(v.strip() for v in (args.variant or "").split(",") if v.strip())
    return run_hall(HallOptions(count=args.hall, listen=args.listen or "127.0.0.1:8080",
                                variants=variants, level=args.level,
                                language=args.language, time_control=args.time_control or "",
                                plies=args.moves or HALL_PLIES, seed=args.seed,
                                games_dir=args.games_dir))
