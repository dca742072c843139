"""Helpers of the tests that run ``draughtsboard run`` as a process against a real redis-server
and read back what it recorded (the crash and kill campaigns)."""

from __future__ import annotations

from pathlib import Path

import redis

from firmware_host.store import RedisStore
from tests.redis_server import RedisServer


def write_config(tmp: Path, server: RedisServer, board_id: str, variant: str) -> Path:
    """A record-mode config of one board on ``server``, its games and spool under ``tmp``."""
    path = tmp / f"{board_id}.toml"
    path.write_text(
        f'[game]\nvariant = "{variant}"\nmode = "record"\n'
        f'[board]\nid = "{board_id}"\n'
        f'[store]\nurl = "{server.url}"\ngames_dir = "{tmp / "games"}"\n'
        f'spool_dir = "{tmp / "spool"}"\n')
    return path


def stored_moves(server: RedisServer, board_id: str) -> tuple[str, list[str]]:
    """The id and the moves (PDN) of the game the board's live session points at."""
    store = RedisStore(redis.Redis.from_url(server.url), board_id)
    try:
        session = store.load_session()
        assert session is not None, "the live session must be in the store"
        game = store.load_game(str(session["game_id"]))
        assert game.problems == []
        return game.game_id, [m.pdn for m in game.moves]
    finally:
        store.close()
