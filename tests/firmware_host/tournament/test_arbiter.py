"""The arbiter console's server side: the arbiter role, decisions carried out by the boards and
answered by them, the audit log with each board's answer. (The page itself is the web front's:
docs/tournament.md.)"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import fakeredis
import fakeredis.aioredis
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.remote.reader import commands_key, parse_command
from firmware_host.store import RedisStore
from firmware_host.store.pdnrender import render_game
from firmware_host.tournament.arbiter import AUDIT
from firmware_host.web.arbiter import COOKIE, ArbiterKeys, ArbiterSite
from tests.firmware_host.arbiter_hall import Hall

KEYS = ArbiterKeys("secret-of-the-web-service-0123456789")
BEARER = {"Authorization": f"Bearer {KEYS.token}"}

Scenario = Callable[[TestClient[Any, Any], Hall], Awaitable[None]]


def run(scenario: Scenario, wait_s: float = 5.0) -> None:
    """``scenario`` with the console on a fake Redis and a hall of boards that answer it
    (``wait_s``: how long a decision waits for the answers)."""
    server = fakeredis.FakeServer()

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = web.Application()
        app.add_routes(ArbiterSite(client, KEYS, wait_s=wait_s).routes())
        hall = Hall(server)
        try:
            async with TestClient(TestServer(app)) as http:
                await scenario(http, hall)
        finally:
            hall.close()
            await client.aclose()

    asyncio.run(main())


def test_only_the_arbiter_may_decide() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
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
        # The decision and the boards' answers (none here): two entries of the log.
        assert [json.loads(e)["action"] for e in hall.sync.lrange(AUDIT, 0, -1)] == [
            "pause_all", "answer"]

    run(scenario)


def test_pause_all_add_time_and_adjudicate_are_answered_by_the_boards_and_logged() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        one, two = hall.board("hall-1"), hall.board("hall-2")
        one.play("32-28")
        reply = await http.post("/arbiter/pause-all", headers=BEARER,
                                data={"reason": "fire alarm"})
        paused = await reply.json()
        assert paused["boards"] == ["hall-1", "hall-2"]
        assert paused["message"] == "every clock paused: done on hall-1, hall-2"
        for rig in (one, two):
            assert rig.last("clock")["paused"] is True

        no_reason = await http.post("/arbiter/add-time", headers=BEARER,
                                    data={"board": "hall-1", "side": "black", "seconds": "60"})
        assert no_reason.status == 400 and "say why" in (await no_reason.json())["error"]
        unknown = await http.post("/arbiter/add-time", headers=BEARER,
                                  data={"board": "hall-9", "side": "black", "seconds": "60",
                                        "reason": "x"})
        assert unknown.status == 400
        given = await http.post("/arbiter/add-time", headers=BEARER,
                                data={"board": "hall-1", "side": "black", "seconds": "60",
                                      "reason": "disturbed by a spectator"})
        assert given.status == 200
        assert (await given.json())["message"] == "hall-1: +60 s for Black: done"
        # Black's time ran 10 ms (the let-go's) before the pause; then 60 more.
        assert one.last("clock")["clock_black"] == 240.0

        decided = await http.post("/arbiter/adjudicate", headers=BEARER,
                                  data={"board": "hall-2", "result": "draw",
                                        "reason": "dead position",
                                        "game_id": two.session.game_id or ""})
        assert decided.status == 200
        assert (two.last("result")["termination"], two.last("result")["result"]) == (
            "adjudication", "1-1")
        game = RedisStore(hall.sync, "hall-2", name="test").load_game(two.session.game_id or "")
        assert "{arbiter: adjudicated (dead position)}" in " ".join(render_game(game).split())

        state = await (await http.get("/arbiter/state.json", headers=BEARER)).json()
        boards = {b["board"]: b for b in state["boards"]}
        assert boards["hall-1"]["clock"]["paused"] is True
        assert boards["hall-1"]["plies"] == 1 and boards["hall-2"]["result"] == "1-1"
        actions = [(e["action"], e["board"], e["reason"], e["answers"]) for e in state["audit"]]
        assert actions == [
            ("adjudicate", "hall-2", "dead position", {"hall-2": {"answer": "done"}}),
            ("add_time", "hall-1", "disturbed by a spectator", {"hall-1": {"answer": "done"}}),
            ("pause_all", "*", "fire alarm", {"hall-1": {"answer": "done"},
                                              "hall-2": {"answer": "done"}})]
        assert state["audit"][1]["detail"] == {"side": "black", "seconds": 60.0,
                                               "game_id": one.session.game_id}
        assert "arbiter token" in state["audit"][0]["who"]
        # The award is a comment of the game's PDN, after the move it followed.
        timed = RedisStore(hall.sync, "hall-1", name="test").load_game(
            one.session.game_id or "")
        assert "1. 32-28 {[%clk 0:03:01]} {arbiter: +60 s for Black (disturbed by a " \
            "spectator)}" in " ".join(render_game(timed).split())

    run(scenario)


def test_a_refusal_is_logged_and_answered_as_the_boards_refusal_not_as_done() -> None:
    """Issue 38: "the audit log records refusals as decisions": extra time for a finished
    game, an illegal correction, adjudicating a finished game were each "ok" in the reply and
    the audit, and refused by the board."""
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-3")
        rig.play("32-28")
        game_id = rig.session.game_id or ""
        wrong = await http.post("/arbiter/correct-move", headers=BEARER, data={
            "board": "hall-3", "game_id": game_id, "ply": "1", "move": "32-26",
            "reason": "misread"})
        assert wrong.status == 409
        reply = await wrong.json()
        assert reply["ok"] is False and reply["answers"]["hall-3"]["answer"] == "refused"
        assert reply["error"] == ("hall-3: ply 1 corrected to 32-26: refused by the board: "
                                  "correct_move: that move is not legal there")
        rig.command("resign", side="white")
        late = await http.post("/arbiter/add-time", headers=BEARER, data={
            "board": "hall-3", "side": "black", "seconds": "60", "reason": "late claim"})
        assert late.status == 409
        assert (await late.json())["error"] == ("hall-3: +60 s for Black: refused by the board: "
                                                "add_time: the game is over")
        log = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())["audit"]
        assert [(e["action"], e["answers"]["hall-3"]["answer"], e["answers"]["hall-3"]["reason"])
                for e in log] == [("add_time", "refused", "game_over"),
                                  ("correct_move", "refused", "not_a_move")]
        assert [m.pdn for m in rig.game().moves] == ["32-28"]

    run(scenario)


def test_an_offline_board_is_not_sent_the_decision_and_the_log_says_so() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-4")
        rig.play("32-28")
        hall.power_off("hall-4")
        reply = await http.post("/arbiter/add-time", headers=BEARER, data={
            "board": "hall-4", "side": "black", "seconds": "60", "reason": "disturbed"})
        assert reply.status == 503
        assert (await reply.json())["error"] == ("hall-4: +60 s for Black: not sent, the board "
                                                 "is offline")
        assert hall.sync.exists(commands_key("hall-4")) == 0
        entry = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())["audit"][0]
        assert entry["answers"] == {"hall-4": {"answer": "not_reached"}}

    run(scenario)


def test_a_board_that_does_not_answer_in_time_never_carries_the_decision_out_later() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-5")
        rig.play("32-28")
        hall.readers.pop("hall-5").close()     # its service hangs: the heartbeat still fresh
        reply = await http.post("/arbiter/add-time", headers=BEARER, data={
            "board": "hall-5", "side": "black", "seconds": "60", "reason": "disturbed"})
        assert reply.status == 503
        assert (await reply.json())["error"] == (
            "hall-5: +60 s for Black: sent, but the board did not answer (see its card)")
        ((_, fields),) = hall.sync.xrange(commands_key("hall-5"))
        # Read once the console stopped waiting (the board's reader after a Redis fault reads
        # on from where it was), the command is dropped, not carried out behind its back.
        with pytest.raises(ValueError, match="expired"):
            parse_command(fields, now=float(fields[b"until"]) + 0.1)
        assert parse_command(fields, now=float(fields[b"time"]))[0] == "add_time"
        entry = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())["audit"][0]
        assert entry["answers"] == {"hall-5": {"answer": "no_answer"}}

    run(scenario, wait_s=0.3)


def test_a_corrected_resignation_keeps_its_termination_and_its_pdn_comment() -> None:
    """Issue 38: correcting who resigned turned the termination into "adjudication"."""
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-3")
        rig.play("32-28")
        rig.command("resign", side="black")            # reported wrongly: White had resigned
        game_id = rig.session.game_id
        assert game_id is not None and rig.game().result == "2-0"
        form = {"board": "hall-3", "result": "black", "game_id": game_id,
                "reason": "White resigned, the wrong button was pressed"}
        stale = await http.post("/arbiter/correct", headers=BEARER,
                                data={**form, "game_id": "20260101-000000-0000"})
        assert stale.status == 400 and "moved on" in (await stale.json())["error"]
        assert (await http.post("/arbiter/correct", headers=BEARER, data=form)).status == 200
        game = RedisStore(hall.sync, "hall-3", name="test").load_game(game_id)
        assert (game.result, game.termination) == ("0-2", "resignation")
        text = render_game(game)
        assert '[Result "0-2"]' in text and '[Termination "resignation"]' in text
        assert ('{arbiter: result corrected from "2-0" (White resigned, the wrong button was '
                "pressed)}") in " ".join(text.split())
        entry = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())["audit"][0]
        assert (entry["action"], entry["board"], entry["detail"]) == (
            "correct_result", "hall-3", {"game_id": game_id, "result": "black"})
        assert entry["reason"] == "White resigned, the wrong button was pressed"

    run(scenario)


def test_a_game_in_play_is_adjudicated_not_corrected() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-4")
        rig.play("32-28")
        reply = await http.post("/arbiter/correct", headers=BEARER, data={
            "board": "hall-4", "result": "draw", "reason": "x",
            "game_id": rig.session.game_id or ""})
        assert reply.status == 400 and "adjudicate it" in (await reply.json())["error"]
        assert hall.sync.llen(AUDIT) == 0                   # nothing decided, nothing logged

    run(scenario)


def test_a_decision_on_a_game_the_board_has_left_or_finished_is_refused() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-5")
        rig.play("32-28")
        seen = rig.session.game_id or ""
        form = {"board": "hall-5", "result": "white", "reason": "Black absent",
                "game_id": "20260101-000000-0000"}    # the game the console showed earlier
        stale = await http.post("/arbiter/adjudicate", headers=BEARER, data=form)
        assert stale.status == 400 and "moved on" in (await stale.json())["error"]
        rig.command("resign", side="black")
        over = await http.post("/arbiter/adjudicate", headers=BEARER,
                               data={**form, "game_id": seen})
        assert over.status == 400 and "correct its result" in (await over.json())["error"]
        assert hall.sync.llen(AUDIT) == 0 and hall.sync.exists(commands_key("hall-5")) == 0

    run(scenario)


def test_the_console_pairs_a_browser_and_shows_every_board_with_its_clocks() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-6")
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


def test_the_card_stops_saying_put_back_once_the_board_is_back_in_sync() -> None:
    """Issue 38: "the board says 'put back on: 25; take away: nothing' for minutes after the
    board is back in sync"."""
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-8")
        rig.play("32-28")
        rig.lift("31")                             # a piece knocked off: White's man on 31
        rig.wait(3_000)

        async def said() -> str:
            state = await (await http.get("/arbiter/state.json", headers=BEARER)).json()
            return str(state["boards"][0]["said"]["en"])  # the viewer's language: English

        assert await said() == "put back on: 31; take away: nothing"
        rig.place("31")
        assert await said() == "board in sync with the game"
        rig.wait(60_000)
        assert await said() == "board in sync with the game"

    run(scenario)


