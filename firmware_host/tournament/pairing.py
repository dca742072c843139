"""A round's pairing list: read and checked from CSV, and read by each board as its games open.

The list is a CSV file with the header ``board,white,black,round,event`` (the order of the
columns is free, ``event`` may be empty), one row per board. Excel's CSV in Dutch, French or
German separates the columns with ``;``: the header says which (``,``, ``;`` or a tab). Every
row is checked and every bad row gets one message naming its line; a list with any bad row is
not stored at all. How a list is stored, merged with the round's boards imported before, and
exported: :mod:`~firmware_host.tournament.rounds`.

Each listed board gets ``draughtsboard:<board>:pairing``, a hash of the PDN tags of its next
game (:data:`PAIRING_TAGS`: the names, ``Round`` and ``Event``, and from a TRF the ``Site``,
the round's ``Date`` and the players' ratings, federations, titles and ids). A board reads it
through a :class:`PairingSource`: a game that opens takes the tags (:meth:`PairingSource.peek`),
and its first move (or the arbiter's *Start round*) consumes them
(:meth:`PairingSource.take`), so a list imported while a board waits at the start position
names that game, and the game after it is not named again.

>>> rows, problems = read_pairings("board,white,black,round,event\\nb1,Ann,Bob,1,Club\\n")
>>> rows[0].headers(), problems
({'White': 'Ann', 'Black': 'Bob', 'Round': '1', 'Event': 'Club'}, [])
"""

from __future__ import annotations

import csv
import io
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace

import redis

from firmware_host.config.schema import BOARD_ID, STORE_URL, Settings
from firmware_host.digits import whole_number_or
from firmware_host.store.keys import BOARD_ID as BOARD_ID_RULE
from firmware_host.store.keys import BoardKeys, board_id_problem
from firmware_host.terms.commands import BOARD_TAGS, MAX_HEADER_LENGTH

__all__ = [
    "FIELDS",
    "MAX_ROWS",
    "PAIRING_TAGS",
    "Pairing",
    "PairingSource",
    "check_rows",
    "is_round",
    "line_of",
    "name_problem",
    "open_pairing",
    "pairing_key",
    "read_pairings",
    "read_rows",
]

log = logging.getLogger(__name__)

#: The columns of a pairing list.
FIELDS = ("board", "white", "black", "round", "event")
#: The PDN tags a pairing gives the board's game (and a board takes from its pairing hash).
PAIRING_TAGS = ("White", "Black", "Round", "Event", "Site", "Date", "Time",
                "WhiteRating", "BlackRating", "WhiteFederation", "BlackFederation",
                "WhiteTitle", "BlackTitle", "WhiteFmjdId", "BlackFmjdId",
                *BOARD_TAGS.values())  # (a match between clubs: the two boards)
#: A PDN round: ``3``, or a sub-round ``3.1`` (ASCII digits: ``\d`` would take ``٣`` too).
_ROUND = re.compile(r"[0-9]{1,4}(?:\.[0-9]{1,4})*")
#: The separators a list's header may use (Excel writes ``;`` where ``,`` is the decimal mark).
_SEPARATORS = (",", ";", "\t")
#: The longest pairing list read (rows).
MAX_ROWS = 1000
#: After a failed read, Redis is left alone this long (seconds).
RETRY_S = 30.0
#: Redis errors a board survives when it reads its pairing.
FAILURES = (redis.RedisError, OSError, ValueError)


@dataclass(frozen=True)
class Pairing:
    """One board of a round.

    ``tags``: more PDN tags of the game (from a TRF: ``Site``, ``Date``, the players'
    ratings, federations, titles and ids); ``white_rank`` / ``black_rank``: the players'
    starting ranks in the TRF the pairing came from (0: a CSV list); ``formerly``: the names
    the board's game of the round had before a re-import corrected them (the export still
    finds that game).
    """

    board: str
    white: str
    black: str
    round: str
    event: str = ""
    tags: tuple[tuple[str, str], ...] = ()
    white_rank: int = 0
    black_rank: int = 0
    formerly: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def headers(self) -> dict[str, str]:
        """The PDN tags of the board's game.

        >>> Pairing("b1", "Ann", "Bob", "2", tags=(("WhiteRating", "2210"),)).headers()
        {'White': 'Ann', 'Black': 'Bob', 'Round': '2', 'WhiteRating': '2210'}
        """
        tags = {"White": self.white, "Black": self.black, "Round": self.round}
        if self.event:
            tags["Event"] = self.event
        tags.update({k: v for k, v in self.tags if k not in tags})
        return tags

    def names(self) -> set[tuple[str, str]]:
        """The (White, Black) names the board's game of the round may carry: the pairing's,
        and those a re-import corrected."""
        return {(self.white, self.black), *self.formerly}

    def with_facts(self, tags: Mapping[str, str], white_rank: int, black_rank: int) -> Pairing:
        """The pairing with more PDN tags (those that are PDN tag values) and the TRF ranks."""
        kept = tuple((k, v) for k, v in tags.items()
                     if k in PAIRING_TAGS and name_problem(k, v) is None)
        return replace(self, tags=kept, white_rank=white_rank, black_rank=black_rank)

    def to_json(self) -> dict[str, object]:
        """The pairing as JSON-ready data (:meth:`from_json` reads it back)."""
        return {"board": self.board, "white": self.white, "black": self.black,
                "round": self.round, "event": self.event, "tags": [list(t) for t in self.tags],
                "white_rank": self.white_rank, "black_rank": self.black_rank,
                "formerly": [list(n) for n in self.formerly]}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Pairing:
        """A pairing as stored (a round stored before these fields has none of them).

        Raises:
            KeyError, TypeError, ValueError: not a stored pairing.
        """
        def pairs(key: str) -> tuple[tuple[str, str], ...]:
            raw = data.get(key, [])
            if not isinstance(raw, list):
                raise TypeError(f"{key}: not a list")
            return tuple((str(a), str(b)) for a, b in raw)

        def rank(key: str) -> int:
            raw = data.get(key, 0)
            if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 9999:
                raise ValueError(f"{key}: not a starting rank")
            return raw

        return cls(str(data["board"]), str(data["white"]), str(data["black"]),
                   str(data["round"]), str(data.get("event", "")), tags=pairs("tags"),
                   white_rank=rank("white_rank"), black_rank=rank("black_rank"),
                   formerly=pairs("formerly"))


