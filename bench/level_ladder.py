"""Benchmark: the strength ladder. Each level plays the next one up; then level 10 plays level 5.

Every pair plays N games (``--games``, default 100) in pairs of games from the same opening with
colours swapped. English games start from ballots of the ACF three-move deck; the other variants
from two random plies per side, kept only when material is level and a depth-4 search rates the
position within half a man of equal. Each level keeps its own depth cap and noise and thinks for its
own default time multiplied by ``--time-scale`` (CPU seconds, so other jobs on the machine do not
change the result). A game that reaches ``--max-plies`` is scored a draw.

The line for a pair reads ``L3-L2: +W =D -L  score%`` from the stronger level's side; the peer of
each level is the level below it, measured in the same run. Targets: every level scores above 50 %
against the one below, and level 10 loses no game of 50 against level 5.

Run: ``.venv/bin/python bench/level_ladder.py [--variant english] [--games 100]``
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from engine import Board
from engine.book import ballot_board, random_ballot
from engine.levels import level, searcher_for_level
from engine.search import Limit, Searcher


@dataclass
class Tally:
    """Results from the stronger level's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return 100.0 * (self.wins + self.draws / 2) / max(self.games, 1)

    def __str__(self) -> str:
        return f"+{self.wins} ={self.draws} -{self.losses}  {self.score:5.1f} %"


def opening(variant: str, rng: random.Random) -> Board:
    """A varied, balanced start: an ACF ballot for English, else two random plies per side
    that keep material level and that a short search rates within half a man of equal."""
    if variant == "english":
        return ballot_board(random_ballot(rng))
    judge = Searcher(variant)
    while True:
        board = Board(variant)
        for _ in range(4):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        white, black, _ = board.bitboards()
        if white.bit_count() != black.bit_count():
            continue
        if abs(judge.search(board, Limit(depth=4)).score) <= 50:
            return board


def play(start: Board, players: dict[int, tuple[Searcher, Limit]], max_plies: int,
         record: list[str] | None = None) -> int | None:
    """Play a game out; the winner's colour, or None for a draw. ``record`` gets the moves."""
    board = start.copy()
    for searcher, _ in players.values():
        searcher.new_game()
    for ply in range(max_plies):
        # The draw rules replay the whole game, so they are checked every few plies only (a
        # draw is seen at most 7 plies late); the end by lack of moves is seen at once.
        if ply % 8 == 0 or not board.legal_moves:
            outcome = board.outcome()
            if outcome is not None:
                return None if outcome.winner is None else int(outcome.winner)
        searcher, limit = players[int(board.turn)]
        result = searcher.search(board, limit)
        if result.move is None:
            break
        if record is not None:
            record.append(board.move_notation(result.move))
        board.push(result.move)
    outcome = board.outcome()
    return None if outcome is None or outcome.winner is None else int(outcome.winner)


def match(variant: str, strong: int, weak: int, games: int, scale: float, max_plies: int,
          seed: int, show_losses: bool = False) -> Tally:
    """``games`` games between two levels, in colour-swapped pairs from the same opening."""
    tally = Tally()
    rng = random.Random(f"{seed}:{variant}:{strong}:{weak}")
    start = opening(variant, rng)
    for game in range(games):
        if game % 2 == 0:
            start = opening(variant, rng)
        strong_colour = game % 2
        players = {}
        for colour, number in ((strong_colour, strong), (1 - strong_colour, weak)):
            chosen = level(number)
            searcher = searcher_for_level(variant, number, seed=seed * 1000 + game,
                                          clock=time.process_time, tt_mb=4)
            players[colour] = (searcher, Limit(depth=chosen.depth,
                                               movetime=chosen.movetime * scale))
        record: list[str] = []
        winner = play(start, players, max_plies, record)
        if winner is None:
            tally.draws += 1
        elif winner == strong_colour:
            tally.wins += 1
        else:
            tally.losses += 1
            if show_losses:
                side = "white" if strong_colour == 0 else "black"
                print(f"  L{strong} ({side}) lost from [FEN \"{start.fen()}\"]: "
                      f"{' '.join(record)}")
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--games", type=int, default=100, help="games per pair (default 100)")
    parser.add_argument("--final-games", type=int, default=50, help="level 10 v 5 games")
    parser.add_argument("--time-scale", type=float, default=0.05,
                        help="share of each level's own time per move (default 0.05)")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--pairs", default="1-2,2-3,3-4,4-5,5-6,6-7,7-8,8-9,9-10",
                        help="comma-separated weak-strong pairs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show-losses", action="store_true",
                        help="print the moves of every game the stronger level lost")
    args = parser.parse_args()
    pairs = [p for p in args.pairs.split(",") if p]
    print(f"{args.variant}: {args.games} games per pair ({len(pairs)} pairs), "
          f"{args.final_games} games L10-L5, time x{args.time_scale}, "
          f"draw after {args.max_plies} plies")
    started = time.perf_counter()
    for pair in pairs:
        weak, strong = (int(x) for x in pair.split("-"))
        tally = match(args.variant, strong, weak, args.games, args.time_scale, args.max_plies,
                      args.seed, args.show_losses)
        print(f"L{strong:<2}-L{weak:<2} {tally}", flush=True)
    if args.final_games:
        tally = match(args.variant, 10, 5, args.final_games, args.time_scale, args.max_plies,
                      args.seed, args.show_losses)
        print(f"L10-L5  {tally}   level 10 lost {tally.losses} of {tally.games}", flush=True)
    print(f"wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
