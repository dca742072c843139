"""Analysis after the game: every move judged by a search, as data the PDN writer writes.

A game goes in (a board whose move stack is the game), its annotations come out, given a
:class:`~engine.search.Searcher` and a :class:`~engine.search.Limit`: the evaluation after each
move (White's point of view, in men, as lichess writes ``[%eval 0.35]``; a forced win as
``#N``), a judgement where the move gave away winning chances (``?!``, ``?``, ``??``) or was
the only good one (``!``), and for each move judged weak the better move with its line.
Pure: no I/O, no clock but the searcher's.

How a move is judged (docs/coach.md gives the reasons): each position of the game is searched
once; a score becomes the side to move's *winning chances* on lichess's curve,
``2 / (1 + exp(-SLOPE * score)) - 1`` from -1 (lost) to 1 (won), the score in hundredths of a
man capped at :data:`CEILING` and a known forced win counting 1. A move that is not the
search's best and loses at least 0.1, 0.2 or 0.3 of those chances is ``?!``, ``?`` or ``??``
(lichess's :data:`THRESHOLDS`); :data:`SLOPE` is set so that a man thrown away from a level
position is a blunder. The best move is ``!`` when the position had a choice (more than one
move, no capture due) and every other move would have been at least a mistake.

Example (White takes Black's last man: won, ``#1`` before the move, ``#0`` after it):
    >>> from engine.search import Searcher
    >>> board = Board("russian", fen="W:Wc3:Bd4")
    >>> board.push(board.parse_move("c3:e5"))
    >>> found = analyse(board, Searcher("russian"), Limit(depth=2))
    >>> found.start.text(), found.moves[0].evaluation.comment()
    ('#1', '[%eval #0]')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from engine.board import Board
from engine.endgame import WDL, EndgameTable
from engine.search import TABLE_BOUND, TABLE_WIN, Limit, Searcher, SearchResult, StopToken
from engine.types import BLACK, WHITE, Color, Move

__all__ = [
    "CEILING",
    "SLOPE",
    "THRESHOLDS",
    "Evaluation",
    "GameAnalysis",
    "Judgement",
    "MoveAnalysis",
    "analyse",
    "evaluations",
    "winning_chances",
]

#: The winning-chances curve's slope per hundredth of a man. lichess fits 0.00368 per
#: centipawn on its games and lidraughts uses 0.004 per hundredth of a man: there a man lost
#: from a level position is a mistake, and a blunder takes 1.55 men. In draughts a man thrown
#: away decides most games, so the slope here is twice lidraughts': from level, 0.25 of a man
#: lost is an inaccuracy, 0.51 a mistake, 0.77 a blunder (a man, less what the position gives
#: back for it).
SLOPE: Final = 0.008
#: Scores beyond this many hundredths of a man count as this much (lichess, lidraughts: 1000).
CEILING: Final = 1000
#: Where a position's value is known: a forced end of the game or an endgame-table win.
_KNOWN: Final = TABLE_BOUND
#: The longest better line given for a weak move, in plies (lichess gives 20).
LINE_PLIES: Final = 12
#: How far the tables' line is followed to count the moves to the end of the game.
_TABLE_LINE_PLIES: Final = 400


class Judgement(Enum):
    """What a move was: its PDN move strength sign and NAG."""

    ONLY_MOVE = ("!", 1)
    INACCURACY = ("?!", 6)
    MISTAKE = ("?", 2)
    BLUNDER = ("??", 4)

    @property
    def sign(self) -> str:
        """The move strength sign written after the move: ``?!``, ``?``, ``??``, ``!``."""
        return self.value[0]

    @property
    def nag(self) -> str:
        """The numeric annotation glyph of the same meaning: ``$6``, ``$2``, ``$4``, ``$1``."""
        return f"${self.value[1]}"


#: Winning chances lost -> the judgement, largest first: lichess's thresholds
#: (lila ``Advice.scala``; lidraughts halves the two smaller ones on its flatter curve).
THRESHOLDS: Final[tuple[tuple[float, Judgement], ...]] = (
    (0.3, Judgement.BLUNDER),
    (0.2, Judgement.MISTAKE),
    (0.1, Judgement.INACCURACY),
)

_EVAL = re.compile(r"\[%eval\s+(#-?\d+|-?\d+(?:\.\d+)?)\]")


@dataclass(frozen=True)
class Evaluation:
    """A position's value for White: ``centimen`` hundredths of a man, or a forced win for
    ``winner`` in ``moves`` of the winner's moves (0: the game is over, ``winner`` has won).

    Example:
        >>> Evaluation(35).text(), Evaluation(winner=BLACK, moves=3).text()
        ('0.35', '#-3')
        >>> Evaluation.parse("[%eval #0]")
        Evaluation(centimen=0, winner=<Color.WHITE: 0>, moves=0)
    """

    centimen: int = 0
    winner: Color | None = None
    moves: int = 0

    def text(self) -> str:
        """The value as ``%eval`` writes it: men with two decimals, or ``#N`` / ``#-N``."""
        if self.winner is None:
            return f"{self.centimen / 100:.2f}"
        return f"#{'-' if self.winner is BLACK else ''}{self.moves}"

    def comment(self) -> str:
        """The PDN comment command: ``[%eval 0.35]``."""
        return f"[%eval {self.text()}]"

    def chances(self, side: Color) -> float:
        """``side``'s winning chances, from -1 (lost) to 1 (won)."""
        if self.winner is not None:
            return 1.0 if self.winner is side else -1.0
        white = winning_chances(self.centimen)
        return white if side is WHITE else -white

    @classmethod
    def parse(cls, text: str) -> Evaluation | None:
        """The evaluation in a comment's ``[%eval ...]`` command, or None if it has none."""
        found = _EVAL.search(text)
        if found is None:
            return None
        value = found.group(1)
        if value.startswith("#"):
            moves = int(value[1:])
            return cls(winner=BLACK if value.startswith("#-") else WHITE, moves=abs(moves))
        return cls(round(float(value) * 100))


