"""Turn a stored game record into PDN 3.0 text with the engine's PDN writer.

A move recorded with the clock (``clock_white`` / ``clock_black``) is followed by the PGN
supplement's clock command with the mover's remaining time, ``{[%clk 0:02:56]}``.

``Date`` and ``Time`` are the local date and time the game began: the tags the arbiter's
*Start round* gave it (the round's start), else the first move's time less the time its mover
had used on the clock (the game's set-up time only for a game without a move). A draw by a
counting rule names the rule in ``Termination`` (``fmjd-16-moves``, the engine's name for it),
not ``draw_rule``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from engine import Board
from engine.pdn import write_game
from firmware_host.store.records import GameRecord, MoveRecord
from firmware_host.terms.timecontrol import clk

log = logging.getLogger(__name__)

#: The PGN/PDN ``Termination`` tag's conventional value for a record's termination, where the
#: two differ: a game lost on time (``time``; ``time_forfeit`` in older records).
PDN_TERMINATIONS = {"time": "time forfeit", "time_forfeit": "time forfeit"}


def began_at(game: GameRecord) -> float:
    """When the game began (Unix time): its first move's time less what its mover used on the
    clock (from ``TimeControl``, seconds and increment), else the first move's time, else when
    it was set up."""
    first = next((m for m in game.moves if m.by != "ballot"), None)
    if first is None:
        return game.created
    white_moved = first.fen_after.lstrip().upper().startswith("B")
    left = first.clock_white if white_moved else first.clock_black
    control = game.headers.get("TimeControl", "")
    base, _, increment = control.partition("+")
    if left is None or not base.isdigit() or not (increment or "0").isdigit():
        return first.time
    used = int(base) + int(increment or 0) - left
    return first.time - min(max(used, 0.0), int(base))


def _rule(game: GameRecord) -> str:
    """The draw rule that ended the game (its moves replayed), or ``draw_rule``."""
    try:
        board = Board(game.variant, fen=game.start_fen)
        for move in game.moves:
            board.push(board.parse_move(move.pdn))
    except ValueError:
        return game.termination
    outcome = board.outcome()
    return outcome.rule if outcome is not None and outcome.rule else game.termination


def game_headers(game: GameRecord) -> dict[str, str]:
    """The PDN headers of a record: what the session gave, completed from the record."""
    started = time.localtime(began_at(game))
    headers = {
        "Date": time.strftime("%Y.%m.%d", started),
        "Time": time.strftime("%H:%M:%S", started),
    }
    headers.update(game.headers)
    headers.setdefault("Board", game.board_id)
    headers.setdefault("Mode", game.mode)
    headers.setdefault("GameId", game.game_id)
    if game.termination == "draw_rule":
        headers["Termination"] = _rule(game)
    elif game.termination:
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
