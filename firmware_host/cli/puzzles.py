"""``draughtsboard puzzles``: build a puzzle collection from games, or list one.

``puzzles build`` plays ``--games`` seeded self-play games between two strength levels and
reads the games of ``--pdn`` files, finds the positions where exactly one move wins (at least
a man, a king or the game, every other move nothing: engine/puzzles.py, docs/coach.md) and
writes them as a PDN collection. The shipped collections (``engine/data/puzzles_*.pdn``) were
made by it; docs/coach.md gives the commands. ``puzzles list`` prints a collection, one line a
puzzle. ``puzzles mistakes`` fills a player's mistake book (and their mistakes per game) from
their games, ``puzzles progress`` shows the player's puzzle rating, puzzles solved and
mistakes per game month by month (firmware_host/coach/progress.py).

>>> from firmware_host.cli import main
>>> main(["puzzles", "list", "--variant", "russian"])  # doctest: +ELLIPSIS
russian-001  difficulty ...
...
0
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from engine import Board
    from engine.puzzles import Puzzle


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``puzzles build``, ``list``, ``mistakes`` and ``progress``."""
    parser = subparsers.add_parser(
        "puzzles", help="build a puzzle collection from games, or list one",
        description="Find the positions of games where exactly one move wins, checked to a "
                    "stated depth (docs/coach.md).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    build = actions.add_parser(
        "build", help="find puzzles in self-play and recorded games, write them as PDN",
        description="Play seeded self-play games and read PDN files, and write the puzzles "
                    "found in them as one PDN collection.")
    build.add_argument("--variant", metavar="NAME", required=True,
                       help="variant of the self-play games and of the collection")
    build.add_argument("--games", metavar="N", type=int, default=20,
                       help="self-play games to play (default 20; 0: only the --pdn files)")
    build.add_argument("--levels", metavar="LEVELS", default="4,6",
                       help="the two strength levels of the self-play games, 1-9 "
                            "(default 4,6: weak enough to leave shots)")
    build.add_argument("--seed", metavar="N", type=int, default=0,
                       help="the first self-play game's seed (default 0)")
    build.add_argument("--pdn", metavar="FILE", type=Path, action="append", default=[],
                       help="a PDN file whose games of the variant are searched too (repeat "
                            "for more)")
    build.add_argument("--depth", metavar="N", type=int, default=None,
                       help="plies every puzzle is verified to (default 7)")
    build.add_argument("--most", metavar="N", type=int, default=None,
                       help="keep at most this many puzzles, spread over the difficulties")
    build.add_argument("-o", "--out", metavar="FILE", type=Path,
                       help="write the collection here (default: standard output)")
    build.add_argument("--quiet", action="store_true",
                       help="no progress and summary lines on standard error")
    build.set_defaults(run=run)
    show = actions.add_parser(
        "list", help="print a collection: one line a puzzle",
        description="Print the puzzles that ship for a variant, or those of a file.")
    show.add_argument("--variant", metavar="NAME", required=True, help="variant, e.g. russian")
    show.add_argument("--file", metavar="FILE", type=Path,
                      help="a collection written by `puzzles build` (default: the shipped one)")
    show.set_defaults(run=run)
    mine = actions.add_parser(
        "mistakes", help="add the wins a player missed in their games to their mistake book",
        description="Read a player's games (annotated by `draughtsboard annotate`, or "
                    "analysed now), find the positions where they erred and exactly one move "
                    "won, and keep them as puzzles in the player's mistake book "
                    "(docs/coach.md).")
    mine.add_argument("files", metavar="FILE.pdn", type=Path, nargs="+",
                      help="PDN files of games; those the player played in are read")
    mine.add_argument("--player", metavar="NAME", required=True,
                      help="the player, as the games' White or Black tag names them")
    mine.add_argument("--depth", metavar="N", type=int, default=8,
                      help="plies each position of a game not yet annotated is searched "
                           "(default 8)")
    mine.add_argument("--config", metavar="FILE",
                      help="configuration file (for coach.mistakes_dir)")
    mine.add_argument("--book", metavar="DIR",
                      help="the mistake books' folder (default: coach.mistakes_dir, "
                           "~/.local/share/draughtsboard/mistakes)")
    mine.set_defaults(run=run)
    progress = actions.add_parser(
        "progress", help="a player's puzzle rating, puzzles solved and mistakes per game",
        description="Show a player's puzzle rating (Glicko-2, from `play --puzzles "
                    "--player`), the puzzles they tried and solved, and their mistakes per "
                    "game month by month (from `puzzles mistakes`) (docs/coach.md).")
    progress.add_argument("--player", metavar="NAME", required=True,
                          help="the player, as --player named them")
    progress.add_argument("--config", metavar="FILE",
                          help="configuration file (for coach.mistakes_dir)")
    progress.add_argument("--book", metavar="DIR",
                          help="the mistake books' folder (default: coach.mistakes_dir, "
                               "~/.local/share/draughtsboard/mistakes)")
    progress.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build or list; bad input is one line on stderr and status 2."""
    from engine import DraughtsError, find_variant

    if args.action == "mistakes":
        return _mistakes(args)
    if args.action == "progress":
        return _progress(args)
    try:
        variant = find_variant(args.variant).name
        if find_variant(variant).giveaway:
            raise ValueError(f"{variant} is a giveaway variant: it has no puzzles here")
        if args.action == "list":
            return _list(variant, args.file)
        return _build(variant, args)
    except (OSError, DraughtsError, ValueError) as exc:
        print(f"draughtsboard puzzles: {exc}", file=sys.stderr)
        return 2


def _mistakes(args: argparse.Namespace) -> int:
    """Add the player's missed wins to their book; bad input is one line and status 2."""
    from engine import DraughtsError
    from engine.pdn import read_games
    from firmware_host.coach.book import BookError, MistakeBook, marks, missed_wins, sides_of
    from firmware_host.coach.progress import ProgressBook, game_mistakes
    from firmware_host.config import places
    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.config.schema import COACH_MISTAKES_DIR

    try:
        if not 1 <= args.depth <= 20:
            raise ValueError(f"--depth must be 1 to 20, not {args.depth}")
        config = Config.load(args.config) if args.config else Config.from_mapping({})
        folder = places.check_writable(args.book or config[COACH_MISTAKES_DIR],
                                       COACH_MISTAKES_DIR.path, "--book")
        book = MistakeBook(folder)
        book.path(args.player)  # a name that names nobody: said before any work
        games = [(game, f"{path.name} game {number}") for path in args.files
                 for number, game in enumerate(read_games(path.read_bytes()), start=1)]
        theirs = [(game, source) for game, source in games if sides_of(game, args.player)]
        found, played = [], []
        for game, source in theirs:
            marked = marks(game, args.depth)
            found += missed_wins(game, args.player, args.depth, source, marked)
            played.append(game_mistakes(game, args.player, marked, source))
        added = book.add(args.player, found)
        total = len(book.load(args.player))
        ProgressBook(folder).games(args.player, [g for g in played if g is not None])
    except (OSError, DraughtsError, ValueError, ConfigError, BookError) as exc:
        print(f"draughtsboard puzzles: {exc}", file=sys.stderr)
        return 2
    print(f"{args.player}: {len(theirs)} of {len(games)} games theirs, {len(found)} missed "
          f"wins, {added} new in the mistake book ({total} in all): {book.path(args.player)}")
    return 0


