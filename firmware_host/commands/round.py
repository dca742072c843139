"""``draughtsboard round``: a tournament round from its pairing list to its games and results.

``round import FILE.csv`` checks a pairing list (``board,white,black,round,event``) and keeps it
in Redis, where each listed board finds the PDN tags of its next game (``round import FILE.trf
--round N``: the pairings of round N of a pairing program's FIDE TRF export); ``round export --round
N`` writes the round's PDN (board order) and its results table (CSV). docs/tournament.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.config.schema import STORE_URL

if TYPE_CHECKING:
    import redis

PROG = "draughtsboard round"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``round import`` and ``round export``."""
    parser = subparsers.add_parser(
        "round", help="import a round's pairing list, export its games and results",
        description="import FILE.csv: the pairing list (columns board,white,black,round,event) "
                    "names the next game on each listed board (a pairing program's TRF file "
                    "with --round N: that round's pairings, boards numbered in their order). "
                    "export --round N: the round's "
                    "games as one PDN file, in board order, and its results as CSV.")
    parser.add_argument("action", choices=("import", "export"),
                        help="import a pairing list, or export a round's games and results")
    parser.add_argument("file", nargs="?", metavar="FILE.csv",
                        help="import: the pairing list (CSV, or a TRF file)")
    parser.add_argument("--round", metavar="N",
                        help="export: the round (as in the list); import of a TRF: the round "
                             "whose pairings are read")
    parser.add_argument("--board-prefix", metavar="PREFIX", default=None,
                        help="import of a TRF: board ids are PREFIX and the board's number "
                             "(default board: board1, board2, ...)")
    parser.add_argument("--pdn", metavar="FILE",
                        help="export: where the PDN goes (default round-N.pdn; - for stdout)")
    parser.add_argument("--results", metavar="FILE",
                        help="export: where the results table goes (default round-N.csv)")
    parser.add_argument("--config", metavar="FILE", help="configuration file (for store.url)")
    parser.add_argument("--store", metavar="URL", help="redis://host:port/db (the boards' Redis)")
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    """Import or export; every problem is one line on stderr and exit status 1."""
    import redis

    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.store import shown_url
    from firmware_host.store.connect import sync_client

    try:
        config = Config.load(args.config) if args.config else Config.from_mapping({})
        config = config.with_overrides({"store.url": args.store})
    except ConfigError as exc:
        return _fail(str(exc))
    url = config[STORE_URL]
    if url == "memory":
        return _fail("rounds live in the boards' Redis: give --store redis://host:port/db")
    try:
        client = sync_client(url, socket_timeout=5, socket_connect_timeout=5)
    except ValueError as exc:
        return _fail(f"store URL {shown_url(url)!r} is not valid: {exc}")
    try:
        return _import(client, args) if args.action == "import" else _export(client, args)
    except redis.RedisError as exc:
        return _fail(f"Redis at {shown_url(url)}: {type(exc).__name__}: {exc}")
    finally:
        client.close()


def _import(client: redis.Redis, args: argparse.Namespace) -> int:
    from firmware_host.digits import whole_number
    from firmware_host.store.keys import BOARDS
    from firmware_host.tournament.pairing import read_pairings, store_round
    from firmware_host.tournament.trf import DEFAULT_PREFIX, MAX_TRF_ROUNDS, is_trf, read_trf

    if not args.file:
        return _fail("import needs the pairing list: round import FILE.csv")
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"{args.file}: cannot be read ({getattr(exc, 'strerror', None) or exc})")
    if is_trf(text):
        try:
            round_number = whole_number(args.round or "", 1, MAX_TRF_ROUNDS)
        except ValueError:
            return _fail(f"{args.file} is a TRF file: say which round, --round N (1 to "
                         f"{MAX_TRF_ROUNDS})")
        pairings, problems = read_trf(text, round_number, args.board_prefix or DEFAULT_PREFIX)
    elif args.board_prefix is not None:
        return _fail("--board-prefix is for a TRF file: a CSV list names its boards")
    else:
        pairings, problems = read_pairings(text)
    if problems:
        for problem in problems:
            print(f"{PROG}: {args.file}: {problem}", file=sys.stderr)
        print(f"{PROG}: nothing imported: correct the list and import it again",
              file=sys.stderr)
        return 1
    store_round(client, pairings)
    known = {b.decode() if isinstance(b, bytes) else str(b)
             for b in client.smembers(BOARDS)}
    print(f"round {pairings[0].round}: {len(pairings)} boards; the next game on each is named")
    for p in pairings:
        unknown = "" if p.board in known else "  (no game recorded yet: is its board.id right?)"
        print(f"  {p.board}: {p.white} - {p.black}{unknown}")
    return 0


def _export(client: redis.Redis, args: argparse.Namespace) -> int:
    from firmware_host.tournament.export import results_csv, round_games, round_pdn

    if not args.round:
        return _fail("export needs the round: round export --round N")
    try:
        games = round_games(client, args.round)
    except (LookupError, ValueError) as exc:
        return _fail(str(exc.args[0]) if exc.args else str(exc))
    pdn_path = args.pdn or f"round-{args.round}.pdn"
    results_path = args.results or f"round-{args.round}.csv"
    try:
        if pdn_path == "-":
            sys.stdout.write(round_pdn(games))
        else:
            Path(pdn_path).write_text(round_pdn(games), encoding="utf-8")
        Path(results_path).write_text(results_csv(games), encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write the round's files: {exc.strerror or exc}")
    missing = [g.pairing.board for g in games if g.game is None]
    out = sys.stderr if pdn_path == "-" else sys.stdout
    print(f"round {args.round}: {len(games) - len(missing)} of {len(games)} games"
          + ("" if pdn_path == "-" else f" in {pdn_path}") + f", results in {results_path}",
          file=out)
    if missing:
        print(f"  no game found on: {', '.join(missing)}", file=out)
    return 0