def is_round(text: str) -> bool:
    """Whether ``text`` is a round as a pairing list writes it (``3``, ``3.1``).

    >>> is_round("3"), is_round("3.1"), is_round("3; DROP"), is_round(""), is_round("٣")
    (True, True, False, False, False)
    """
    return _ROUND.fullmatch(text) is not None


def pairing_key(board_id: str) -> str:
    """The next game's tags of a board: ``draughtsboard:<board>:pairing``."""
    return BoardKeys(board_id).pairing


def name_problem(column: str, value: str) -> str | None:
    """Why ``value`` cannot be the PDN tag ``column`` (None: it can).

    >>> name_problem("white", ""), name_problem("white", "Ann")
    ('white is empty', None)
    """
    if not value:
        return f"{column} is empty"
    if len(value) > MAX_HEADER_LENGTH or not value.isprintable() or '"' in value \
            or "\\" in value:
        return (f"{column} {value[:20]!r}... is not a PDN tag value (at most "
                f"{MAX_HEADER_LENGTH} printable characters, no \" or \\)")
    return None


def _row_problems(row: Mapping[str, str]) -> list[str]:
    problems = []
    if not BOARD_ID_RULE.fullmatch(row["board"]):
        problems.append(f"board {row['board']!r} is not a board id (letters, digits, - and _, "
                        "as board.id)")
    elif board_id_problem(row["board"]) is not None:
        problems.append(f"board {row['board']!r} is the name of a key every board shares, not "
                        "a board id")
    for column in ("white", "black"):
        problem = name_problem(column, row[column])
        if problem:
            problems.append(problem)
    if not _ROUND.fullmatch(row["round"]):
        problems.append(f"round {row['round']!r} is not a round number (3, or 3.1)")
    if row["event"]:
        problem = name_problem("event", row["event"])
        if problem:
            problems.append(problem)
    return problems


def _separator(header: str) -> str:
    """The column separator a list's header line uses (``,`` unless it has more of another).

    >>> _separator("board;white;black;round;event"), _separator("board,white,black")
    (';', ',')
    """
    return max(_SEPARATORS, key=lambda sep: (header.count(sep), sep == ","))


def read_pairings(text: str) -> tuple[list[Pairing], list[str]]:
    """The pairings of a CSV pairing list and the problems found (``line N: ...`` each).

    A bad row is left out; so is everything after a header that lacks a column. The columns
    are separated by ``,``, ``;`` or a tab, as the header line has them.

    >>> _, problems = read_pairings("board,white,black,round,event\\nb 1,Ann,Ann,x,\\n")
    >>> print(problems[0].replace("; ", "\\n"))
    line 2: board 'b 1' is not a board id (letters, digits, - and _, as board.id)
    round 'x' is not a round number (3, or 3.1)
    Ann plays both sides
    >>> read_pairings("board;white;black;round;event\\nb1;Ann;Bob;1;\\n")[0][0].black
    'Bob'
    """
    rows, problems = read_rows(text, FIELDS)
    if not rows and problems:
        return [], problems
    pairings, found = check_rows(rows)
    problems = sorted(problems + found, key=line_of)
    if not pairings and not problems:
        problems.append("line 2: the list has no pairing")
    return pairings, problems