def _progress(args: argparse.Namespace) -> int:
    """Print a player's progress; bad input is one line and status 2."""
    from firmware_host.coach.book import BookError
    from firmware_host.coach.progress import ProgressBook, by_month
    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.config.schema import COACH_MISTAKES_DIR

    try:
        config = Config.load(args.config) if args.config else Config.from_mapping({})
        book = ProgressBook(args.book or config[COACH_MISTAKES_DIR])
        progress = book.load(args.player)
    except (OSError, ValueError, ConfigError, BookError) as exc:
        print(f"draughtsboard puzzles: {exc}", file=sys.stderr)
        return 2
    rating = progress.rating
    share = f" ({100 * progress.solved / progress.tried:.0f}%)" if progress.tried else ""
    print(f"{args.player}\n"
          f"puzzle rating  {rating.shown()}  (deviation {rating.rd:.0f}"
          f"{', provisional' if rating.provisional else ''})\n"
          f"puzzles        {progress.tried} tried, {progress.solved} solved{share}, "
          f"{len(progress.rated)} different")
    months = by_month(progress.games)
    if not months:
        print("games          none analysed yet (draughtsboard puzzles mistakes)")
        return 0
    print("mistakes a game (? and ??), by month:")
    print("  month      games  mistakes  of them ??")
    for month, games, errors, blunders in months:
        print(f"  {month:<9} {games:>6}  {errors:>8.1f}  {blunders:>10.1f}")
    return 0


