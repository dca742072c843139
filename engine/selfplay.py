"""Whole games the engine plays against itself, seeded: where puzzles and benchmarks come from.

Each game starts with a few random plies (English: a ballot of the three-move deck), then two
strength levels (:mod:`engine.levels`: their depth caps and noise, no clock) play it out, so
the games have the mistakes of players of those levels and the same seed gives the same game
on any machine.

Example:
    >>> board = play_game("russian", seed=1, levels=(2, 3), max_plies=30)
    >>> board.ply <= 30, board.ply == play_game("russian", 1, (2, 3), max_plies=30).ply
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.board import Board
from engine.book import ballot_board, random_ballot
from engine.levels import level, searcher_for_level
from engine.search import Limit
from engine.variant import find_variant

__all__ = ["play_game", "play_games"]

#: Random plies at the start of a game (plus up to as many again, from the seed).
RANDOM_PLIES = 2


def play_game(variant: str, seed: int, levels: tuple[int, int] = (4, 6),
              max_plies: int = 200) -> Board:
    """One game: the first mover plays at ``levels[0]``, the other at ``levels[1]`` (each at
    its level's depth cap, never the clock); a game not over after ``max_plies`` stops there.

    Raises:
        ValueError: an unknown variant, or a level that is not 1-9 (level 10 plays by time).
    """
    chosen = find_variant(variant)
    for number in levels:
        if level(number).depth is None:
            raise ValueError(f"level {number} plays by the clock; self-play takes levels 1-9")
    rng = random.Random(f"selfplay:{chosen.name}:{seed}:{levels}")
    if chosen.name == "english":
        board = ballot_board(random_ballot(rng))
    else:
        board = Board(chosen)
        for _ in range(RANDOM_PLIES + rng.randrange(RANDOM_PLIES + 1)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    players = [searcher_for_level(chosen, number, seed=seed, tt_mb=4) for number in levels]
    limits = [Limit(depth=level(number).depth) for number in levels]
    first = board.root().turn
    while board.ply < max_plies and board.outcome() is None:
        side = 0 if board.turn is first else 1
        move = players[side].search(board, limits[side]).move
        if move is None:
            break
        board.push(move)
    return board


def play_games(variant: str, count: int, seed: int = 0,
               levels: tuple[int, int] = (4, 6), max_plies: int = 200) -> Iterator[Board]:
    """``count`` games from seeds ``seed``, ``seed + 1``, ...; the levels swap sides each game.

    Raises:
        ValueError: as :func:`play_game`.
    """
    for number in range(count):
        pair = levels if number % 2 == 0 else (levels[1], levels[0])
        yield play_game(variant, seed + number, pair, max_plies)
