"""A round's results on the web (``/round/<n>``, ``/round/<n>.csv``): every board of the
imported pairing in its order with its game's result so far, as ``round export`` finds them."""

from __future__ import annotations

import asyncio
from typing import Any

import fakeredis
import fakeredis.aioredis
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.store import RedisStore
from firmware_host.tournament.export import results_csv, round_games
from firmware_host.tournament.pairing import PairingSource, read_pairings
from firmware_host.tournament.rounds import import_round
from firmware_host.web.app import WebSettings, build_app
from firmware_host.web.auth import Keys
from tests.firmware_host.session_harness import Rig

ROUND_3 = ("board,white,black,round,event\n"
           "hall-2,Ann Smit,Bob de Vries,3,Club night\n"
           "hall-1,Cor Jansen,Dirk Bos,3,Club night\n"
           "hall-3,Eva Kok,Fred Mol,3,Club night\n")


def board(sync: Any, board_id: str) -> Rig:
    rig = Rig("international", store=RedisStore(sync, board_id, name="test"), start=False)
    rig.session.game.pairing = PairingSource(sync, board_id)
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)
    return rig


def test_the_round_page_lists_the_pairing_with_each_result_and_the_csv_is_the_exports() -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    import_round(sync, read_pairings(ROUND_3)[0], "test")
    two, one = board(sync, "hall-2"), board(sync, "hall-1")
    two.play("32-28")
    two.command("resign", side="black")   # Ann Smit won
    one.play("33-29")                      # still going on; hall-3 never began

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = build_app(WebSettings(keys=Keys("the-control-token-of-the-web-service")), client)
        async with TestClient(TestServer(app)) as http:
            page = await http.get("/round/3")
            assert page.status == 200
            html = " ".join((await page.text()).split())
            assert "<h1>Round 3 · Club night</h1>" in html
            head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
            assert "<th>Plies</th>" in head and "Moves" not in head  # a ply is half a move
            rows = html.split("<tbody>", 1)[1].split("</tr>")
            assert "hall-2" in rows[0] and "Ann Smit" in rows[0]
            assert "White won (2-0, resignation)" in rows[0]
            assert f"/game/hall-2/{two.session.game_id}.pdn" in rows[0]
            assert "hall-1" in rows[1] and "In progress (*)" in rows[1]
            assert "hall-3" in rows[2] and ">–<" in rows[2] and "/game/" not in rows[2]
            french = await (await http.get("/round/3?lang=fr")).text()
            assert "<h1>Ronde 3 · Club night</h1>" in french and "abandon" in french
            csv = await http.get("/round/3.csv")
            assert csv.status == 200 and csv.content_type == "text/csv"
            assert await csv.text() == results_csv(round_games(sync, "3")[1])
            for missing in ("/round/9", "/round/9.csv", "/round/x", "/round/3;1"):
                assert (await http.get(missing)).status == 404, missing
        await client.aclose()

    asyncio.run(main())


def test_the_hall_links_a_card_playing_a_round_to_its_results() -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    import_round(sync, read_pairings(ROUND_3)[0], "test")
    board(sync, "hall-2").play("32-28")  # a game of round 3 (its pairing was waiting)
    Rig("international", store=RedisStore(sync, "free-1", name="test")).play("32-28")

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = build_app(WebSettings(keys=Keys("the-control-token-of-the-web-service")), client)
        async with TestClient(TestServer(app)) as http:
            for query, words in (("", "the results"), ("?lang=fr", "les résultats")):
                hall = " ".join((await (await http.get("/" + query)).text()).split())
                card = hall.split('id="board-hall-2"', 1)[1].split("</article>", 1)[0]
                assert ('<dd class="round"><a href="/round/3"><span class="round-n">3</span> · '
                        f"<span>{words}</span></a></dd>") in card
                free = hall.split('id="board-free-1"', 1)[1].split("</article>", 1)[0]
                assert "/round/" not in free
        await client.aclose()

    asyncio.run(main())


def test_two_events_round_3_are_a_table_each_and_one_csv() -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    import_round(sync, read_pairings(ROUND_3)[0], "test")
    other = "board,white,black,round,event\nhall-7,Gus Gras,Hans Hop,3,Youth\n"
    import_round(sync, read_pairings(other)[0], "test")

    async def main() -> None:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = build_app(WebSettings(keys=Keys("the-control-token-of-the-web-service")), client)
        async with TestClient(TestServer(app)) as http:
            html = " ".join((await (await http.get("/round/3")).text()).split())
            assert "<h1>Round 3</h1>" in html
            assert html.index("<h2>Club night</h2>") < html.index("hall-2") < html.index(
                "<h2>Youth</h2>") < html.index("hall-7")
            lines = (await (await http.get("/round/3.csv")).text()).splitlines()
            assert [line.split(",")[0] for line in lines[1:]] == [
                "hall-2", "hall-1", "hall-3", "hall-7"]
        await client.aclose()

    asyncio.run(main())
