"""Redis absent at boot, then back mid-game: the production service starts, plays and records
(spool only), and catches up once Redis answers — nothing lost, nothing twice, in order.

The service runs on the wall clock (``run --script --realtime``) with a real redis-server that is
not running when the board boots; it is started after the board has announced a few moves, and
the game goes on. When the service stops, Redis holds the whole game, exactly as an uninterrupted
run would: what waited in the spool was flushed in order once Redis answered.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from firmware_host.store import RedisStore
from firmware_host.store.keys import BoardKeys
from tests.firmware_host.app.test_realtime_kills import (
    random_game,
    write_script,
)
from tests.firmware_host.recorded_runs import write_config
from tests.redis_server import RedisServer

pytestmark = [pytest.mark.redis, pytest.mark.logs_errors]

def redis_moves(server: RedisServer, board_id: str) -> list[str] | None:
    store = RedisStore(redis.Redis.from_url(server.url), board_id)
    try:
        session = store.client.get(BoardKeys(board_id).session)
        if session is None:
            return None
        game_id = json.loads(session)["game_id"]
        return [m.pdn for m in store.load_game(str(game_id)).moves]
    finally:
        store.close()


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_a_board_that_boots_before_redis_records_the_whole_game(tmp_path: Path,
                                                                variant: str) -> None:
    game = random_game(variant, seed=77 if variant == "russian" else 78)
    server = RedisServer(tmp_path / "redis")  # its port is chosen; it is not running yet
    board_id = f"outage-{variant}"
    config = write_config(tmp_path, server, board_id, variant)
    script = tmp_path / "game.events"
    write_script(game, 0, script)
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_host.cli", "run", "--config", str(config), "--board",
         "sim", "--script", str(script), "--realtime", "--events", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started_redis = False
    announced = 0
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if json.loads(line)["event"] == "move":
                announced += 1
                if announced == 3 and not started_redis:
                    server.start()  # Redis comes back mid-game
                    started_redis = True
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert announced == len(game.notation)
        assert started_redis
        moves = redis_moves(server, board_id)
        assert moves == game.notation
    finally:
        process.kill()
        server.stop()
