"""The arbiter console's server side: the arbiter role, decisions carried out by the boards, the
audit log. (The page itself is the web front's: docs/tournament.md.)"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import fakeredis
import fakeredis.aioredis
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.game.types import Command
from firmware_host.remote.commands import commands_key, parse_command
from firmware_host.store import RedisStore
from firmware_host.store.pdnrender import render_game
from firmware_host.tournament.arbiter import AUDIT
from firmware_host.web.arbiter import COOKIE, ArbiterKeys, ArbiterSite
from tests.firmware_host.session_harness import Rig

KEYS = ArbiterKeys("secret-of-the-web-service-0123456789")


def board(sync: Any, board_id: str) -> Rig:
    """A board playing on a 3+2 clock whose store is the shared (fake) Redis."""
    return Rig("international", store=RedisStore(sync, board_id, name="test"),
               time_control="3+2")


def carry_out_commands(sync: Any, rig: Rig, board_id: str) -> None:
    """The board reads its command stream (as firmware_host/remote does) and obeys."""
    for _, fields in sync.xrange(commands_key(board_id)):
        name, side, value, tag = parse_command(fields, now=float(fields[b"time"]))
        rig.wait(100)
        rig.session.handle(Command(name, rig.now, side=side, value=value, tag=tag))
    sync.delete(commands_key(board_id))


Scenario = Callable[[TestClient[Any, Any], Any], Awaitable[None]]


def run(scenario: Scenario) -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = web.Application()
        app.add_routes(ArbiterSite(client, KEYS).routes())
        async with TestClient(TestServer(app)) as http:
            await scenario(http, sync)
        await client.aclose()

    asyncio.run(main())


def test_only_the_arbiter_may_decide() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any) -> None:
        assert (await http.get("/arbiter/state.json")).status == 403
        forged = {COOKIE: "0123456789abcdef.00"}
        assert (await http.post("/arbiter/pause-all", cookies=forged)).status == 403
        assert (await http.post("/arbiter/pair", data={"code": "0000000000"})).status == 403
        paired = await http.post("/arbiter/pair", data={"code": KEYS.code})
        assert paired.status == 200
        csrf = (await paired.json())["csrf"]
        # Paired, but a form without its CSRF field (another site's) is refused.
        assert (await http.post("/arbiter/pause-all", data={})).status == 403
        assert (await http.post("/arbiter/pause-all", data={"csrf": csrf,
                                                             "decision_id": "d0000001"})
                ).status == 200
        assert sync.llen(AUDIT) == 1

    run(scenario)


def test_pause_all_add_time_and_adjudicate_reach_the_boards_and_the_audit_log() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any) -> None:
        one, two = board(sync, "hall-1"), board(sync, "hall-2")
        one.play("32-28")
        bearer = {"Authorization": f"Bearer {KEYS.token}"}
        reply = await http.post("/arbiter/pause-all", headers=bearer,
                                data={"reason": "fire alarm"})
        assert (await reply.json())["boards"] == ["hall-1", "hall-2"]
        for rig, name in ((one, "hall-1"), (two, "hall-2")):
            carry_out_commands(sync, rig, name)
            assert rig.last("clock")["paused"] is True

        no_reason = await http.post("/arbiter/add-time", headers=bearer,
                                    data={"board": "hall-1", "side": "black", "seconds": "60"})
        assert no_reason.status == 400 and "say why" in (await no_reason.json())["error"]
        unknown = await http.post("/arbiter/add-time", headers=bearer,
                                  data={"board": "hall-9", "side": "black", "seconds": "60",
                                        "reason": "x"})
        assert unknown.status == 400
        given = await http.post("/arbiter/add-time", headers=bearer,
                                data={"board": "hall-1", "side": "black", "seconds": "60",
                                      "reason": "disturbed by a spectator"})
        assert given.status == 200
        carry_out_commands(sync, one, "hall-1")
        # Black's time ran 0.11 s (the let-go's 10 ms, then 100 ms to the pause); then 60 more.
        assert one.last("clock")["clock_black"] == 239.9

        decided = await http.post("/arbiter/adjudicate", headers=bearer,
                                  data={"board": "hall-2", "result": "draw",
                                        "reason": "dead position",
                                        "game_id": two.session.game_id or ""})
        assert decided.status == 200
        carry_out_commands(sync, two, "hall-2")
        assert (two.last("result")["termination"], two.last("result")["result"]) == (
            "adjudication", "1-1")
        game = RedisStore(sync, "hall-2", name="test").load_game(two.session.game_id or "")
        assert "{arbiter: adjudicated (dead position)}" in " ".join(render_game(game).split())

        state = await (await http.get("/arbiter/state.json", headers=bearer)).json()
        boards = {b["board"]: b for b in state["boards"]}
        assert boards["hall-1"]["clock"]["paused"] is True
        assert boards["hall-1"]["plies"] == 1 and boards["hall-2"]["result"] == "1-1"
        actions = [(e["action"], e["board"], e["reason"]) for e in state["audit"]]
        assert actions == [("adjudicate", "hall-2", "dead position"),
                           ("add_time", "hall-1", "disturbed by a spectator"),
                           ("pause_all", "*", "fire alarm")]
        assert state["audit"][1]["detail"] == {"side": "black", "seconds": 60.0,
                                               "game_id": one.session.game_id}
        assert "arbiter token" in state["audit"][0]["who"]
        # The award is a comment of the game's PDN, after the move it followed.
        timed = RedisStore(sync, "hall-1", name="test").load_game(one.session.game_id or "")
        assert "1. 32-28 {[%clk 0:03:01]} {arbiter: +60 s for Black (disturbed by a " \
            "spectator)}" in " ".join(render_game(timed).split())

    run(scenario)


def test_a_corrected_result_leaves_an_audit_entry_and_a_pdn_comment() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any) -> None:
        rig = board(sync, "hall-3")
        rig.play("32-28")
        rig.command("resign", side="black")            # reported wrongly: White had resigned
        game_id = rig.session.game_id
        assert game_id is not None and rig.game().result == "2-0"
        bearer = {"Authorization": f"Bearer {KEYS.token}"}
        form = {"board": "hall-3", "result": "black", "game_id": game_id,
                "reason": "White resigned, the wrong button was pressed"}
        stale = await http.post("/arbiter/correct", headers=bearer,
                                data={**form, "game_id": "20260101-000000-0000"})
        assert stale.status == 400 and "moved on" in (await stale.json())["error"]
        assert (await http.post("/arbiter/correct", headers=bearer, data=form)).status == 200
        carry_out_commands(sync, rig, "hall-3")
        game = RedisStore(sync, "hall-3", name="test").load_game(game_id)
        assert (game.result, game.termination) == ("0-2", "adjudication")
        text = render_game(game)
        assert '[Result "0-2"]' in text
        assert ("{arbiter: result corrected from 2-0 (White resigned, the wrong button was "
                "pressed)}") in " ".join(text.split())
        entry = (await (await http.get("/arbiter/audit.json", headers=bearer)).json())["audit"][0]
        assert (entry["action"], entry["board"], entry["detail"]) == (
            "correct_result", "hall-3", {"game_id": game_id, "result": "black"})
        assert entry["reason"] == "White resigned, the wrong button was pressed"

    run(scenario)


def test_a_game_in_play_is_adjudicated_not_corrected() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any) -> None:
        rig = board(sync, "hall-4")
        rig.play("32-28")
        bearer = {"Authorization": f"Bearer {KEYS.token}"}
        reply = await http.post("/arbiter/correct", headers=bearer, data={
            "board": "hall-4", "result": "draw", "reason": "x",
            "game_id": rig.session.game_id or ""})
        assert reply.status == 400 and "adjudicate it" in (await reply.json())["error"]
        assert sync.llen(AUDIT) == 0                   # nothing decided, nothing logged

    run(scenario)


def test_a_decision_on_a_game_the_board_has_left_or_finished_is_refused() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any) -> None:
        rig = board(sync, "hall-5")
        rig.play("32-28")
        seen = rig.session.game_id or ""
        bearer = {"Authorization": f"Bearer {KEYS.token}"}
        form = {"board": "hall-5", "result": "white", "reason": "Black absent",
                "game_id": "20260101-000000-0000"}    # the game the console showed earlier
        stale = await http.post("/arbiter/adjudicate", headers=bearer, data=form)
        assert stale.status == 400 and "moved on" in (await stale.json())["error"]
        rig.command("resign", side="black")
        over = await http.post("/arbiter/adjudicate", headers=bearer,
                               data={**form, "game_id": seen})
        assert over.status == 400 and "correct its result" in (await over.json())["error"]
        assert sync.llen(AUDIT) == 0 and sync.xlen(commands_key("hall-5")) == 0

    run(scenario)


def test_the_console_pairs_a_browser_and_shows_every_board_with_its_clocks() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any) -> None:
        rig = board(sync, "hall-6")
        rig.play("32-28")
        html = {"Accept": "text/html"}
        form = await http.get("/arbiter", headers=html)
        assert form.status == 200 and 'action="/arbiter/pair"' in await form.text()
        wrong = await http.post("/arbiter/pair", data={"code": "1234567890"}, headers=html)
        assert wrong.status == 403 and "not the arbiter code" in await wrong.text()
        paired = await http.post("/arbiter/pair", data={"code": KEYS.code}, headers=html,
                                 allow_redirects=False)
        assert (paired.status, paired.headers["Location"]) == (303, "/arbiter")
        page = await (await http.get("/arbiter", headers=html)).text()
        assert 'id="arb-hall-6"' in page and 'id="arb-pause-all"' in page
        assert page.count('class="clock clock-') == 2
        state = await (await http.get("/arbiter/state.json")).json()
        clock = state["boards"][0]["clock"]
        # White's time as the board last published it; Black's runs down from 3:00.
        reading = rig.last("clock")
        assert (clock["running"], clock["white"], clock["paused"]) == (
            "black", reading["clock_white"], False)
        assert 0 < clock["black"] <= 180.0

    run(scenario)


def test_the_web_app_serves_the_arbiter_routes_only_with_the_arbiter_keys() -> None:
    from firmware_host.web.app import WebSettings, build_app
    from firmware_host.web.auth import Keys

    token = "the-control-token-of-the-web-service"

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis()
        for arbiter_keys in (ArbiterKeys(token), None):
            app = build_app(WebSettings(keys=Keys(token), arbiter=arbiter_keys), client)
            async with TestClient(TestServer(app)) as http:
                bearer = {"Authorization": f"Bearer {ArbiterKeys(token).token}"}
                reply = await http.get("/arbiter/state.json", headers=bearer)
                assert reply.status == (200 if arbiter_keys else 404)
                # The control token is not the arbiter's.
                control = {"Authorization": f"Bearer {token}"}
                if arbiter_keys:
                    assert (await http.get("/arbiter/state.json",
                                           headers=control)).status == 403
        await client.aclose()

    asyncio.run(main())