def winning_chances(score: int) -> float:
    """The side to move's winning chances, -1 to 1, for a search score (hundredths of a man;
    beyond the tables' bound a known win or loss).

    >>> winning_chances(0), round(winning_chances(100), 2), winning_chances(29_000)
    (0.0, 0.38, 1.0)
    """
    if abs(score) > _KNOWN:
        return 1.0 if score > 0 else -1.0
    capped = max(-CEILING, min(CEILING, score))
    return 2 / (1 + math.exp(-SLOPE * capped)) - 1


@dataclass(frozen=True)
class MoveAnalysis:
    """One move of the game: ``ply`` (0 = the first move), the move, the evaluation after it,
    the winning chances its player lost by it, the judgement (None: no mark) and, for a weak
    move, the better move with its line from the position before it."""

    ply: int
    move: Move
    evaluation: Evaluation
    loss: float
    judgement: Judgement | None = None
    better: tuple[Move, ...] = ()


@dataclass(frozen=True)
class GameAnalysis:
    """Every move of a game analysed; ``start`` is the evaluation before the first move."""

    start: Evaluation
    moves: tuple[MoveAnalysis, ...]
    first: Color

    def comments(self) -> dict[int, list[str]]:
        """The ``%eval`` comment after each move, keyed as :func:`engine.pdn.write_game` takes
        comments (``i``: after the ``i``-th move)."""
        return {m.ply + 1: [m.evaluation.comment()] for m in self.moves}

    def annotations(self) -> dict[int, list[str]]:
        """The move strength signs, keyed by move index (0: the first move)."""
        return {m.ply: [m.judgement.sign] for m in self.moves if m.judgement is not None}

    def variations(self) -> dict[int, list[tuple[Move, ...]]]:
        """The better line of each weak move, keyed by the index of the move it replaces."""
        return {m.ply: [m.better] for m in self.moves if m.better}

    def side(self, ply: int) -> Color:
        """Who played the move of ``ply``."""
        return self.first if ply % 2 == 0 else self.first.opponent

    def count(self, side: Color, judgement: Judgement) -> int:
        """How many of ``side``'s moves got ``judgement``."""
        return sum(1 for m in self.moves if m.judgement is judgement and self.side(m.ply) is side)


