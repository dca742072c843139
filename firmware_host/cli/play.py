"""``draughtsboard play``: play on a simulated board in the terminal (no hardware needed)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from firmware_host.cli.options import add_language, add_settings, setting_overrides
from firmware_host.config import places
from firmware_host.config.schema import (
    BOARD_LANGUAGE,
    COACH_START,
    GAME_HUMAN_SIDE,
    STORE_GAMES_DIR,
)
from firmware_host.terms.commands import SIDES
from firmware_host.terms.settings import ENGINE_LEVEL, GAME_VARIANT

if TYPE_CHECKING:
    from engine.puzzles import Puzzle
    from firmware_host.tools.terminal import PlayOptions


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
    add_settings(parser, defaults={ENGINE_LEVEL.key: 3})  # --variant, --mode, --level, ...
    parser.add_argument("--side", choices=SIDES, help="the side you play")
    parser.add_argument("--fen", metavar="FEN",
                        help="start from this position, set up by the lights from the start "
                             "position on the board ('fix' does what they show)")
    add_language(parser)
    parser.add_argument("--games-dir", metavar="DIR",
                        help="write the games' PDN files here (default: store.games_dir of "
                             "--config, else ~/.local/share/draughtsboard/games, "
                             "$XDG_DATA_HOME/draughtsboard/games where that is set)")
    parser.add_argument("--no-save", action="store_true", help="write no PDN files")
    parser.add_argument("--auto-execute", action="store_true",
                        help="carry out the computer's replies on the board for you")
    parser.add_argument("--no-colour", action="store_true", help="draw without ANSI colours")
    parser.add_argument("--virtual-time", action="store_true",
                        help="run in virtual time (instant; for scripts and tests)")
    parser.add_argument("--puzzles", action="store_true",
                        help="solve puzzles of the variant instead of a game: the player's "
                             "own missed wins first (--player), then those that ship "
                             "(docs/coach.md)")
    parser.add_argument("--drills", action="store_true",
                        help="the drills of the physical rules instead of a game: each "
                             "position set up by the lights, the question asked, the hand "
                             "watched, the verdict said (docs/coach.md)")
    parser.add_argument("--player", metavar="NAME",
                        help="with --puzzles: whose mistake book to offer first, and whose "
                             "puzzle rating the puzzles move")
    parser.add_argument("--book", metavar="DIR",
                        help="the mistake books' folder (default: coach.mistakes_dir, "
                             "~/.local/share/draughtsboard/mistakes)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the interactive game."""
    from firmware_host.config.loader import Config, check_variant
    from firmware_host.tools.terminal import PlayOptions, play

    config = Config.load(args.config) if args.config else Config.from_mapping(
        {"store": {"url": "memory"}})
    config = config.with_overrides({**setting_overrides(args), GAME_HUMAN_SIDE: args.side,
                                    BOARD_LANGUAGE: args.language})
    check_variant(config[GAME_VARIANT],
                  "command line" if args.variant is not None else config.source)
    from firmware_host.app.logsetup import configure

    # What a player must know is printed as a message; the log shows only what went wrong.
    configure("error")
    games_dir = None
    if not args.no_save:  # the user's own games directory unless the config or --games-dir say
        games_dir = str(places.check_writable(args.games_dir or config[STORE_GAMES_DIR],
                                              STORE_GAMES_DIR.path, "--games-dir"))
    options = PlayOptions(config=config, fen=args.fen, auto_execute=args.auto_execute,
                          colour=not args.no_colour and sys.stdout.isatty(),
                          virtual_time=args.virtual_time, level=args.level,
                          games_dir=games_dir, set_up=args.fen is not None)
    if args.drills:
        if args.puzzles or args.fen:
            print("draughtsboard play: --drills sets its own positions (no --puzzles, --fen)",
                  file=sys.stderr)
            return 2
        # The board's own drills, as its drills button starts them (coach.start).
        return play(replace(options, config=options.config.with_overrides(
            {COACH_START: "drills"})))
    if args.puzzles or args.player:
        return _puzzles(options, args)
    return play(options)


def _puzzles(options: PlayOptions, args: argparse.Namespace) -> int:
    """The puzzles of the variant, the player's own first; a bad option is one line, 2."""
    from firmware_host.coach.book import BookError
    from firmware_host.coach.lessons import offer
    from firmware_host.coach.progress import ProgressBook, RatingChange
    from firmware_host.config.schema import COACH_MISTAKES_DIR
    from firmware_host.tools.puzzles import play_puzzles

    variant = options.config[GAME_VARIANT]
    try:
        if not args.puzzles:
            raise BookError("--player goes with --puzzles")
        if args.fen:
            raise BookError("--fen and --puzzles: a puzzle sets its own position")
        folder = args.book or options.config[COACH_MISTAKES_DIR]
        progress = ProgressBook(folder)
        offered = offer(variant, folder, args.player or "")
    except BookError as exc:
        print(f"draughtsboard play: {exc}", file=sys.stderr)
        return 2
    if not offered:
        print(f"draughtsboard play: no puzzles for {variant} (they ship for international, "
              f"russian and english; draughtsboard puzzles build makes more)", file=sys.stderr)
        return 2
    player = args.player

    def rate(puzzle: Puzzle, solved: bool) -> RatingChange:
        return progress.attempt(player, puzzle, solved)

    return play_puzzles(replace(options, games_dir=None), offered,
                        rate=None if player is None else rate)
