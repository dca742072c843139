"""The mistake book: each player's own missed wins, kept as puzzles.

A position of a player's analysed game where they erred (a move marked ``?`` or ``??``) and
where exactly one move won (:func:`engine.puzzles.mistakes`: the shot they did not see) is a
puzzle for them. Each player's are one PDN collection (``<name>.pdn``, the name made safe for
a file) in ``coach.mistakes_dir``, the newest last, each with the game it came from
(``Source``); ``play --puzzles --player NAME`` offers them before any other puzzle.

>>> import tempfile
>>> from engine.puzzles import load
>>> book = MistakeBook(tempfile.mkdtemp())
>>> book.add("Anna de Vries", load("russian")[:2]), book.add("anna de vries", load("russian")[:3])
(2, 1)
>>> len(book.load("Anna de Vries")), book.path("Anna de Vries").name
(3, 'anna-de-vries.pdn')
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from engine.analysis import Judgement, analyse, evaluations
from engine.pdn import PdnError, PdnGame
from engine.puzzles import Puzzle, mistakes, read_collection, write_collection
from engine.search import Limit, Searcher
from engine.types import BLACK, WHITE, Color
from firmware_host.errors import DraughtsboardError

__all__ = ["NO_NAMES", "BookError", "MistakeBook", "marks", "missed_wins", "movers", "player_file",
           "sides_of"]

#: The marks that make a move a mistake (its position is looked at for a missed win).
ERRORS: Final = frozenset({Judgement.MISTAKE.sign, Judgement.BLUNDER.sign,
                           Judgement.MISTAKE.nag, Judgement.BLUNDER.nag})

#: What a PDN player tag holds when nobody was named: no book for them.
NO_NAMES: Final = frozenset({"", "?", "-", "white", "black", "draughtsboard"})


class BookError(DraughtsboardError, ValueError):
    """A player name no book can be kept for, or a book that cannot be read or written."""


def player_file(name: str) -> str:
    """The file name of a player's book: lower case, runs of anything but letters and digits
    as one ``-`` (letters of any script kept), at most 60 characters.

    >>> player_file("Anna de Vries"), player_file("Ёлкин, П."), player_file("../../etc")
    ('anna-de-vries.pdn', 'ёлкин-п.pdn', 'etc.pdn')

    Raises:
        BookError: a name with nothing left, or one that names nobody (``?``, ``White``).
    """
    cleaned = re.sub(r"[\W_]+", "-", name.strip().lower()).strip("-")[:60].rstrip("-")
    if not cleaned or name.strip().lower() in NO_NAMES:
        raise BookError(f"{name[:40]!r} names no player: no mistake book for it")
    return f"{cleaned}.pdn"


class MistakeBook:
    """The mistake books in ``directory`` (made when the first is written)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    def path(self, player: str) -> Path:
        """The book of ``player``.

        Raises:
            BookError: as :func:`player_file`.
        """
        return self.directory / player_file(player)

    def load(self, player: str) -> list[Puzzle]:
        """``player``'s puzzles, oldest first (none yet: an empty list).

        Raises:
            BookError: the name, or a book that cannot be read (named with the reason).
        """
        path = self.path(player)
        try:
            return read_collection(path.read_bytes())
        except FileNotFoundError:
            return []
        except (OSError, PdnError, ValueError) as exc:
            raise BookError(f"{path}: {exc}") from None

    def add(self, player: str, puzzles: Iterable[Puzzle]) -> int:
        """Add the puzzles ``player`` does not have yet (by position); return how many.

        The book is rewritten whole, through a file beside it (a crash leaves the old book or
        the new one, never half of one).

        Raises:
            BookError: as :meth:`load`, or the directory cannot be written.
        """
        kept = self.load(player)
        known = {p.fen for p in kept}
        new = []
        for puzzle in puzzles:
            if puzzle.fen not in known:
                known.add(puzzle.fen)
                new.append(puzzle)
        if not new:
            return 0
        path = self.path(player)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(path.name + ".new")
            temporary.write_text(write_collection([*kept, *new]), encoding="utf-8")
            os.replace(temporary, path)
        except OSError as exc:
            raise BookError(f"{path}: {exc.strerror or exc}") from None
        return len(new)


def sides_of(game: PdnGame, player: str) -> set[Color]:
    """The sides ``player`` played in ``game`` (by its White and Black tags, case and spaces
    aside).

    >>> from engine.pdn import read_games
    >>> [game] = read_games('[White "Ann"]\\n[Black "Bob"]\\n[GameType "25"]\\n1. c3-d4 *')
    >>> sides_of(game, " ann "), sides_of(game, "Cor")
    ({<Color.WHITE: 0>}, set())
    """
    wanted = " ".join(player.split()).lower()
    return {side for side, tag in ((WHITE, "White"), (BLACK, "Black"))
            if " ".join(game.headers.get(tag, "").split()).lower() == wanted}


def marks(game: PdnGame, depth: int) -> dict[int, str]:
    """The moves of ``game`` marked ``?`` or ``??`` (0-based index -> the sign). A game
    annotated already (its moves carry ``%eval``: ``draughtsboard annotate``) is read as
    annotated; another is analysed at ``depth`` first.

    Raises:
        engine.DraughtsError, ValueError: a move of the game is not legal.
    """
    if evaluations(game.comments):
        signs = {Judgement.MISTAKE.nag: Judgement.MISTAKE.sign,
                 Judgement.BLUNDER.nag: Judgement.BLUNDER.sign}
        found = {}
        for ply, written in game.annotations.items():
            errors = [signs.get(sign, sign) for sign in written if sign in ERRORS]
            if errors:
                found[ply] = max(errors, key=len)
        return found
    board = game.board()
    analysis = analyse(board, Searcher(board.variant, tt_mb=8), Limit(depth=depth))
    return {m.ply: m.judgement.sign for m in analysis.moves
            if m.judgement is not None and m.judgement.sign in ERRORS}


def movers(game: PdnGame) -> list[Color]:
    """The side that played each move of ``game``."""
    first = game.board().root().turn
    return [first if ply % 2 == 0 else first.opponent for ply in range(len(game.moves))]


def missed_wins(game: PdnGame, player: str, depth: int, source: str = "",
                marked: dict[int, str] | None = None) -> list[Puzzle]:
    """The puzzles of ``player``'s mistakes in ``game``: the positions before their moves
    marked ``?`` or ``??`` (``marked``, else :func:`marks` at ``depth``) where exactly one
    move won.

    Raises:
        engine.DraughtsError, ValueError: a move of the game is not legal.
    """
    sides = sides_of(game, player)
    if not sides:
        return []
    marked = marks(game, depth) if marked is None else marked
    side = movers(game)
    return mistakes(game.board(), sorted(p for p in marked if side[p] in sides), source=source)
