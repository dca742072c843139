"""The arbiter starts a round from the console (``POST /arbiter/start-round``): every board of
the imported round that can start it does, in one transaction, with one audit entry; the reply
names the boards that could not and why; a bad form is one 400 and decides nothing."""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_host.remote.reader import commands_key
from firmware_host.tournament.arbiter import AUDIT
from firmware_host.tournament.pairing import read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.arbiter_hall import Hall
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.tournament.test_arbiter import KEYS, run

BEARER = {"Authorization": f"Bearer {KEYS.token}"}
ROUND_3 = ("board,white,black,round,event\n"
           "hall-1,Ann Smit,Bob de Vries,3,Club night\n"
           "hall-2,Cor Jansen,Dirk Bos,3,Club night\n"
           "hall-3,Eva Kok,Fred Mol,3,Club night\n"
           "hall-4,Gus Bakker,Hans Visser,3,Club night\n"
           "hall-5,Ida Smit,Jan Mol,3,Club night\n"
           "hall-6,Kees Wit,Lot Zwart,3,Club night\n")


def boards_of_the_evening(hall: Hall) -> dict[str, Rig]:
    """hall-1 and hall-2 ready at the start position on a 3+2 clock (hall-2 held while the
    players sit down), hall-3 with a game going on, hall-4 offline, hall-5 never seen, hall-6
    still showing its last game; each reading the round's pairing from the shared Redis."""
    rigs = {name: hall.board(name, online=name != "hall-4", paired=True)
            for name in ("hall-1", "hall-2", "hall-3", "hall-4", "hall-6")}
    for name in ("hall-3", "hall-6"):
        rigs[name].play("32-28")
    rigs["hall-6"].command("resign", side="white")
    rigs["hall-2"].command("pause")
    import_round(hall.sync, read_pairings(ROUND_3)[0], "test")
    return rigs


@pytest.mark.parametrize(("form", "words"), [
    ({}, "round '': a round number"),
    ({"round": "three"}, "round 'three': a round number (3, or 3.1)"),
    ({"round": "3<script>"}, "round '3<script>': a round number"),
    ({"round": "3" * 400}, "a round number"),
    ({"round": "9"}, "no round 9 imported: import its pairing list first"),
    ({"round": "3", "reason": "x" * 300}, "the reason: at most"),
    ({"round": "3", "reason": "bell\x07"}, "the reason: at most"),
])
def test_a_bad_form_is_one_400_and_decides_nothing(form: dict[str, str], words: str) -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        boards_of_the_evening(hall)
        reply = await http.post("/arbiter/start-round", headers=BEARER, data=form)
        assert reply.status == 400
        assert words in (await reply.json())["error"]
        assert sync.llen(AUDIT) == 1  # the import's own entry: nothing decided
        assert sync.exists(commands_key("hall-1")) == 0

    run(scenario)


def test_the_round_starts_at_once_on_every_board_that_can_and_names_the_others() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        sync = hall.sync
        rigs = boards_of_the_evening(hall)
        state = await (await http.get("/arbiter/state.json", headers=BEARER)).json()
        assert state["rounds"] == ["3"]
        assert {b["board"]: b["waiting"] for b in state["boards"]}["hall-1"] == "3"
        for rig in rigs.values():
            rig.wait(40_000)   # the players sit down; hall-1's White clock runs meanwhile

        reply = await http.post("/arbiter/start-round", headers=BEARER,
                                data={"round": " 3 ", "reason": "the bell"})
        assert reply.status == 200
        answer = await reply.json()
        assert answer["message"] == (
            "Round 3 started on 2 boards: hall-1, hall-2; not started: "
            "hall-3 (a game is going on); hall-4 (offline); "
            "hall-5 (no game recorded: is its board.id right?); "
            "hall-6 (its last game is over: set up the start position)")
        assert answer["boards"] == ["hall-1", "hall-2"]

        # One audit entry (after the import's), then one command a board, all with the same
        # time.
        entry, imported = (await (await http.get("/arbiter/audit.json", headers=BEARER)).json()
                           )["audit"]
        assert (imported["action"], imported["detail"]["round"]) == ("import", "3")
        assert (entry["action"], entry["board"], entry["reason"]) == ("start_round", "*",
                                                                      "the bell")
        assert entry["detail"]["round"] == "3" and entry["detail"]["boards"] == [
            "hall-1", "hall-2"]
        assert entry["detail"]["not_started"]["hall-4"] == "(offline)"
        assert entry["answers"] == {"hall-1": {"answer": "done"}, "hall-2": {"answer": "done"}}
        sent = [sync.xrange(commands_key(name)) for name in ("hall-1", "hall-2")]
        assert [[(f[b"name"], f[b"value"]) for _, f in entries] for entries in sent] == [
            [(b"start_round", b"3")], [(b"start_round", b"3")]]
        assert sent[0][0][1][b"time"] == sent[1][0][1][b"time"]
        for name in ("hall-3", "hall-4", "hall-6"):
            assert sync.exists(commands_key(name)) == 0

        for name in ("hall-1", "hall-2"):
            rig = rigs[name]
            clock = rig.last("clock")
            assert (clock["running"], clock["paused"], clock["clock_white"]) == (
                "white", False, 180)
        assert rigs["hall-2"].game().headers["White"] == "Cor Jansen"
        state = await (await http.get("/arbiter/state.json", headers=BEARER)).json()
        shown = {b["board"]: b for b in state["boards"]}
        assert (shown["hall-1"]["white"], shown["hall-1"]["round"]) == ("Ann Smit", "3")
        assert shown["hall-1"]["waiting"] is None and shown["hall-3"]["waiting"] == "3"
        assert "round 3 started on hall-1, hall-2; not on hall-3 (a game is going on)" in \
            state["audit"][0]["text"]

        # Pressed again: the started boards say so; nothing else can start: nothing decided.
        again = await http.post("/arbiter/start-round", headers=BEARER, data={"round": "3"})
        assert again.status == 400
        error = (await again.json())["error"]
        assert error.startswith("round 3 can start on no board: hall-1 (started already); "
                                "hall-2 (started already); hall-3 (a game is going on)")
        assert sync.llen(AUDIT) == 3  # the import, the start and its answers: nothing more

    run(scenario)


def test_a_board_set_up_after_the_start_is_started_by_pressing_again() -> None:
    async def scenario(http: TestClient[Any, Any], hall: Hall) -> None:
        rigs = boards_of_the_evening(hall)
        await http.post("/arbiter/start-round", headers=BEARER, data={"round": "3"})
        late = rigs["hall-6"]                 # its players set up the start position
        late.set(late.session.game.initial)
        late.wait(late.config.newgame_ms + 10)
        assert late.game().headers["White"] == "Kees Wit"  # named from its start already
        reply = await http.post("/arbiter/start-round", headers=BEARER, data={"round": "3"})
        answer = await reply.json()
        assert answer["boards"] == ["hall-6"]
        assert answer["not_started"]["hall-1"] == "(started already)"
        assert late.last("clock")["clock_white"] == 180
        assert late.published("command_refused") == []

    run(scenario)
