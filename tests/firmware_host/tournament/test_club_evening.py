"""A club evening, as a test: four boards on a 5+3 clock and a spare board, one real
redis-server, the web service (its arbiter console, round pages and broadcast) in process,
games played by simulated hands in virtual time.

Round 1 comes from the pairing program's TRF (club-evening.trf) and meets the incidents of a
real evening: a fire alarm (the hall paused) during which a player moves (refused) and one
board's power is cut and its service started again (it comes back paused, its clock as
stored); an illegal move (refused by its rule, the move not given away); a move the board
misread, corrected while the game goes on (the clock held while the players set it up); a
board that fails, its game carried to the spare board; a draw offer declined by a move and
one accepted; a resignation on the opponent's turn; a flag fall; a move of a finished game
corrected, the result kept. Round 1 goes back to the pairing program as a TRF, which pairs
round 2; round 2 is imported from the console (hall-4 still broken: a forfeit), its games are
played (a claim holds one clock; a draw offer stands through a power cut), and it is imported
again with a corrected name.

Asserted exactly: every console reply, each round's results table and TRF (column by column),
the PDN (each game's tags, moves as the score sheets have them and the arbiter's notes, read
by engine.pdn, pydraughts and py-draughts: round 1's games have 60 plies or more), the
decisions reports, the broadcast and the audit log with every board's answer.
``DRAUGHTSBOARD_SAMPLE=full`` plays the evening with four sets of hands.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import os
import random
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
from aiohttp.test_utils import TestClient, TestServer
from draughts.PDN import PDNReader

from engine import Board, Move
from engine.pdn import read_games
from engine.types import Color
from firmware_host.cli import main
from firmware_host.store.keys import BoardKeys
from firmware_host.web.app import WebSettings, build_app
from firmware_host.web.arbiter import ArbiterKeys
from firmware_host.web.auth import Keys
from tests.conftest import sample_size
from tests.firmware_host.arbiter_hall import Hall
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.store.test_pdnrender_readers import py_draughts_replay
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

TRF = (Path(__file__).parent / "club-evening.trf").read_text(encoding="utf-8")
KEYS = ArbiterKeys("secret-of-the-club-evening-0123456789")
BEARER = {"Authorization": f"Bearer {KEYS.token}"}
BOARDS = ("hall-1", "hall-2", "hall-3", "hall-4")
#: Seconds a player thinks over a move.
THINK = 4.0
#: Round 2 as the pairing program pairs it after round 1 (starting rank: opponent, colour):
#: Jansen - Mol and Bos - Smit (the one-point group, Smit floated), Kok - de Vries, Gras - Hop.
ROUND_2 = {3: (6, "w"), 6: (3, "b"), 4: (1, "w"), 1: (4, "b"), 5: (2, "w"), 2: (5, "b"),
           7: (8, "w"), 8: (7, "b")}
#: The players by starting rank: name, rating, federation, title, FMJD id (as the TRF has them).
PLAYERS = {1: ("Smit, Ann", "2210", "NED", "GMI", "16000001"),
           2: ("de Vries, Bob", "2150", "NED", "", "16000002"),
           3: ("Jansen, Cor", "2100", "NED", "MF", "16000003"),
           4: ("Bos, Dirk", "2050", "BEL", "", "16000004"),
           5: ("Kok, Eva", "2000", "NED", "", "16000005"),
           6: ("Mol, Fred", "1950", "NED", "", "16000006"),
           7: ("Gras, Gus", "1900", "NED", "", "16000007"),
           8: ("Hop, Hanna", "1850", "SUR", "", "16000008")}
HEAD = ("012 Club evening 2026", "022 Utrecht", "032 NED",
        "### round 1 paired by the pairing program, not played")
#: The players' lines of the TRF that goes back after round 1: the draw on hall-1, Mol's win
#: on time, Jansen's by resignation, Bos's on the spare board; the points (81-84) added.
ROUND_1_BACK = (
    "001    1 mGMI Smit, Ann                         2210 NED    16000001 1990/01/02  0.5"
    "    1     5 w =",
    "001    2 m    de Vries, Bob                     2150 NED    16000002 1985/03/04  0.0"
    "    2     6 b 0",
    "001    3 m MF Jansen, Cor                       2100 NED    16000003 1979/05/06  1.0"
    "    3     7 w 1",
    "001    4 m    Bos, Dirk                         2050 BEL    16000004 2001/07/08  1.0"
    "    4     8 b 1",
    "001    5 w    Kok, Eva                          2000 NED    16000005 1995/09/10  0.5"
    "    5     1 b =",
    "001    6 m    Mol, Fred                         1950 NED    16000006 1999/11/12  1.0"
    "    6     2 w 1",
    "001    7 m    Gras, Gus                         1900 NED    16000007 2003/01/30  0.0"
    "    7     3 b 0",
    "001    8 w    Hop, Hanna                        1850 SUR    16000008 2004/02/14  0.0"
    "    8     4 w 0")
#: ... and after round 2: the draw Jansen - Mol, Bos's and de Vries's wins, Gras's forfeit;
#: Kok's name as the pairing program corrected it.
ROUND_2_BACK = (
    "001    1 mGMI Smit, Ann                         2210 NED    16000001 1990/01/02  0.5"
    "    1     5 w =     4 b 0",
    "001    2 m    de Vries, Bob                     2150 NED    16000002 1985/03/04  1.0"
    "    2     6 b 0     5 b 1",
    "001    3 m MF Jansen, Cor                       2100 NED    16000003 1979/05/06  1.5"
    "    3     7 w 1     6 w =",
    "001    4 m    Bos, Dirk                         2050 BEL    16000004 2001/07/08  2.0"
    "    4     8 b 1     1 w 1",
    "001    5 w    Kok, Eva-Maria                    2000 NED    16000005 1995/09/10  0.5"
    "    5     1 b =     2 w 0",
    "001    6 m    Mol, Fred                         1950 NED    16000006 1999/11/12  1.5"
    "    6     2 w 1     3 b =",
    "001    7 m    Gras, Gus                         1900 NED    16000007 2003/01/30  0.0"
    "    7     3 b 0     8 w -",
    "001    8 w    Hop, Hanna                        1850 SUR    16000008 2004/02/14  1.0"
    "    8     4 w 0     7 b +")


class Player:
    """The hands at one board: each move a legal one that does not end the game, chosen by a
    seeded random choice."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def choose(self, board: Board, unlike: Move | None = None) -> Move:
        moves = sorted(board.legal_moves, key=lambda m: m.key())
        self.random.shuffle(moves)
        for move in moves:
            after = board.copy()
            after.push(move)
            if after.outcome() is None and (unlike is None or move.key() != unlike.key()):
                return move
        raise AssertionError(f"every move ends the game in {board.fen()}")


