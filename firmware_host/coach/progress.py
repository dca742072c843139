"""A player's progress: puzzles solved, the puzzle rating, and mistakes per game over time.

Kept beside the mistake books (``coach.mistakes_dir``): each player's record is
``<name>.progress.json`` (the name made safe as for the book), the puzzles' own ratings are
``puzzle-ratings.json``. Both are rewritten whole through a file beside them (a crash leaves the
old record or the new one).

- **Puzzles** (``play --puzzles --player NAME``): each puzzle finished (solved, or a wrong move)
  is a game between the player and the puzzle, rated by Glicko-2
  (:mod:`firmware_host.coach.rating`): solved, the player wins. Only a player's first attempt
  at a puzzle is rated, as on lichess (a puzzle seen again is easier); later ones count as
  tried and solved but move no rating. A puzzle starts at the rating of its difficulty
  (:data:`PUZZLE_START`) and moves with every player's attempt on this machine.
- **Games** (``puzzles mistakes``): each of the player's games read there leaves its date, the
  player's moves and their mistakes (``?``) and blunders (``??``); a game read twice counts
  once.

>>> import tempfile
>>> from engine.puzzles import load
>>> book = ProgressBook(tempfile.mkdtemp())
>>> change = book.attempt("Anna", load("russian")[0], solved=True)
>>> change.before.shown(), change.after.r > 1500, book.load("Anna").solved
('1500?', True, 1)
>>> book.attempt("anna", load("russian")[0], solved=False).rated
False
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Final

from engine.analysis import Judgement
from engine.pdn import PdnGame
from engine.puzzles import Puzzle
from firmware_host.coach.book import BookError, movers, player_file, sides_of
from firmware_host.coach.rating import MIN_RD, START, Rating, update

__all__ = ["PUZZLE_START", "GameMistakes", "PlayerProgress", "ProgressBook", "RatingChange",
           "by_month", "game_mistakes", "parse_game"]

log = logging.getLogger(__name__)

#: A puzzle's rating before anyone has tried it, by its difficulty (1-5): 200 points a step,
#: the middle one at a new player's 1500; unsure (deviation 250) until players have tried it.
PUZZLE_START: Final = {difficulty: Rating(1100.0 + 200.0 * (difficulty - 1), 250.0)
                       for difficulty in range(1, 6)}
#: The end of a player's record's file name.
RECORD: Final = ".progress.json"
#: The puzzles' ratings' file in the folder.
PUZZLE_RATINGS: Final = "puzzle-ratings.json"
#: A player's games kept at most (the oldest dropped first).
MOST_GAMES: Final = 5000
#: The ids of a player's newest attempts kept (an attempt recorded again counts once).
MOST_ATTEMPTS: Final = 100


@dataclass(frozen=True)
class GameMistakes:
    """One of the player's analysed games: its date (``YYYY-MM-DD``, ``""`` unknown), where it
    came from, the player's moves, mistakes (``?``) and blunders (``??``)."""

    key: str
    date: str
    source: str
    moves: int
    mistakes: int
    blunders: int

    @property
    def errors(self) -> int:
        """Mistakes and blunders."""
        return self.mistakes + self.blunders


@dataclass
class PlayerProgress:
    """What is kept of a player: the puzzle rating, puzzles tried and solved, the puzzles
    rated (by ``variant:fen``: solved or not), the games, the name."""

    rating: Rating = START
    tried: int = 0
    solved: int = 0
    rated: dict[str, bool] = field(default_factory=dict)
    games: list[GameMistakes] = field(default_factory=list)
    #: The player's name as last written (a record older than names: "").
    name: str = ""
    #: The newest attempts recorded, by the id their caller gave (the board's: the game of
    #: the puzzle): an attempt recorded again (a restart in between) counts once.
    attempts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RatingChange:
    """What an attempt did: the player's rating before and after, the puzzle's rating as it
    was met, and whether it was rated (a first attempt)."""

    before: Rating
    after: Rating
    puzzle: Rating
    rated: bool

    @property
    def change(self) -> int:
        """The change in whole points."""
        return round(self.after.r) - round(self.before.r)


def by_month(games: Iterable[GameMistakes]) -> list[tuple[str, int, float, float]]:
    """Mistakes per game, month by month (oldest first; undated games last, as ``undated``):
    ``(month, games, mistakes and blunders a game, blunders a game)``.

    >>> by_month([GameMistakes("a", "2026-11-03", "", 30, 2, 1),
    ...           GameMistakes("b", "2026-11-20", "", 30, 0, 1),
    ...           GameMistakes("c", "", "", 9, 0, 0)])
    [('2026-11', 2, 2.0, 1.0), ('undated', 1, 0.0, 0.0)]
    """
    months: dict[str, list[GameMistakes]] = {}
    for game in games:
        months.setdefault(game.date[:7] or "undated", []).append(game)
    order = sorted(m for m in months if m != "undated") + (["undated"] if "undated" in months
                                                           else [])
    return [(month, len(months[month]),
             sum(g.errors for g in months[month]) / len(months[month]),
             sum(g.blunders for g in months[month]) / len(months[month])) for month in order]


