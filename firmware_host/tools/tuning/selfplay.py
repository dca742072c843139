"""Positions from seeded self-play games of the built-in engine, labelled by the game's result.

Every game starts with a few random plies (from the seed), then the engine plays both sides at a
fixed node budget with a little noise on its root moves, so games differ while a node budget
keeps them independent of the machine's speed: the same arguments give the same positions.
Only quiet positions are kept (neither side has a capture), after the random opening, and not
those the evaluation scores by rule (dead draws, a crowned breakthrough king).

Example:
    >>> config = SelfPlay("russian", games=1, seed=3, nodes=60, max_plies=40)
    >>> samples = list(play(config))
    >>> samples == list(play(config)), all(s.result in (0.0, 0.5, 1.0) for s in samples)
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine import Board, find_variant
from engine.evaluate import Evaluator
from engine.generators import generator_for
from engine.movegen import MoveGen
from engine.search import Limit, Searcher, SearchOptions

__all__ = ["Sample", "SelfPlay", "learnable", "play", "play_game"]


@dataclass(frozen=True)
class SelfPlay:
    """How the games are played: ``games`` games from ``seed`` at ``nodes`` nodes a move.

    ``random_plies``: the random opening is this many plies, plus up to as many again (from the
    seed). ``noise``: hundredths of a man of root noise. A game reaching ``max_plies`` is a draw.

    Raises:
        ValueError: an unknown variant, a giveaway variant, or a count below its minimum.
    """

    variant: str
    games: int = 100
    seed: int = 0
    nodes: int = 400
    random_plies: int = 4
    noise: int = 20
    max_plies: int = 200

    def __post_init__(self) -> None:
        v = find_variant(self.variant)
        if v.giveaway:
            raise ValueError(f"{v.name} is a giveaway variant: its evaluation is not tuned")
        for name, value, low in (("games", self.games, 1), ("nodes", self.nodes, 1),
                                 ("random_plies", self.random_plies, 0), ("noise", self.noise, 0),
                                 ("max_plies", self.max_plies, 1)):
            if value < low:
                raise ValueError(f"{name} must be >= {low}, not {value}")


@dataclass(frozen=True)
class Sample:
    """One position (FEN) and the result of its game for White: 1, 0.5 or 0."""

    fen: str
    result: float


def play(config: SelfPlay) -> Iterator[Sample]:
    """The quiet positions of every game, game after game."""
    for game in range(config.games):
        yield from play_game(config, game)


def learnable(board: Board, gen: MoveGen, evaluator: Evaluator) -> bool:
    """A position tuning learns from: quiet (neither side has a capture) and scored by the
    evaluation's terms, not by rule (a dead draw, a crowned breakthrough king)."""
    white, black, kings = board.bitboards()
    if gen.has_capture(white, black, kings, 0) or gen.has_capture(black, white, kings, 1):
        return False
    return not evaluator.dead_draw_bits(white, black, kings) and not (
        board.variant.crown_wins and kings)


def play_game(config: SelfPlay, game: int) -> list[Sample]:
    """The quiet positions of game number ``game`` of ``config``, labelled by its result."""
    variant = find_variant(config.variant)
    rng = random.Random(f"selfplay:{config.seed}:{variant.name}:{game}")
    board = Board(variant)
    for _ in range(config.random_plies + rng.randrange(config.random_plies + 1)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    searcher = Searcher(variant, seed=config.seed * 100_003 + game, tt_mb=2,
                        options=SearchOptions(noise=config.noise))
    gen = generator_for(variant)
    evaluator = Evaluator(variant)
    limit = Limit(nodes=config.nodes)
    fens: list[str] = []
    winner: int | None = None
    for ply in range(config.max_plies):
        if ply % 8 == 0 or not board.legal_moves:
            outcome = board.outcome()
            if outcome is not None:
                winner = None if outcome.winner is None else int(outcome.winner)
                break
        if learnable(board, gen, evaluator):
            fens.append(board.fen())
        move = searcher.search(board, limit).move
        if move is None:
            break
        board.push(move)
    else:
        outcome = board.outcome()
        winner = None if outcome is None or outcome.winner is None else int(outcome.winner)
    result = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    return [Sample(fen, result) for fen in fens]
