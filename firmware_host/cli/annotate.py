"""``draughtsboard annotate``: every move of a PDN game judged by the engine, written back as PDN.

Each move gets its evaluation as a comment (``{[%eval 0.35]}``, White's point of view, in men;
``#N`` a forced win), the weak ones ``?!``, ``?`` or ``??`` and the better move with its line as
a variation, the only good ones ``!`` (engine/analysis.py; what the marks mean:
docs/coach.md). Every game of the file is annotated; the copy keeps the games' tags and
comments, and the analysis replaces their own signs and variations.

>>> import pathlib, tempfile
>>> from firmware_host.cli import main
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "game.pdn").write_text('[GameType "25"]\\n1. c3-d4 f6-g5 *\\n')
>>> main(["annotate", str(folder / "game.pdn"), "--depth", "2", "--quiet"])
... # doctest: +ELLIPSIS
[Event "?"]
...
[Annotator "draughtsboard, depth 2"]
<BLANKLINE>
1. c3-d4 {[%eval ...]} f6-g5... *
0
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.analysis import GameAnalysis
    from engine.pdn import PdnGame
    from engine.search import Limit

#: The depth analysed when neither --depth nor --movetime is given (docs/coach.md: the
#: seconds a game takes at this depth on a Raspberry Pi).
DEFAULT_DEPTH = 8


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``annotate``."""
    parser = subparsers.add_parser(
        "annotate", help="analyse every move of a PDN game and write it back annotated",
        description="Search every position of each game in a PDN file and write the games "
                    "back with the evaluation after each move ({[%%eval 0.35]}, in men), "
                    "?!, ? and ?? on weak moves with the better line, ! on the only good "
                    "move (docs/coach.md).")
    parser.add_argument("game", metavar="GAME.pdn", type=Path,
                        help="the PDN file to analyse (every game in it)")
    parser.add_argument("-o", "--out", metavar="FILE", type=Path,
                        help="write the annotated PDN here (default: standard output)")
    strength = parser.add_mutually_exclusive_group()
    strength.add_argument("--depth", metavar="N", type=int,
                          help=f"search each position this many plies (default "
                               f"{DEFAULT_DEPTH})")
    strength.add_argument("--movetime", metavar="SECONDS", type=float,
                          help="search each position this many seconds of CPU time")
    parser.add_argument("--variant", metavar="NAME",
                        help="variant of games without a GameType tag (default: guessed)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress and summary lines on standard error")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Annotate the file; an unreadable file, game or option is one line on stderr and 2."""
    from engine import DraughtsError
    from engine.pdn import read_games

    try:
        limit = _limit(args)
        games = read_games(args.game.read_bytes(), variant=args.variant)
    except (OSError, DraughtsError, ValueError) as exc:
        print(f"draughtsboard annotate: {exc}", file=sys.stderr)
        return 2
    if not games:
        print(f"draughtsboard annotate: no game in {args.game}", file=sys.stderr)
        return 2
    texts = [_annotated(game, number, len(games), limit, args.quiet)
             for number, game in enumerate(games, start=1)]
    text = "\n".join(texts)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"draughtsboard annotate: {exc}", file=sys.stderr)
        return 2
    return 0


def _limit(args: argparse.Namespace) -> Limit:
    from engine.search import Limit

    if args.movetime is not None:
        if not 0 < args.movetime < 1e6:  # not nan, not inf
            raise ValueError(f"--movetime must be more than 0 seconds, not {args.movetime}")
        return Limit(movetime=args.movetime)
    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    if depth < 1:
        raise ValueError(f"--depth must be 1 or more, not {depth}")
    return Limit(depth=depth)


def _annotated(game: PdnGame, number: int, total: int, limit: Limit, quiet: bool) -> str:
    """One game analysed and written as PDN."""
    from engine.analysis import analyse
    from engine.clock import SearchClock
    from engine.pdn import write_game
    from engine.search import Searcher

    started = time.monotonic()

    def progress(done: int, positions: int) -> None:
        if not quiet:
            print(f"\rgame {number}/{total}: position {done}/{positions}", end="",
                  file=sys.stderr, flush=True)

    searcher = Searcher(game.variant, clock=SearchClock() if limit.timed else None)
    analysis = analyse(game.board(), searcher, limit, progress=progress)
    if not quiet:
        print(f"\r{_summary(game, number, total, analysis)} "
              f"({time.monotonic() - started:.1f} s)", file=sys.stderr)
    comments = {key: list(texts) for key, texts in game.comments.items()}
    for key, texts in analysis.comments().items():
        comments.setdefault(key, []).extend(texts)
    headers = dict(game.headers)
    headers["Annotator"] = f"draughtsboard, {_limit_words(limit)}"
    return write_game(headers, game.moves, game.result, variant=game.variant,
                      start_fen=game.start_fen, comments=comments,
                      annotations=analysis.annotations(), variations=analysis.variations())


def _limit_words(limit: Limit) -> str:
    if limit.movetime is not None:
        return f"{limit.movetime:g} s a position"
    return f"depth {limit.depth}"


def _summary(game: PdnGame, number: int, total: int, analysis: GameAnalysis) -> str:
    from engine import BLACK, WHITE
    from engine.analysis import Judgement

    parts = []
    for side, tag in ((WHITE, "White"), (BLACK, "Black")):
        counts = [f"{analysis.count(side, j)}{j.sign}" for j in
                  (Judgement.INACCURACY, Judgement.MISTAKE, Judgement.BLUNDER)]
        name = game.headers.get(tag, "").strip()
        parts.append(f"{name if name not in ('', '?') else tag} {' '.join(counts)}")
    return f"game {number}/{total}: {len(analysis.moves)} moves; " + "; ".join(parts)
