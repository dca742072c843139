"""Numbers anyone may write are read as ASCII digits within a range, everywhere (issue 40):
``²``, ``①``, ``١٢`` and 5,000 digits are one clear refusal, never a traceback or a 500, in the
console's ply and audit count, a board's command values, a TRF's ranks, ``round import
--round``; and the round's CSV files: a formula is text, a huge field one line-numbered
refusal; an ``If-Modified-Since`` of a 20-digit year is no 500."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import fakeredis
import pytest
import redis
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware_host.cli import main as cli
from firmware_host.errors import ExitCode
from firmware_host.store import RedisStore
from firmware_host.terms.commands import Command
from firmware_host.tournament.export import RoundGame, results_csv
from firmware_host.tournament.pairing import Pairing
from firmware_host.tournament.rounds import import_round
from firmware_host.tournament.trf import read_trf
from firmware_host.web.arbiter import ArbiterKeys, ArbiterSite
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.web.harness import WebServer
from tests.security.records import seed_board

KEYS = ArbiterKeys("secret-of-the-web-service-0123456789")
BAD = ["²", "①", "١٢", "9" * 5000, "-1", "1_0", " 3"]


def test_the_console_refuses_a_ply_that_is_not_a_number_and_reads_any_count() -> None:
    server = fakeredis.FakeServer()
    sync = fakeredis.FakeRedis(server=server)
    rig = Rig("international", store=RedisStore(sync, "n1", name="test"))
    rig.play("32-28")

    async def main() -> list[int]:
        client = fakeredis.aioredis.FakeRedis(server=server)
        app = web.Application()
        app.add_routes(ArbiterSite(client, KEYS).routes())
        statuses = []
        async with TestClient(TestServer(app)) as http:
            csrf = (await (await http.post("/arbiter/pair", data={"code": KEYS.code})).json()
                    )["csrf"]
            state = await (await http.get("/arbiter/state.json")).json()
            game_id = state["boards"][0]["game_id"]
            for n, ply in enumerate(BAD):
                reply = await http.post("/arbiter/correct-move", data={
                    "csrf": csrf, "decision_id": f"decision{n}", "board": "n1",
                    "game_id": game_id, "ply": ply, "move": "31-27", "reason": "misread"})
                statuses.append(reply.status)
                assert "ply" in (await reply.json())["error"]
            for count in BAD:
                statuses.append((await http.get(f"/arbiter/audit.json?count={count}")).status)
        await client.aclose()
        return statuses

    assert asyncio.run(main()) == [400] * len(BAD) + [200] * len(BAD)


@pytest.mark.parametrize("value", BAD[:-1])  # (" 3": the board reads the value stripped)
def test_a_board_refuses_a_command_value_that_is_not_a_number(value: str) -> None:
    rig = Rig("international")
    rig.play("32-28")
    rig.wait(100)
    rig.session.handle(Command("level", rig.now, value=value))
    assert rig.last("command_refused")["reason"] == "bad_value"
    rig.session.handle(Command("correct_move", rig.now, value=f"{value} 31-27", tag="x"))
    assert rig.last("command_refused")["reason"] == "bad_value"
    assert rig.moves() == ["32-28"]  # nothing re-synced, nothing lost


def _trf(rank: str) -> str:
    line = f"001 {rank:>4} m    Smit, Jan".ljust(91) + "   2 w"
    other = "001    2 m    Berg, Piet".ljust(91) + f" {rank:>3} b"
    return f"012 Open\n{line}\n{other}\n"


@pytest.mark.parametrize("rank", ["²", "①", "١"])
def test_a_trf_rank_that_is_not_a_number_is_a_problem_of_its_line(rank: str) -> None:
    _, problems = read_trf(_trf(rank), 1)
    assert problems and problems[0].startswith("line 2: ")


@pytest.mark.redis
@pytest.mark.parametrize("round_text", ["²", "0", "9" * 5000])
def test_round_import_refuses_a_round_that_is_not_a_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], redis_url: str,
        round_text: str) -> None:
    path = tmp_path / "round.trf"
    path.write_text(_trf("1"))
    assert cli(["round", "import", str(path), "--round", round_text, "--store", redis_url]) == \
        ExitCode.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "say which round" in err[0]


@pytest.mark.redis
def test_a_csv_field_over_the_limit_is_a_line_numbered_refusal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], redis_url: str) -> None:
    path = tmp_path / "round.csv"
    path.write_text("board,white,black,round,event\nb1,Ann,Bob,1,\n"
                    f"b2,{'x' * 140_000},Cid,1,\n")
    assert cli(["round", "import", str(path), "--store", redis_url]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert "line 3: not read as CSV" in err and "Traceback" not in err
    assert redis.Redis.from_url(redis_url).keys("*") == []  # nothing imported


FORMULAS = ["=cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1", "-2+3"]


def test_the_results_table_writes_a_formula_as_text() -> None:
    games = [RoundGame(Pairing(f"b{n}", name, "Bob", "1"), None)
             for n, name in enumerate(FORMULAS)]
    rows = list(csv.reader(io.StringIO(results_csv(games), newline="")))[1:]
    assert [row[1] for row in rows] == ["'" + name for name in FORMULAS]


@pytest.mark.redis
def test_the_round_csv_of_the_web_app_writes_a_formula_as_text(
        web: WebServer, client: redis.Redis) -> None:
    seed_board(client, "b1")
    import_round(client, [Pairing("b1", "=HYPERLINK(\"http://x\")", "@SUM(A1)", "1")], "test")
    status, _, text = web.get("/round/1.csv")
    assert status == 200
    row = text.splitlines()[1]
    assert "'=HYPERLINK" in row and "'@SUM(A1)" in row


@pytest.mark.redis
def test_an_if_modified_since_of_a_huge_year_is_no_error(web: WebServer,
                                                        client: redis.Redis) -> None:
    seed_board(client, "b1")
    for path in ("/broadcast.pdn", "/broadcast/board/b1.pdn"):
        status, _, _ = web.get(path, {"If-Modified-Since":
                                      "Mon, 01 Jan 99999999999999999999 00:00:00 GMT"})
        assert status == 200, path


