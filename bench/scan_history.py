"""A real Scan 2.0 given the game's history: not part of the test suite (CI never needs Scan).

bench/match.py sends Scan 2.0 the game as our engine sees it (:class:`bench.players.ScanHub1Player`:
``pos`` with the game's start, then its moves). This checks on the real program that Scan takes
that history and searches with it: in a position it is winning, it steers away from the move
that would repeat an earlier position of the game, where, given the position alone, it plays
that move. Each line reads ``ok`` or ``FAIL`` with its figures (exit status 1 on a failure)::

    .venv/bin/python bench/scan_history.py --scan /opt/scan/scan
    DRAUGHTSBOARD_SCAN=/opt/scan/scan draughtsboard bench scan_history

The position (two kings and four men against a king and two men, White to move, Scan White):
Scan's move ``40-1`` is answered by the king ``49-43``, and the kings go back (``1-40``,
``43-49``): the start stands on the board a second time. Given those four moves, ``40-1`` would
bring back the position after the first one, which Scan 2.0's search scores as a draw (a
position seen before since the last capture or man move, ``board.cpp``'s ``is_draw``).
Scan runs from its program's directory or ``--cwd`` (its ``scan.ini``, bitbases and weights),
book off.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.players import PeerError, ScanHub1Player
from engine import Board

#: Scan (White) to move, winning by its own score.
START = "W:WK17,K40,15,22,46,50:BK49,2,16"
#: Scan's move given the position alone, then a reply, then both kings back: the start again.
CYCLE = ("40-1", "49-43", "1-40", "43-49")
#: A score (hundredths of a man, Scan's own) that counts as winning.
WINNING = 150


def _game() -> Board:
    board = Board("international", START)
    for text in CYCLE:
        board.push(next(m for m in board.legal_moves if board.move_notation(m) == text))
    return board


def _scan(program: str, cwd: str, depth: int, history: bool) -> ScanHub1Player:
    return ScanHub1Player((program, "hub"), cwd, depth, history=history)


def _played(player: ScanHub1Player, board: Board) -> tuple[str, float | None]:
    """Scan's move in ``board`` (a new game: nothing learnt before) and its score."""
    player.new_game()
    last, words = player._search(board)
    return words[1], float(last[3]) if last else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--scan", default=os.environ.get("DRAUGHTSBOARD_SCAN"),
                        help="Scan 2.0's program, started as PROGRAM hub (default: the "
                             "DRAUGHTSBOARD_SCAN environment variable)")
    parser.add_argument("--cwd", help="Scan's directory, where its scan.ini and data/ are "
                                      "(default: its program's)")
    parser.add_argument("--depth", type=int, default=14,
                        help="Scan's depth (14: deep enough for it to print its score)")
    args = parser.parse_args(argv)
    if not args.scan:  # `draughtsboard bench` runs every script: without Scan there is no check
        print("no Scan given (--scan PATH or DRAUGHTSBOARD_SCAN): nothing checked")
        return 0
    program = str(Path(args.scan).resolve())
    cwd = args.cwd or str(Path(program).parent)
    game = _game()
    assert game.fen() == Board("international", START).fen(), "the cycle must come back"
    failures: list[str] = []

    def report(ok: bool, what: str, figures: str) -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {figures}", flush=True)
        if not ok:
            failures.append(what)

    try:
        blind = _scan(program, cwd, args.depth, False)
        seeing = _scan(program, cwd, args.depth, True)
    except (PeerError, OSError) as exc:
        print(f"FAIL Scan did not start: {exc}")
        return 1
    try:
        print(f"{seeing.engine_name} ({program}), depth {args.depth}; the game from {START}: "
              f"{' '.join(CYCLE)}")
        first, score = _played(blind, Board("international", START))
        report(first == CYCLE[0] and score is not None and score >= WINNING,
               "given the start, Scan plays the move the cycle repeats and is winning",
               f"{first}, score {score}")
        again, again_score = _played(blind, game)
        report(again == CYCLE[0], "given the position alone after the cycle, Scan repeats it",
               f"{again}, score {again_score}")
        seen, seen_score = _played(seeing, game)
        report(seen != CYCLE[0] and seen_score is not None and seen_score >= WINNING,
               "given the game, Scan steers away from the repetition and stays winning",
               f"{seen}, score {seen_score}")
    except PeerError as exc:
        report(False, "Scan answered", str(exc))
    finally:
        blind.close()
        seeing.close()
    print("all checks passed" if not failures else "FAILED: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
