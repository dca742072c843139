"""The arbiter's rounds on the console: each card shows the pairing waiting on it, a list is
imported from the console (uploaded, previewed, confirmed), a board where no game is played is
decided (a forfeit, a double forfeit, a bye), a game is carried to a spare board, and each
arbiter is named in the audit log."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import fakeredis
import fakeredis.aioredis
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.remote.reader import commands_key
from firmware_host.store.keys import AUDIT
from firmware_host.tournament.export import RoundGame, results_csv, round_games, round_trf
from firmware_host.tournament.pairing import pairing_key, read_pairings
from firmware_host.tournament.rounds import BoardDecision, import_round, load_round, read_list
from firmware_host.tournament.trf import round_entries
from firmware_host.web.arbiter import COOKIE, ArbiterKeys, ArbiterSite
from tests.firmware_host.arbiter_hall import Hall
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.tournament.test_arbiter import KEYS, run

BEARER = {"Authorization": f"Bearer {KEYS.token}"}
ROUND_3 = ("board,white,black,round,event\n"
           "hall-1,Ann Smit,Bob de Vries,3,Club night\n"
           "hall-2,Cor Jansen,Dirk Bos,3,Club night\n")
SWISS = (Path(__file__).parents[1] / "tournament" / "swiss-round-3.trf").read_bytes()


def board(hall: Hall, board_id: str, online: bool = True) -> Rig:
    """A board at the start position on a 3+2 clock, reading its pairing, ``online`` (its
    service reads its commands and answers the console)."""
    return hall.board(board_id, paired=True, online=online)


async def state(http: TestClient[Any, Any]) -> dict[str, Any]:
    reply = await (await http.get("/arbiter/state.json", headers=BEARER)).json()
    return {b["board"]: b for b in reply["boards"]}


def test_before_the_start_a_card_shows_the_pairing_waiting_on_it() -> None:
    # The bug: boards set up before the list came showed "White – Black" until Start round.
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        board(hall, "hall-1")
        board(hall, "hall-2").play("32-28")        # a game of its own, before the list
        import_round(sync, read_pairings(ROUND_3)[0], "test")
        shown = await state(http)
        assert (shown["hall-1"]["white"], shown["hall-1"]["black"]) == ("Ann Smit",
                                                                        "Bob de Vries")
        assert shown["hall-1"]["pairing"] == {"white": "Ann Smit", "black": "Bob de Vries",
                                              "round": "3", "event": "Club night"}
        assert shown["hall-1"]["status"] == "waiting"
        # A game going on keeps its own players on the card; the pairing waits under them.
        assert shown["hall-2"]["white"] == "White" and shown["hall-2"]["status"] == "playing"
        assert shown["hall-2"]["last_moves"] == "1. 32-28"
        page = " ".join((await (await http.get("/arbiter", headers=BEARER)).text()).split())
        card = page.split('id="arb-hall-1"', 1)[1].split("</article>", 1)[0]
        assert '<span class="white-name">Ann Smit</span> – <span class="black-name">Bob de ' \
               'Vries</span>' in card
        assert "Waiting for its start<span" in card and 'class="diagram"' in card
        playing = page.split('id="arb-hall-2"', 1)[1].split("</article>", 1)[0]
        assert "Waiting for its start<span class=\"pairing-names\">: Cor Jansen – Dirk Bos" \
            in playing

    run(scenario)


async def post_import(http: TestClient[Any, Any], data: bytes, **fields: str) -> Any:
    reply = await http.post("/arbiter/import", headers=BEARER, data={
        "data": base64.b64encode(data).decode(), **fields})
    return reply.status, await reply.json()


def test_a_list_is_imported_from_the_console_after_its_preview() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        board(hall, "hall-1")
        status, preview = await post_import(http, SWISS, round="3", prefix="hall-")
        assert status == 200 and preview["preview"] is True
        assert preview["round"] == "round 3 of Club championship 2026"
        assert preview["rows"][:2] == ["hall-1: Hop, Hanna - Smit, Ann  (added)",
                                       "hall-2: Gras, Gus - Mol, Fred  (added)"]
        assert "FIDE board order" in preview["order"]
        assert sync.exists(pairing_key("hall-1")) == 0 and sync.llen(AUDIT) == 0
        status, stale = await post_import(http, SWISS, round="3", prefix="hall-",
                                          confirm="1", digest="0" * 16)
        assert status == 400 and "changed since the preview" in stale["error"]
        status, done = await post_import(http, SWISS, round="3", prefix="hall-",
                                         confirm="1", digest=preview["digest"])
        assert status == 200
        assert done["message"] == "Imported into round 3 of Club championship 2026: 4 boards"
        assert sync.hget(pairing_key("hall-1"), "Black") == b"Smit, Ann"
        (entry,) = [json.loads(e) for e in sync.lrange(AUDIT, 0, -1)]
        assert entry["action"] == "import" and "arbiter token" in entry["who"]
        # A cp1252 file is refused with its line; saying its encoding reads it.
        french = "board,white,black,round,event\nhall-7,Hélène Dupré,Zoë Bos,3,Open\n"
        status, refused = await post_import(http, french.encode("cp1252"))
        assert status == 400 and refused["error"].startswith(
            "the file: line 2, column 9: byte 0xE9 is not UTF-8")
        status, read = await post_import(http, french.encode("cp1252"), encoding="cp1252")
        assert status == 200 and read["rows"] == ["hall-7: Hélène Dupré - Zoë Bos  (added)"]
        # A list that does not agree with the round is refused with its problems.
        clash = "board,white,black,round,event\nhall-8,Hop, Hanna,X,3,Club championship 2026\n"
        status, wrong = await post_import(http, clash.encode())
        assert status == 400 and wrong["problems"]

    run(scenario)


def test_a_forfeit_a_double_forfeit_and_a_bye_go_to_the_results_and_the_trf() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        rigs = {name: board(hall, name) for name in ("hall-1", "hall-2", "hall-3", "hall-4")}
        import_round(sync, read_pairings(
            ROUND_3 + "hall-3,Eva Kok,Fred Mol,3,Club night\n"
                      "hall-4,Gus Gras,Hans Hop,3,Club night\n")[0], "test")
        await http.post("/arbiter/start-round", headers=BEARER, data={"round": "3"})
        # hall-1..4 started (they answered): names, clocks running
        rigs["hall-4"].play("32-28")               # hall-4's game has begun
        forms = {"hall-1": "forfeit:white", "hall-2": "double_forfeit:", "hall-3": "bye:black"}
        said = {}
        for name, decision in forms.items():
            reply = await http.post("/arbiter/decide", headers=BEARER, data={
                "board": name, "decision": decision, "reason": "not here at 19:30"})
            assert reply.status == 200, await reply.text()
            body = await reply.json()
            assert body["answers"] == {name: {"answer": "done"}}   # the board ended its game
            said[name] = body["message"]
        assert said == {"hall-1": "hall-1: forfeit, White did not come: done",
                        "hall-2": "hall-2: double forfeit: done",
                        "hall-3": "hall-3: a bye for Black, the pairing cancelled: done"}
        assert (await (await http.post("/arbiter/decide", headers=BEARER, data={
            "board": "hall-1", "decision": "bye:white", "reason": "x"})).json())["error"] == \
            "hall-1: decided already (forfeit)"
        begun = await http.post("/arbiter/decide", headers=BEARER, data={
            "board": "hall-4", "decision": "forfeit:white", "reason": "x"})
        assert begun.status == 400 and "has begun: adjudicate it" in (await begun.json())["error"]
        # The started games are ended on their boards (their clocks stop).
        for name in forms:
            await hall.until(lambda name=name: rigs[name].game().result != "*")
        stored, games = round_games(sync, "3")
        assert {b: (d.kind, d.side) for b, d in stored.decisions.items()} == {
            "hall-1": ("forfeit", "white"), "hall-2": ("double_forfeit", ""),
            "hall-3": ("bye", "black")}
        lines = results_csv(games).splitlines()
        assert [line.split(",")[6:10] for line in lines[1:4]] == [
            ["-/+", "-", "+", "forfeit"], ["-/-", "-", "-", "double forfeit"],
            ["Z/F", "Z", "F", "bye"]]
        shown = await state(http)
        assert shown["hall-1"]["decision"] == {"kind": "forfeit", "side": "white"}
        audit = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())["audit"]
        assert [(e["action"], e["board"], e["answers"]) for e in audit[:3]] == [
            ("bye", "hall-3", {"hall-3": {"answer": "done"}}),
            ("double_forfeit", "hall-2", {"hall-2": {"answer": "done"}}),
            ("forfeit", "hall-1", {"hall-1": {"answer": "done"}})]

    run(scenario)


def test_a_forfeit_says_what_the_board_answered_before_the_start_and_offline() -> None:
    """Issue 38: a forfeit's audit entry and reply said only what was sent, never what the
    board did (and an offline board's waiting game was "ended" on paper only)."""
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        board(hall, "hall-1")
        board(hall, "hall-2").play("32-28")        # a game of its own, before the list
        import_round(sync, read_pairings(ROUND_3)[0], "test")
        before = await http.post("/arbiter/decide", headers=BEARER, data={
            "board": "hall-2", "decision": "forfeit:black", "reason": "Bos is ill"})
        body = await before.json()
        assert before.status == 200
        assert body["answers"] == {"hall-2": {"answer": "not_needed"}}
        assert body["message"] == ("hall-2: forfeit, Black did not come: kept with the round "
                                   "(no game of the round on the board to end)")
        assert sync.xlen(commands_key("hall-2")) == 0      # its own game is left alone
        await http.post("/arbiter/start-round", headers=BEARER, data={"round": "3"})
        hall.power_off("hall-1")                   # named and started, then its power is cut
        cut = await http.post("/arbiter/decide", headers=BEARER, data={
            "board": "hall-1", "decision": "forfeit:white", "reason": "Smit did not come"})
        body = await cut.json()             # the forfeit stands; the board's game is left
        assert (cut.status, body["answers"]) == (200, {"hall-1": {"answer": "not_reached"}})
        assert body["message"] == ("hall-1: forfeit, White did not come: kept with the round; "
                                   "not sent, the board is offline (adjudicate its game once "
                                   "it is back)")
        assert set(load_round(sync, "3").decisions) == {"hall-1", "hall-2"}  # kept anyway
        (entry, *_) = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json())[
            "audit"]
        assert (entry["action"], entry["answers"]) == ("forfeit",
                                                       {"hall-1": {"answer": "not_reached"}})

    run(scenario)