@dataclass(frozen=True)
class _Value:
    """One position as searched: the side to move's score, its best move and line."""

    score: int
    evaluation: Evaluation
    best: Move | None = None
    line: tuple[Move, ...] = ()


def analyse(
    game: Board,
    searcher: Searcher,
    limit: Limit,
    stop: StopToken | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse the game on ``game``'s move stack (played from ``game.root()``).

    Every position is searched within ``limit``, the last first (the transposition table then
    carries what the end of the game taught back to its middle). ``progress(done, total)`` is
    called after each search. A stopped search judges with what it found.

    Example:
        >>> from engine.search import Searcher
        >>> board = Board("russian")
        >>> for text in ("c3-d4", "f6-g5"):
        ...     board.push(board.parse_move(text))
        >>> found = analyse(board, Searcher("russian"), Limit(depth=3))
        >>> [m.evaluation.text()[0] in "-0123456789" for m in found.moves]
        [True, True]

    Raises:
        ValueError: the searcher is for another variant, or a time limit without a clock.
    """
    positions = [game.root()]
    for move in game.move_stack:
        board = positions[-1].copy()
        board.push(move)
        positions.append(board)
    tables = _Tables(game)
    values: list[_Value | None] = [None] * len(positions)
    for done, index in enumerate(reversed(range(len(positions))), start=1):
        values[index] = _value(positions[index], searcher, limit, stop, tables)
        if progress is not None:
            progress(done, len(positions))
    judged = [_judge(positions[i], move, _known(values[i]), _known(values[i + 1]), searcher,
                     limit, stop)
              for i, move in enumerate(game.move_stack)]
    return GameAnalysis(_known(values[0]).evaluation, tuple(judged), positions[0].turn)


def _known(value: _Value | None) -> _Value:
    if value is None:  # every position is searched before any move is judged
        raise RuntimeError("a position of the game was not searched")
    return value


def _value(board: Board, searcher: Searcher, limit: Limit, stop: StopToken | None,
           tables: _Tables) -> _Value:
    """The position searched, or its value by the rules when the game is over there."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return _Value(0, Evaluation())
        won = outcome.winner is board.turn
        return _Value(TABLE_WIN + 1 if won else -TABLE_WIN - 1,
                      Evaluation(winner=outcome.winner, moves=0))
    result = searcher.search(board, limit, stop)
    line = result.pv if result.pv and result.pv[0] == result.move else (
        (result.move,) if result.move is not None else ())
    return _Value(result.score, _evaluation(board, result, tables), result.move,
                  line[:LINE_PLIES])


def _evaluation(board: Board, result: SearchResult, tables: _Tables) -> Evaluation:
    """The search's score as White's evaluation; a known win counted in the winner's moves."""
    score = result.score
    if abs(score) <= _KNOWN:
        return Evaluation(score if board.turn is WHITE else -score)
    winner = board.turn if score > 0 else board.turn.opponent
    mate = result.mate_in
    plies = abs(mate) if mate is not None else tables.plies_to_end(board, result)
    return Evaluation(winner=winner, moves=(plies + 1) // 2)


class _Tables:
    """The variant's endgame tables, loaded when a table win first needs its length."""

    def __init__(self, game: Board) -> None:
        self.variant = game.variant
        self._table: EndgameTable | None = None

    def plies_to_end(self, board: Board, result: SearchResult) -> int:
        """Plies to the end of the game of a table win: the search's line until the tables
        hold the position, then the tables' line (the winner converting each ending as fast as
        it can, the loser delaying as long as it can). Where that line cannot be followed,
        the plies to the first conversion (what the search's score counts)."""
        conversion = TABLE_WIN - abs(result.score)
        if self._table is None:
            if not EndgameTable.available(self.variant):
                return conversion
            self._table = EndgameTable.load(self.variant)
        probe = board.copy()
        plies = 0
        for move in result.pv:
            if self._table.covers(*probe.bitboards()):
                break
            probe.push(move)
            plies += 1
        line = _table_line(probe, self._table)
        return conversion if line is None else plies + line


def _table_line(board: Board, table: EndgameTable) -> int | None:
    """Plies to the end of the game along the tables' line from ``board``, or None."""
    probe = board.copy()
    for plies in range(_TABLE_LINE_PLIES):
        scored: list[tuple[int, int]] = []  # (value for the side to move, distance)
        for move in probe.legal_moves:
            probe.push(move)
            if not probe.legal_moves:
                value: tuple[WDL, int] | None = (WDL.LOSS, 0)
            else:
                value = table.probe_distance(*probe.bitboards(), int(probe.turn))
            probe.pop()
            if value is None:
                return None
            scored.append((-int(value[0]), value[1] if value[0] is not WDL.WIN else -value[1]))
        if not scored:
            return plies
        # The winner takes the quickest conversion, the loser the slowest; a draw is off line.
        best = max(range(len(scored)), key=lambda i: (scored[i][0], -scored[i][1]))
        if scored[best][0] == 0:
            return None
        probe.push(list(probe.legal_moves)[best])
    return None


def _judge(board: Board, move: Move, before: _Value, after: _Value, searcher: Searcher,
           limit: Limit, stop: StopToken | None) -> MoveAnalysis:
    """The move played in ``board``, judged by the values before and after it."""
    side = board.turn
    ply = len(board.move_stack)
    chances_before = winning_chances(before.score)
    loss = chances_before - after.evaluation.chances(side)
    if before.best is not None and before.best.key() != move.key():
        if loss >= THRESHOLDS[-1][0]:
            # Confirmed at the best move's own depth: the position after the move was searched
            # a ply deeper than the best move, and an even and an odd horizon judge alike
            # positions differently. The smaller of the two losses stands.
            played = searcher.search(board, limit, stop, moves=[move])
            loss = min(loss, chances_before - winning_chances(played.score))
        judgement = next((j for threshold, j in THRESHOLDS if loss >= threshold), None)
        better = before.line if judgement is not None else ()
        return MoveAnalysis(ply, move, after.evaluation, loss, judgement, better)
    judgement = None
    if _only_good(board, move, chances_before, searcher, limit, stop):
        judgement = Judgement.ONLY_MOVE
    return MoveAnalysis(ply, move, after.evaluation, loss, judgement)


def _only_good(board: Board, move: Move, chances: float, searcher: Searcher, limit: Limit,
               stop: StopToken | None) -> bool:
    """Whether every other move in ``board`` would have been at least a mistake.

    Only where there was a choice: more than one legal move and no capture due (choosing
    among compulsory captures is not marked).
    """
    moves = list(board.legal_moves)
    if len(moves) < 2 or moves[0].is_capture:
        return False
    others = [m for m in moves if m.key() != move.key()]
    second = searcher.search(board, limit, stop, moves=others)
    mistake = THRESHOLDS[1][0]
    return chances - winning_chances(second.score) >= mistake


def evaluations(comments: Mapping[int, Sequence[str]]) -> dict[int, Evaluation]:
    """The ``%eval`` of each move in a game's comments (keyed as the comments are)."""
    found: dict[int, Evaluation] = {}
    for key, texts in comments.items():
        for text in texts:
            value = Evaluation.parse(text)
            if value is not None:
                found[key] = value
    return found