_DATE = re.compile(r"(\d{4})\.(\d\d|\?\?)\.(\d\d|\?\?)")


def game_mistakes(game: PdnGame, player: str, marked: Mapping[int, str],
                  source: str = "") -> GameMistakes | None:
    """``player``'s part of ``game``: their moves and how many of them ``marked`` marks ``?``
    and ``??`` (:func:`~firmware_host.coach.book.marks`); None: not their game.

    The date is the PDN ``Date`` tag's (``2026.11.03`` -> ``2026-11-03``; ``2026.11.??`` ->
    ``2026-11``; unknown: ``""``); the key, a board's game's ``Board`` and ``GameId`` tags (the
    board's PDN file and its own analysis give the same key, an arbiter's correction too),
    else the game's tags and moves (the same game read again has the same key).
    """
    sides = sides_of(game, player)
    if not sides:
        return None
    side = movers(game)
    theirs = [ply for ply in range(len(side)) if side[ply] in sides]
    found = _DATE.fullmatch(game.headers.get("Date", "").strip())
    date = "" if found is None or found[1] == "????" else "-".join(
        part for part in found.groups() if part != "??")
    if found is not None and found[2] == "??":
        date = found[1]
    if game.headers.get("Board") and game.headers.get("GameId"):  # a board's game
        identity = ["board", game.headers["Board"], game.headers["GameId"]]
    else:
        board = game.board()
        identity = [game.headers.get(tag, "") for tag in ("Event", "Site", "Date", "Round",
                                                          "White", "Black")]
        identity += [board.root().fen(), board.fen(), str(len(game.moves))]
    return GameMistakes(
        key=hashlib.sha256("\n".join(identity).encode()).hexdigest()[:24], date=date,
        source=source, moves=len(theirs),
        mistakes=sum(marked.get(p) == Judgement.MISTAKE.sign for p in theirs),
        blunders=sum(marked.get(p) == Judgement.BLUNDER.sign for p in theirs))


def _key(puzzle: Puzzle) -> str:
    return f"{puzzle.variant.name}:{puzzle.fen}"


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"not a number: {value!r:.40}")
    return float(value)


def _rating(data: object) -> Rating:
    if not isinstance(data, dict):
        raise ValueError(f"a rating is an object, not {data!r:.40}")
    rating = Rating(*(_number(data.get(k)) for k in ("r", "rd", "vol")))
    if not (0 < rating.rd <= START.rd and 0 < rating.vol < 1 and -5000 < rating.r < 10000):
        raise ValueError(f"a rating out of range: {data!r:.60}")
    return rating


def parse_game(data: object) -> GameMistakes:
    """A kept game read back.

    Raises:
        ValueError: a field out of shape.
    """
    if not isinstance(data, dict):
        raise ValueError(f"a game is an object, not {data!r:.40}")
    key, date, source = (data.get(k) for k in ("key", "date", "source"))
    moves, mistakes, blunders = (data.get(k) for k in ("moves", "mistakes", "blunders"))
    if not (isinstance(key, str) and isinstance(date, str) and isinstance(source, str)
            and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0
                    for c in (moves, mistakes, blunders))):
        raise ValueError(f"a game's fields are out of shape: {data!r:.60}")
    return GameMistakes(key, date, source, int(str(moves)), int(str(mistakes)),
                        int(str(blunders)))