def test_forfeits_go_into_the_trf_as_the_pairing_program_reads_them() -> None:
    sync = fakeredis.FakeRedis()
    pairings, _, trf = read_list(SWISS.decode(), "3", "hall-")
    import_round(sync, pairings, "test", trf=trf)
    stored = load_round(sync, "3")
    decided = {"hall-3": BoardDecision("forfeit", "black"), "hall-4": BoardDecision("bye",
                                                                                    "white")}
    games = [RoundGame(p, None, decided.get(p.board)) for p in stored.pairings]
    out, left_out = round_trf(stored, games)
    entries = round_entries(out, 3)
    assert (entries[3].text(), entries[4].text()) == ("   4 w +", "   3 b -")
    assert (entries[5].text(), entries[2].text()) == ("0000 - F", "0000 - Z")
    assert left_out == ["hall-1: no result yet (its players' round is left blank)",
                        "hall-2: no result yet (its players' round is left blank)"]


def test_a_game_is_carried_to_a_spare_board_with_its_round_pairing() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        one, spare = board(hall, "hall-1"), board(hall, "spare-1")
        import_round(sync, read_pairings(ROUND_3)[0], "test")
        one.play("32-28")
        one.play("19-23")
        form = {"board": "hall-1", "to": "spare-1", "game_id": one.session.game_id or "",
                "reason": "hall-1's sensors failed"}
        reply = await http.post("/arbiter/carry", headers=BEARER, data=form)
        assert reply.status == 200, await reply.text()
        body = await reply.json()
        assert body["answers"] == {"spare-1": {"answer": "done"}}
        assert body["message"] == "hall-1: the game carried to spare-1: done"
        ((_, sent),) = sync.xrange(commands_key("spare-1"))
        assert (sent[b"name"], sent[b"value"]) == (
            b"carry", f"hall-1/{one.session.game_id}".encode())
        assert [m.pdn for m in spare.game().moves] == ["32-28", "19-23"]
        assert (spare.game().headers["White"], spare.game().headers["Round"]) == ("Ann Smit",
                                                                                  "3")
        stored = load_round(sync, "3")
        assert [p.board for p in stored.pairings] == ["spare-1", "hall-2"]
        assert stored.carried == {"spare-1": "hall-1"}
        again = await http.post("/arbiter/carry", headers=BEARER,
                                data={**form, "to": "hall-2"})
        assert again.status == 400

    run(scenario)