def read_rows(text: str, fields: Sequence[str]) -> tuple[list[tuple[int, dict[str, str]]],
                                                         list[str]]:
    """The rows of a CSV list whose header names the columns ``fields`` (in any order,
    separated by ``,``, ``;`` or a tab, as the header line has them), each with its line
    number and its values stripped, and the problems of reading (``line N: ...`` each). A
    blank line is skipped; nothing is read after a header that lacks a column."""
    text = text.lstrip("\ufeff")
    separator = _separator(text.split("\n", 1)[0])
    reader = csv.DictReader(io.StringIO(text), delimiter=separator, skipinitialspace=True)
    columns = [c.strip().lower() for c in reader.fieldnames or ()]
    missing = [c for c in fields if c not in columns]
    if missing:
        return [], [f"line 1: the header must name the columns {','.join(fields)} "
                    f"(missing: {', '.join(missing)}; columns separated by , or ;)"]
    reader.fieldnames = columns
    rows: list[tuple[int, dict[str, str]]] = []
    problems: list[str] = []
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # a field over the csv module's limit, a NUL byte...
            problems.append(f"line {reader.reader.line_num}: not read as CSV ({exc}): the "
                            "rest is not read")
            break
        line = reader.line_num
        if len(rows) + len(problems) >= MAX_ROWS:
            problems.append(f"line {line}: more than {MAX_ROWS} rows: the rest is not read")
            break
        if None in row or any(row.get(c) is None for c in fields):
            problems.append(f"line {line}: expected {len(columns)} columns")
            continue
        values = {c: str(row[c]).strip() for c in fields}
        if any(values.values()):  # (a blank line is skipped)
            rows.append((line, values))
    return rows, problems


def line_of(problem: str) -> int:
    """The line a problem of a list names (0: none)."""
    number = problem.removeprefix("line ").split(":", 1)[0]
    return whole_number_or(number, 0)


def check_rows(rows: Iterable[tuple[int, Mapping[str, str]]]) -> tuple[list[Pairing], list[str]]:
    """The pairings of rows of a list (each with its line number and its :data:`FIELDS`) and
    the problems found (``line N: ...`` each); a bad row is left out. Any reader of a pairing
    list (CSV here, TRF in :mod:`.trf`) checks its rows with this."""
    pairings: list[Pairing] = []
    problems: list[str] = []
    boards: dict[str, int] = {}
    players: dict[str, int] = {}
    rounds: dict[str, int] = {}
    for line, values in rows:
        found = _row_problems(values)
        if values["white"] and values["white"] == values["black"]:
            found.append(f"{values['white']} plays both sides")
        if values["board"] in boards:
            found.append(f"board {values['board']} is already on line {boards[values['board']]}")
        for column in ("white", "black"):
            name = values[column]
            if name and name in players:  # on an earlier row (this one: "both sides")
                found.append(f"{name} already plays on line {players[name]}")
        if rounds and values["round"] not in rounds and _ROUND.fullmatch(values["round"]):
            first = next(iter(rounds))
            found.append(f"round {values['round']}: a list is one round (line {rounds[first]} "
                         f"is round {first})")
        if found:
            problems.append(f"line {line}: " + "; ".join(found))
            continue
        boards[values["board"]] = line
        players.setdefault(values["white"], line)
        players.setdefault(values["black"], line)
        rounds.setdefault(values["round"], line)
        pairings.append(Pairing(values["board"], values["white"], values["black"],
                                values["round"], values["event"]))
    return pairings, problems


class PairingSource:
    """What a board reads of its pairing. A Redis failure reads as no pairing (logged once);
    after one, Redis is not asked again for :data:`RETRY_S` seconds (the game's thread waits
    for nobody)."""

    def __init__(self, client: redis.Redis, board_id: str,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._client = client
        self._key = pairing_key(board_id)
        self._monotonic = monotonic
        self._failed_at: float | None = None

    def _read(self, consume: bool) -> dict[str, str] | None:
        now = self._monotonic()
        if self._failed_at is not None and now - self._failed_at < RETRY_S:
            return None
        try:
            if consume:
                pipe = self._client.pipeline(transaction=True)
                pipe.hgetall(self._key)
                pipe.delete(self._key)
                raw: object = pipe.execute()[0]
            else:
                raw = self._client.hgetall(self._key)
        except FAILURES as exc:
            if self._failed_at is None:
                log.warning("pairing not read (%s): the game keeps the tags it has",
                            type(exc).__name__)
            self._failed_at = now
            return None
        self._failed_at = None
        tags = {_text(k): _text(v) for k, v in (raw if isinstance(raw, dict) else {}).items()}
        return {k: v for k, v in tags.items() if k in PAIRING_TAGS
                and name_problem(k, v) is None}

    def peek(self) -> dict[str, str]:
        """The tags of the board's next game (empty: none waiting, or Redis away)."""
        return self._read(consume=False) or {}

    def take(self) -> dict[str, str] | None:
        """The tags waiting, consumed: the game that now began has them (None: Redis away,
        nothing consumed)."""
        return self._read(consume=True)


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def open_pairing(config: Settings, stack: ExitStack) -> PairingSource | None:
    """The board's pairing source for the service (None with the ``memory`` store)."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from firmware_host.store.connect import sync_client

    url = config[STORE_URL]
    if url == "memory":
        return None
    # Read on the game's thread as a game opens and begins: a Redis away costs at most this.
    client = sync_client(url, socket_timeout=0.5, socket_connect_timeout=0.5,
                         retry=Retry(NoBackoff(), 0))
    stack.callback(client.close)
    return PairingSource(client, config[BOARD_ID])