class Evening:
    """The hall, the console and the players' hands, with the players' score sheets."""

    def __init__(self, hall: Hall, http: TestClient[Any, Any], hands: int) -> None:
        self.hall = hall
        self.http = http
        self.players = {board: Player(hands * 100 + seed) for seed, board in enumerate(
            (*BOARDS, "spare-1"), start=7)}
        #: The moves as the players wrote them down, by board.
        self.sheets: dict[str, list[str]] = {board: [] for board in (*BOARDS, "spare-1")}
        #: Boards whose service is down (their time stands still).
        self.dead: set[str] = set()

    def rig(self, board: str) -> Rig:
        return self.hall.rigs[board]

    def think(self, seconds: float) -> None:
        """Time passes in the hall: every board that runs reaches the same moment."""
        target = max(r.now for b, r in self.hall.rigs.items() if b not in self.dead) + seconds
        for board, rig in self.hall.rigs.items():
            if board not in self.dead:
                rig.wait((target - rig.now) * 1000)

    def beat(self, boards: tuple[str, ...], plies: int = 1) -> None:
        """``plies`` moves on each of ``boards``, their players thinking :data:`THINK`
        seconds over each, all at the same time."""
        for _ in range(plies):
            self.think(THINK)
            for board in boards:
                rig = self.rig(board)
                chosen = self.players[board].choose(rig.session.board)
                self.sheets[board].append(rig.session.board.move_notation(chosen))
                rig.carry_out(rig.session.board, chosen)

    def plies(self, board: str) -> int:
        return len(self.rig(board).session.board.move_stack)

    async def post(self, path: str, **form: str) -> tuple[int, dict[str, Any]]:
        """A decision of the arbiter (the running boards' heartbeats fresh)."""
        for board in self.hall.readers:
            self.hall.beat(board, "running")
        reply = await self.http.post(path, headers=BEARER, data=form)
        return reply.status, await reply.json()

    async def get(self, path: str) -> str:
        reply = await self.http.get(path, headers=BEARER)
        assert reply.status == 200
        return await reply.text()

    def clock(self, board: str) -> tuple[float, float]:
        """White's and Black's time left on ``board`` now."""
        clock = self.rig(board).session.timekeeper.clock
        assert clock is not None
        at = self.rig(board).now
        return clock.left(Color.WHITE, at), clock.left(Color.BLACK, at)

    def clocks(self) -> dict[str, tuple[float, float]]:
        return {board: self.clock(board) for board in self.hall.rigs if board not in self.dead}

    def alternative(self, board: str) -> tuple[int, str, str]:
        """The last ply of ``board``'s game, the move recorded there and another legal move
        there (the one the score sheets say was played)."""
        before = self.rig(board).session.board.copy()
        recorded = before.pop()
        right = self.players[board].choose(before, unlike=recorded)
        return (len(before.move_stack) + 1, before.move_notation(recorded),
                before.move_notation(right))

    def choices(self, board: str) -> int:
        """How many moves the player of the last move of ``board`` had."""
        before = self.rig(board).session.board.copy()
        before.pop()
        return len(before.legal_moves)


