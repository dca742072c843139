"""A round as a club runs it, from the pairing program's TRF back to it: two groups imported
into one Redis, a spare board merged into one of them, the games played on the boards (one of
64 plies on a clock), a forfeit decided, the round re-imported with a corrected name, then
``round export``: the TRF column-exactly as the format has it and read back the same, the
1/½/0 results, the decisions, and the PDN as pydraughts and py-draughts read it."""

from __future__ import annotations

import asyncio
import csv
import io
import os
from pathlib import Path

import pytest
import redis
import redis.asyncio

from engine import Board
from firmware_host.cli import main
from firmware_host.store.keys import BoardKeys
from firmware_host.terms.commands import Command
from firmware_host.tournament.arbiter import decide_board
from firmware_host.tournament.rounds import load_round
from firmware_host.tournament.trf import Entry, read_trf, round_entries
from tests.firmware_host.session_harness import Rig, hall_board
from tests.firmware_host.store.test_pdnrender_readers import MOVES, py_draughts_replay
from tests.redis_server import RedisServer

SWISS = (Path(__file__).parent / "swiss-round-3.trf").read_text(encoding="utf-8")
EVENT = "Club championship 2026"
YOUTH = ("board,white,black,round,event\n"
         "hall-5,Kim Zee,Lot Dam,3,Youth\nhall-6,Max Veen,Nel Boer,3,Youth\n")


