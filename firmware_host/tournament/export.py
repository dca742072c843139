"""A round's games out of Redis: its PDN, every board's game in board order, and the results.

The game of a board in round N is its newest game (of the last :data:`LOOK_BACK`) whose PDN tags
have ``Round`` N and the pairing's players: the game the pairing named. A board whose game is
not found has a row ``*`` with an empty game id (not played, or not yet begun).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import redis

from firmware_host.store.keys import BoardKeys
from firmware_host.store.pdnrender import render_game
from firmware_host.store.reading import replay_log
from firmware_host.store.records import GameRecord
from firmware_host.store.replies import items
from firmware_host.tournament.pairing import Pairing, load_round

__all__ = ["LOOK_BACK", "RESULT_COLUMNS", "RoundGame", "is_the_game", "results_csv",
           "round_games", "round_pdn"]

#: How many of a board's newest games are searched for the round's game.
LOOK_BACK = 50
#: The columns of the results table.
RESULT_COLUMNS = ("board", "white", "black", "round", "result", "termination", "plies",
                  "game_id")


@dataclass(frozen=True)
class RoundGame:
    """A board of the round and its game (None: not found)."""

    pairing: Pairing
    game: GameRecord | None


def is_the_game(game: GameRecord, pairing: Pairing) -> bool:
    """Whether ``game`` is the one ``pairing`` named: its round and both players."""
    tags = game.headers
    return (tags.get("Round") == pairing.round and tags.get("White") == pairing.white
            and tags.get("Black") == pairing.black)


def round_games(client: redis.Redis, number: str) -> list[RoundGame]:
    """The round's boards in order, each with its game.

    Raises:
        LookupError: no round ``number`` was imported.
        ValueError: the stored round is damaged.
        redis.RedisError: Redis cannot be read.
    """
    pairings = load_round(client, number)
    if pairings is None:
        raise LookupError(f"no round {number} in this Redis (import its pairing list first)")
    found = []
    for pairing in pairings:
        keys = BoardKeys(pairing.board)
        ids: object = client.zrange(keys.games, -LOOK_BACK, -1)
        chosen = None
        for raw_id in reversed(items(ids)):
            game_id = raw_id.decode() if isinstance(raw_id, bytes) else str(raw_id)
            game, _ = replay_log(game_id, client.xrange(keys.game(game_id)))
            if game is not None and is_the_game(game, pairing):
                chosen = game
                break
        found.append(RoundGame(pairing, chosen))
    return found


def round_pdn(games: list[RoundGame]) -> str:
    """The PDN of the round's games that were found, in board order."""
    return "\n".join(render_game(g.game) for g in games if g.game is not None)


def results_csv(games: list[RoundGame]) -> str:
    """The results table (CSV, :data:`RESULT_COLUMNS`).

    >>> from firmware_host.tournament.pairing import Pairing
    >>> print(results_csv([RoundGame(Pairing("b1", "Ann", "Bob", "1"), None)]).strip())
    board,white,black,round,result,termination,plies,game_id
    b1,Ann,Bob,1,*,,0,
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for item in games:
        p, game = item.pairing, item.game
        writer.writerow([csv_cell(p.board), csv_cell(p.white), csv_cell(p.black),
                         csv_cell(p.round), "*" if game is None else csv_cell(game.result),
                         "" if game is None else csv_cell(game.termination),
                         0 if game is None else len(game.moves),
                         "" if game is None else csv_cell(game.game_id)])
    return out.getvalue()


#: What a spreadsheet reads as a formula at the start of a cell (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str) -> str:
    """A text cell a spreadsheet shows as text: one that starts like a formula gets a ``'``
    before it (OWASP's rule for CSV injection), anything else is as it is.

    >>> csv_cell("=cmd|' /C calc'!A0"), csv_cell("@SUM(A1)"), csv_cell("+1+1"), csv_cell("Ann")
    ("'=cmd|' /C calc'!A0", "'@SUM(A1)", "'+1+1", 'Ann')
    """
    return "'" + value if value.startswith(FORMULA_STARTS) else value
