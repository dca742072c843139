"""Turn a stored game record into PDN 3.0 text with the engine's PDN writer.

A move recorded with the clock (``clock_white`` / ``clock_black``) is followed by the PGN
supplement's clock command with the mover's remaining time, ``{[%clk 0:02:56]}``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from engine.pdn import write_game
from firmware_host.game.clock import clk
from firmware_host.store.records import GameRecord, MoveRecord

log = logging.getLogger(__name__)

#: The PGN/PDN ``Termination`` tag's conventional value for a record's termination, where the
#: two differ: a game lost on time (``time``; ``time_forfeit`` in older records).
PDN_TERMINATIONS = {"time": "time forfeit", "time_forfeit": "time forfeit"}


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
        headers["Termination"] = PDN_TERMINATIONS.get(game.termination, game.termination)
    return headers


def render_game(game: GameRecord) -> str:
    """PDN text of ``game``; moves that the rules cannot replay are left out, with a comment.

    A record is written move by move by a session that checked every move, so a move that does
    not replay means a damaged record: the file keeps every move up to it and says so.
    """
    moves = [m.pdn for m in game.moves]
    headers = game_headers(game)
    clocks = clock_comments(game.moves)
    for ply, text in game.notes:
        clocks.setdefault(ply, []).append(text)
    try:
        return write_game(headers, moves, game.result, variant=game.variant,
                          start_fen=game.start_fen, comments=clocks)
    except ValueError as exc:
        log.error("game %s: %s: writing the moves before it", game.game_id, exc)
    good = _legal_prefix(game, moves)
    note = f"record damaged after move {len(good)}: {len(moves) - len(good)} moves not replayable"
    kept = {ply: texts for ply, texts in clocks.items() if ply <= len(good)}
    kept[len(good)] = [*kept.get(len(good), []), note]
    return write_game(headers, good, "*", variant=game.variant, start_fen=game.start_fen,
                      comments=kept)


def clock_comments(moves: Sequence[MoveRecord]) -> dict[int, list[str]]:
    """``[%clk H:MM:SS]`` after each move recorded with the clock: the mover's time left (the
    mover is the side not to move in the position after the move).

    >>> record = MoveRecord(1, "32-28", "B:W28,31:B19", 0.0, clock_white=176.7, clock_black=180.0)
    >>> clock_comments([record])
    {1: ['[%clk 0:02:56]']}
    """
    comments: dict[int, list[str]] = {}
    for index, move in enumerate(moves, start=1):
        white_moved = move.fen_after.lstrip().upper().startswith("B")
        left = move.clock_white if white_moved else move.clock_black
        if left is not None:
            comments[index] = [f"[%clk {clk(left)}]"]
    return comments


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
