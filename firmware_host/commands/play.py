"""``draughtsboard play``: play on a simulated board in the terminal (no hardware needed)."""

from __future__ import annotations

import argparse
import sys

from firmware_host.config.schema import MODES, SIDES


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``play``."""
    parser = subparsers.add_parser(
        "play", help="play on a simulated board in the terminal",
        description="A simulated board drawn in the terminal with its LEDs. Type moves "
                    "(22-18, 22x13x4, c3-d4) or 'lift 22' / 'place 18', and the buttons "
                    "adjust, hint, takeback, newgame, resign, draw; 'quit' to leave. Typed "
                    "moves become lifts and placements, so the whole board pipeline runs.")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--variant", metavar="NAME", help="rules to play (name or alias)")
    parser.add_argument("--mode", choices=MODES, help="play (default), teach or record")
    parser.add_argument("--side", choices=SIDES, help="the side you play")
    parser.add_argument("--level", type=int, default=3, choices=range(1, 11), metavar="1-10",
                        help="the computer's strength (default 3)")
    parser.add_argument("--touch-move", choices=("strict", "off", "auto"),
                        help="touch-move rule (auto: strict in record mode only)")
    parser.add_argument("--fen", help="start from this position")
    parser.add_argument("--games-dir", metavar="DIR", help="also write PDN files here")
    parser.add_argument("--auto-execute", action="store_true",
                        help="carry out the computer's replies on the board for you")
    parser.add_argument("--no-colour", action="store_true", help="draw without ANSI colours")
    parser.add_argument("--virtual-time", action="store_true",
                        help="run in virtual time (instant; for scripts and tests)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the interactive game."""
    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.tools.terminal import PlayOptions, play

    config = Config.load(args.config) if args.config else Config.from_mapping(
        {"store": {"url": "memory"}})
    config = config.with_overrides({
        "game.variant": args.variant, "game.mode": args.mode, "game.human_side": args.side,
        "game.touch_move": args.touch_move,
    })
    try:
        from engine.variant import find_variant

        find_variant(config["game.variant"])
    except ValueError as exc:
        raise ConfigError(f"game.variant: {exc}") from None
    options = PlayOptions(config=config, fen=args.fen, auto_execute=args.auto_execute,
                          colour=not args.no_colour and sys.stdout.isatty(),
                          virtual_time=args.virtual_time, level=args.level,
                          games_dir=args.games_dir)
    return play(options)
