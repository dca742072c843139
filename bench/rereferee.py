"""Re-referee stored match games (bench/match.py ``--out`` files) under the current rules.

Each game is replayed from its opening; where the rules as they are now do not end it where it
ended (a draw counted one ply early by an older counting, say), it is played out by the engine
for both sides (full strength, ``--depth`` plies, the endgame tables) until the rules end it,
and the tally is given both ways, from our engine's side, per pair of players. A game that ended
at the ply cap, or that the rules still end where it ended, keeps its result. A play-out in
which every move was the only legal one (a capture the rules force) settles the game by the
rules (so does a last move whose every choice ends the game with one result); one in which the
engine chose a move, for either side, does not: such a game is
*unsettled*, its result the engine's guess for both players, and the tallies are given once more
without those games.

Run: ``.venv/bin/python bench/rereferee.py bench/data/match-5e39860-scan8-*.json``

Example (the game of issue 27: 35x13 made one king each; the old counting drew it after 28-23,
one ply before White's 18x29):

>>> game = {"fen": "W:WK35:B24,K46", "opening": "", "white": "draughtsboard 1 s",
...         "black": "peer", "result": "1/2-1/2", "reason": "fmjd-5-moves",
...         "moves": "35x13 46-41 13-4 41-37 4-15 37-32 15-4 32-28 4-18 28-23".split()}
>>> rereferee(game, Searcher("international"), depth=4)
('1-0', 'no_moves', 1, 0)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tally import Tally
from engine import Board
from engine.search import Limit, Searcher

__all__ = ["rereferee"]

_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def rereferee(game: dict[str, Any], searcher: Searcher, depth: int = 12,
              max_plies: int = 300) -> tuple[str, str, int, int]:
    """``(result, reason, plies played out, of which chosen)`` of ``game`` under the current
    rules: a chosen ply had more than one legal move, not all ending the game alike (the
    engine chose it)."""
    board = Board(searcher.variant, game["fen"]) if game.get("fen") else Board(searcher.variant)
    for text in str(game.get("opening", "")).split() + list(game["moves"]):
        board.push(board.parse_move(text))
    outcome = board.outcome()
    if outcome is not None or str(game["reason"]).startswith("ply cap"):
        return str(game["result"]), str(game["reason"]), 0, 0
    played = chosen = 0
    while (outcome := board.outcome()) is None and played < max_plies:
        chosen += _a_choice(board)
        result = searcher.search(board, Limit(depth=depth))
        assert result.move is not None  # a game not over has a legal move
        board.push(result.move)
        played += 1
    if outcome is None:
        return "1/2-1/2", f"played out to {max_plies} plies", played, chosen
    winner = outcome.winner
    text = "1/2-1/2" if winner is None else ("1-0" if int(winner) == 0 else "0-1")
    return text, outcome.rule or outcome.termination.name.lower(), played, chosen


def _a_choice(board: Board) -> bool:
    """Whether the move played here decides anything: two legal moves or more, and not all of
    them ending the game with the same result (a forced capture of the last piece, whichever
    way; a draw by the count or by repetition, whichever move)."""
    ends = set()
    for move in board.legal_moves:
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if outcome is None:
            return len(board.legal_moves) > 1
        ends.add(outcome.winner)  # a draw by one rule or by another is a draw
    return len(ends) > 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--depth", type=int, default=12, help="the play-out's depth (12)")
    parser.add_argument("--ours", default="draughtsboard", help="our players' name prefix")
    args = parser.parse_args(argv)
    total_old, total_new, total_settled = Tally(), Tally(), Tally()
    unsettled_total = 0
    for path in args.files:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            games = list(data["games"])
            searcher = Searcher(str(data.get("variant", "international")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"{path}: not a games file of bench/match.py ({exc!r})", file=sys.stderr)
            return 2
        # Per pair of players (ours, the peer): as stored, re-refereed, settled games only.
        pairs: dict[tuple[str, str], tuple[Tally, Tally, Tally]] = {}
        changes = []
        unsettled = 0
        for number, game in enumerate(games, start=1):
            result, reason, played, chosen = rereferee(game, searcher, args.depth)
            white, black = str(game["white"]), str(game["black"])
            ours_white = white.startswith(args.ours)
            pair = (white, black) if ours_white else (black, white)
            old, new, settled = pairs.setdefault(pair, (Tally(), Tally(), Tally()))
            for tally, text in ((old, str(game["result"])), (new, result), (settled, result)):
                if tally is settled and chosen:
                    continue
                points = _POINTS[text]
                tally.add(points if ours_white else 1.0 - points)
            unsettled += chosen > 0
            if result != game["result"] or chosen:
                note = f", the engine chose {chosen} of them: unsettled" if chosen else ""
                changes.append(f"game {number}: {game['result']} ({game['reason']}) -> "
                               f"{result} ({reason}, {played} plies more{note})")
        old, new, settled = (_sum(t[i] for t in pairs.values()) for i in range(3))
        for total, part in ((total_old, old), (total_new, new), (total_settled, settled)):
            total.wins += part.wins
            total.draws += part.draws
            total.losses += part.losses
        unsettled_total += unsettled
        print(f"{path}: as stored {old}; re-refereed {new}" + (
            f"; {unsettled} unsettled, the settled games {settled}" if unsettled else ""))
        if len(pairs) > 1:
            for (ours, peer), (p_old, p_new, p_settled) in sorted(pairs.items()):
                print(f"  {ours} v {peer}: as stored {p_old}; re-refereed {p_new}" + (
                    f"; settled {p_settled}" if p_settled.games < p_new.games else ""))
        for line in changes:
            print(f"  {line}")
    if len(args.files) > 1:
        print(f"all: as stored {total_old}; re-refereed {total_new}" + (
            f"; {unsettled_total} unsettled, the settled games {total_settled}"
            if unsettled_total else ""))
    return 0


def _sum(tallies: Iterable[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.wins += tally.wins
        total.draws += tally.draws
        total.losses += tally.losses
    return total


if __name__ == "__main__":
    sys.exit(main())
