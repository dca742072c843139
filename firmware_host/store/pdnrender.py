"""Turn a stored game record into PDN 3.0 text with the engine's PDN writer."""

from __future__ import annotations

import logging
import time

from engine.pdn import write_game
from firmware_host.store.records import GameRecord

log = logging.getLogger(__name__)


def game_headers(game: GameRecord) -> dict[str, str]:
    """The PDN headers of a record: what the session gave, completed from the record."""
    started = time.gmtime(game.created)
    headers = {
        "Date": time.strftime("%Y.%m.%d", started),
        "Time": time.strftime("%H:%M:%S", started),
    }
    headers.update(game.headers)
    headers.setdefault("Board", game.board_id)
    headers.setdefault("Mode", game.mode)
    headers.setdefault("GameId", game.game_id)
    if game.termination:
        headers["Termination"] = game.termination
    return headers


def render_game(game: GameRecord) -> str:
    """PDN text of ``game``; moves that the rules cannot replay are left out, with a comment.

    A record is written move by move by a session that checked every move, so a move that does
    not replay means a damaged record: the file keeps every move up to it and says so.
    """
    moves = [m.pdn for m in game.moves]
    headers = game_headers(game)
    try:
        return write_game(headers, moves, game.result, variant=game.variant,
                          start_fen=game.start_fen)
    except ValueError as exc:
        log.error("game %s: %s: writing the moves before it", game.game_id, exc)
    good = _legal_prefix(game, moves)
    note = f"record damaged after move {len(good)}: {len(moves) - len(good)} moves not replayable"
    return write_game(headers, good, "*", variant=game.variant, start_fen=game.start_fen,
                      comments={len(good): [note]})


def _legal_prefix(game: GameRecord, moves: list[str]) -> list[str]:
    low, high = 0, len(moves)
    while low < high:  # the longest prefix that replays, found by bisection
        middle = (low + high + 1) // 2
        try:
            write_game({}, moves[:middle], "*", variant=game.variant, start_fen=game.start_fen)
            low = middle
        except ValueError:
            high = middle - 1
    return moves[:low]
