"""A match between two clubs: N boards of one hall against N of another, from one list.

The match list is a CSV file both halls import as a round (``draughtsboard round import``, or
the arbiter's console): the header ``white_board,black_board,white,black,round,event`` (the
columns in any order, separated by ``,``, ``;`` or a tab, as a pairing list), one row per game:
the board of White's player, the board of Black's, their names, the round and the event. Each
hall takes the rows with one of its boards (:func:`read_match`): that board's next game is
named as a round's is (:mod:`~firmware_host.tournament.pairing`, the same checks of every row),
with the tags ``WhiteBoard`` and ``BlackBoard``, and the board is paired with the other
(:func:`pair_commands`: a ``pair`` command, docs/remote.md), so the two players, each at their
own club, play one game. The round's games, results and PDN are then the hall's round's
(:mod:`~firmware_host.tournament.export`, whose ``match_score`` counts them as one match score,
this hall's boards against the other's: each hall shows the same score from its side).

>>> text = ("white_board,black_board,white,black,round,event\\n"
...         "a-1,b-1,Ann,Bob,1,A v B\\nb-2,a-2,Cor,Dirk,1,A v B\\n")
>>> pairings, problems = read_match(text, {"a-1", "a-2"})
>>> [(p.board, dict(p.tags)) for p in pairings], problems
([('a-1', {'WhiteBoard': 'a-1', 'BlackBoard': 'b-1'}), ('a-2', {'WhiteBoard': 'b-2', \
'BlackBoard': 'a-2'})], [])
>>> [partner_of(p) for p in pairings]
[('b-1', 'white'), ('b-2', 'black')]
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable
from dataclasses import replace

from firmware_host.store.client import Command
from firmware_host.store.keys import BoardKeys, board_id_problem
from firmware_host.terms.commands import BOARD_TAGS, STREAM_LENGTH, CommandName
from firmware_host.tournament.pairing import Pairing, check_rows, line_of, read_rows

__all__ = ["MATCH_FIELDS", "is_match_list", "pair_commands", "partner_of", "read_match"]

#: The columns of a match list.
MATCH_FIELDS = ("white_board", "black_board", "white", "black", "round", "event")


def is_match_list(text: str) -> bool:
    """Whether a list's header names the two boards of each game (a match list).

    >>> is_match_list("white_board;black_board;white;black;round;event"), \\
    ...     is_match_list("board,white,black,round,event")
    (True, False)
    """
    header = text.lstrip("\ufeff").split("\n", 1)[0].lower()
    return "white_board" in header and "black_board" in header


def read_match(text: str, ours: Collection[str]) -> tuple[list[Pairing], list[str]]:
    """The pairings of this hall (its boards ``ours``) in the match list ``text``, and the
    problems found (``line N: ...`` each; a list with any is not imported).

    A row must name two boards (ids on the Redis both clubs reach), one of them this hall's;
    the names, round and event are checked as a pairing list's.
    """
    rows, problems = read_rows(text, MATCH_FIELDS)
    mine: list[tuple[int, dict[str, str]]] = []
    boards: dict[str, tuple[str, str]] = {}
    for line, values in rows:
        white, black = values["white_board"], values["black_board"]
        found = [f"{column} {value!r}: {problem}" for column, value in
                 (("white_board", white), ("black_board", black))
                 if (problem := board_id_problem(value)) is not None]
        if not found and white == black:
            found.append(f"board {white} plays itself")
        here = [board for board in (white, black) if board in ours]
        if not found and not here:
            found.append(f"neither {white} nor {black} is a board of this hall")
        elif not found and len(here) == 2:
            found.append(f"{white} and {black} are both boards of this hall: a match list "
                         "pairs a board of each club")
        if found:
            problems.append(f"line {line}: " + "; ".join(found))
            continue
        boards[here[0]] = (white, black)
        mine.append((line, {"board": here[0], **{k: values[k] for k in
                                                  ("white", "black", "round", "event")}}))
    pairings, found = check_rows(mine)
    problems = sorted(problems + found, key=line_of)
    if not pairings and not problems:
        problems.append("line 2: the list has no game")
    return [replace(p, tags=((BOARD_TAGS["white"], boards[p.board][0]),
                             (BOARD_TAGS["black"], boards[p.board][1]))) for p in pairings], \
        problems


def partner_of(pairing: Pairing) -> tuple[str, str] | None:
    """The other board of a match's pairing and the side of this hall's board (None: the
    pairing is a round's, not a match's)."""
    tags = dict(pairing.tags)
    white, black = tags.get(BOARD_TAGS["white"]), tags.get(BOARD_TAGS["black"])
    if white is None or black is None:
        return None
    return (black, "white") if pairing.board == white else (white, "black")


def pair_commands(pairings: Iterable[Pairing], now: float | None = None) -> list[Command]:
    """The ``pair`` command to each board of this hall in a match (its command stream: the
    board pairs with the other club's board from its next game, at once when no move is
    made)."""
    sent = f"{time.time() if now is None else now:.3f}"
    out: list[Command] = []
    for pairing in pairings:
        partner = partner_of(pairing)
        if partner is not None:
            fields = {"name": CommandName.PAIR.value, "value": partner[0], "side": partner[1],
                      "time": sent}
            out.append(("xadd", (BoardKeys(pairing.board).commands, fields),
                        {"maxlen": STREAM_LENGTH, "approximate": True}))
    return out
