"""``draughtsboard games``: list recorded games, or export them all as one PDN file."""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.config.schema import BOARD_ID, STORE_GAMES_DIR, STORE_URL

if TYPE_CHECKING:
    from firmware_host.store import RedisStore


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``games`` and ``games export``."""
    parser = subparsers.add_parser(
        "games", help="list recorded games, or export them as PDN",
        description="List the games in the store (every board sharing the Redis with "
                    "--all-boards), or `games export > all.pdn` to write them as one PDN file. "
                    "Without --store or a config naming a Redis: the PDN files in the games "
                    "directory (what play and demo wrote: ~/.local/share/draughtsboard/games), "
                    "said first.")
    parser.add_argument("action", nargs="?", choices=("list", "export"), default="list",
                        help="list: one line a game (the default); export: the games as PDN "
                             "on stdout")
    parser.add_argument("--config", metavar="FILE",
                        help="configuration file (for store.url and board.id)")
    parser.add_argument("--store", metavar="URL",
                        help="memory or redis://host:port/db (overrides the config)")
    parser.add_argument("--board-id", metavar="ID", help="this board's id (overrides the config)")
    parser.add_argument("--games-dir", metavar="DIR",
                        help="the folder of PDN files listed when no Redis is named (default: "
                             "store.games_dir, ~/.local/share/draughtsboard/games)")
    parser.add_argument("--all-boards", action="store_true",
                        help="every board that shares the Redis, not just this one")
    parser.add_argument("--since", type=_parse_since, default=0.0, metavar="DATE",
                        help="only games started on or after DATE (YYYY-MM-DD or ISO time)")
    parser.set_defaults(run=run)


def _parse_since(text: str) -> float:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--since {text!r}: expected a date like 2026-11-29 or 2026-11-29T18:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def run(args: argparse.Namespace) -> int:
    """List or export the games; unreadable games are reported on stderr and skipped.

    A store that cannot be opened or read is one line on stderr and the exit code of
    :data:`firmware_host.errors.EXIT_CODES`: a bad URL 2, Redis down or a wrong password 69.
    """
    from firmware_host.config.loader import Config
    from firmware_host.errors import ConfigError, DraughtsboardError, say
    from firmware_host.store import open_store, shown_url

    who = "draughtsboard games"
    try:
        config = Config.load(args.config) if args.config else Config.from_mapping({})
        config = config.with_overrides({STORE_URL: args.store, BOARD_ID: args.board_id,
                                        STORE_GAMES_DIR: args.games_dir})
        if config[STORE_URL] == "memory":  # no Redis named: the games on this disk
            return _local(Path(config[STORE_GAMES_DIR]), args)
        store = open_store(config[STORE_URL], config[BOARD_ID], background_events=False)
    except DraughtsboardError as exc:
        return say(exc, who)
    except ValueError as exc:  # a URL that does not even split into parts
        return say(ConfigError(f"store URL {shown_url(args.store or '')!r} is not valid: {exc}"),
                   who)
    try:
        return _list_or_export(store, args)
    except DraughtsboardError as exc:
        return say(exc, f"{who}: cannot read the games")
    finally:
        store.close()


def _list_or_export(store: RedisStore, args: argparse.Namespace) -> int:
    from firmware_host.store import RecordError
    from firmware_host.store.pdnrender import render_game

    summaries = store.list_games(all_boards=args.all_boards, since=args.since)
    if args.action == "list":
        for s in summaries:
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(s.created))
            print(f"{s.board_id:10} {s.game_id:22} {started} {s.variant:22} "
                  f"{s.white or '?'} - {s.black or '?'} {s.result} ({s.moves} plies)")
        return 0
    for s in summaries:
        try:
            sys.stdout.write(render_game(store.load_game(s.game_id, s.board_id)) + "\n")
        except (RecordError, ValueError) as exc:
            print(f"draughtsboard games: game {s.game_id} skipped: {exc}", file=sys.stderr)
    return 0


def _local(directory: Path, args: argparse.Namespace) -> int:
    """List or export the PDN files of ``directory`` (newest last), said first on stderr
    (stdout stays the list or the PDN); a file that cannot be read is said and skipped."""
    from engine.pdn import PdnError, read_games
    from firmware_host.feedback.texts import plural

    files = sorted(directory.glob("*.pdn"), key=lambda path: path.stat().st_mtime) \
        if directory.is_dir() else []
    print(f"draughtsboard games: {plural(len(files), 'PDN file')} in {directory} (--store URL "
          "lists a hall's Redis)", file=sys.stderr)
    for path in files:
        if path.stat().st_mtime < args.since:
            continue
        try:
            text = path.read_text(encoding="utf-8")
            games = read_games(text)
        except (OSError, UnicodeDecodeError, PdnError) as exc:
            print(f"draughtsboard games: {path.name} skipped: {exc}", file=sys.stderr)
            continue
        if args.action == "export":
            sys.stdout.write(text.rstrip("\n") + "\n\n")
            continue
        for game in games:
            headers = game.headers
            print(f"{path.name:40} {headers.get('Date', '?'):10} {game.variant.name:22} "
                  f"{headers.get('White', '?')} - {headers.get('Black', '?')} {game.result} "
                  f"({plural(len(game.moves), 'ply', 'plies')})")
    return 0
