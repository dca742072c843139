"""Answers while Redis is away: the session and the game in play from the spool and the local
copy, so a service that starts without Redis resumes its game and records it.

The spool holds every write since Redis went away, the :class:`~.local.LocalCopy` what the store
last wrote before: the spool's latest session snapshot wins over the local copy's, and a game is
the local copy's record brought up to date by the spooled operations it does not hold yet.

>>> import tempfile
>>> from pathlib import Path
>>> from firmware_host.store.outage.spool import Spool
>>> spool = Spool(Path(tempfile.mkdtemp()) / "b.jsonl")
>>> keys = BoardKeys("b")
>>> spool.append([{"cmd": "set", "args": [keys.session, '{"game_id": "g1"}']}])
>>> offline_session(spool, None, keys, "Redis")
{'game_id': 'g1'}
"""

from __future__ import annotations

import logging

from firmware_host.digits import whole_number_or
from firmware_host.store.keys import BoardKeys
from firmware_host.store.outage.local import LocalCopy
from firmware_host.store.outage.spool import Spool
from firmware_host.store.reading import parse_session
from firmware_host.store.records import GameRecord, RecordError, Session, apply_op

__all__ = ["offline_game", "offline_session"]

log = logging.getLogger(__name__)


def offline_session(spool: Spool, local: LocalCopy | None, keys: BoardKeys,
                    name: str) -> Session | None:
    """The latest session the spool holds, else the local copy's (logged), else None."""
    for entry in reversed(spool.entries()):
        for command in reversed(entry.commands):
            args = command.get("args") or []
            if command.get("cmd") == "set" and len(args) == 2 and args[0] == keys.session:
                return parse_session(args[1], "spooled", keys.board_id)
    if local is not None and local.session is not None:
        log.warning("%s is away: resuming from the local copy of the session", name)
        return dict(local.session)
    return None


def offline_game(spool: Spool, local: LocalCopy | None, keys: BoardKeys,
                 game_id: str) -> tuple[int, GameRecord] | None:
    """The last ``seq`` and the record of the game as the local copy and the spool know it, or
    None when neither knows it. A spooled operation that does not fit is logged and skipped."""
    saved = local.game(game_id) if local is not None else None
    seq, game = saved if saved is not None else (0, None)
    key = keys.game(game_id)
    for entry in spool.entries():
        for command in entry.commands:
            game_op = keys.game_op(command)
            if game_op is None or game_op[0] != key:
                continue
            fields = game_op[1]
            number = whole_number_or(fields.get("seq", ""), seq + 1)
            if number <= seq:
                continue  # already in the local copy
            try:
                game = apply_op(game, fields, f"spooled game {game_id}")
            except RecordError as exc:
                log.error("%s: skipped", exc)
            seq = number
    return None if game is None else (seq, game)
