"""``draughtsboard run``: the service (or a scripted run on the simulated board).

>>> from firmware_host.cli import build_parser
>>> from firmware_host.config.schema import BOARD_ID, STORE_URL
>>> from firmware_host.terms.settings import GAME_VARIANT
>>> args = build_parser().parse_args(["run", "--variant", "shashki", "--store", "memory",
...                                   "--board-id", "table7"])
>>> options = options_from_args(args)
>>> options.config[GAME_VARIANT], options.config[STORE_URL], options.script
('shashki', 'memory', None)
>>> options.config[BOARD_ID]
'table7'
"""

from __future__ import annotations

import argparse

from board_io.registry import LED_BACKEND, SENSOR_BACKEND
from firmware_host.app.options import RunOptions
from firmware_host.cli.options import (
    add_backends,
    add_language,
    add_settings,
    setting_overrides,
)
from firmware_host.config.loader import Config, ConfigError, check_variant
from firmware_host.config.schema import (
    BOARD_ID,
    BOARD_LANGUAGE,
    COACH_START,
    FOLLOW_SOURCE,
    REMOTE_OPPONENT,
    STORE_GAMES_DIR,
    STORE_URL,
)
from firmware_host.terms.settings import GAME_VARIANT


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``run``."""
    parser = subparsers.add_parser(
        "run", help="run the board service (or a scripted simulated board)",
        description="Run the board: scan the sensors, recognise moves, drive the LEDs, record "
                    "games. With --sensors sim --script FILE, play a file of timed lift/place/"
                    "press events in virtual time and exit.")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    add_settings(parser)  # --variant, --mode, --level, --touch-move, --time-control
    add_backends(parser)  # --sensors (--board), --leds
    parser.add_argument("--board-id", metavar="ID",
                        help="this board's id, as the web app and the store name it "
                             "(board.id; default board1)")
    parser.add_argument("--store", metavar="URL", help="memory or redis://host:port/db")
    parser.add_argument("--games-dir", metavar="DIR", help="where PDN files are written")
    parser.add_argument("--script", metavar="FILE",
                        help="sim board only: play this file of timed events, then exit")
    parser.add_argument("--realtime", action="store_true",
                        help="with --script: play it on the wall clock with the service's own "
                             "threads and store (it resumes a saved game like the service)")
    parser.add_argument("--occupied", metavar="SQUARES",
                        help="sim board only: the squares it starts with, comma-separated "
                             "(default: the start position)")
    parser.add_argument("--events", choices=("json",),
                        help="print every session event to stdout (one JSON object a line)")
    parser.add_argument("--fen", metavar="FEN", help="start new games from this position")
    parser.add_argument("--opponent", metavar="KIND:NAME",
                        help="remote:BOARD: play a person on the board BOARD (remote.opponent; "
                             "you play game.human_side; docs/remote.md)")
    parser.add_argument("--follow", metavar="SOURCE",
                        help="follow another game on this board: a board of the hall by its "
                             "id, or the URL of a PDN broadcast (#N: its Nth game); each move "
                             "lights for the hand to carry out (follow.source, docs/follow.md)")
    add_language(parser)
    parser.add_argument("--coach", choices=("puzzles", "drills"),
                        help="start with the coach's puzzles or drills, as their button does "
                             "(coach.start, docs/coach.md)")
    parser.add_argument("--verbose", action="store_true", help="debug logging")
    parser.set_defaults(run=run)


def options_from_args(args: argparse.Namespace) -> RunOptions:
    """Load the configuration and apply the command line to it.

    Raises:
        ConfigError: the file or an option is invalid.
    """
    config = Config.load(args.config) if args.config else Config.from_mapping({})
    config = config.with_overrides({
        **setting_overrides(args),
        SENSOR_BACKEND: args.board,
        BOARD_ID: args.board_id,
        LED_BACKEND: args.leds,
        STORE_URL: args.store,
        STORE_GAMES_DIR: args.games_dir,
        BOARD_LANGUAGE: args.language,
        FOLLOW_SOURCE: args.follow,
        COACH_START: args.coach,
        REMOTE_OPPONENT: _remote_board(args.opponent),
    })
    check_variant(config[GAME_VARIANT],
                  "command line" if args.variant is not None else config.source)
    _check_fen(config, args.fen)
    if args.realtime and args.script is None:
        raise ConfigError("--realtime plays a script: give --script FILE")
    if args.occupied is not None and config[SENSOR_BACKEND] != "sim":
        raise ConfigError("--occupied sets up the simulated board (--sensors sim)")
    return RunOptions(config=config, config_path=args.config, script=args.script,
                      events=args.events, fen=args.fen, verbose=args.verbose,
                      realtime=args.realtime, occupied=args.occupied)


def _remote_board(opponent: str | None) -> str | None:
    """The board of ``--opponent remote:BOARD`` (None: not given).

    Raises:
        ConfigError: another kind of opponent.
    """
    if opponent is None:
        return None
    kind, colon, board = opponent.partition(":")
    if kind != "remote" or not colon or not board:
        raise ConfigError(f"--opponent {opponent!r}: remote:BOARD (the engine is the default; "
                          "engine.kind chooses a Hub engine)")
    return board


def _check_fen(config: Config, fen: str | None) -> None:
    """A ``--fen`` must be a position of the variant, in service mode as in a scripted run."""
    if fen is None:
        return
    from engine import Board

    try:
        Board(config[GAME_VARIANT], fen=fen)
    except ValueError as exc:
        raise ConfigError(f"--fen: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Run the service, or the scripted simulated board when ``--script`` is given.

    Redis down is no error: the moves wait in the spool. What cannot be used (a broken URL, a
    spool_dir that cannot be created) is one line on stderr and the exit code of
    :data:`firmware_host.errors.EXIT_CODES`, as from every command.

    Raises:
        ConfigError: a bad option, or ``--script`` without the simulated board.
        StoreError: the store cannot be used.
    """
    options = options_from_args(args)
    if options.script is not None:
        if options.config[SENSOR_BACKEND] != "sim":
            raise ConfigError("--script needs the simulated board (--sensors sim)")
        from firmware_host.app.scripted import run_scripted

        return run_scripted(options)
    from firmware_host.app.service import run_service

    return int(run_service(options))
