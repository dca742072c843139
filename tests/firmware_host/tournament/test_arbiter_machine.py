"""The arbiter's decisions against boards in every situation, as a Hypothesis state machine.

Two boards play (or not) into one Redis, each answering the console through its own command
reader; the machine moves them between the situations of an evening (a game in play, a game
finished, a board offline, a clock paused or held, a corrected position waiting to be set up)
and takes the console's decisions on them through its routes. After every decision it checks
that no game's result changed unless the decision was one that gives a result and its board
carried it out, that a refused or unreached decision changed nothing, and that the audit log's
answer for each board is what that board answered (its ``answer`` event), or ``not_reached``
for a board that was offline (and then got nothing).
"""

from __future__ import annotations

import asyncio
from typing import Any

import fakeredis
import fakeredis.aioredis
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from firmware_host.web.arbiter import ArbiterSite
from tests.conftest import sample_size
from tests.firmware_host.arbiter_hall import Hall
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.tournament.test_arbiter import BEARER, KEYS

BOARDS = ("hall-1", "hall-2")
#: The arbiter's results as international draughts writes them.
RESULTS = {"white": "2-0", "black": "0-2", "draw": "1-1"}
#: Results a move brings by itself (a corrected move that ends the game).
BY_THE_BOARD = frozenset({"no_moves", "repetition", "draw_rule"})
Record = tuple[str, str, tuple[str, ...]]


