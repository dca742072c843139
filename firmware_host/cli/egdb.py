"""``draughtsboard egdb``: build, check and describe the endgame tables.

Example::

    $ draughtsboard egdb build english --pieces 3 --out tables/
    english (0, 1, 0, 1): 1984 positions, 460 won, 216 lost, longest 11 plies (0.0 s)
    ...
    egdb_english.bin: 199272 positions (217808 entries), 30652 bytes, built in 5.7 s CPU
    $ draughtsboard egdb build --shipped          # rebuild every file in engine/data
    $ draughtsboard egdb verify tables/egdb_english.bin
    $ draughtsboard egdb info engine/data/egdb_russian.bin
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a piece count: {text!r}") from None
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"a piece count is 2..6, not {value}")
    return value


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``egdb``."""
    parser = subparsers.add_parser(
        "egdb", help="build, check and describe the endgame tables",
        description="Endgame tables (win/draw/loss and distance to conversion) built by "
                    "retrograde analysis with the engine's own move generator.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    build = actions.add_parser("build", help="build table files",
                               description="Build the tables of the named variants (default: "
                                           "every shipped one, at the shipped piece counts).")
    build.add_argument("variants", nargs="*", metavar="VARIANT",
                       help="variant names (default: all shipped)")
    where = build.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", metavar="DIR", help="folder to write egdb_<variant>.bin into")
    where.add_argument("--shipped", action="store_true",
                       help="write into the package's engine/data (rebuild the shipped files)")
    build.add_argument("--pieces", metavar="N", type=_count,
                       help="most pieces (default: the shipped count)")
    build.add_argument("--men-pieces", metavar="N", type=_count,
                       help="most pieces when some are men (default: --pieces)")
    build.add_argument("--against-one", action="store_true",
                       help="above --men-pieces, only kings against a lone king")
    build.add_argument("--no-verify", action="store_true",
                       help="skip the check of every position after the build")
    check = actions.add_parser("verify", help="check a table file against the move generator")
    check.add_argument("file", help="an egdb_<variant>.bin file")
    check.add_argument("--every", type=int, default=1, metavar="N",
                       help="check every N-th position only (default 1: all)")
    info = actions.add_parser("info", help="count wins, losses and draws per signature")
    info.add_argument("file", help="an egdb_<variant>.bin file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the action; bad input prints one error line and returns 2, problems return 1."""
    from engine.endgame import EndgameError
    from engine.errors import DraughtsError
    from firmware_host.tools import egdb

    try:
        if args.action == "build":
            folder = egdb.shipped_folder() if args.shipped else Path(args.out)
            reports = egdb.build_files(args.variants, folder, pieces=args.pieces,
                                       men_pieces=args.men_pieces, check=not args.no_verify,
                                       against_one=args.against_one)
            return 1 if any(r.problems for r in reports) else 0
        if args.every < 1 if args.action == "verify" else False:
            raise ValueError(f"--every must be >= 1, not {args.every}")
        path = Path(args.file)
        if args.action == "verify":
            problems = egdb.verify_file(path, every=args.every)
            for line in problems:
                print(line)
            print(f"{path.name}: {'ok' if not problems else f'{len(problems)} problems'}")
            return 1 if problems else 0
        for line in egdb.describe(path):
            print(line)
        return 0
    except (DraughtsError, EndgameError, ValueError, OSError) as exc:
        print(f"draughtsboard egdb: {exc}", file=sys.stderr)
        return 2
