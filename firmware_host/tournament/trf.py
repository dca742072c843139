"""The FIDE Tournament Report File (TRF16), as pairing programs write it: a round's pairings
read in the program's board order, and the round's results written back.

Swiss-Manager, Vega, JaVaFo, bbpPairings and most club pairing programs exchange a tournament
as a TRF (FIDE's data-exchange format; TRF26, in force since 2025, keeps the same player
record): fixed columns, one ``001`` line per player. Columns are counted from 1, as the format
counts them:

- ``012`` (columns 5 on): the tournament's name, the PDN ``Event``; ``022`` the city and
  ``032`` the federation, the PDN ``Site``; ``132`` the round dates (``YY/MM/DD``, round 1 in
  columns 92-99, ten more a round), the PDN ``Date``;
- ``001`` lines: the starting rank (columns 5-8), the title (11-13), the name (15-47,
  ``Lastname, Firstname``), the rating (49-52), the federation (54-56), the player's id
  (58-68: the FIDE number, the FMJD id in a draughts event), the points (81-84) and, for each
  round, a block of ten columns starting at 92 for round 1 (102 for round 2, ...): the
  opponent's starting rank (92-95; ``0000`` or blank: no opponent), the colour (97: ``w``,
  ``b``, or ``-`` / blank: not paired) and the result (99: ``1``, ``=``, ``0`` played; ``+`` /
  ``-`` a forfeit; ``W``, ``D``, ``L`` a game of less than one move; ``H``, ``F``, ``U``,
  ``Z`` (or blank) the byes; blank too while the round is played).

A pairing is two ``001`` lines naming each other in the round with opposite colours.

**Board order.** The player record has no board column (TRF16 has none; TRF26's board
records are for team matches), so the boards are numbered as the pairing programs print the
pairings, by the FIDE Swiss rules' board order (C.04.1 F.1, kept by the Dutch system's
programs): the score of the higher-placed player of the pair before the round, then the sum of
both players' scores, then the starting rank of the higher-placed player (the higher-placed
player: the one with more points, else the lower starting rank). Scores count the results of the
earlier rounds (a win, a forfeit win and the full-point byes ``F`` and ``U`` one point; a draw
and ``H`` half a point), whatever points scale the file uses. A pair with a forfeit already
recorded (``+`` / ``-``) keeps its board number but gets no board: no game is played there.
Byes (no opponent) are not numbered. Each board id is a prefix and that number (``board1``,
``board2``, ... by default, the default ``board.id`` of the first).

Every row is then checked as a CSV pairing list's rows are
(:func:`~firmware_host.tournament.pairing.check_rows`), and a problem names its line.

The round's results go back with :func:`write_results`: the file as imported, with each paired
player's block of the round filled in (opponent, colour and ``1`` / ``=`` / ``0``, ``+`` /
``-`` for a forfeit; ``0000 - F`` / ``Z`` for a bye the arbiter gave) and their points with
the round's points added (in the file's own scale), so the pairing program reads it and pairs
the next round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware_host.digits import is_whole_number, whole_number_or
from firmware_host.tournament.pairing import MAX_ROWS, Pairing, check_rows, line_of

__all__ = ["DEFAULT_PREFIX", "MAX_TRF_ROUNDS", "ORDER_WORDS", "Entry", "Player", "Tournament",
           "board_pairs", "is_trf", "read_tournament", "read_trf", "round_entries",
           "write_results"]

#: The most rounds read of a TRF (a round's columns then pass 9,999).
MAX_TRF_ROUNDS = 990
#: Board ids are this prefix and the board's number unless another is given.
DEFAULT_PREFIX = "board"
#: How the boards of a TRF round are numbered, said before anything is imported.
ORDER_WORDS = ("boards numbered as the pairing program prints them (FIDE board order): the "
               "higher-placed player's score, then both players' scores, then the "
               "higher-placed player's starting rank")
#: The first round's block starts at this column (counted from 1); each round has ten.
_ROUND_1 = 92
_BLOCK = 10
#: Results of a round that is not played over the board: forfeits (a pair's) and byes.
_FORFEITS = frozenset("+-")
#: Points a result earns for the board order, on the 1-½-0 scale.
_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


@dataclass(frozen=True)
class Entry:
    """A player's block of one round: the opponent's starting rank (0: none), the colour
    (``w``, ``b``, ``-``) and the result (``""``: none yet)."""

    opponent: int
    colour: str
    result: str

    def text(self) -> str:
        """The block's eight columns as the format writes them.

        >>> Entry(4, "w", "1").text(), Entry(0, "-", "U").text()
        ('   4 w 1', '0000 - U')
        """
        opponent = f"{self.opponent:4d}" if self.opponent else "0000"
        return f"{opponent} {self.colour or '-'} {self.result or ' '}"


@dataclass(frozen=True)
class Player:
    """A ``001`` line: the facts a pairing and its PDN tags use, and the line's rounds."""

    rank: int
    name: str
    line: int
    title: str = ""
    rating: str = ""
    federation: str = ""
    player_id: str = ""
    rounds: Mapping[int, Entry] = field(default_factory=dict)

    def score(self, before: int) -> float:
        """Points from the rounds before ``before`` (1-½-0, whatever the file's scale)."""
        return sum(_POINTS.get(e.result.upper(), 0.0) for r, e in self.rounds.items()
                   if r < before)

    def tags(self, side: str) -> dict[str, str]:
        """The PDN tags of the player as ``side`` (``White``/``Black``): rating, federation,
        title and id, those the file gives.

        >>> sorted(Player(1, "Smit, Ann", 5, "GMI", "2210", "NED", "1601").tags("White"))
        ['WhiteFederation', 'WhiteFmjdId', 'WhiteRating', 'WhiteTitle']
        """
        found = {"Rating": self.rating, "Federation": self.federation, "Title": self.title,
                 "FmjdId": self.player_id}
        return {side + name: value for name, value in found.items() if value}


