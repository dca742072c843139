"""Positions labelled by a stronger engine's judgement instead of by the end of one game.

A game's result says little about one of its positions: it was decided by later moves, and every
position of the game shares it. A strong engine's search score of a quiet position says much
more, so the positions of many games (self-play, match and ladder records) can be labelled by it,
as py-draughts' evaluation was regressed towards Scan's scores. The score ``s`` (hundredths of a
man, for the side to move) becomes White's probability ``1 / (1 + exp(-SCALE * s_white))``, a man
up being 3 to 1; :func:`engine`-independent, the scorer is any callable (bench/scan_labels.py
passes Scan 2.0 through its Hub protocol). Only quiet positions are labelled (neither side has a
capture, the game not over, not a dead draw): the evaluation is never asked about the others.

Example:
    >>> fens = ["W:W31-50:B1-20", "B:W31-50:B1-20", "W:W31-50:B1-20"]
    >>> samples = label("international", fens, lambda board: 100.0)
    >>> [(s.fen[0], round(s.result, 2)) for s in samples]
    [('W', 0.75), ('B', 0.25)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from engine import Board, find_variant
from engine.evaluate import Evaluator
from engine.generators import generator_for
from firmware_host.tools.tuning import dataset
from firmware_host.tools.tuning.selfplay import Sample, learnable

__all__ = ["SCALE", "Scorer", "file_positions", "game_positions", "header", "label",
           "quiet_positions"]

#: A teacher's score for the side to move, in hundredths of a man (None: it has none).
Scorer = Callable[[Board], float | None]
#: Logistic scale of a teacher's score: +100 (a man) is a probability of 3/4.
SCALE = math.log(3.0) / 100.0


def header(variant: str, teacher: str, samples: Sequence[Sample], sources: Sequence[Path],
           command: str) -> dict[str, str]:
    """The header of a labelled positions file: who labelled how many positions from which
    files, at :data:`SCALE`, and the command that does it again.

    >>> header("english", "the built-in engine", [], [Path("a.txt.gz")], "x")["sources"]
    'a.txt.gz'
    """
    return {"variant": variant, "teacher": teacher, "scale": "1/(1+exp(-ln3/100 * score))",
            "positions": str(len(samples)), "sources": " ".join(p.name for p in sources),
            "command": command}


def game_positions(variant: str, games: Iterable[Mapping[str, object]]) -> Iterator[str]:
    """The FEN of every position of game records (bench/match.py and bench/level_ladder.py
    JSON: ``opening`` a FEN or moves, ``moves`` a list or a space-separated string). A record
    that stops parsing is followed up to its first bad move.
    """
    for game in games:
        opening, moves = game.get("opening", ""), game.get("moves", ())
        words = moves.split() if isinstance(moves, str) else moves
        if not isinstance(opening, str) or not isinstance(words, list | tuple):
            continue
        try:
            board = Board(variant, opening) if ":" in opening else Board(variant)
            if ":" not in opening:
                for text in opening.split():
                    board.push(board.parse_move(text))
        except ValueError:
            continue
        yield board.fen()
        for text in words:
            try:
                board.push(board.parse_move(str(text)))
            except ValueError:
                break
            yield board.fen()


def file_positions(variant: str, games: Sequence[Path], positions: Sequence[Path]
                   ) -> Iterator[str]:
    """The FEN of every position of game-record files (JSON, :func:`game_positions`) and of
    positions files (``.txt.gz``, :mod:`~firmware_host.tools.tuning.dataset`), in that order."""
    for path in games:
        records = json.loads(path.read_text()).get("games", [])
        yield from game_positions(variant, records)
    for path in positions:
        _, samples = dataset.read(path)
        yield from (s.fen for s in samples)


def quiet_positions(variant: str, fens: Iterable[str]) -> list[str]:
    """The distinct quiet positions among ``fens``, in first-seen order (bad FENs left out)."""
    var = find_variant(variant)
    gen, evaluator = generator_for(var.name), Evaluator(var)
    seen: set[str] = set()
    out: list[str] = []
    for fen in fens:
        if fen in seen:
            continue
        seen.add(fen)
        try:
            board = Board(var, fen)
        except ValueError:
            continue
        if board.legal_moves and learnable(board, gen, evaluator):
            out.append(fen)
    return out


def label(variant: str, fens: Sequence[str], scorer: Scorer, scale: float = SCALE) -> list[Sample]:
    """The quiet positions among ``fens``, each with White's probability from ``scorer``
    (those it gives no score are left out)."""
    var = find_variant(variant)
    samples: list[Sample] = []
    for fen in quiet_positions(var.name, fens):
        board = Board(var, fen)
        score = scorer(board)
        if score is None:
            continue
        white_score = score if int(board.turn) == 0 else -score
        x = max(-50.0, min(50.0, scale * white_score))
        samples.append(Sample(fen, 1.0 / (1.0 + math.exp(-x))))
    return samples
