"""A relay as lidraughts' relay module reads a broadcast's PDN: the rules of its code, in Python.

Read in lidraughts' sources (``modules/relay``: ``RelayFetch.scala``, ``RelaySync.scala``,
``RelayGame.scala``, ``RelayInputSanity.scala``; ``modules/study``: ``MultiPdn.scala``,
``PdnImport.scala``, ``CommentParser.scala``), written again here so a test can poll
``/broadcast.pdn`` as the relay does and fail where the relay would:

- a poll is a plain ``GET`` (no ``If-None-Match``) that must answer ``200`` (the relay gives up
  after 4 s: measured by ``bench/broadcast.py``, not by a test);
- the body's ``<br>`` become blank lines, ``\\r`` go, and the text is cut into games before
  every ``[`` that follows a blank line, keeping the first :data:`MAX_GAMES`;
- a game without tags and moves fails the whole poll ("Found an empty PDN"); the variant is the
  ``GameType`` tag's first number; the moves are replayed until the first one the rules refuse
  (the rest is dropped); a move's clock is the ``[%clk H:MM:SS]`` (or ``H:MM``) of its comment;
- several games are matched to the relay's chapters by their place in the file (one game: by
  its players' tags); a file with fewer games than chapters fails (``Missing``), and so does one
  whose game at a chapter's place is another chapter's (``Misplaced``: the tags White, Black,
  Round, Event and Site of another game match it);
- a chapter is named ``White - Black``; its tags follow the game's; its moves grow with the
  game's, and a game whose moves no longer extend the chapter's changes its main line.

The moves are replayed by pydraughts (``draughts``), an implementation independent of ours.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from draughts import Board as PyBoard
from draughts import Move as PyMove

__all__ = ["MAX_GAMES", "Chapter", "Relay", "RelayError", "RelayGame"]

#: The games a relay reads of one file (a study's chapters; twice that for an official one).
MAX_GAMES = 64
#: The tags that say which chapter a game is (RelayGame.staticTags).
STATIC_TAGS = ("White", "Black", "Round", "Event", "Site")
#: GameType numbers lidraughts knows, as pydraughts calls their rules.
VARIANTS = {20: "standard", 25: "russian", 26: "brazilian", 40: "frisian"}
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_CLK = re.compile(r"\[%clk[\s\r\n]+([\d:.]+)\]")
_HOURS_MINUTES = re.compile(r"^(\d+):(\d+)$")
_HOURS_MINUTES_SECONDS = re.compile(r"^(\d+):(\d+)[:.](\d+)$")
_TOKENS = re.compile(r"\{[^}]*\}|\S+")
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_RESULTS = {"1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "0-0", "*"}


class RelayError(Exception):
    """A poll the relay refuses as a whole (it logs it and tries again later)."""


@dataclass
class RelayGame:
    """One game of a polled file, as the relay imported it."""

    index: int
    tags: dict[str, str]
    moves: list[str]
    #: Each move's clock (centiseconds; None: no clock comment).
    clocks: list[int | None]

    def static_match(self, tags: dict[str, str]) -> bool:
        return all(self.tags.get(name) == tags.get(name) for name in STATIC_TAGS)


@dataclass
class Chapter:
    """A chapter of the relay's study: one game followed poll after poll."""

    index: int
    name: str
    tags: dict[str, str]
    moves: list[str] = field(default_factory=list)
    clocks: list[int | None] = field(default_factory=list)


def centis(text: str) -> int | None:
    """A ``%clk`` value as CommentParser.readCentis reads it (``H:MM`` is hours and minutes)."""
    if match := _HOURS_MINUTES.match(text):
        return (int(match[1]) * 3600 + int(match[2]) * 60) * 100
    if match := _HOURS_MINUTES_SECONDS.match(text):
        return (int(match[1]) * 3600 + int(match[2]) * 60 + int(match[3])) * 100
    return None


def split(body: str, most: int = MAX_GAMES) -> list[str]:
    """MultiPdn.split after RelayFetch's clean-up."""
    text = body.replace("<br>", "\n\n").replace("\r", "")
    return re.split(r"\n\n(?=\[)", text, maxsplit=most)[:most]