@dataclass
class Tournament:
    """What a TRF says of the tournament and its players (by starting rank)."""

    event: str = ""
    site: str = ""
    round_dates: dict[int, str] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Pair:
    """Two players paired in a round, in board order; ``forfeit``: no game is played."""

    number: int
    white: Player
    black: Player
    forfeit: bool


def is_trf(text: str) -> bool:
    """Whether ``text`` looks like a TRF (a ``001`` player line) rather than a CSV list.

    >>> is_trf("001    1 m    Smit"), is_trf("board,white,black,round,event")
    (True, False)
    """
    return any(line.startswith("001 ") for line in text.splitlines())


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first`` to ``last`` of a line (counted from 1, inclusive), stripped."""
    return line[first - 1:last].strip()


def _rounds(line: str, number: int) -> tuple[dict[int, Entry], str | None]:
    rounds: dict[int, Entry] = {}
    start, round_number = _ROUND_1, 1
    while start <= len(line):
        opponent_text = _field(line, start, start + 3)
        if opponent_text and not is_whole_number(opponent_text, 0, 9999):
            return rounds, (f"line {number}: round {round_number}: {opponent_text!r} in "
                            f"columns {start}-{start + 3} is not an opponent's starting rank")
        colour = _field(line, start + 5, start + 5).lower()
        if colour not in ("w", "b", "-", ""):
            return rounds, (f"line {number}: round {round_number}: {colour!r} in column "
                            f"{start + 5} is not a colour (w, b or -)")
        rounds[round_number] = Entry(int(opponent_text or 0), colour or "-",
                                     _field(line, start + 7, start + 7).upper())
        start += _BLOCK
        round_number += 1
    return rounds, None


def _player(line: str, number: int) -> Player | str:
    rank_text = _field(line, 5, 8)
    if not is_whole_number(rank_text, 1, 9999):
        return f"line {number}: {rank_text!r} in columns 5-8 is not a starting rank"
    rounds, problem = _rounds(line, number)
    if problem:
        return problem
    rating = _field(line, 49, 52)
    return Player(int(rank_text), _field(line, 15, 47), number, title=_field(line, 11, 13),
                  rating=rating if whole_number_or(rating, 0, 0, 9999) else "",
                  federation=_field(line, 54, 56), player_id=_field(line, 58, 68),
                  rounds=rounds)


def _date(text: str) -> str:
    """A TRF date (``YY/MM/DD`` or ``YYYY/MM/DD``) as PDN writes one (``YYYY.MM.DD``), or "".

    >>> _date("26/12/02"), _date("2026/12/02"), _date("soon")
    ('2026.12.02', '2026.12.02', '')
    """
    parts = text.strip().split("/")
    if (len(parts) != 3 or not all(is_whole_number(p, 0, 9999) for p in parts)
            or len(parts[0]) not in (2, 4)):
        return ""
    year = parts[0] if len(parts[0]) == 4 else "20" + parts[0]
    return f"{year}.{int(parts[1]):02d}.{int(parts[2]):02d}"


def read_tournament(text: str) -> Tournament:
    """The tournament a TRF describes; its problems (``line N: ...``) in ``problems``."""
    found = Tournament()
    city = federation = ""
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if line.startswith("012 ") and not found.event:
            found.event = line[4:].strip()
        elif line.startswith("022 ") and not city:
            city = line[4:].strip()
        elif line.startswith("032 ") and not federation:
            federation = line[4:].strip()
        elif line.startswith("132 "):
            start, round_number = _ROUND_1, 1
            while start <= len(line):
                date = _date(_field(line, start, start + 7))
                if date:
                    found.round_dates[round_number] = date
                start, round_number = start + _BLOCK, round_number + 1
        if not line.startswith("001 "):
            continue  # the other records (and ### comments) say nothing about the pairing
        if len(found.players) >= MAX_ROWS:
            found.problems.append(f"line {number}: more than {MAX_ROWS} players: the rest is "
                                  "not read")
            break
        player = _player(line, number)
        if isinstance(player, str):
            found.problems.append(player)
        elif player.rank in found.players:
            found.problems.append(f"line {number}: starting rank {player.rank} is already on "
                                  f"line {found.players[player.rank].line}")
        else:
            found.players[player.rank] = player
    found.site = " ".join(part for part in (city, federation) if part)
    return found


def _placed(player: Player, round_number: int) -> tuple[float, int]:
    """A player's place for the board order (smaller first): more points, lower rank."""
    return (-player.score(round_number), player.rank)