def test_a_board_powered_off_during_the_hall_pause_comes_back_paused() -> None:
    """Issue 38: "Pause all does not reach a board that is offline": the reply said "Pause
    sent to 4 boards", the board came back with its clock running while the hall stayed
    paused, and Resume answered "the clock is already so"."""
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        boards = {name: hall.board(name) for name in ("hall-1", "hall-2")}
        for rig in boards.values():
            rig.play("32-28")
        hall.power_off("hall-2")                   # a power cut at hall-2
        reply = await http.post("/arbiter/pause-all", headers=BEARER,
                                data={"reason": "fire alarm"})
        paused = await reply.json()
        assert reply.status == 200
        assert paused["message"] == ("every clock paused: done on hall-1; offline, paused as "
                                     "it comes back: hall-2")
        assert paused["answers"] == {"hall-1": {"answer": "done"},
                                     "hall-2": {"answer": "not_reached"}}
        back = hall.restart("hall-2")              # the power is back during the pause
        clock = back.last("clock")
        assert (clock["paused"], clock["held"]) == (True, ["hall"])
        assert back.state == "paused"
        back.wait(120_000)
        assert back.published("result") == []
        resumed = await http.post("/arbiter/resume-all", headers=BEARER, data={})
        assert (await resumed.json())["message"] == "every clock resumed: done on hall-1, hall-2"
        assert back.last("clock")["paused"] is False and back.state == "human_to_move"

    run(scenario)