class Evening(RuleBasedStateMachine):
    """Console decisions against the boards' situations."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.server = fakeredis.FakeServer()
        self.hall: Hall | None = None
        self.http: TestClient[Any, Any] | None = None
        self.online = dict.fromkeys(BOARDS, True)
        self.decisions = 0

    def _run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    @initialize()
    def open_the_hall(self) -> None:
        async def opened() -> None:
            client = fakeredis.aioredis.FakeRedis(server=self.server)
            app = web.Application()
            app.add_routes(ArbiterSite(client, KEYS, wait_s=2.0).routes())
            self.http = TestClient(TestServer(app))
            await self.http.start_server()
            self.hall = Hall(self.server)
            for board in BOARDS:
                self.hall.board(board, time_control="90+30")
        self._run(opened())

    def teardown(self) -> None:
        if self.hall is not None:
            self.hall.close()
        if self.http is not None:
            self._run(self.http.close())
        self.loop.close()

    # -- what the boards are ------------------------------------------------------------------

    def rig(self, board: str) -> Rig:
        assert self.hall is not None
        return self.hall.rigs[board]

    def record(self, board: str) -> tuple[str, str, tuple[str, ...]]:
        game = self.rig(board).game()
        return game.result, game.termination, tuple(m.pdn for m in game.moves)

    # -- the players and the hall ---------------------------------------------------------------

    @rule(board=st.sampled_from(BOARDS), choice=st.integers(0, 1000))
    def a_move(self, board: str, choice: int) -> None:
        rig = self.rig(board)
        if not self.online[board] or rig.state != "human_to_move":
            return
        moves = sorted(rig.session.board.legal_moves, key=lambda m: m.key())
        move = moves[choice % len(moves)]
        rig.carry_out(rig.session.board, move)

    @rule(board=st.sampled_from(BOARDS), side=st.sampled_from(("white", "black")))
    def a_resignation(self, board: str, side: str) -> None:
        if self.online[board]:
            self.rig(board).press(f"resign_{side}")

    @rule(board=st.sampled_from(BOARDS))
    def the_position_set_up(self, board: str) -> None:
        rig = self.rig(board)
        if self.online[board] and rig.state == "syncing":
            rig.set(rig.session.game.position)

    @rule(board=st.sampled_from(BOARDS))
    def a_power_cut(self, board: str) -> None:
        assert self.hall is not None
        if self.online[board]:
            self.hall.power_off(board)
            self.online[board] = False
        else:
            self.hall.restart(board, time_control="90+30")
            self.online[board] = True

    # -- the arbiter ----------------------------------------------------------------------------

    def decide(self, path: str, form: dict[str, str], boards: tuple[str, ...],
               action: str, result: str | None = None) -> None:
        """Send a decision; check what changed against what the boards answered: nothing
        unless the board carried it out, and a game's result only as ``result`` says (the
        arbiter's result; ``keep``: unchanged; ``withdraw``: none, unless the corrected move
        ends the game; None: unchanged)."""
        assert self.http is not None
        before = {b: self.record(b) for b in BOARDS}
        answered_before = {b: len(self.rig(b).published("answer")) for b in BOARDS}
        reply = self._run(self.http.post(path, headers=BEARER, data=form))
        data = self._run(reply.json())
        if reply.status == 400:                  # the console refused the form: nothing sent
            assert "error" in data and "answers" not in data
            assert {b: self.record(b) for b in BOARDS} == before
            return
        self.decisions += 1
        answers: dict[str, dict[str, Any]] = data["answers"]
        assert set(answers) == set(boards), (answers, boards)
        for board, answer in answers.items():
            published = self.rig(board).published("answer")[answered_before[board]:]
            mine = [a for a in published if a["id"] == data["id"]]
            if answer["answer"] == "not_reached":
                assert not self.online[board] and mine == []
            else:
                assert [a["answer"] for a in mine] == [answer["answer"]], (answer, mine)
                if answer["answer"] == "refused":
                    assert mine[0]["reason"] == answer["reason"]
            after = self.record(board)
            if answer["answer"] != "done":
                assert after == before[board], (action, answer)
            else:
                assert _as_decided(before[board], after, result), (action, result, after)
        # The audit log keeps the same answers beside the decision.
        log = self._run(self.http.get("/arbiter/audit.json", headers=BEARER))
        entry = self._run(log.json())["audit"][0]
        assert entry["id"] == data["id"] and entry["answers"] == answers

    @rule(board=st.sampled_from(BOARDS), side=st.sampled_from(("white", "black")),
          seconds=st.sampled_from(("30", "-20", "600")))
    def add_time(self, board: str, side: str, seconds: str) -> None:
        self.decide("/arbiter/add-time", {"board": board, "side": side, "seconds": seconds,
                                          "reason": "disturbed"}, (board,), "add_time")

    @rule(board=st.sampled_from(BOARDS), hold=st.booleans())
    def hold_or_release(self, board: str, hold: bool) -> None:
        self.decide("/arbiter/hold" if hold else "/arbiter/release",
                    {"board": board, "reason": "a claim"}, (board,),
                    "hold" if hold else "release")

    @rule(pause=st.booleans())
    def pause_or_resume_all(self, pause: bool) -> None:
        self.decide("/arbiter/pause-all" if pause else "/arbiter/resume-all",
                    {"reason": "fire alarm"}, BOARDS, "pause_all" if pause else "resume_all")

    @rule(board=st.sampled_from(BOARDS), result=st.sampled_from(("white", "black", "draw")))
    def adjudicate_or_correct_the_result(self, board: str, result: str) -> None:
        game_id = self.rig(board).session.game_id or ""
        finished = self.rig(board).game().result != "*"
        path, action = (("/arbiter/correct", "correct_result") if finished
                        else ("/arbiter/adjudicate", "adjudicate"))
        self.decide(path, {"board": board, "result": result, "game_id": game_id,
                           "reason": "the arbiter's"}, (board,), action, result)

    @precondition(lambda self: any(self.rig(b).session.board.move_stack for b in BOARDS))
    @rule(board=st.sampled_from(BOARDS), ply=st.integers(1, 200), choice=st.integers(0, 1000),
          legal=st.booleans(),
          result=st.sampled_from(("keep", "withdraw", "white", "black", "draw")))
    def correct_a_move(self, board: str, ply: int, choice: int, legal: bool,
                       result: str) -> None:
        rig = self.rig(board)
        plies = len(rig.session.board.move_stack)
        if not plies:
            return
        finished = rig.game().result != "*"
        ply = 1 + (ply - 1) % plies
        before = rig.session.board.copy()
        while len(before.move_stack) >= ply:
            before.pop()
        moves = sorted(before.legal_moves, key=lambda m: m.key())
        text = (before.move_notation(moves[choice % len(moves)]) if legal
                else "46-1")  # not a move there
        self.decide("/arbiter/correct-move", {
            "board": board, "game_id": rig.session.game_id or "", "ply": str(ply),
            "move": text, "result": result, "reason": "the score sheets"}, (board,),
            "correct_move", result if finished else "withdraw")

    @invariant()
    def a_finished_games_clock_never_runs(self) -> None:
        if self.hall is None:
            return
        for board in BOARDS:
            rig = self.rig(board)
            if rig.session.outcome is not None:
                clock = rig.session.timekeeper.clock
                assert clock is None or clock.running is None


def _as_decided(before: Record, after: Record, result: str | None) -> bool:
    """Whether ``after`` is what a decision carried out makes of ``before`` (``result``:
    :meth:`Evening.decide`)."""
    if result is None or result == "keep":
        return after[:2] == before[:2]
    if result == "withdraw":
        return after[0] == "*" or after[1] in BY_THE_BOARD
    return after[0] == RESULTS[result]


Evening.TestCase.settings = settings(
    max_examples=sample_size(6, 60), stateful_step_count=sample_size(14, 40), deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_console_decisions_against_every_board_situation = Evening.TestCase
