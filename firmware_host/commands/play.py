"""``draughtsboard play``: play on a simulated board in the terminal (no hardware needed)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from firmware_host.cli_options import add_language, add_time_control
from firmware_host.config.schema import GAME_VARIANT, MODES, SIDES


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``play``."""
    parser = subparsers.add_parser(
        "play", help="play on a simulated board in the terminal",
        description="A simulated board drawn in the terminal with its LEDs. Type moves "
                    "(22-18, 22x13x4, c3:e5; on numbered boards also as drawn, d4-e5) or "
                    "'lift 22' / 'place 18', the buttons adjust, done, hint, takeback, "
                    "newgame, resign, draw, and 'fix' (do what the correction lights ask), "
                    "'help', 'quit'. Typed moves become lifts and placements, so the whole "
                    "board pipeline runs. docs/players.md.")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument("--variant", metavar="NAME", help="rules to play (name or alias)")
    parser.add_argument("--mode", choices=MODES, help="play (default), teach or record")
    parser.add_argument("--side", choices=SIDES, help="the side you play")
    parser.add_argument("--level", type=int, default=3, choices=range(1, 11), metavar="N",
                        help="the computer's strength, 1-10 (default 3)")
    parser.add_argument("--touch-move", choices=("strict", "off", "auto"),
                        help="touch-move rule (auto: strict in record mode only)")
    parser.add_argument("--fen", metavar="FEN", help="start from this position")
    add_language(parser)
    add_time_control(parser)
    parser.add_argument("--games-dir", metavar="DIR",
                        help="write the games' PDN files here (default: "
                             "$XDG_DATA_HOME/draughtsboard/games, "
                             "~/.local/share/draughtsboard/games without it)")
    parser.add_argument("--no-save", action="store_true", help="write no PDN files")
    parser.add_argument("--auto-execute", action="store_true",
                        help="carry out the computer's replies on the board for you")
    parser.add_argument("--no-colour", action="store_true", help="draw without ANSI colours")
    parser.add_argument("--virtual-time", action="store_true",
                        help="run in virtual time (instant; for scripts and tests)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the interactive game."""
    from firmware_host.config.loader import Config, check_variant
    from firmware_host.tools.terminal import PlayOptions, play

    config = Config.load(args.config) if args.config else Config.from_mapping(
        {"store": {"url": "memory"}})
    config = config.with_overrides({
        "game.variant": args.variant, "game.mode": args.mode, "game.human_side": args.side,
        "game.touch_move": args.touch_move, "clock.time_control": args.time_control,
        "board.language": args.language,
    })
    check_variant(config[GAME_VARIANT],
                  "command line" if args.variant is not None else config.source)
    from firmware_host.app.logsetup import configure

    # What a player must know is printed as a message; the log shows only what went wrong.
    configure("error")
    games_dir = None if args.no_save else (args.games_dir or str(default_games_dir()))
    options = PlayOptions(config=config, fen=args.fen, auto_execute=args.auto_execute,
                          colour=not args.no_colour and sys.stdout.isatty(),
                          virtual_time=args.virtual_time, level=args.level,
                          games_dir=games_dir)
    return play(options)


def default_games_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where ``play`` keeps its games: under the user's data directory (XDG).

    >>> str(default_games_dir({"XDG_DATA_HOME": "/data", "HOME": "/home/ann"}))
    '/data/draughtsboard/games'
    >>> str(default_games_dir({"HOME": "/home/ann"}))
    '/home/ann/.local/share/draughtsboard/games'
    """
    env = os.environ if environ is None else environ
    data = env.get("XDG_DATA_HOME", "")
    # The XDG rule: a relative XDG_DATA_HOME is invalid and ignored.
    base = Path(data) if os.path.isabs(data) else \
        Path(env.get("HOME") or Path.home()) / ".local" / "share"
    return base / "draughtsboard" / "games"
