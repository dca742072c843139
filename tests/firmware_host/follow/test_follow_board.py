"""Following a board of the hall (``run --follow hall-1``): the juniors' board mirrors the top
board's game from the hall's Redis, move by move, a late join guided to the position."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis
from redis.asyncio import Redis

from engine import Board
from firmware_host.store.records import GameRecord
from firmware_host.web.broadcast import Broadcast
from firmware_host.web.reader import Reader
from tests.firmware_host.follow.rig import FollowingBoard
from tests.firmware_host.web.harness import BoardRig
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


async def _broadcast(url: str) -> list[GameRecord]:
    client = Redis.from_url(url)
    try:
        return await Broadcast(Reader(client), client).games()
    finally:
        await client.aclose()


def test_a_junior_board_mirrors_the_top_board(redis_server: RedisServer,
                                              tmp_path: Path) -> None:
    redis.Redis.from_url(redis_server.url).flushall()
    top = BoardRig(redis_server.url, "top-1", tmp_path / "top", variant="international")
    try:
        for text in ("32-28", "19-23", "28x19"):
            top.play(text)
        junior = FollowingBoard("top-1", tmp_path / "junior", url=redis_server.url,
                                board_id="junior-1")
        try:
            junior.poll()
            replay = Board("international")
            for text in ("32-28", "19-23", "28x19"):  # the late join, guided move by move
                assert junior.lit() == replay.parse_move(text)
                replay.push(junior.carry_out())
            top.play("14x23")
            junior.poll()
            assert junior.lit() == replay.parse_move("14x23")
            junior.carry_out()
            game = junior.service.store.load_game(junior.session.game_id)
            assert [m.pdn for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]
            # The hall's broadcast shows the top board's game once, not the junior's copy.
            assert [g.board_id for g in asyncio.run(_broadcast(redis_server.url))] == ["top-1"]
        finally:
            junior.close()
    finally:
        top.close()