def board_pairs(tournament: Tournament, round_number: int) -> tuple[list[Pair], list[str]]:
    """The pairs of round ``round_number`` in board order (the module's docstring), and the
    problems found (lines that do not agree)."""
    players = tournament.players
    pairs: list[tuple[tuple[float, float, int], Player, Player, bool]] = []
    problems: list[str] = []
    seen: set[int] = set()
    for player in players.values():
        entry = player.rounds.get(round_number, Entry(0, "-", ""))
        if player.rank in seen or entry.opponent == 0 or entry.colour == "-":
            continue
        other = players.get(entry.opponent)
        if other is None:
            problems.append(f"line {player.line}: round {round_number}: opponent "
                            f"{entry.opponent} has no player line")
            continue
        theirs = other.rounds.get(round_number, Entry(0, "-", ""))
        seen.update((player.rank, other.rank))
        if theirs.opponent != player.rank or {theirs.colour, entry.colour} != {"w", "b"}:
            problems.append(f"line {player.line}: round {round_number}: {player.name} plays "
                            f"{other.name} ({entry.colour}), but line {other.line} says "
                            f"{theirs.opponent} ({theirs.colour})")
            continue
        white, black = (player, other) if entry.colour == "w" else (other, player)
        higher, lower = sorted((white, black), key=lambda p: _placed(p, round_number))
        key = (-higher.score(round_number), -(higher.score(round_number)
                                              + lower.score(round_number)), higher.rank)
        forfeit = bool({entry.result, theirs.result} & _FORFEITS)
        pairs.append((key, white, black, forfeit))
    pairs.sort(key=lambda item: item[0])
    return [Pair(n, w, b, f) for n, (_, w, b, f) in enumerate(pairs, start=1)], problems


