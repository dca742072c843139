"""A game's analysis as it is kept in Redis (``draughtsboard:coach:analysis:<board>:<game>``)
and read back: one JSON object, checked field by field where it is read (the web draws it, so a
value another program wrote must not reach a page unchecked).

Per move: its PDN text (so a reader sees whether the analysis is of the game as it stands: an
arbiter's correction rewrites a game), the evaluation after it as ``%eval`` writes it
(``0.35``, ``#3``, ``#-2``), its mark (``""``, ``!``, ``?!``, ``?``, ``??``), the winning
chances its player lost, and for a marked move the better line, PDN move texts from the
position before it.

Example:
    >>> from engine import Board
    >>> from engine.analysis import analyse
    >>> from engine.search import Limit, Searcher
    >>> board = Board("russian", fen="W:Wc3:Bd4")
    >>> board.push(board.parse_move("c3:e5"))
    >>> stored = from_analysis(board, analyse(board, Searcher("russian"), Limit(depth=2)),
    ...                        board_id="b1", game_id="g1", depth=2,
    ...                        engine="draughtsboard 0.1.0 compiled")
    >>> again = StoredAnalysis.parse(stored.to_json())
    >>> again == stored, again.moves[0].evaluation, again.start
    (True, '#0', '#1')
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Final

from engine import Board
from engine.analysis import CEILING, Evaluation, GameAnalysis, Judgement
from engine.types import WHITE
from firmware_host.errors import DraughtsboardError

__all__ = ["MARKS", "AnalysisError", "MoveMark", "StoredAnalysis", "from_analysis"]

#: The marks a stored move may carry ("": none), from :class:`engine.analysis.Judgement`.
MARKS: Final = ("", *(judgement.sign for judgement in Judgement))
#: The most moves a stored analysis may hold (a game longer than any the board records).
MAX_MOVES: Final = 2000
#: The longest better line kept, in plies.
MAX_LINE: Final = 40
#: The format's version, written with every analysis.
VERSION: Final = 1

_MOVE_TEXT = re.compile(r"[a-z0-9]{1,3}(?:[-x:][a-z0-9]{1,3}){1,30}")
_EVAL_TEXT = re.compile(r"#-?\d{1,4}|-?\d{1,3}\.\d\d")
_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
_ENGINE = re.compile(r"[A-Za-z0-9_.:+() -]{1,80}")


class AnalysisError(DraughtsboardError, ValueError):
    """A stored analysis that cannot be read: the message says which field."""


@dataclass(frozen=True)
class MoveMark:
    """One move as analysed: ``pdn`` its text, ``evaluation`` after it (``%eval``'s text),
    ``mark`` (``""``: none), ``loss`` (winning chances its player lost, 0 to 2) and ``better``
    (the better line from the position before it, PDN texts)."""

    pdn: str
    evaluation: str
    mark: str = ""
    loss: float = 0.0
    better: tuple[str, ...] = ()

    def white_value(self) -> int:
        """The evaluation for White in hundredths of a man, a forced win as +-:data:`CEILING`
        (what the graph draws).

        >>> MoveMark("32-28", "0.35").white_value(), MoveMark("32-28", "#-4").white_value()
        (35, -1000)
        """
        value = Evaluation.parse(f"[%eval {self.evaluation}]")
        if value is None:  # checked when read: cannot happen for a parsed mark
            raise AnalysisError(f"evaluation {self.evaluation!r} is not one")
        if value.winner is not None:
            return CEILING if value.winner is WHITE else -CEILING
        return max(-CEILING, min(CEILING, value.centimen))


@dataclass(frozen=True)
class StoredAnalysis:
    """A game's analysis: whose game, the variant, the depth and engine it was made with, the
    evaluation before the first move and each move's :class:`MoveMark`."""

    board: str
    game: str
    variant: str
    depth: int
    engine: str
    start: str
    moves: tuple[MoveMark, ...]

    def marks(self, side: int) -> dict[str, int]:
        """How many of each mark ``side`` got (0: the side that moved first).

        >>> a = StoredAnalysis("b", "g", "russian", 2, "e", "0.00", (
        ...     MoveMark("c3-d4", "0.00", "?"), MoveMark("f6-g5", "0.00", "??"),
        ...     MoveMark("d4-c5", "0.00", "?")))
        >>> a.marks(0), a.marks(1)
        ({'?': 2}, {'??': 1})
        """
        counted: dict[str, int] = {}
        for index, move in enumerate(self.moves):
            if move.mark and move.mark != "!" and index % 2 == side:
                counted[move.mark] = counted.get(move.mark, 0) + 1
        return counted

    def fits(self, moves: list[str]) -> bool:
        """Whether this is the analysis of a game of these moves (PDN texts as recorded)."""
        return [m.pdn for m in self.moves] == moves

    def to_json(self) -> str:
        """The analysis as the JSON kept in Redis."""
        return json.dumps({
            "v": VERSION, "board": self.board, "game": self.game, "variant": self.variant,
            "depth": self.depth, "engine": self.engine, "start": self.start,
            "moves": [{"pdn": m.pdn, "eval": m.evaluation, "mark": m.mark,
                       "loss": round(m.loss, 3), "better": list(m.better)}
                      for m in self.moves]}, separators=(",", ":"))

    @classmethod
    def parse(cls, raw: str | bytes) -> StoredAnalysis:
        """Read a stored analysis, every field checked.

        Raises:
            AnalysisError: not JSON, not this format, or a field out of its shape.
        """
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise AnalysisError(f"not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("v") != VERSION:
            raise AnalysisError(f"not an analysis of version {VERSION}")
        moves = data.get("moves")
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise AnalysisError(f"moves: not a list of at most {MAX_MOVES}")
        depth = data.get("depth")
        if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= 99:
            raise AnalysisError("depth: not a whole number 0-99")
        return cls(_name(data, "board"), _name(data, "game"), _name(data, "variant"), depth,
                   _name(data, "engine", _ENGINE), _evaluation(data.get("start"), "start"),
                   tuple(_move(m, i) for i, m in enumerate(moves, start=1)))


def _name(data: dict[str, object], field: str, pattern: re.Pattern[str] = _NAME) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise AnalysisError(f"{field}: not a name")
    return value


def _evaluation(value: object, where: str) -> str:
    if not isinstance(value, str) or not _EVAL_TEXT.fullmatch(value):
        raise AnalysisError(f"{where}: {str(value)[:20]!r} is no evaluation")
    return value


def _move_text(value: object, where: str) -> str:
    if not isinstance(value, str) or not _MOVE_TEXT.fullmatch(value):
        raise AnalysisError(f"{where}: {str(value)[:20]!r} is no move")
    return value


def _move(data: object, number: int) -> MoveMark:
    where = f"move {number}"
    if not isinstance(data, dict):
        raise AnalysisError(f"{where}: not an object")
    mark, loss, better = data.get("mark", ""), data.get("loss", 0.0), data.get("better", [])
    if mark not in MARKS:
        raise AnalysisError(f"{where}: {str(mark)[:8]!r} is no mark")
    if not isinstance(loss, int | float) or isinstance(loss, bool) or not math.isfinite(loss) \
            or not -2.0 <= loss <= 2.0:
        raise AnalysisError(f"{where}: loss is not a number -2 to 2")
    if not isinstance(better, list) or len(better) > MAX_LINE:
        raise AnalysisError(f"{where}: better is not a line of at most {MAX_LINE}")
    return MoveMark(_move_text(data.get("pdn"), where),
                    _evaluation(data.get("eval"), where), str(mark), float(loss),
                    tuple(_move_text(m, f"{where}'s better line") for m in better))


def from_analysis(game: Board, analysis: GameAnalysis, *, board_id: str, game_id: str,
                  depth: int, engine: str) -> StoredAnalysis:
    """The analysis of the game on ``game``'s move stack, as it is stored."""
    probe = game.root()
    moves = []
    for move, analysed in zip(game.move_stack, analysis.moves, strict=True):
        line, texts = probe.copy(), []
        for step in analysed.better:
            texts.append(line.move_notation(step))
            line.push(step)
        moves.append(MoveMark(probe.move_notation(move), analysed.evaluation.text(),
                              "" if analysed.judgement is None else analysed.judgement.sign,
                              analysed.loss, tuple(texts)))
        probe.push(move)
    return StoredAnalysis(board_id, game_id, game.variant.name, depth, engine,
                          analysis.start.text(), tuple(moves))
