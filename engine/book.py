"""Openings: English checkers ballots, and a little variety in every variant's first moves.

Tournament English checkers starts from a ballot drawn at random: the two-move restriction
(43 openings) or the ACF three-move deck (156 openings). The lists live in ``engine/data`` with
their sources. For the other variants :func:`opening_move` varies the computer's first moves among
those a short search rates close to the best, so games differ without gifting anything.

Example:
    >>> deck = ballots(3)
    >>> len(deck), deck[0].moves
    (156, ('9-13', '21-17', '5-9'))
    >>> ballot_board(deck[0]).ply
    3
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from importlib import resources

from engine import Board, Move
from engine.search import Limit, Searcher

__all__ = ["Ballot", "ballot_board", "ballots", "opening_move", "random_ballot"]

_FILES = {2: "english_2move.txt", 3: "english_3move.txt"}

#: Plies at the start of a game during which the computer varies its choice, per variant.
_VARIED_PLIES = {"international": 6, "brazilian": 4, "canadian": 6, "russian": 4, "pool": 4,
                 "english": 4, "italian": 4, "spanish": 4, "turkish": 4}
#: How much worse (hundredths of a man) than the best a varied opening move may be. Theory plays
#: every first move of Russian draughts, and a shallow search with the tuned weights spreads
#: them over about half a man (depth 4: g3-h4 +24 .. c3-d4 -25, the main line): a third of a
#: man keeps several of them and still never a move that loses a man (-100).
_MARGIN = 30


@dataclass(frozen=True)
class Ballot:
    """One ballot: its number in the list, the moves (PDN text), and whether it is barred."""

    number: int
    moves: tuple[str, ...]
    barred: bool = False

    def __str__(self) -> str:
        return f"{self.number}: {' '.join(self.moves)}"


def _read(length: int) -> tuple[Ballot, ...]:
    if length not in _FILES:
        raise ValueError(f"ballots come in 2 or 3 moves, not {length!r}")
    text = resources.files("engine").joinpath("data", _FILES[length]).read_text("utf-8")
    out = []
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        *moves, status = fields[1:]
        if len(moves) != length or status not in ("deck", "barred"):
            raise ValueError(f"bad ballot line in {_FILES[length]}: {line!r}")
        out.append(Ballot(int(fields[0]), tuple(moves), status == "barred"))
    return tuple(out)


def ballots(length: int = 3, include_barred: bool = False) -> tuple[Ballot, ...]:
    """The English checkers ballots of ``length`` moves (2 or 3), barred ones only if asked.

    Example:
        >>> len(ballots(2)), len(ballots(2, include_barred=True))
        (43, 49)

    Raises:
        ValueError: ``length`` is not 2 or 3.
    """
    return tuple(b for b in _read(length) if include_barred or not b.barred)


def random_ballot(rng: random.Random, length: int = 3) -> Ballot:
    """A ballot drawn with ``rng`` from the tournament deck of ``length`` moves.

    Raises:
        ValueError: ``length`` is not 2 or 3.
    """
    return rng.choice(ballots(length))


def ballot_board(ballot: Ballot) -> Board:
    """An English board with the ballot's moves played.

    Raises:
        IllegalMoveError: a move of the ballot is not legal (a corrupt data file).
        InvalidSquareError: a square of the ballot does not exist (a corrupt data file).
    """
    board = Board("english")
    for text in ballot.moves:
        origin, destination = re.split("[-x]", text)
        parse = board.variant.parse_square
        board.push(board.find_move(parse(origin), parse(destination)))
    return board


def opening_move(
    board: Board, searcher: Searcher, rng: random.Random, limit: Limit | None = None
) -> Move | None:
    """A move close to the best, chosen with ``rng``, early in a game; else None.

    Only positions within the variant's first few plies from its initial position get a varied
    move; captures are never varied (the best capture is played).

    Raises:
        ValueError: the searcher is for another variant.
    """
    plies = _VARIED_PLIES.get(board.variant.name, 4)
    if board.ply >= plies or board.root().fen() != board.variant.starting_fen:
        return None
    moves = list(board.legal_moves)
    if len(moves) < 2 or moves[0].is_capture:
        return None
    depth_limit = limit if limit is not None else Limit(depth=4)
    scored = []
    for move in moves:
        board.push(move)
        try:
            scored.append((-searcher.search(board, depth_limit).score, move))
        finally:
            board.pop()
    best = max(score for score, _ in scored)
    near = [move for score, move in scored if score >= best - _MARGIN]
    return rng.choice(near)