def read_trf(text: str, round_number: int, prefix: str = DEFAULT_PREFIX
             ) -> tuple[list[Pairing], list[str]]:
    """The boards of round ``round_number`` of a TRF, in the pairing program's board order,
    and the problems found (``line N: ...`` each, as for a CSV list); boards are ``prefix``
    and their number. Each pairing carries its players' facts (PDN tags) and starting ranks.

    >>> read_trf("012 Open\\n", 1)
    ([], ['line 1: no player (001) line is paired in round 1'])
    """
    tournament = read_tournament(text)
    pairs, problems = board_pairs(tournament, round_number)
    rows: list[tuple[int, dict[str, str]]] = []
    facts: dict[str, tuple[Pair, dict[str, str]]] = {}
    for pair in pairs:
        if pair.forfeit:
            continue  # no game: its board number stays unused
        board = f"{prefix}{pair.number}"
        rows.append((pair.white.line, {"board": board, "white": pair.white.name,
                                       "black": pair.black.name, "round": str(round_number),
                                       "event": tournament.event}))
        tags = {**pair.white.tags("White"), **pair.black.tags("Black")}
        if tournament.site:
            tags["Site"] = tournament.site
        if round_number in tournament.round_dates:
            tags["Date"] = tournament.round_dates[round_number]
        facts[board] = (pair, tags)
    checked, found = check_rows(rows)
    pairings = [p.with_facts(facts[p.board][1], facts[p.board][0].white.rank,
                             facts[p.board][0].black.rank) for p in checked]
    problems = tournament.problems + problems + found
    if not pairings and not problems and not pairs:
        problems.append(f"line 1: no player (001) line is paired in round {round_number}")
    return pairings, sorted(problems, key=line_of)


def round_entries(text: str, round_number: int) -> dict[int, Entry]:
    """Every player's block of round ``round_number``, by starting rank (the round as the file
    has it: its pairings and results)."""
    return {rank: player.rounds.get(round_number, Entry(0, "-", ""))
            for rank, player in read_tournament(text).players.items()}


def _scale(player: Player, round_number: int, written: str) -> float:
    """The file's points scale (2 where a win counts 2), judged from one player's points."""
    try:
        points = float(written)
    except ValueError:
        return 1.0
    earned = player.score(round_number)
    return 2.0 if earned and abs(points - 2 * earned) < 1e-6 else 1.0


def write_results(text: str, round_number: int, entries: Mapping[int, Entry]) -> str:
    """The TRF ``text`` with round ``round_number`` of each player in ``entries`` (by starting
    rank) written in, and that player's points (columns 81-84) with the round's added. Lines
    and players not named are kept as they are; line ends are CR LF, as FIDE's format asks.

    Raises:
        ValueError: a starting rank of ``entries`` has no player line.
    """
    tournament = read_tournament(text)
    missing = sorted(set(entries) - set(tournament.players))
    if missing:
        raise ValueError(f"no player line for starting rank {missing[0]}")
    start = _ROUND_1 + _BLOCK * (round_number - 1)
    out = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r\n")
        rank_text = _field(line, 5, 8) if line.startswith("001 ") else ""
        player = tournament.players.get(whole_number_or(rank_text, 0))
        if player is None or player.line != number or player.rank not in entries:
            out.append(line)
            continue
        entry = entries[player.rank]
        before = player.rounds.get(round_number, Entry(0, "-", ""))
        padded = line.ljust(start + 7)
        line = padded[:start - 1] + entry.text() + padded[start + 7:]
        earned = _POINTS.get(entry.result.upper(), 0.0) - _POINTS.get(before.result.upper(), 0.0)
        written = _field(line, 81, 84)
        if earned and written:
            points = float(written) + earned * _scale(player, round_number, written)
            line = line[:80] + f"{points:4.1f}" + line[84:]
        out.append(line.rstrip())
    return "\r\n".join(out) + "\r\n"