def run_evening(url: str, hands: int, scenario: Callable[[Evening], Awaitable[None]]) -> None:
    async def main_() -> None:
        client = redis.asyncio.Redis.from_url(url)
        app = build_app(WebSettings(keys=Keys("0" * 32), arbiter=KEYS), client)
        hall = Hall(url)
        try:
            async with TestClient(TestServer(app)) as http:
                await scenario(Evening(hall, http, hands))
        finally:
            hall.close()
            await client.aclose()

    asyncio.run(main_())


@pytest.mark.parametrize("hands", range(sample_size(1, 4)))
def test_a_club_evening(hands: int, redis_server: RedisServer, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    sync = redis.Redis.from_url(redis_server.url)
    sync.flushdb()

    def command(*args: str) -> str:
        assert main(["round", *args, "--store", redis_server.url]) == 0, capsys.readouterr()
        return capsys.readouterr().out

    def export(number: str) -> dict[str, str]:
        files = {kind: tmp_path / f"round-{number}.{kind}" for kind in ("pdn", "csv", "trf")}
        files["decisions"] = tmp_path / f"round-{number}-decisions.csv"
        out = command("export", "--round", number, "--pdn", str(files["pdn"]),
                      "--results", str(files["csv"]), "--trf", str(files["trf"]),
                      "--decisions", str(files["decisions"]))
        assert out.startswith(f"round {number} of Club evening 2026: 4 of 4 games in ")
        return {kind: path.read_bytes().decode() for kind, path in files.items()}

    ids: dict[str, str] = {}   # the games' ids, as the boards name them
    starts: dict[str, float] = {}

    async def evening(e: Evening) -> None:
        for board in (*BOARDS, "spare-1"):  # set up before the pairing list came
            e.hall.board(board, paired=True, time_control="5+3")
        one, two, three, four, spare = (e.rig(b) for b in (*BOARDS, "spare-1"))
        trf = tmp_path / "club-evening.trf"
        trf.write_text(TRF)
        assert command("import", str(trf), "--round", "1", "--board-prefix", "hall-") == (
            "round 1 of Club evening 2026: 4 boards, 4 of them in this list (the next game on "
            "each board added or replaced is named)\n"
            "  (boards numbered as the pairing program prints them (FIDE board order): the "
            "higher-placed player's score, then both players' scores, then the higher-placed "
            "player's starting rank)\n"
            "  hall-1: Smit, Ann - Kok, Eva  (added)\n"
            "  hall-2: Mol, Fred - de Vries, Bob  (added)\n"
            "  hall-3: Jansen, Cor - Gras, Gus  (added)\n"
            "  hall-4: Hop, Hanna - Bos, Dirk  (added)\n")
        replies = [await e.post("/arbiter/start-round", round="1")]
        ((_, sent),) = sync.xrange(BoardKeys("hall-1").commands)
        starts["1"] = float(sent[b"time"])
        e.beat(BOARDS, 8)

        # -- the fire alarm: every clock held; a move made meanwhile is refused and put back;
        # hall-2's power is cut and its service started again: it comes back paused.
        replies.append(await e.post("/arbiter/pause-all", reason="fire alarm"))
        held = e.clocks()
        e.think(10)
        hasty = e.players["hall-1"].choose(one.session.board)
        one.carry_out(one.session.board, hasty)
        refused = one.last("refused")
        assert (refused["reason"], refused["pdn"]) == (
            "paused", one.session.board.move_notation(hasty))
        one.set(one.session.game.position)           # put back
        e.hall.power_off("hall-2")
        e.dead.add("hall-2")
        e.think(90)
        e.dead.discard("hall-2")
        two = e.hall.restart("hall-2", paired=True, time_control="5+3")
        e.think(60)
        assert two.state == "paused" and two.last("clock")["held"] == ["hall"]
        assert e.clocks() == held                     # four minutes: nobody's time ran
        replies.append(await e.post("/arbiter/resume-all", reason="the alarm is over"))

        # -- hall-3: an illegal move, refused by its rule
        while not any(m.is_capture for m in three.session.board.legal_moves):
            e.beat(BOARDS)
        origin, target = quiet_step(three.session.board)
        three.lift(origin)
        three.place(target)
        three.wait(1_000)
        refused = three.last("refused")
        assert (refused["reason"], refused["text"]) == (
            "capture_compulsory", "illegal move: a capture is compulsory")
        assert not {"capture", "pdn"} & refused.keys()
        assert three.lit() == {origin: "missing", target: "extra"}   # no must-capture light
        three.lift(target)
        three.place(origin)

        # -- hall-1: a draw offer declined by a move
        e.beat(BOARDS, (e.plies("hall-1") + 1) % 2)  # White has just moved
        one.press("draw_white")
        assert one.last("draw_offer")["side"] == "white"
        e.beat(BOARDS)
        declined = one.last("draw_declined")
        assert (declined["side"], declined["offered_by"]) == ("black", "white")

        # -- hall-3: the board recorded a move the player did not make; corrected while the
        # game goes on, the clock held while the players set the position up
        e.beat(BOARDS, 3)
        while e.choices("hall-3") < 2:
            e.beat(BOARDS)
        ply, misread, right = e.alternative("hall-3")
        replies.append(await e.post(
            "/arbiter/correct-move", board="hall-3", game_id=three.session.game_id or "",
            ply=str(ply), move=right, reason=f"the score sheets: {right}"))
        e.sheets["hall-3"][-1] = right
        assert three.state == "syncing"
        before = e.clock("hall-3")
        e.think(57)
        three.set(three.session.game.position)
        assert three.state == "paused" and e.clock("hall-3") == before
        replies.append(await e.post("/arbiter/release", board="hall-3",
                                    reason="the corrected position stands"))
        assert three.state == "human_to_move"

        # -- hall-4 fails at ply 30: its game goes on on the spare board
        e.beat(BOARDS, 30 - e.plies("hall-4"))
        e.hall.power_off("hall-4")
        e.dead.add("hall-4")
        saved = json.loads(sync.get(BoardKeys("hall-4").session) or b"{}")["clock"]
        replies.append(await e.post("/arbiter/carry", board="hall-4", to="spare-1",
                                    game_id=four.session.game_id or "",
                                    reason="hall-4 lost its power"))
        e.sheets["spare-1"] = list(e.sheets["hall-4"])
        assert spare.state == "syncing" and e.clock("spare-1") == (saved["white"],
                                                                   saved["black"])
        e.think(40)                                   # set up from the spare's start position
        spare.set(spare.session.game.position)
        assert spare.state == "paused"
        replies.append(await e.post("/arbiter/release", board="spare-1",
                                    reason="the game stands on the spare board"))
        playing = ("hall-1", "hall-2", "hall-3", "spare-1")
        e.beat(playing, 60 - e.plies("hall-1"))

        # -- the endings. hall-1: Black moves and offers a draw, White accepts; hall-3: Black
        # moves, then resigns on White's turn; spare-1: White resigns; hall-2: White moves,
        # Black's flag falls.
        e.beat(playing, 2)
        while e.choices("hall-1") < 2:                # (a move of Black's own choice)
            e.beat(playing, 2)
        one.press("draw_black")
        one.press("draw_white")
        three.press("resign_black")
        spare.press("resign_white")
        e.beat(("hall-2",))
        e.think(e.clock("hall-2")[1] + 1)
        assert [(r.last("result")["result"], r.last("result")["termination"],
                 r.last("result").get("note")) for r in (one, two, three, spare)] == [
            ("1-1", "draw_agreed", "draw offered by Black, accepted by White"),
            ("2-0", "time", None), ("2-0", "resignation", "Black resigned"),
            ("0-2", "resignation", "White resigned")]

        # -- a move of hall-1's finished game corrected; the draw stands
        last, recorded, played = e.alternative("hall-1")
        replies.append(await e.post(
            "/arbiter/correct-move", board="hall-1", game_id=one.session.game_id or "",
            ply=str(last), move=played, result="keep", reason="the score sheets"))
        e.sheets["hall-1"][-1] = played
        assert one.state == "game_over" and (one.game().result, one.game().termination) == (
            "1-1", "draw_agreed")
        ids.update({b: e.rig(b).session.game_id or "" for b in (*BOARDS, "spare-1")})

        assert [(status, reply["message"]) for status, reply in replies] == [
            (200, "Round 1 started on 4 boards: hall-1, hall-2, hall-3, hall-4"),
            (200, "every clock paused: done on hall-1, hall-2, hall-3, hall-4, spare-1"),
            (200, "every clock resumed: done on hall-1, hall-2, hall-3, hall-4, spare-1"),
            (200, f"hall-3: ply {ply} corrected to {right}: done"),
            (200, "hall-3: clock released: done"),
            (200, "hall-4: the game carried to spare-1: done"),
            (200, "spare-1: clock released: done"),
            (200, f"hall-1: ply {last} corrected to {played}, result kept: done")]
        first = export("1")
        check_round_1(first, e.sheets, ids, starts["1"], (ply, misread, right),
                      (last, recorded, played), tmp_path)

        # == round 2, paired by the pairing program in the TRF that went back to it
        paired = pair_round_2(first["trf"])
        for rig in (one, two, three):                # the players set up the start
            rig.set(rig.session.game.initial)
        e.think(3)
        e.sheets.update({b: [] for b in BOARDS})
        data = base64.b64encode(paired.encode()).decode()
        status, preview = await e.post("/arbiter/import", data=data, round="2",
                                       prefix="hall-")
        assert (status, preview["rows"]) == (200, [
            "hall-1: Jansen, Cor - Mol, Fred  (added)", "hall-2: Bos, Dirk - Smit, Ann  (added)",
            "hall-3: Kok, Eva - de Vries, Bob  (added)",
            "hall-4: Gras, Gus - Hop, Hanna  (added)"])
        replies = [await e.post("/arbiter/import", data=data, round="2", prefix="hall-",
                                confirm="1", digest=preview["digest"]),
                   await e.post("/arbiter/start-round", round="2")]
        ((_, sent), *_) = sync.xrevrange(BoardKeys("hall-1").commands, count=1)
        starts["2"] = float(sent[b"time"])
        replies.append(await e.post("/arbiter/decide", board="hall-4",
                                    decision="forfeit:white", reason="Gras did not come"))
        second = ("hall-1", "hall-2", "hall-3")
        e.beat(("hall-1", "hall-3"), 2)
        # The broadcast while hall-2 waits for its first move: pydraughts reads every game,
        # hall-2's (no move yet) last.
        broadcast = PDNReader(pdn_text=await e.get("/broadcast/round/2.pdn")).games
        assert [(g.tags["Board"], g.moves) for g in broadcast] == [
            ("hall-1", e.sheets["hall-1"]), ("hall-3", e.sheets["hall-3"]), ("hall-2", [])]
        e.beat(second)
        replies.append(await e.post("/arbiter/hold", board="hall-2",
                                    reason="Smit claims a disturbance"))
        claimed = e.clock("hall-2")
        e.think(20)
        assert e.clock("hall-2") == claimed
        replies.append(await e.post("/arbiter/release", board="hall-2",
                                    reason="the claim is settled"))
        e.beat(second, 6)                            # White has just moved everywhere
        one.press("draw_white")
        e.hall.power_off("hall-1")                   # the offer stands through a power cut
        one = e.hall.restart("hall-1", paired=True, time_control="5+3")
        assert one.last("draw_offer")["side"] == "white"
        one.press("draw_black")
        two.press("resign_black")
        e.beat(("hall-3",), 3)
        three.press("resign_white")
        assert [(status, reply["message"]) for status, reply in replies] == [
            (200, "Imported into round 2 of Club evening 2026: 4 boards"),
            (200, "Round 2 started on 3 boards: hall-1, hall-2, hall-3; not started: hall-4 "
                  "(offline)"),
            (200, "hall-4: forfeit, White did not come: kept with the round (no game of the "
                  "round on the board to end)"),
            (200, "hall-2: clock held: done"), (200, "hall-2: clock released: done")]
        corrected = tmp_path / "club-evening-corrected.trf"
        corrected.write_text(paired.replace("Kok, Eva      ", "Kok, Eva-Maria"))
        assert command("import", str(corrected), "--round", "2",
                       "--board-prefix", "hall-").splitlines()[2:] == [
            "  hall-1: Jansen, Cor - Mol, Fred  (has its game: not armed again)",
            "  hall-2: Bos, Dirk - Smit, Ann  (has its game: not armed again)",
            "  hall-3: Kok, Eva-Maria - de Vries, Bob  (has its game: names corrected in its "
            "record; was Kok, Eva - de Vries, Bob)",
            "  hall-4: Gras, Gus - Hop, Hanna  (decided by the arbiter: not armed again)"]
        ids.update({b: e.rig(b).session.game_id or "" for b in second})
        check_round_2(export("2"), e.sheets, ids, starts["2"])
        check_audit(json.loads(await e.get("/arbiter/state.json"))["audit"],
                    (ply, right), (last, played))

    run_evening(redis_server.url, hands, evening)
    sync.close()


def check_round_1(files: dict[str, str], sheets: dict[str, list[str]], ids: dict[str, str],
                  start: float, misread: tuple[int, str, str], finished: tuple[int, str, str],
                  tmp_path: Path) -> None:
    """Round 1's export: the results, the TRF back to the pairing program, the decisions, and
    the PDN as the project, pydraughts and py-draughts read it."""
    assert list(csv.reader(io.StringIO(files["csv"])))[1:] == [
        ["hall-1", "Smit, Ann", "Kok, Eva", "1", "Club evening 2026", "1-1", "½-½", "½", "½",
         "draw_agreed", str(len(sheets["hall-1"])), ids["hall-1"]],
        ["hall-2", "Mol, Fred", "de Vries, Bob", "1", "Club evening 2026", "2-0", "1-0", "1",
         "0", "time", str(len(sheets["hall-2"])), ids["hall-2"]],
        ["hall-3", "Jansen, Cor", "Gras, Gus", "1", "Club evening 2026", "2-0", "1-0", "1",
         "0", "resignation", str(len(sheets["hall-3"])), ids["hall-3"]],
        ["spare-1", "Hop, Hanna", "Bos, Dirk", "1", "Club evening 2026", "0-2", "0-1", "0",
         "1", "resignation", str(len(sheets["spare-1"])), ids["spare-1"]]]
    assert files["trf"] == "\r\n".join((*HEAD, *ROUND_1_BACK)) + "\r\n"
    ply, wrong, right = misread
    last, recorded, played = finished
    assert [row[1:] for row in csv.reader(io.StringIO(files["decisions"]))] == [
        ["who", "action", "board", "what", "reason"],
        ["round import by root", "import", "*", "round 1 Club evening 2026 imported", ""],
        ["arbiter token from 127.0.0.1", "start_round", "*",
         "round 1 started on hall-1, hall-2, hall-3, hall-4: done on hall-1, hall-2, hall-3, "
         "hall-4", ""],
        ["arbiter token from 127.0.0.1", "pause_all", "*",
         "every clock paused: done on hall-1, hall-2, hall-3, hall-4, spare-1", "fire alarm"],
        ["arbiter token from 127.0.0.1", "resume_all", "*",
         "every clock resumed: done on hall-1, hall-2, hall-3, hall-4, spare-1",
         "the alarm is over"],
        ["arbiter token from 127.0.0.1", "correct_move", "hall-3",
         f"hall-3: ply {ply} corrected to {right}: done", f"the score sheets: {right}"],
        ["arbiter token from 127.0.0.1", "release", "hall-3", "hall-3: clock released: done",
         "the corrected position stands"],
        ["arbiter token from 127.0.0.1", "carry", "hall-4",
         "hall-4: the game carried to spare-1: done", "hall-4 lost its power"],
        ["arbiter token from 127.0.0.1", "release", "spare-1", "spare-1: clock released: done",
         "the game stands on the spare board"],
        ["arbiter token from 127.0.0.1", "correct_move", "hall-1",
         f"hall-1: ply {last} corrected to {played}, result kept: done", "the score sheets"]]

    results = {"hall-1": ("1-1", "draw_agreed"), "hall-2": ("2-0", "time forfeit"),
               "hall-3": ("2-0", "resignation"), "spare-1": ("0-2", "resignation")}
    pairs = {"hall-1": (1, 5), "hall-2": (6, 2), "hall-3": (3, 7), "spare-1": (8, 4)}
    games = check_pdn(files["pdn"], "1", start, pairs, results, ids, sheets)
    assert all(len(g.moves) >= 60 for g in games)
    # The arbiter's notes and the players' declarations, each after its move; a %clk after
    # every move.
    assert [notes(g) for g in games] == [
        [(last - 1, "draw offered by Black, accepted by White"),
         (last - 1, f"arbiter: {recorded} corrected to {played} (ply {last}; the score "
                    'sheets), result "1-1" kept')],   # (quoted: pydraughts reads on)
        [],
        [(ply - 1, f"arbiter: {wrong} corrected to {right} (ply {ply}; the score sheets: "
                   f"{right})"), (len(sheets["hall-3"]), "Black resigned")],
        [(30, f"arbiter: carried on from hall-4 (game {ids['hall-4']}, ply 30; hall-4 lost "
              "its power)"), (len(sheets["spare-1"]), "White resigned")]]
    assert all(any(c.startswith("[%clk ") for c in g.comments[i])
               for g in games for i in range(1, len(g.moves) + 1))
    # pydraughts: every game, its moves, result and players.
    theirs = PDNReader(pdn_text=files["pdn"]).games
    assert [(g.moves, g.game_ending, g.tags["White"], g.get_ratings()) for g in theirs] == [
        (sheets[b], results[b][0], PLAYERS[white][0], [PLAYERS[white][1], PLAYERS[black][1]])
        for b, (white, black) in pairs.items()]
    # py-draughts (a venv of its own: .ci/test): each game replayed to its last position.
    python = os.environ.get("DRAUGHTSBOARD_PY_DRAUGHTS")
    if not python:
        pytest.skip("set DRAUGHTSBOARD_PY_DRAUGHTS to the python of a py-draughts venv")
    for number, (text, game) in enumerate(zip(split_games(files["pdn"]), games, strict=True)):
        path = tmp_path / f"game-{number}.pdn"
        path.write_text(text)
        count, fen = py_draughts_replay(python, path)
        final = Board("international")
        for move in game.moves:
            final.push(move)
        found = re.search(r'"([^"]+)"', fen)
        assert count == len(game.moves) and found is not None
        assert Board("international", fen=found.group(1)).fen() == final.fen()


def check_round_2(files: dict[str, str], sheets: dict[str, list[str]], ids: dict[str, str],
                  start: float) -> None:
    """Round 2's export: a forfeit, the corrected name, the TRF after two rounds."""
    assert list(csv.reader(io.StringIO(files["csv"])))[1:] == [
        ["hall-1", "Jansen, Cor", "Mol, Fred", "2", "Club evening 2026", "1-1", "½-½", "½",
         "½", "draw_agreed", str(len(sheets["hall-1"])), ids["hall-1"]],
        ["hall-2", "Bos, Dirk", "Smit, Ann", "2", "Club evening 2026", "2-0", "1-0", "1",
         "0", "resignation", str(len(sheets["hall-2"])), ids["hall-2"]],
        ["hall-3", "Kok, Eva-Maria", "de Vries, Bob", "2", "Club evening 2026", "0-2", "0-1",
         "0", "1", "resignation", str(len(sheets["hall-3"])), ids["hall-3"]],
        ["hall-4", "Gras, Gus", "Hop, Hanna", "2", "Club evening 2026", "", "-/+", "-", "+",
         "forfeit", "0", ""]]
    assert files["trf"] == "\r\n".join((*HEAD, *ROUND_2_BACK)) + "\r\n"
    assert [row[1:] for row in csv.reader(io.StringIO(files["decisions"]))][1:] == [
        ["arbiter token from 127.0.0.1", "import", "*", "round 2 Club evening 2026 imported",
         ""],
        ["arbiter token from 127.0.0.1", "start_round", "*",
         "round 2 started on hall-1, hall-2, hall-3; not on hall-4 (offline): done on hall-1, "
         "hall-2, hall-3", ""],
        ["arbiter token from 127.0.0.1", "forfeit", "hall-4",
         "hall-4: forfeit, White did not come: kept with the round (no game of the round on "
         "the board to end)", "Gras did not come"],
        ["arbiter token from 127.0.0.1", "hold", "hall-2", "hall-2: clock held: done",
         "Smit claims a disturbance"],
        ["arbiter token from 127.0.0.1", "release", "hall-2", "hall-2: clock released: done",
         "the claim is settled"],
        ["round import by root", "rename", "hall-3", "hall-3: names corrected to Kok, "
         "Eva-Maria", "names corrected by a re-imported list"],
        ["round import by root", "import", "*", "round 2 Club evening 2026 imported", ""]]
    results = {"hall-1": ("1-1", "draw_agreed"), "hall-2": ("2-0", "resignation"),
               "hall-3": ("0-2", "resignation")}
    games = check_pdn(files["pdn"], "2", start, {"hall-1": (3, 6), "hall-2": (4, 1),
                                                  "hall-3": (5, 2)}, results, ids, sheets,
                      renamed={5: "Kok, Eva-Maria"})
    assert [notes(g) for g in games] == [
        [(len(sheets["hall-1"]), "draw offered by White, accepted by Black")],
        [(len(sheets["hall-2"]), "Black resigned")],
        [(len(sheets["hall-3"]), "White resigned")]]
    assert [(g.moves, g.game_ending) for g in PDNReader(pdn_text=files["pdn"]).games] == [
        (sheets[b], results[b][0]) for b in ("hall-1", "hall-2", "hall-3")]


def check_audit(entries: list[dict[str, Any]], misread: tuple[int, str],
                finished: tuple[int, str]) -> None:
    """The console's list of the decisions (the newest 20: the whole evening), oldest first,
    each with what the boards answered."""
    ply, right = misread
    last, played = finished
    done = {"answer": "done"}
    every = dict.fromkeys(("hall-1", "hall-2", "hall-3", "hall-4", "spare-1"), done)
    assert [(e["action"], e["board"], e["answers"], e["reason"], e["text"])
            for e in reversed(entries)] == [
        ("import", "*", {}, "", "round 1 Club evening 2026 imported"),
        ("start_round", "*", dict.fromkeys(BOARDS, done), "",
         "round 1 started on hall-1, hall-2, hall-3, hall-4: done on hall-1, hall-2, hall-3, "
         "hall-4"),
        ("pause_all", "*", every, "fire alarm",
         "every clock paused: done on hall-1, hall-2, hall-3, hall-4, spare-1"),
        ("resume_all", "*", every, "the alarm is over",
         "every clock resumed: done on hall-1, hall-2, hall-3, hall-4, spare-1"),
        ("correct_move", "hall-3", {"hall-3": done}, f"the score sheets: {right}",
         f"hall-3: ply {ply} corrected to {right}: done"),
        ("release", "hall-3", {"hall-3": done}, "the corrected position stands",
         "hall-3: clock released: done"),
        ("carry", "hall-4", {"spare-1": done}, "hall-4 lost its power",
         "hall-4: the game carried to spare-1: done"),
        ("release", "spare-1", {"spare-1": done}, "the game stands on the spare board",
         "spare-1: clock released: done"),
        ("correct_move", "hall-1", {"hall-1": done}, "the score sheets",
         f"hall-1: ply {last} corrected to {played}, result kept: done"),
        ("import", "*", {}, "", "round 2 Club evening 2026 imported"),
        ("start_round", "*", dict.fromkeys(("hall-1", "hall-2", "hall-3"), done), "",
         "round 2 started on hall-1, hall-2, hall-3; not on hall-4 (offline): done on hall-1, "
         "hall-2, hall-3"),
        ("forfeit", "hall-4", {"hall-4": {"answer": "not_needed"}}, "Gras did not come",
         "hall-4: forfeit, White did not come: kept with the round (no game of the round on "
         "the board to end)"),
        ("hold", "hall-2", {"hall-2": done}, "Smit claims a disturbance",
         "hall-2: clock held: done"),
        ("release", "hall-2", {"hall-2": done}, "the claim is settled",
         "hall-2: clock released: done"),
        ("rename", "hall-3", {}, "names corrected by a re-imported list",
         "hall-3: names corrected to Kok, Eva-Maria"),
        ("import", "*", {}, "", "round 2 Club evening 2026 imported")]


def check_pdn(text: str, number: str, start: float, pairs: dict[str, tuple[int, int]],
              results: dict[str, tuple[str, str]], ids: dict[str, str],
              sheets: dict[str, list[str]], renamed: dict[int, str] | None = None
              ) -> list[Any]:
    """The round's PDN as the project reads it: each board's game (``pairs``: the players'
    starting ranks) with its tags and the moves of the score sheets; the games."""
    date = time.strftime("%Y.%m.%d", time.localtime(start))
    clock = time.strftime("%H:%M:%S", time.localtime(start))
    games = read_games(text)
    assert [g.headers for g in games] == [
        tags(number, board, date, clock, pairs[board], results[board], ids[board],
             renamed or {}) for board in pairs]
    assert [g.move_texts for g in games] == [sheets[board] for board in pairs]
    return games


def tags(number: str, board: str, date: str, clock: str, pair: tuple[int, int],
         result: tuple[str, str], game_id: str, renamed: dict[int, str]) -> dict[str, str]:
    """A rated game's PDN tags, as the round's export writes them."""
    white, white_rating, white_federation, white_title, white_id = PLAYERS[pair[0]]
    black, black_rating, black_federation, black_title, black_id = PLAYERS[pair[1]]
    white, black = renamed.get(pair[0], white), renamed.get(pair[1], black)
    found = {"Event": "Club evening 2026", "Site": "Utrecht NED", "Date": date,
             "Round": number, "White": white, "Black": black, "Result": result[0],
             "GameType": "20,W,10,10,N2,0", "Time": clock, "TimeControl": "300+3",
             "WhiteRating": white_rating, "WhiteFederation": white_federation,
             "WhiteTitle": white_title, "WhiteFmjdId": white_id, "BlackRating": black_rating,
             "BlackFederation": black_federation, "BlackTitle": black_title,
             "BlackFmjdId": black_id, "Board": board, "Mode": "record", "GameId": game_id,
             "Termination": result[1]}
    return {tag: value for tag, value in found.items() if value}


def notes(game: Any) -> list[tuple[int, str]]:
    """The comments of a game that are not clock times, each with the ply it follows."""
    return [(ply, comment) for ply, comments in sorted(game.comments.items())
            for comment in comments if not comment.startswith("[%clk ")]


def split_games(text: str) -> list[str]:
    """The games of a PDN text, each a text of its own."""
    return ["[" + part if not part.startswith("[") else part
            for part in text.strip().split("\n\n[")]


def pair_round_2(trf: str) -> str:
    """The TRF with round 2's pairings written in, as the pairing program does: each player's
    round-2 block (columns 102-107) after round 1's."""
    lines = []
    for line in trf.splitlines():
        if line.startswith("001 "):
            opponent, colour = ROUND_2[int(line[4:8])]
            line = f"{line:<101}{opponent:4d} {colour}"
        lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def quiet_step(board: Board) -> tuple[str, str]:
    """A man of the side to move and an empty square it could step to, were no capture
    compulsory (the names of both)."""
    variant = board.variant
    where = {variant.square_coords(sq): sq for sq in range(variant.num_squares)}
    ahead = 1 if board.turn == Color.WHITE else -1
    for square, piece in sorted(board.pieces().items()):
        if piece.color != board.turn or piece.king:
            continue
        row, col = variant.square_coords(square)
        for step in (-1, 1):
            found = where.get((row + ahead, col + step))
            if found is not None and board.piece_at(found) is None:
                return variant.square_name(square), variant.square_name(found)
    raise AssertionError(f"no quiet step in {board.fen()}")