def test_one_boards_clock_is_held_for_a_correction_and_released_from_the_console() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rig = hall.board("hall-2")
        for text in ("32-28", "18-23", "37-32"):
            rig.play(text)
        corrected = await http.post("/arbiter/correct-move", headers=BEARER, data={
            "board": "hall-2", "game_id": rig.session.game_id or "", "ply": "3",
            "move": "33-29", "reason": "White played 33-29"})
        assert (await corrected.json())["message"] == "hall-2: ply 3 corrected to 33-29: done"
        held = rig.last("clock")
        assert (held["paused"], held["held"], held["running"]) == (True, ["setup"], "black")
        early = await http.post("/arbiter/release", headers=BEARER, data={
            "board": "hall-2", "reason": "go on"})
        assert early.status == 409                 # not set up yet: the board says so
        assert (await early.json())["error"] == (
            "hall-2: clock released: refused by the board: resume: first put the pieces as "
            "the lights show")
        rig.wait(40_000)                           # the players set the position up
        rig.lift("32", "33")
        rig.place("29", "37")
        assert rig.state == "paused" and rig.last("clock")["clock_black"] == held["clock_black"]
        released = await http.post("/arbiter/release", headers=BEARER, data={
            "board": "hall-2", "reason": "set up"})
        assert (await released.json())["message"] == "hall-2: clock released: done"
        assert rig.state == "human_to_move" and rig.last("clock")["paused"] is False
        claim = await http.post("/arbiter/hold", headers=BEARER, data={
            "board": "hall-2", "reason": "a claim of a repetition"})
        assert (await claim.json())["message"] == "hall-2: clock held: done"
        assert rig.last("clock")["held"] == ["arbiter"] and rig.state == "paused"

    run(scenario)
