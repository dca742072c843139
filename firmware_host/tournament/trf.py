"""A round's pairings read from a FIDE Tournament Report File (TRF), as pairing programs write it.

Swiss-Manager, Vega, JaVaFo and most club pairing programs export the tournament as a TRF
(FIDE's data-exchange format, TRF16 and its successors): fixed columns, one ``001`` line per
player. What is read here (columns counted from 1, as the format counts them):

- ``012`` (columns 5 on): the tournament's name, the PDN ``Event``;
- ``001`` lines: the starting rank (columns 5-8), the name (15-47, ``Lastname, Firstname``)
  and, for each round, a block of ten columns starting at 92 for round 1 (102 for round 2,
  ...): the opponent's starting rank (92-95; ``0000`` or blank: no opponent), the colour
  (97: ``w``, ``b``, or ``-`` / blank: not paired) and the result (99; blank while the round is
  being played).

A pairing is two ``001`` lines naming each other in the round with opposite colours. Byes
(no opponent), forfeits (``+`` / ``-``: no game is played) and unpaired players get no board.
There is no board column in the player lines: the boards are numbered in the order the
pairings first appear in the file (the player lines in starting-rank order: the pairing of
player 1 is on the first board listed), and each board id is a prefix and that number
(``board1``, ``board2``, ... by default, the default ``board.id`` of the first).

Every row is then checked as a CSV pairing list's rows are
(:func:`~firmware_host.tournament.pairing.check_rows`), and a problem names its line.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.digits import is_whole_number, whole_number_or
from firmware_host.tournament.pairing import MAX_ROWS, Pairing, check_rows

__all__ = ["DEFAULT_PREFIX", "MAX_TRF_ROUNDS", "is_trf", "read_trf"]

#: Board ids are this prefix and the board's number unless another is given.
DEFAULT_PREFIX = "board"
#: The first round's block starts at this column (counted from 1); each round has ten.
_ROUND_1 = 92
_BLOCK = 10
#: The most rounds a TRF's player line holds a block for (a round's columns then pass 9,999).
MAX_TRF_ROUNDS = 990
#: Results of a round that is not played over the board (forfeits and byes).
_NOT_PLAYED = frozenset("+-FHUZ")


@dataclass(frozen=True)
class _Player:
    rank: int
    name: str
    line: int
    opponent: int
    colour: str
    result: str


def is_trf(text: str) -> bool:
    """Whether ``text`` looks like a TRF (a ``001`` player line) rather than a CSV list.

    >>> is_trf("001    1 m    Smit"), is_trf("board,white,black,round,event")
    (True, False)
    """
    return any(line.startswith("001 ") for line in text.splitlines())


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first`` to ``last`` of a line (counted from 1, inclusive), stripped."""
    return line[first - 1:last].strip()


def _player(line: str, number: int, round_number: int) -> _Player | str:
    rank_text = _field(line, 5, 8)
    if not is_whole_number(rank_text, 1, 9999):
        return f"line {number}: {rank_text!r} in columns 5-8 is not a starting rank"
    start = _ROUND_1 + _BLOCK * (round_number - 1)
    opponent_text = _field(line, start, start + 3)
    if opponent_text and not is_whole_number(opponent_text, 0, 9999):
        return (f"line {number}: round {round_number}: {opponent_text!r} in columns "
                f"{start}-{start + 3} is not an opponent's starting rank")
    colour = _field(line, start + 5, start + 5).lower()
    if colour not in ("w", "b", "-", ""):
        return (f"line {number}: round {round_number}: {colour!r} in column {start + 5} is "
                "not a colour (w, b or -)")
    return _Player(int(rank_text), _field(line, 15, 47), number,
                   int(opponent_text or 0), colour, _field(line, start + 7, start + 7).upper())


def read_trf(text: str, round_number: int, prefix: str = DEFAULT_PREFIX
             ) -> tuple[list[Pairing], list[str]]:
    """The pairings of round ``round_number`` of a TRF and the problems found (``line N:
    ...`` each, as for a CSV list); boards are ``prefix`` and a number.

    >>> read_trf("012 Open\\n", 1)
    ([], ['line 1: no player (001) line is paired in round 1'])
    """
    event = ""
    players: dict[int, _Player] = {}
    problems: list[str] = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if line.startswith("012 ") and not event:
            event = line[4:].strip()
        if not line.startswith("001 "):
            continue  # the other records (and ### comments) say nothing about the pairing
        if len(players) >= MAX_ROWS:
            problems.append(f"line {number}: more than {MAX_ROWS} players: the rest is not read")
            break
        player = _player(line, number, round_number)
        if isinstance(player, str):
            problems.append(player)
        elif player.rank in players:
            problems.append(f"line {number}: starting rank {player.rank} is already on line "
                            f"{players[player.rank].line}")
        else:
            players[player.rank] = player
    rows: list[tuple[int, dict[str, str]]] = []
    seen: set[int] = set()
    for player in players.values():
        if (player.rank in seen or player.opponent == 0 or player.colour in ("-", "")
                or player.result in _NOT_PLAYED):
            continue
        other = players.get(player.opponent)
        if other is None:
            problems.append(f"line {player.line}: round {round_number}: opponent "
                            f"{player.opponent} has no player line")
            continue
        if other.opponent != player.rank or {other.colour, player.colour} != {"w", "b"}:
            problems.append(f"line {player.line}: round {round_number}: {player.name} plays "
                            f"{other.name} ({player.colour}), but line {other.line} says "
                            f"{other.opponent} ({other.colour or '-'})")
            seen.update((player.rank, other.rank))
            continue
        seen.update((player.rank, other.rank))
        white, black = (player, other) if player.colour == "w" else (other, player)
        rows.append((player.line, {"board": f"{prefix}{len(rows) + 1}", "white": white.name,
                                   "black": black.name, "round": str(round_number),
                                   "event": event}))
    pairings, found = check_rows(rows)
    problems += found
    if not pairings and not problems:
        problems.append(f"line 1: no player (001) line is paired in round {round_number}")
    return pairings, sorted(problems, key=_line_of)


def _line_of(problem: str) -> int:
    number = problem.removeprefix("line ").split(":", 1)[0]
    return whole_number_or(number, 0)
