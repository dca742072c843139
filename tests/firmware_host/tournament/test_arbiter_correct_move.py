"""The arbiter corrects a move, end to end: the console's route on a real redis-server, the
audit entry, the command stream, the simulated board's service taking the game back and
playing the right move, the LEDs guiding the players, the PDN comment."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis
import redis.asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.feedback.roles import Role
from firmware_host.remote.reader import CommandReader, commands_key, parse_command
from firmware_host.store import RedisStore
from firmware_host.store.keys import AUDIT
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import Command
from firmware_host.web.arbiter import ArbiterKeys, ArbiterSite
from tests.firmware_host.session_harness import SimRig
from tests.firmware_host.web.harness import heartbeat
from tests.redis_server import RedisServer

KEYS = ArbiterKeys("secret-of-the-web-service-0123456789")
BEARER = {"Authorization": f"Bearer {KEYS.token}"}
_BOARDS = itertools.count(1)


def move(rig: SimRig, origin: int, destination: int, *captured: int) -> None:
    """A player's move on the simulated board (international squares, numbered from 1)."""
    rig.board.lift(origin - 1)
    rig.run_for(200)
    for square in captured:
        rig.board.lift(square - 1)
        rig.run_for(200)
    rig.board.place(destination - 1)
    rig.run_for(rig.config.settle_ms + 200)


def obey(sync: redis.Redis, rig: SimRig, board_id: str) -> None:
    """The board service reads its command stream (as firmware_host/remote does)."""
    for _, fields in sync.xrange(commands_key(board_id)):
        name, side, value, tag = parse_command(fields, now=float(fields[b"time"]))
        rig.controller.post(Command(name, rig.now, side=side, value=value, tag=tag))
    sync.delete(commands_key(board_id))
    rig.run_for(100)


def answering(rig: SimRig, sync: redis.Redis, board_id: str,
              console: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``console`` (the arbiter's requests) while the board service reads its command
    stream and carries the commands out, at the virtual time it stands at, until the console
    is done (its decisions wait for the board's answers)."""
    reader = CommandReader(sync, board_id, rig.controller.post, lambda: rig.now).start()
    try:
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(asyncio.run, console())
            while not future.done():
                rig.controller.step(rig.now)
            future.result()
    finally:
        reader.close()


def lit(rig: SimRig, role: Role) -> set[int]:
    return {sq + 1 for sq, led in rig.session.frame.items() if led is role}


def test_a_move_corrected_from_the_console_is_audited_replayed_and_set_up(
        redis_server: RedisServer) -> None:
    board_id = f"correct-{next(_BOARDS)}"
    sync = redis.Redis.from_url(redis_server.url)
    rig = SimRig("international", store=RedisStore(sync, board_id, name="test"),
                 time_control="5+3")
    rig.run_for(100)
    move(rig, 32, 28)
    move(rig, 18, 23)
    move(rig, 37, 32)        # recorded; the arbiter sees that White played 33-29
    game_id = rig.session.game_id
    assert game_id is not None
    audit_before = sync.llen(AUDIT)

    async def console() -> None:
        client = redis.asyncio.Redis.from_url(redis_server.url)
        app = web.Application()
        app.add_routes(ArbiterSite(client, KEYS).routes())
        async with TestClient(TestServer(app)) as http:
            form = {"board": board_id, "game_id": game_id, "ply": "3", "move": "33-29",
                    "reason": "White played 33-29, the board saw 37-32"}
            for bad, words in ((dict(form, ply="9"), "plies are 1 to 3"),
                               (dict(form, move="33 29"), "is not a move"),
                               (dict(form, reason=""), "say why"),
                               (dict(form, game_id="20260101-000000-0000"), "moved on")):
                reply = await http.post("/arbiter/correct-move", headers=BEARER, data=bad)
                assert reply.status == 400 and words in (await reply.json())["error"]
            assert sync.llen(AUDIT) == audit_before  # nothing decided yet
            reply = await http.post("/arbiter/correct-move", headers=BEARER, data=form)
            assert reply.status == 200
            # The console's status line says what was decided and what the board answered.
            assert (await reply.json())["message"] == \
                f"{board_id}: ply 3 corrected to 33-29: done"
            entries = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())
            entry = entries["audit"][0]
            assert (entry["action"], entry["board"], entry["detail"]) == (
                "correct_move", board_id, {"game_id": game_id, "ply": 3, "move": "33-29"})
            assert entry["reason"] == "White played 33-29, the board saw 37-32"
            assert entry["answers"] == {board_id: {"answer": "done"}}
        await client.aclose()

    heartbeat(redis_server.url, board_id)
    answering(rig, sync, board_id, console)
    rig.run_for(100)
    game = RedisStore(sync, board_id, name="test").load_game(game_id)
    assert [m.pdn for m in game.moves] == ["32-28", "18-23", "33-29"]
    text = " ".join(render_game(game).split())
    # The note stands before the corrected move: after Black's 18-23 and its clock.
    assert ("18-23 {[%clk 0:05:02]} {arbiter: 37-32 corrected to 33-29 (ply 3; White played "
            "33-29, the board saw 37-32)} 2. 33-29 {[%clk 0:05:04]}") in text

    # The LEDs show the position to set up: the man of 37 back from 32, the man of 33 to 29.
    assert rig.session.state.value == "syncing"
    assert lit(rig, Role.MISSING) == {29, 37} and lit(rig, Role.EXTRA) == {32, 33}
    rig.board.lift(31)
    rig.board.lift(32)
    rig.run_for(200)
    rig.board.place(28)
    rig.board.place(36)
    rig.run_for(1_000)
    # Set up: the clock, held since the correction, waits for the arbiter (or the clock
    # button); then play goes on.
    assert rig.session.state.value == "paused" and not lit(rig, Role.MISSING)
    rig.controller.post(Command("resume", rig.now))
    rig.run_for(100)
    assert rig.session.state.value == "human_to_move"
    move(rig, 23, 32, 28)    # Black's capture in the corrected position
    sync.close()
    game = RedisStore(sync, board_id, name="test").load_game(game_id)
    assert [m.pdn for m in game.moves][-1] == "23x32"


def test_a_correction_the_board_cannot_carry_out_is_refused_there(
        redis_server: RedisServer) -> None:
    board_id = f"correct-{next(_BOARDS)}"
    sync = redis.Redis.from_url(redis_server.url)
    rig = SimRig("international", store=RedisStore(sync, board_id, name="test"))
    rig.run_for(100)
    move(rig, 32, 28)
    sync.xadd(commands_key(board_id), {"name": "correct_move", "value": "1 32-26",
                                       "tag": "x", "time": "1e10"})
    events: list[dict[str, Any]] = rig.events
    obey(sync, rig, board_id)
    refused = [e for e in events if e["event"] == "command_refused"][-1]
    assert (refused["command"], refused["reason"]) == ("correct_move", "not_a_move")
    game_id = rig.session.game_id
    assert game_id is not None
    assert [m.pdn for m in RedisStore(sync, board_id, name="test").load_game(game_id).moves] \
        == ["32-28"]
    sync.close()
