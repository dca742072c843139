"""What an analysed game of the board leaves for its players: their missed wins in their
mistake books, their mistakes in their progress records.

When the board (or a hall's worker) has analysed a finished game, each player the game's PDN
tags name (``White``, ``Black``; not ``?`` or the computer, :data:`~firmware_host.coach.book.
NO_NAMES`) gets what ``draughtsboard puzzles mistakes`` gives them from a PDN file: the
positions before their moves marked ``?`` or ``??`` where exactly one move won
(:func:`~firmware_host.coach.book.missed_wins`), and the game's count of their moves, mistakes
and blunders (:func:`~firmware_host.coach.progress.game_mistakes`). The game is keyed by its
``Board`` and ``GameId`` tags, which the board's PDN file carries too: a game analysed twice,
or analysed here and read from its PDN file, counts once.

:func:`findings` is the work (it searches: run where the analysis runs), :func:`keep` writes
the books (in ``coach.mistakes_dir`` of the machine that analysed).

Example:
    >>> from firmware_host.coach.jobs import Job
    >>> from firmware_host.coach.results import MoveMark, StoredAnalysis
    >>> job = Job("1-0", "b1", "g1", "russian", None, ("c3-d4",),
    ...           tags=(("White", "Ann"), ("Black", "?"), ("Date", "2026.12.06")))
    >>> analysis = StoredAnalysis("b1", "g1", "russian", 2, "test", "0.00",
    ...                           (MoveMark("c3-d4", "-0.60", "?"),))
    >>> [(f.player, f.game.moves, f.game.mistakes, f.game.date, len(f.puzzles))
    ...  for f in findings(job, analysis)]
    [('Ann', 1, 1, '2026-12-06', 0)]
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.analysis import Judgement
from engine.pdn import PdnGame
from engine.puzzles import Puzzle, read_collection, write_collection
from firmware_host.coach.book import BookError, MistakeBook, missed_wins, player_file
from firmware_host.coach.jobs import Job
from firmware_host.coach.progress import GameMistakes, ProgressBook, game_mistakes, parse_game
from firmware_host.coach.results import StoredAnalysis

__all__ = ["Finding", "findings", "keep", "pdn_game"]

log = logging.getLogger(__name__)

_ERRORS = frozenset({Judgement.MISTAKE.sign, Judgement.BLUNDER.sign})


@dataclass(frozen=True)
class Finding:
    """One player's part of an analysed game: their missed wins and the game's count."""

    player: str
    puzzles: tuple[Puzzle, ...]
    game: GameMistakes

    def to_json(self) -> dict[str, object]:
        """As JSON-ready data (:meth:`parse` reads it back)."""
        return {"player": self.player, "puzzles": write_collection(self.puzzles),
                "game": asdict(self.game)}

    @classmethod
    def parse(cls, data: object) -> Finding:
        """Read a finding back.

        Raises:
            ValueError: a field out of shape (engine.pdn.PdnError, a ValueError, included).
        """
        if not isinstance(data, dict) or not isinstance(data.get("player"), str) \
                or not isinstance(data.get("puzzles"), str):
            raise ValueError("a finding is an object with a player and puzzles")
        return cls(data["player"], tuple(read_collection(data["puzzles"])),
                   parse_game(data.get("game")))


def pdn_game(job: Job) -> PdnGame:
    """The job's game as a PDN reader would give it (its tags, its moves).

    Raises:
        firmware_host.coach.jobs.JobError: a move not legal where it is played.
    """
    board = job.replay()
    tags = dict(job.tags)
    return PdnGame(headers=tags, variant=board.variant, start_fen=board.root().fen(),
                   moves=list(board.move_stack), move_texts=list(job.moves),
                   result=tags.get("Result", "*"))


def _named(name: str) -> bool:
    try:
        player_file(name)
    except BookError:
        return False
    return True


def findings(job: Job, analysis: StoredAnalysis) -> list[Finding]:
    """Each named player's missed wins and mistakes in the game ``analysis`` is of.

    Raises:
        firmware_host.coach.jobs.JobError: a move not legal where it is played.
    """
    tags = dict(job.tags)
    players: list[str] = []
    for tag in ("White", "Black"):
        name = " ".join(tags.get(tag, "").split())
        if _named(name) and name.lower() not in (p.lower() for p in players):
            players.append(name)
    if not players:
        return []
    game = pdn_game(job)
    marked = {ply: move.mark for ply, move in enumerate(analysis.moves)
              if move.mark in _ERRORS}
    source = f"board {job.board}" + (f", {tags['Date']}" if tags.get("Date") else "")
    found = []
    for player in players:
        counted = game_mistakes(game, player, marked, source)
        if counted is not None:
            puzzles = missed_wins(game, player, analysis.depth, source, marked)
            found.append(Finding(player, tuple(puzzles), counted))
    return found


def keep(folder: str | Path, found: list[Finding]) -> None:
    """Write ``found`` into the books in ``folder``: the puzzles a player's book lacks, the
    game in their record (replacing an earlier count of the same game). A book that cannot be
    written is logged, the others are still written."""
    books, records = MistakeBook(folder), ProgressBook(folder)
    for finding in found:
        try:
            added = books.add(finding.player, finding.puzzles)
            records.games(finding.player, [finding.game])
        except BookError as exc:
            log.warning("coach: %s's mistake book not written: %s", finding.player, exc)
            continue
        log.info("coach: %s: %d mistakes, %d blunders, %d new missed wins in the book",
                 finding.player, finding.game.mistakes, finding.game.blunders, added)

