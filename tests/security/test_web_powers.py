"""Powers as documented (issue 40): a paired phone presses the board's own buttons (it cannot
resign for the other player) and its changes of names and round are audited with the device;
a Bearer token skips CSRF only without a cookie; the arbiter's browsers hold sessions that
expire, are listed on the console and revoked there; a replayed decision decides once; the
paired devices' cap makes room instead of locking everyone out."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import fakeredis
import pytest
import redis
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.remote.reader import commands_key
from firmware_host.store import RedisStore
from firmware_host.store.keys import AUDIT, HALL
from firmware_host.web.arbiter import COOKIE, ArbiterKeys, ArbiterSite
from firmware_host.web.paired import MAX_DEVICES, PairedDevices
from firmware_host.web.sessions import SESSION_S, ArbiterSessions
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.web.harness import TOKEN, BoardRig, WebServer

KEYS = ArbiterKeys("secret-of-the-web-service-0123456789")
BoardMaker = Callable[..., BoardRig]


def _pair(web: WebServer) -> tuple[str, str]:
    """A phone pairs with the pairing code: its cookie and its CSRF field."""
    import urllib.request

    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(Keep)
    request = urllib.request.Request(web.base + "/pair", data=b"code=" + web.keys.pairing_code
                                     .encode(), headers={"User-Agent": "Firefox/1 (Android)"})
    try:
        opener.open(request, timeout=10)
    except urllib.error.HTTPError as exc:  # the 303 to the page, with the cookie
        cookie = exc.headers["Set-Cookie"].split(";", 1)[0].split("=", 1)[1]
    return cookie, web.keys.csrf(cookie)


@pytest.mark.redis
def test_a_phone_presses_the_boards_buttons_and_its_names_are_audited(
        web: WebServer, make_board: BoardMaker, redis_url: str) -> None:
    rig = make_board("pw1")
    rig.play("c3-d4")
    cookie, csrf = _pair(web)
    phone = {"Cookie": f"draughtsboard_pair={cookie}", "Origin": web.base}
    status, body = web.post("/board/pw1/command", {"command": "resign", "side": "black",
                                                   "csrf": csrf}, phone)
    assert status == 400 and "names no side" in body  # not for the other player
    status, body = web.post("/board/pw1/command", {"command": "white", "value": "Ann",
                                                   "csrf": csrf}, phone)
    assert status == 200, body
    audit = [json.loads(e) for e in redis.Redis.from_url(redis_url).lrange(AUDIT, 0, -1)]
    assert [(e["action"], e["board"], e["detail"]) for e in audit] == [
        ("header", "pw1", {"tag": "White", "value": "Ann"})]
    assert audit[0]["who"].startswith("device ") and "Firefox on Android" in audit[0]["who"]


@pytest.mark.redis
def test_a_bearer_token_skips_csrf_only_without_a_cookie(web: WebServer,
                                                         make_board: BoardMaker) -> None:
    make_board("pw2")
    cookie, _ = _pair(web)
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    status, _ = web.post("/board/pw2/command", {"command": "hint"},
                         {**bearer, "Cookie": f"draughtsboard_pair={cookie}"})
    assert status == 403  # a cookie came with it: the form must carry its CSRF field
    status, _ = web.post("/board/pw2/command", {"command": "hint"}, bearer)
    assert status == 200


def test_the_paired_devices_cap_makes_room() -> None:
    devices = PairedDevices(None)
    cookies = [devices.pair(f"phone {n}", now=float(n)) for n in range(MAX_DEVICES + 1)]
    assert len(devices.list()) == MAX_DEVICES
    assert devices.check(cookies[0]) is None  # the oldest made room
    assert devices.check(cookies[-1]) is not None and devices.check(cookies[1]) is not None


Scenario = Callable[[TestClient[Any, Any], Any, list[float]], Any]


def _run(scenario: Scenario) -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    now = [1.8e9]
    Rig("international", store=RedisStore(sync, "s1", name="test"))

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = web.Application()
        app.add_routes(ArbiterSite(client, KEYS, clock=lambda: now[0],
                                   sessions=ArbiterSessions(lambda: now[0])).routes())
        async with TestClient(TestServer(app)) as http:
            await scenario(http, sync, now)
        await client.aclose()

    asyncio.run(main())


async def _session(http: TestClient[Any, Any]) -> tuple[str, str]:
    reply = await http.post("/arbiter/pair", data={"code": KEYS.code},
                            headers={"User-Agent": "Firefox/1 (X11; Linux)"})
    assert reply.status == 200
    return reply.cookies[COOKIE].value, (await reply.json())["csrf"]


def _decisions(sync: Any) -> list[str]:
    """The decisions of the audit log (each is followed by the boards' answers: issue 38)."""
    actions = [json.loads(e)["action"] for e in sync.lrange(AUDIT, 0, -1)]
    return [action for action in actions if action != "answer"]


def test_a_replayed_decision_is_one_decision() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any, now: list[float]) -> None:
        cookie, csrf = await _session(http)
        form = {"csrf": csrf, "decision_id": "d0000001", "reason": "fire alarm"}
        replies = [await http.post("/arbiter/pause-all", data=form) for _ in range(3)]
        assert [r.status for r in replies] == [200, 200, 200]
        assert [(await r.json()).get("again") for r in replies] == [None, True, True]
        assert _decisions(sync) == ["pause_all"] and sync.get(HALL) is not None
        assert sync.xlen(commands_key("s1")) == 0  # (offline: it reads the hall's pause)
        del form["decision_id"]  # a browser's decision names itself
        assert (await http.post("/arbiter/pause-all", data=form)).status == 400
        form["decision_id"] = "d0000002"  # another decision: carried out
        assert (await http.post("/arbiter/pause-all", data=form)).status == 200
        assert _decisions(sync) == ["pause_all", "pause_all"]
        del cookie

    _run(scenario)