class ProgressBook:
    """The players' progress records and the puzzles' ratings in ``directory``."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    def path(self, player: str) -> Path:
        """``player``'s record.

        Raises:
            BookError: a name that names nobody (:func:`~firmware_host.coach.book.player_file`).
        """
        return self.directory / f"{Path(player_file(player)).stem}{RECORD}"

    def load(self, player: str) -> PlayerProgress:
        """``player``'s record (none yet: a new player's).

        Raises:
            BookError: the name, or a record that cannot be read (named with the reason).
        """
        path = self.path(player)
        data = self._read(path)
        if data is None:
            return PlayerProgress()
        try:
            if not isinstance(data, dict):
                raise ValueError("not an object")
            rated = data.get("rated", {})
            tried, solved = data.get("tried", 0), data.get("solved", 0)
            if not (isinstance(rated, dict) and all(isinstance(v, bool) for v in rated.values())
                    and isinstance(tried, int) and isinstance(solved, int)):
                raise ValueError("its puzzles are out of shape")
            name = data.get("name", "")
            if not isinstance(name, str) or len(name) > 200:
                raise ValueError("its name is out of shape")
            attempts = data.get("attempts", [])
            if not (isinstance(attempts, list) and all(isinstance(a, str) and len(a) <= 200
                                                       for a in attempts)):
                raise ValueError("its attempts are out of shape")
            return PlayerProgress(_rating(data.get("rating")), tried, solved,
                                  {str(k): v for k, v in rated.items()},
                                  [parse_game(g) for g in data.get("games", [])], name,
                                  attempts[-MOST_ATTEMPTS:])
        except (TypeError, ValueError) as exc:
            raise BookError(f"{path}: {exc}") from None

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        """``puzzle``'s rating here (never tried: its difficulty's, :data:`PUZZLE_START`)."""
        start = PUZZLE_START[min(max(puzzle.difficulty, 1), 5)]
        found = self._puzzles().get(_key(puzzle))
        return start if found is None else found

    def attempt(self, player: str, puzzle: Puzzle, solved: bool, attempt: str = ""
                ) -> RatingChange:
        """Record ``player``'s attempt at ``puzzle``: rate it if it is their first.
        ``attempt``: the attempt's id, if it has one; one recorded already (among the newest
        :data:`MOST_ATTEMPTS`) changes nothing (not rated).

        Raises:
            BookError: the name, a record that cannot be read, or the folder not writable.
        """
        progress = self.load(player)
        puzzle_rating = self.puzzle_rating(puzzle)
        before = progress.rating
        if attempt and attempt in progress.attempts:
            return RatingChange(before, before, puzzle_rating, False)
        if attempt:
            progress.attempts = [*progress.attempts, attempt][-MOST_ATTEMPTS:]
        progress.tried += 1
        progress.solved += solved
        first = _key(puzzle) not in progress.rated
        if first:
            score = 1.0 if solved else 0.0
            progress.rating = update(before, [(puzzle_rating, score)], min_rd=MIN_RD)
            progress.rated[_key(puzzle)] = solved
            ratings = self._puzzles()
            ratings[_key(puzzle)] = update(puzzle_rating, [(before, 1.0 - score)],
                                           min_rd=MIN_RD)
            self._write(self.directory / PUZZLE_RATINGS,
                        {key: asdict(r) for key, r in ratings.items()})
        self._save(player, progress)
        return RatingChange(before, progress.rating, puzzle_rating, first)

    def games(self, player: str, games: Iterable[GameMistakes]) -> int:
        """Add ``player``'s analysed games not yet kept (by key); return how many. A game
        kept already is counted again in its place (a corrected game, a deeper analysis).

        Raises:
            BookError: as :meth:`attempt`.
        """
        progress = self.load(player)
        kept = {g.key: g for g in progress.games}
        before = len(kept)
        for game in games:
            kept[game.key] = game  # (a dict keeps the first place of a key)
        if list(kept.values()) != progress.games:
            progress.games = list(kept.values())[-MOST_GAMES:]
            self._save(player, progress)
        return len(kept) - before

    def players(self) -> list[tuple[str, PlayerProgress]]:
        """Every player with a record here, by name: (the record's key, as :meth:`load`
        takes it, and the record). A record that cannot be read is left out (logged).

        >>> import tempfile
        >>> book = ProgressBook(tempfile.mkdtemp())
        >>> book.games("Ёлкин,  П.", [GameMistakes("k", "2026-12-06", "", 20, 1, 0)])
        1
        >>> [(key, record.name, len(record.games)) for key, record in book.players()]
        [('ёлкин-п', 'Ёлкин, П.', 1)]
        """
        found = []
        for path in sorted(self.directory.glob(f"*{RECORD}")):
            key = path.name[:-len(RECORD)]
            try:
                found.append((key, self.load(key)))
            except BookError as exc:
                log.warning("coach: a progress record left out: %s", exc)
        return sorted(found, key=lambda pair: (pair[1].name or pair[0]).casefold())

    def _save(self, player: str, progress: PlayerProgress) -> None:
        self._write(self.path(player), {
            "name": " ".join(player.split()), "rating": asdict(progress.rating),
            "tried": progress.tried,
            "solved": progress.solved, "rated": progress.rated,
            "games": [asdict(g) for g in progress.games], "attempts": progress.attempts})

    def _puzzles(self) -> dict[str, Rating]:
        path = self.directory / PUZZLE_RATINGS
        data = self._read(path)
        if data is None:
            return {}
        try:
            if not isinstance(data, dict):
                raise ValueError("not an object")
            return {str(key): _rating(value) for key, value in data.items()}
        except ValueError as exc:
            raise BookError(f"{path}: {exc}") from None

    @staticmethod
    def _read(path: Path) -> object:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BookError(f"{path}: {exc}") from None

    def _write(self, path: Path, data: object) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(path.name + ".new")
            temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1),
                                 encoding="utf-8")
            os.replace(temporary, path)
        except OSError as exc:
            raise BookError(f"{path}: {exc.strerror or exc}") from None