def import_game(text: str, index: int) -> RelayGame:
    """PdnImport of one game; raises :class:`RelayError` where it fails."""
    tags: dict[str, str] = {}
    lines = text.strip("\n").split("\n")
    body_from = 0
    for number, line in enumerate(lines):
        match = _TAG.match(line.strip())
        if match is None:
            if line.strip():
                break
            continue
        tags[match[1]] = match[2].replace('\\"', '"').replace("\\\\", "\\")
        body_from = number + 1
    tokens = _TOKENS.findall("\n".join(lines[body_from:]))
    sans: list[tuple[str, list[str]]] = []
    for token in tokens:
        if token.startswith("{"):
            if sans:
                sans[-1][1].append(token[1:-1])
        elif not _MOVE_NUMBER.match(token) and token not in _RESULTS:
            sans.append((token.split(".")[-1] if "." in token else token, []))
    if not tags and not sans:
        raise RelayError(f"Found an empty PDN at index {index}")
    game_type = tags.get("GameType", "20").split(",")[0]
    variant = VARIANTS.get(int(game_type)) if game_type.isdigit() else None
    if variant is None:
        raise RelayError(f"game {index}: GameType {game_type!r} is no lidraughts variant")
    board = PyBoard(variant=variant, fen=tags["FEN"]) if "FEN" in tags else PyBoard(variant)
    moves: list[str] = []
    clocks: list[int | None] = []
    for san, comments in sans:
        try:
            board.push(PyMove(board, pdn_move=san))
        except Exception:  # pydraughts refuses it: lidraughts drops it and what follows
            break
        moves.append(san)
        clock = None
        for comment in comments:
            if found := _CLK.search(comment):
                clock = centis(found[1])
        clocks.append(clock)
    return RelayGame(index, tags, moves, clocks)


class Relay:
    """A lidraughts relay (a broadcast's round) polling one URL."""

    def __init__(self, url: str, most: int = MAX_GAMES) -> None:
        self.url = url
        self.most = most
        self.chapters: list[Chapter] = []
        #: Each main line changed (moves that no longer extend the chapter's): its chapter.
        self.rewrites: list[str] = []
        self.polls = 0

    def fetch(self) -> str:
        request = urllib.request.Request(self.url)  # no If-None-Match: every poll is a GET
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                status, body = reply.status, reply.read().decode()
        except urllib.error.HTTPError as exc:
            status, body = exc.code, ""
        if status != 200:
            raise RelayError(f"[{status}] {self.url}")
        return body

    def poll(self) -> list[RelayGame]:
        """One sync: fetch, import every game, match them to the chapters and update them.

        Raises:
            RelayError: the relay refuses this poll (nothing is updated).
        """
        self.polls += 1
        games = [import_game(text, index)
                 for index, text in enumerate(split(self.fetch(), self.most))]
        self._sanity(games)
        for game in games:
            if len(games) == 1:
                chapter = next((c for c in self.chapters if game.static_match(c.tags)), None)
            else:
                chapter = next((c for c in self.chapters if c.index == game.index), None)
            if chapter is None:
                white, black = game.tags.get("White"), game.tags.get("Black")
                name = f"{white} - {black}" if white and black else game.tags.get("Board", "?")
                self.chapters.append(Chapter(game.index, name, dict(game.tags),
                                             list(game.moves), list(game.clocks)))
                continue
            chapter.tags.update(game.tags)
            if game.moves[:len(chapter.moves)] != chapter.moves:
                self.rewrites.append(chapter.name)
            chapter.moves, chapter.clocks = list(game.moves), list(game.clocks)
        return games

    def _sanity(self, games: list[RelayGame]) -> None:
        """RelayInputSanity: a known chapter's game must be at its place."""
        if not self.chapters or (len(games) == 1 and len(self.chapters) == 1):
            return
        for chapter in self.chapters:
            if chapter.index >= len(games):
                raise RelayError(f"Missing game for Chapter {chapter.index + 1}")
            if not games[chapter.index].static_match(chapter.tags):
                for other in games:
                    if other.static_match(chapter.tags):
                        raise RelayError(f"Game {other.index + 1} matches with Chapter "
                                         f"{chapter.index + 1}")
