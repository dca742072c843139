"""Reading games back: a game log replayed into a :class:`~.records.GameRecord`, a game's line
in a listing, and a saved session parsed.

A log is replayed entry by entry: an entry whose ``seq`` was already seen (written twice by a
spool flush a crash cut short) is skipped, and a corrupt entry is reported in
``game.problems`` and skipped rather than losing the game.

>>> from firmware_host.store.records import encode_op
>>> start = {"game_id": "g1", "board_id": "b", "headers": {}, "variant": "russian",
...          "start_fen": None, "mode": "record", "created": 0.0}
>>> entries = [(b"1-0", encode_op("start", 1, start)), (b"1-1", encode_op("start", 1, start))]
>>> game, last_seq = replay_log("g1", entries)
>>> game.variant, last_seq, game.problems
('russian', 1, [])
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from firmware_host.digits import whole_number_or
from firmware_host.store.client import StreamEntry, text
from firmware_host.store.records import (
    GameRecord,
    RecordError,
    Session,
    apply_amendment,
    apply_op,
)

__all__ = ["GameSummary", "parse_session", "replay_log", "summaries", "summary"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameSummary:
    """One line of ``draughtsboard games``."""

    board_id: str
    game_id: str
    created: float
    variant: str
    white: str
    black: str
    result: str
    moves: int


def replay_log(game_id: str, entries: Iterable[StreamEntry] | None,
               amendments: Iterable[StreamEntry] | None = None,
               ) -> tuple[GameRecord | None, int]:
    """The game a log's ``entries`` (stream id, fields) give, then the arbiter's
    ``amendments`` of it, and the last ``seq`` seen; the game is None when the log has no
    readable start."""
    game: GameRecord | None = None
    last_seq = 0
    problems: list[str] = []
    for entry_id, raw in entries or ():
        fields = {text(k): text(v) for k, v in (raw or {}).items()}
        seq = whole_number_or(fields.get("seq", ""), last_seq + 1)
        if seq <= last_seq:
            continue  # written twice by a spool flush interrupted by a crash
        last_seq = seq
        try:
            game = apply_op(game, fields, f"game {game_id} entry {text(entry_id)}")
        except RecordError as exc:
            log.error("%s: skipped", exc)
            problems.append(str(exc))
    for entry_id, raw in amendments or ():
        if game is None:
            break
        fields = {text(k): text(v) for k, v in (raw or {}).items()}
        try:
            game = apply_amendment(game, fields, f"game {game_id} amendment {text(entry_id)}")
        except RecordError as exc:
            log.error("%s: skipped", exc)
            problems.append(str(exc))
    if game is not None:
        game.problems = problems
    return game, last_seq


def summary(game: GameRecord) -> GameSummary:
    """The game's line in a listing."""
    return GameSummary(game.board_id, game.game_id, game.created, game.variant,
                       game.headers.get("White", ""), game.headers.get("Black", ""),
                       game.result, len(game.moves))


def summaries(game_ids: Iterable[str], load: Callable[[str], GameRecord]) -> list[GameSummary]:
    """The lines of the games ``load`` reads; a game it cannot read is logged and left out.

    Raises:
        StoreUnavailable: what ``load`` raises when Redis cannot be read.
    """
    found = []
    for game_id in game_ids:
        try:
            game = load(game_id)
        except RecordError as exc:
            log.error("%s: not listed", exc)
            continue
        found.append(summary(game))
    return found


def parse_session(raw: object, where: str, board_id: str) -> Session | None:
    """A saved session's JSON as a dict, or None (nothing saved, or corrupt: logged).

    >>> parse_session(b'{"game_id": "g1"}', "saved", "b")
    {'game_id': 'g1'}
    """
    if raw is None:
        return None
    try:
        state: object = json.loads(raw if isinstance(raw, str | bytes) else str(raw))
    except ValueError:
        log.error("%s session of board %s is corrupt: starting afresh", where, board_id)
        return None
    return state if isinstance(state, dict) else None
