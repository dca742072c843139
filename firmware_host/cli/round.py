"""``draughtsboard round``: a tournament round from its pairing list to its games and results.

``round import FILE.csv`` checks a pairing list (``board,white,black,round,event``) and merges it
into that event's round in Redis, where each listed board finds the PDN tags of its next game
(``round import FILE.trf --round N``: the pairings of round N of a pairing program's FIDE TRF
export, boards numbered in the program's board order); ``--dry-run`` says what it would do.
``round export --round N`` writes the round's PDN (board order), its results table (CSV), the
results as the pairing program's TRF (a round imported from a TRF) and the arbiter's decisions.
docs/tournament.md.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_host.config.schema import STORE_URL
from firmware_host.errors import ExitCode

if TYPE_CHECKING:
    import redis

PROG = "draughtsboard round"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``round import`` and ``round export``."""
    parser = subparsers.add_parser(
        "round", help="import a round's pairing list, export its games and results",
        description="import FILE.csv: the pairing list (columns board,white,black,round,event; "
                    "separated by , or ;) names the next game on each listed board, merged "
                    "into that event's round: other boards of the round are kept (a match "
                    "between clubs: columns white_board,black_board,white,black,round,event, "
                    "this hall's rows imported and its boards paired with the other club's; a "
                    "pairing "
                    "program's TRF file with --round N: that round's pairings, boards numbered "
                    "as the program prints them). export --round N: the round's games as one "
                    "PDN file, in board order, its results as CSV, as the TRF for the pairing "
                    "program, and the arbiter's decisions.")
    parser.add_argument("action", choices=("import", "export"),
                        help="import a pairing list, or export a round's games and results")
    parser.add_argument("file", nargs="?", metavar="FILE.csv",
                        help="import: the pairing list (CSV, or a TRF file)")
    parser.add_argument("--round", metavar="N",
                        help="export: the round (as in the list); import of a TRF: the round "
                             "whose pairings are read")
    parser.add_argument("--event", metavar="NAME",
                        help="export: the event whose round N (when several events have one)")
    parser.add_argument("--board-prefix", metavar="PREFIX", default=None,
                        help="import of a TRF: board ids are PREFIX and the board's number "
                             "(default board: board1, board2, ...)")
    parser.add_argument("--encoding", metavar="NAME", default="utf-8",
                        choices=("utf-8", "cp1252", "latin-1"),
                        help="import: the file's encoding (utf-8, or cp1252 / latin-1 for a "
                             "file Excel or an older program saved; default utf-8)")
    parser.add_argument("--dry-run", action="store_true",
                        help="import: print the boards and names the import would give, and "
                             "import nothing")
    parser.add_argument("--pdn", metavar="FILE",
                        help="export: where the PDN goes (default round-N.pdn; - for stdout)")
    parser.add_argument("--results", metavar="FILE",
                        help="export: where the results table goes (default round-N.csv)")
    parser.add_argument("--trf", metavar="FILE",
                        help="export: where the TRF with the round's results goes (default "
                             "round-N.trf; a round imported from a TRF)")
    parser.add_argument("--decisions", metavar="FILE",
                        help="export: where the arbiter's decisions go (default "
                             "round-N-decisions.csv)")
    parser.add_argument("--config", metavar="FILE", help="configuration file (for store.url)")
    parser.add_argument("--store", metavar="URL", help="redis://host:port/db (the boards' Redis)")
    parser.set_defaults(run=run)


def _fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    """Import or export; every problem is one line on stderr and the exit code of
    :data:`firmware_host.errors.EXIT_CODES` (bad input 2, Redis unreachable 69)."""
    import redis

    from firmware_host.config.loader import Config, ConfigError
    from firmware_host.store import shown_url
    from firmware_host.store.connect import sync_client
    from firmware_host.store.outage.failures import exit_code_of

    try:
        config = Config.load(args.config) if args.config else Config.from_mapping({})
        config = config.with_overrides({STORE_URL: args.store})
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
        return _fail(f"Redis at {shown_url(url)}: {type(exc).__name__}: {exc}",
                     exit_code_of(exc))
    finally:
        client.close()


def _who() -> str:
    """Who imports, for the audit log: the account running the command."""
    try:
        return f"round import by {getpass.getuser()}"
    except (KeyError, OSError):
        return "round import"