def _list(variant: str, file: Path | None) -> int:
    from engine.puzzles import load, read_collection

    puzzles = load(variant) if file is None else read_collection(file.read_bytes())
    for puzzle in puzzles:
        board = puzzle.board()
        print(f"{puzzle.number or '-'}  difficulty {puzzle.difficulty}  "
              f"{','.join(puzzle.motifs) or '-'}  {puzzle.fen}  "
              f"{board.move_notation(puzzle.solution)}")
    return 0


def _build(variant: str, args: argparse.Namespace) -> int:
    from engine.puzzles import DEPTH, collect, select, write_collection

    levels = _levels(args.levels)
    depth = DEPTH if args.depth is None else args.depth
    for name, value in (("--games", args.games), ("--depth", depth), ("--most", args.most)):
        if value is not None and value < (0 if name == "--games" else 1):
            raise ValueError(f"{name} must be {'0' if name == '--games' else '1'} or more, "
                             f"not {value}")
    recorded = _recorded(variant, args.pdn)  # read first: a bad file fails before any play
    started = time.monotonic()
    found: list[Puzzle] = []
    games = plies = 0
    for board, source in _games(variant, args, levels, recorded):
        games += 1
        plies += board.ply
        for puzzle in collect([(board, source)], depth):
            if puzzle.fen not in {p.fen for p in found}:
                found.append(puzzle)
        if not args.quiet:
            print(f"\rgames {games}, plies {plies}, puzzles {len(found)}", end="",
                  file=sys.stderr, flush=True)
    kept = select(found, len(found) if args.most is None else args.most)
    numbered = [_numbered(p, variant, i) for i, p in enumerate(kept, start=1)]
    text = write_collection(numbered)
    if not args.quiet:
        per_100 = 100 * len(found) / games if games else 0.0
        print(f"\r{variant}: {games} games, {plies} plies, {len(found)} puzzles "
              f"({per_100:.0f} per 100 games), {len(numbered)} written, depth {depth}, "
              f"{time.monotonic() - started:.0f} s", file=sys.stderr)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


def _levels(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"--levels takes two levels, e.g. 4,6, not {text!r}")
    first, second = (int(p) for p in parts)
    if not (1 <= first <= 9 and 1 <= second <= 9):
        raise ValueError(f"--levels are 1-9 (level 10 plays by the clock), not {text!r}")
    return first, second


def _recorded(variant: str, files: list[Path]) -> list[tuple[Board, str]]:
    from engine.pdn import read_games

    games = []
    for path in files:
        for number, game in enumerate(read_games(path.read_bytes(), variant=variant), start=1):
            if game.variant.name == variant:
                games.append((game.board(), f"{path.name} game {number}"))
    return games


def _games(variant: str, args: argparse.Namespace, levels: tuple[int, int],
           recorded: list[tuple[Board, str]]) -> Iterator[tuple[Board, str]]:
    from engine.selfplay import play_games

    yield from recorded
    for number, board in enumerate(play_games(variant, args.games, args.seed, levels)):
        pair = levels if number % 2 == 0 else levels[::-1]
        yield board, f"self-play, levels {pair[0]}-{pair[1]}, seed {args.seed + number}"


def _numbered(puzzle: Puzzle, variant: str, number: int) -> Puzzle:
    from dataclasses import replace

    return replace(puzzle, number=f"{variant}-{number:03d}")