def test_a_round_from_the_pairing_programs_trf_back_to_it(
        redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()

    def run(*args: str) -> str:
        assert main(["round", *args, "--store", redis_server.url]) == 0, capsys.readouterr()
        return capsys.readouterr().out

    def board(board_id: str) -> Rig:
        return hall_board(client, board_id, time_control="90+30")

    trf = tmp_path / "club.trf"
    trf.write_text(SWISS)
    run("import", str(trf), "--round", "3", "--board-prefix", "hall-")
    youth = tmp_path / "youth.csv"
    youth.write_text(YOUTH)
    run("import", str(youth))
    late = tmp_path / "late.csv"    # a late pairing of the youth group on the spare board
    late.write_text("board,white,black,round,event\nhall-9,Olaf Kruis,Pim Wit,3,Youth\n")
    assert "round 3 of Youth: 3 boards, 1 of them in this list" in run("import", str(late))

    # hall-1: Hop - Smit, 64 plies on the clock, then Black resigns. hall-2: Gras - Mol,
    # adjudicated a draw. hall-3: Bos did not come. hall-4: Kok - de Vries, White resigns.
    hall = {name: board(name) for name in ("hall-1", "hall-2", "hall-3", "hall-4", "hall-5")}
    for text in MOVES:
        hall["hall-1"].wait(20_000)
        hall["hall-1"].play(text)
    hall["hall-1"].command("resign", side="black")
    hall["hall-2"].play("32-28")
    hall["hall-2"].play("19-23")
    hall["hall-2"].session.handle(Command("adjudicate", 10.0, value="draw",
                                          tag="a dead position"))
    hall["hall-4"].play("31-27")
    hall["hall-4"].command("resign", side="white")
    hall["hall-5"].play("32-28")

    async def forfeit() -> None:
        aclient = redis.asyncio.Redis.from_url(redis_server.url)
        await decide_board(aclient, load_round(client, "3", EVENT), "hall-3", "forfeit",
                           "black", "arbiter Eva Kok", "Bos did not come by 20:00")
        await aclient.aclose()

    asyncio.run(forfeit())

    # The pairing program corrects a name; the round is imported again: the played game's
    # record gets it, no board is armed again.
    corrected = tmp_path / "club-corrected.trf"
    corrected.write_text(SWISS.replace("Hop, Hanna ", "Hop, Hannah"))
    out = run("import", str(corrected), "--round", "3", "--board-prefix", "hall-")
    assert "hall-1: Hop, Hannah - Smit, Ann  (has its game: names corrected in its record; " \
           "was Hop, Hanna - Smit, Ann)" in out
    assert client.exists(BoardKeys("hall-1").pairing) == 0

    files = {kind: tmp_path / f"round-3.{kind}" for kind in ("pdn", "csv", "trf")}
    out = run("export", "--round", "3", "--event", EVENT, "--pdn", str(files["pdn"]),
              "--results", str(files["csv"]), "--trf", str(files["trf"]),
              "--decisions", str(tmp_path / "decisions.csv"))
    assert f"round 3 of {EVENT}: 4 of 4 games" in out

    # The TRF: every line as the pairing program wrote it, round 3 written in columns
    # 112-119, the points (81-84) with the round's added; CR LF line ends.
    raw = files["trf"].read_bytes()
    assert raw.count(b"\r\n") == len(SWISS.splitlines()) and b"\n" not in raw.replace(b"\r\n",
                                                                                      b"")
    lines = raw.decode().split("\r\n")
    players = {int(line[4:8]): line for line in lines if line.startswith("001 ")}
    assert players[8] == ("001    8 w    Hop, Hannah                       1850 SUR    "
                          "16000008 2004/02/14  3.0    1     4 b 1     3 b 1     1 w 1")
    assert players[1] == ("001    1 mGMI Smit, Ann                         2210 NED    "
                          "16000001 1990/01/02  1.5    2     5 w 1     6 b =     8 b 0")
    assert players[7][80:84] == " 2.0" and players[7][111:119] == "   6 w ="
    assert players[6][80:84] == " 2.0" and players[6][111:119] == "   7 b ="
    assert players[3][80:84] == " 1.5" and players[3][111:119] == "   4 w +"
    assert players[4][80:84] == " 1.0" and players[4][111:119] == "   3 b -"
    assert players[5][80:84] == " 0.0" and players[5][111:119] == "   2 w 0"
    assert players[2][80:84] == " 1.0" and players[2][111:119] == "   5 b 1"
    assert players[9] == SWISS.splitlines()[14]
    # Read back by the project's own reader: the same boards, the results written.
    again, problems = read_trf(files["trf"].read_text(), 3, prefix="hall-")
    assert problems == []
    assert [(p.board, p.white, p.black) for p in again] == [
        ("hall-1", "Hop, Hannah", "Smit, Ann"), ("hall-2", "Gras, Gus", "Mol, Fred"),
        ("hall-4", "Kok, Eva", "de Vries, Bob")]   # hall-3: a forfeit, no board
    entries = round_entries(files["trf"].read_text(), 3)
    assert {rank: (e.opponent, e.colour, e.result) for rank, e in entries.items()} == {
        8: (1, "w", "1"), 1: (8, "b", "0"), 7: (6, "w", "="), 6: (7, "b", "="),
        3: (4, "w", "+"), 4: (3, "b", "-"), 5: (2, "w", "0"), 2: (5, "b", "1"),
        9: (0, "-", "U")}
    assert entries[9] == Entry(0, "-", "U")

    rows = list(csv.DictReader(io.StringIO(files["csv"].read_text())))
    assert [(r["board"], r["white"], r["result"], r["points"], r["termination"], r["plies"])
            for r in rows] == [
        ("hall-1", "Hop, Hannah", "2-0", "1-0", "resignation", "64"),
        ("hall-2", "Gras, Gus", "1-1", "½-½", "adjudication", "2"),
        ("hall-3", "Jansen, Cor", "", "+/-", "forfeit", "0"),
        ("hall-4", "Kok, Eva", "0-2", "0-1", "resignation", "1")]
    decisions = list(csv.DictReader(io.StringIO((tmp_path / "decisions.csv").read_text())))
    assert [(d["action"], d["board"], d["who"]) for d in decisions
            if d["action"] != "import"] == [("forfeit", "hall-3", "arbiter Eva Kok"),
                                            ("rename", "hall-1", decisions[0]["who"])]
    # Each decision with what its board answered (the log's answer entries folded in).
    assert decisions[1]["what"] == ("hall-3: forfeit, Black did not come: kept with the round "
                                    "(no game of the round on the board to end)")

    # The PDN: pydraughts reads every game with its tags; py-draughts replays the long one.
    pdn = pytest.importorskip("draughts.PDN")
    text = files["pdn"].read_text()
    games = pdn.PDNReader(pdn_text=text).games
    assert [len(g.moves) for g in games] == [64, 2, 1]
    assert games[0].moves == list(MOVES) and games[0].game_ending == "2-0"
    assert games[0].get_ratings() == ["1850", "2210"]
    assert (games[0].tags["White"], games[0].tags["Site"], games[0].tags["BlackTitle"]) == (
        "Hop, Hannah", "Utrecht NED", "GMI")
    assert games[1].tags["Termination"] == "adjudication"
    python = os.environ.get("DRAUGHTSBOARD_PY_DRAUGHTS")
    if python:   # (.ci/test sets it: py-draughts has a venv of its own)
        (tmp_path / "first.pdn").write_text(text.split("\n\n[", 1)[0])
        assert py_draughts_replay(python, tmp_path / "first.pdn")[0] == 64
    final = Board("international")
    for move in MOVES:
        final.push(final.parse_move(move))
    assert hall["hall-1"].session.board.fen() == final.fen()
    client.close()