def test_a_replayed_decision_that_no_board_carried_out_is_still_one_decision() -> None:
    """Issue 38: a decision that got no answer (the board offline) was forgotten under its
    decision_id, so the browser's retry sent it again: two audit entries, two commands."""
    async def scenario(http: TestClient[Any, Any], sync: Any, now: list[float]) -> None:
        _, csrf = await _session(http)
        form = {"csrf": csrf, "decision_id": "d0000003", "board": "s1", "side": "black",
                "seconds": "60", "reason": "disturbed"}
        replies = [await http.post("/arbiter/add-time", data=form) for _ in range(3)]
        bodies = [await r.json() for r in replies]
        assert [r.status for r in replies] == [503, 503, 503]   # s1 is offline: not reached
        assert [b.get("again") for b in bodies] == [None, True, True]
        assert {b["answers"]["s1"]["answer"] for b in bodies} == {"not_reached"}
        assert {b["id"] for b in bodies} == {bodies[0]["id"]}
        assert _decisions(sync) == ["add_time"]

    _run(scenario)


def test_arbiter_sessions_expire_are_listed_and_revoked() -> None:
    async def scenario(http: TestClient[Any, Any], sync: Any, now: list[float]) -> None:
        first, _ = await _session(http)
        http.session.cookie_jar.clear()
        second, csrf = await _session(http)
        state = await (await http.get("/arbiter/state.json")).json()
        listed = state["sessions"]
        assert [s["this"] for s in listed] == [False, True]
        assert all("Firefox on Linux" in s["label"] for s in listed)
        other = listed[0]["id"]
        assert first.startswith(other + ".")
        reply = await http.post("/arbiter/revoke", data={"csrf": csrf, "session": other,
                                                          "decision_id": "r0000001"})
        assert reply.status == 200
        http.session.cookie_jar.clear()
        http.session.cookie_jar.update_cookies({COOKIE: first})
        assert (await http.get("/arbiter/state.json")).status == 403  # revoked
        http.session.cookie_jar.update_cookies({COOKIE: second})
        assert (await http.get("/arbiter/state.json")).status == 200
        now[0] += SESSION_S + 1
        assert (await http.get("/arbiter/state.json")).status == 403  # expired
        assert [json.loads(e)["action"] for e in sync.lrange(AUDIT, 0, -1)] == [
            "revoke_session"]

    _run(scenario)