def _import(client: redis.Redis, args: argparse.Namespace) -> int:
    from firmware_host.digits import is_whole_number
    from firmware_host.feedback.texts import plural
    from firmware_host.store.keys import BOARDS
    from firmware_host.tournament.rounds import import_round, read_list
    from firmware_host.tournament.textfile import decode
    from firmware_host.tournament.trf import MAX_TRF_ROUNDS, ORDER_WORDS, is_trf

    if not args.file:
        return _fail("import needs the pairing list: round import FILE.csv")
    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        return _fail(f"{args.file}: cannot be read ({exc.strerror or exc})")
    text, problem = decode(data, args.encoding)
    if text is None:
        return _fail(f"{args.file}: {problem}")
    if is_trf(text) and not is_whole_number(args.round or "", 1, MAX_TRF_ROUNDS):
        return _fail(f"{args.file} is a TRF file: say which round, --round N (1 to "
                     f"{MAX_TRF_ROUNDS})")
    if args.board_prefix is not None and not is_trf(text):
        return _fail("--board-prefix is for a TRF file: a CSV list names its boards")
    known = {b.decode() if isinstance(b, bytes) else str(b)
             for b in client.smembers(BOARDS)}  # (a match list: this hall's rows)
    pairings, problems, trf = read_list(text, args.round or "", args.board_prefix, known)
    if problems:
        for found in problems:
            print(f"{PROG}: {args.file}: {found}", file=sys.stderr)
        print(f"{PROG}: nothing imported: correct the list and import it again",
              file=sys.stderr)
        return ExitCode.BAD_INPUT
    plan = import_round(client, pairings, _who(), trf=trf, dry_run=args.dry_run)
    if plan.problems:
        for found in plan.problems:
            print(f"{PROG}: {args.file}: {found}", file=sys.stderr)
        print(f"{PROG}: nothing imported: {plan.round.name} as imported before and this list "
              "do not agree", file=sys.stderr)
        return ExitCode.BAD_INPUT
    listed = {p.board for p in pairings}
    print(f"{plan.round.name}: {plural(len(plan.rows), 'board')}, {len(listed)} of them in "
          "this list "
          f"(the next game on each board added or replaced "
          f"{'would be' if args.dry_run else 'is'} named)")
    if trf:
        print(f"  ({ORDER_WORDS})")
    for row in plan.rows:
        unknown = ("" if row.board in known
                   else "  (no game recorded yet: is its board.id right?)")
        print(f"  {row.words()}{unknown}")
    for notice in plan.notices:
        print(f"  note: {notice}")
    if args.dry_run:
        print("dry run: nothing imported")
    return 0


def _export(client: redis.Redis, args: argparse.Namespace) -> int:
    from firmware_host.tournament.export import (
        decisions_csv,
        match_score,
        results_csv,
        round_games,
        round_pdn,
        round_trf,
    )
    from firmware_host.web.arbiter_words import audit_words

    if not args.round:
        return _fail("export needs the round: round export --round N")
    try:
        stored, games = round_games(client, args.round, args.event)
    except (LookupError, ValueError) as exc:
        return _fail(str(exc.args[0]) if exc.args else str(exc))
    stem = f"round-{args.round}"
    pdn_path = args.pdn or f"{stem}.pdn"
    results_path = args.results or f"{stem}.csv"
    decisions_path = args.decisions or f"{stem}-decisions.csv"
    trf_path = args.trf or f"{stem}.trf"
    left_out: list[str] = []
    try:
        trf, left_out = round_trf(stored, games)
    except LookupError as exc:
        if args.trf:
            return _fail(str(exc))
        trf = ""
    try:
        if pdn_path == "-":
            sys.stdout.write(round_pdn(games))
        else:
            Path(pdn_path).write_text(round_pdn(games), encoding="utf-8")
        Path(results_path).write_text(results_csv(games), encoding="utf-8")
        Path(decisions_path).write_text(decisions_csv(client, stored, audit_words),
                                        encoding="utf-8")
        if trf:
            Path(trf_path).write_bytes(trf.encode("utf-8"))
    except OSError as exc:
        return _fail(f"cannot write the round's files: {exc.strerror or exc}", ExitCode.FAILURE)
    missing = [g.pairing.board for g in games if g.game is None and g.decision is None]
    out = sys.stderr if pdn_path == "-" else sys.stdout
    print(f"{stored.name}: {len(games) - len(missing)} of {len(games)} games"
          + ("" if pdn_path == "-" else f" in {pdn_path}") + f", results in {results_path}"
          + (f", TRF in {trf_path}" if trf else "") + f", decisions in {decisions_path}",
          file=out)
    score = match_score(games)
    if score is not None:
        print(f"  match score: {score.words()} (this hall's boards first; {score.finished} of "
              f"{score.boards} games over)", file=out)
    if missing:
        print(f"  no game found on: {', '.join(missing)}", file=out)
    for reason in left_out:
        print(f"  not in the TRF: {reason}", file=out)
    return 0