def test_a_spare_board_that_refuses_the_game_keeps_the_round_as_it_was() -> None:
    """Issue 38: the carry was audited as sent and the round's pairing moved before the spare
    board answered; a spare board showing a finished game refuses it."""
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        one, spare = board(hall, "hall-1"), board(hall, "spare-1")
        spare.play("32-28")
        spare.command("resign", side="black")      # its last game is over, not set up again
        import_round(sync, read_pairings(ROUND_3)[0], "test")
        one.play("32-28")
        reply = await http.post("/arbiter/carry", headers=BEARER, data={
            "board": "hall-1", "to": "spare-1", "game_id": one.session.game_id or "",
            "reason": "hall-1's sensors failed"})
        assert reply.status == 409
        body = await reply.json()
        assert body["answers"]["spare-1"]["answer"] == "refused"
        assert body["error"] == ("hall-1: the game carried to spare-1: refused by the board: "
                                 "carry: a game is going on")
        assert [p.board for p in load_round(sync, "3").pairings] == ["hall-1", "hall-2"]

    run(scenario)


def test_each_arbiter_is_named_in_the_audit_log() -> None:
    keys = ArbiterKeys("secret-of-the-web-service-0123456789", ("Eva Kok", "Jan de Vries"))
    server = fakeredis.FakeServer()

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = web.Application()
        app.add_routes(ArbiterSite(client, keys).routes())
        async with TestClient(TestServer(app)) as http:
            assert (await http.post("/arbiter/pair", data={
                "code": ArbiterKeys("secret-of-the-web-service-0123456789").code})).status == 403
            paired = await http.post("/arbiter/pair", data={"code": keys.codes["Jan de Vries"]})
            csrf = (await paired.json())["csrf"]
            assert http.session.cookie_jar.filter_cookies(
                http.make_url("/arbiter"))[COOKIE].value
            reply = await http.post("/arbiter/pause-all", data={"csrf": csrf,
                                                                "decision_id": "d0000001",
                                                                "reason": "fire alarm"})
            assert reply.status == 200
            entry, _ = fakeredis.FakeRedis(server=server).lrange(AUDIT, 0, -1)  # and its answers
            assert json.loads(entry)["who"].startswith("Jan de Vries from ")
        await client.aclose()

    asyncio.run(main())
