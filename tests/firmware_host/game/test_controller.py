"""The controller loop and the engine workers (virtual time; the thread test waits on events)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from board_io.clock import VirtualClock
from board_io.scanner import Scanner
from board_io.sim import ScriptPlayer, SimulatedBoard, parse_script
from engine import Board
from engine.search import Limit, SearchResult
from engine.types import Color
from firmware_host.game.controller import Controller, run_script
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig
from firmware_host.opponents.worker import SyncEngineWorker, ThreadEngineWorker
from firmware_host.recognition.layout import layout_for
from firmware_host.store import open_store
from firmware_host.terms.jobs import EngineJob, EngineResult, Purpose
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig, ScriptedOpponent, find_move


class BlockingOpponent:
    """Thinks until released (or stopped); records the threads it ran in."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.release = threading.Event()
        self.started = threading.Event()
        self.threads: list[threading.Thread] = []
        self.stopped_early = threading.Event()

    def best_move(self, board: Board, limit: Limit, stop: Any = None) -> Any:
        self.threads.append(threading.current_thread())
        self.started.set()
        while not self.release.wait(0.005):
            if stop is not None and stop.stopped:
                self.stopped_early.set()
                return SearchResult(None, 0, 0, 0, 0.0)
        return SearchResult(find_move(board, self.reply), 0, 1, 1, 0.0)


def rig_parts(variant: str, mode: Mode, worker: Any, clock: VirtualClock,
              **settings: Any) -> tuple[SimulatedBoard, Controller[Session], Session]:
    layout = layout_for(variant)
    board = SimulatedBoard(layout, occupied=Board(variant).occupied_squares(), clock=clock)
    scanner = Scanner(board.sensor_matrix, board.cell_map, buttons=board.buttons)
    config = SessionConfig(mode=mode, **settings)
    session = Session(variant, open_store("memory", Rig.board_id()), config, thinker=worker)
    controller = Controller(session, scanner, clock=clock)
    if worker is not None:
        worker.post = controller.post
    return board, controller, session


def advance(clock: VirtualClock, controller: Controller[Session], ms: float) -> None:
    for _ in range(int(ms / 10)):
        clock.advance(0.01)
        controller.step()


def test_the_first_full_scan_starts_the_session() -> None:
    clock = VirtualClock()
    _, controller, session = rig_parts("english", Mode.RECORD, None, clock)
    controller.step()
    assert not controller.started
    advance(clock, controller, 50)
    assert controller.started
    assert session.state.value == "human_to_move"


def test_run_script_plays_to_the_end_and_stops_when_quiet() -> None:
    clock = VirtualClock()
    board, controller, session = rig_parts("english", Mode.RECORD, None, clock)
    script = parse_script("100 lift 11\n250 place 15\n700 lift 23\n900 place 19\n",
                          board.layout, initial=board.occupied)
    end = run_script(controller, ScriptPlayer(board, script).ticks())
    assert [board_move.pdn for board_move in session._store.load_game(session.game_id).moves] \
        == ["11-15", "23-19"]
    assert controller.quiet
    assert end < 5.0


def test_sync_worker_answers_as_the_next_event() -> None:
    clock = VirtualClock()
    worker = SyncEngineWorker(ScriptedOpponent(["23-19"]), Limit(depth=1), clock)
    board, controller, session = rig_parts("english", Mode.PLAY, worker, clock,
                                           human_side=Color.BLACK)
    advance(clock, controller, 50)
    board.lift(board.layout.parse("11"))
    board.place(board.layout.parse("15"))
    advance(clock, controller, 400)  # the move counts once released (settle_ms)
    assert session.state.value == "computer_move_pending"
    assert session.board.move_notation(session.pending) == "23-19"


def test_thread_worker_thinks_off_the_scan_thread_and_posts_its_result() -> None:
    clock = VirtualClock()
    opponent = BlockingOpponent("23-19")
    worker = ThreadEngineWorker(opponent, Limit(depth=1), clock)
    board, controller, session = rig_parts("english", Mode.PLAY, worker, clock,
                                           human_side=Color.BLACK)
    posted = threading.Event()
    post = controller.post

    def watch(event: Any) -> None:
        post(event)
        if isinstance(event, EngineResult):
            posted.set()

    worker.post = watch
    advance(clock, controller, 50)
    board.lift(board.layout.parse("11"))
    board.place(board.layout.parse("15"))
    advance(clock, controller, 400)  # the move counts once released (settle_ms)
    assert opponent.started.wait(5)
    assert session.state.value == "engine_thinking"
    board.place(board.layout.parse("14"))  # the board stays responsive meanwhile
    advance(clock, controller, 50)
    assert session.occupied == board.occupied
    board.lift(board.layout.parse("14"))
    opponent.release.set()
    assert posted.wait(5)
    advance(clock, controller, 20)
    assert session.state.value == "computer_move_pending"
    (thread,) = opponent.threads
    assert thread.name == "draughtsboard-engine" and thread.daemon
    assert thread is not threading.current_thread()
    worker.close()


def test_thread_worker_cancel_stops_the_search() -> None:
    opponent = BlockingOpponent("23-19")
    worker = ThreadEngineWorker(opponent, Limit(depth=1), VirtualClock())
    results: list[Any] = []
    worker.post = results.append
    board = Board("english")
    board.push(find_move(board, "11-15"))
    worker.submit(EngineJob(1, Purpose.REPLY, board))
    assert opponent.started.wait(5)
    worker.cancel()
    assert opponent.stopped_early.wait(5)
    worker.close()
    assert results == []  # a cancelled search posts nothing


@pytest.mark.logs_errors
def test_engine_exceptions_become_error_results() -> None:
    class Broken:
        def best_move(self, board: Board, limit: Limit, stop: Any = None) -> Any:
            raise RuntimeError("engine crashed")

    results: list[EngineResult] = []
    worker = SyncEngineWorker(Broken(), Limit(depth=1), VirtualClock())
    worker.post = results.append
    worker.submit(EngineJob(3, Purpose.REPLY, Board("english")))
    assert results[0].move is None and "crashed" in (results[0].error or "")


def test_hints_from_the_builtin_engine_come_with_reasons() -> None:
    from firmware_host.feedback.texts import render
    from firmware_host.opponents.opponent import BuiltinOpponent

    results: list[EngineResult] = []
    worker = SyncEngineWorker(BuiltinOpponent(), Limit(depth=3), VirtualClock())
    worker.post = results.append
    board = Board("international", fen="W:W33,48:B28,17,5")
    worker.submit(EngineJob(1, Purpose.HINT, board))
    (result,) = results
    assert board.move_notation(result.move) == "33x11"
    kinds = [r.kind for r in result.reasons]
    assert "captures" in kinds
    reasons = [{"kind": r.kind, "pieces": r.pieces, "moves": r.moves} for r in result.reasons]
    text = render({"event": "hint", "pdn": "33x11", "reasons": reasons})
    assert text.startswith("hint: 33x11 (") and "captures 2" in text


def test_controller_runs_in_real_time_on_a_monotonic_clock() -> None:
    from board_io.clock import MonotonicClock

    clock = MonotonicClock()
    layout = layout_for("english")
    board = SimulatedBoard(layout, occupied=Board("english").occupied_squares(), clock=clock)
    scanner = Scanner(board.sensor_matrix, board.cell_map, buttons=board.buttons)
    session = Session("english", open_store("memory", Rig.board_id()),
                      SessionConfig(mode=Mode.RECORD))
    controller = Controller(session, scanner, clock=clock)
    synced, moved = threading.Event(), threading.Event()
    session.subscribe(lambda e: synced.set() if e["event"] == "synced" else None)
    session.subscribe(lambda e: moved.set() if e["event"] == "move" else None)
    stop = threading.Event()
    loop = threading.Thread(target=controller.run, args=(stop, 0.002), name="scan")
    loop.start()
    try:
        assert synced.wait(5)
        board.lift(layout.parse("11"))
        board.place(layout.parse("15"))
        assert moved.wait(5)
    finally:
        stop.set()
        loop.join(5)
    assert not loop.is_alive()
    assert session.board.move_stack[0].destination == layout.parse("15")


def test_a_hint_within_a_levels_time_searches_on_the_search_clock() -> None:
    # A hint at a level's movetime failed ("time limits need a clock"): the hint's searcher
    # was never given the clock best_move gives it (draughtsboard play, real time).
    from firmware_host.opponents.opponent import BuiltinOpponent

    results: list[EngineResult] = []
    worker = SyncEngineWorker(BuiltinOpponent(), Limit(movetime=0.05), VirtualClock())
    worker.post = results.append
    board = Board("international", fen="W:W33,48:B28,17,5")
    worker.submit(EngineJob(1, Purpose.HINT, board))
    (result,) = results
    assert result.error is None and board.move_notation(result.move) == "33x11"


class CostlyScanner:
    """A scanner whose polls record the (virtual) time they ran at; the polls listed in
    ``costs`` take that long; it sets ``stop`` after ``polls`` polls."""

    def __init__(self, clock: VirtualClock, stop: threading.Event, polls: int,
                 costs: dict[int, float]) -> None:
        self.clock, self.stop, self.polls, self.costs = clock, stop, polls, costs
        self.at: list[float] = []

    def poll(self, now: float) -> list[Any]:
        self.at.append(round(now, 6))
        self.clock.advance(self.costs.get(len(self.at), 0.0))
        if len(self.at) >= self.polls:
            self.stop.set()
        return []


def test_the_scan_loop_keeps_fixed_ticks_and_a_late_step_does_not_shift_them(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock(start=100.0)
    stop = threading.Event()
    # The 3rd scan takes 25 ms (past two ticks), the 6th 12 ms, the others nothing.
    scanner = CostlyScanner(clock, stop, polls=9, costs={3: 0.025, 6: 0.012})
    controller = Controller(Rig("english").session, scanner, clock=clock)
    slept: list[float] = []

    def wait(seconds: float) -> bool:
        slept.append(round(seconds, 6))
        clock.advance(seconds)
        return stop.is_set()

    with caplog.at_level("WARNING", logger="firmware_host.game.controller"):
        controller.run(stop, period=0.01, wait=wait)
    # On the grid 100.00 + k * 0.01; 100.03 is skipped, the scan due at 100.04 runs late at
    # 100.045 and the next is back on the grid; the 6th ends at 100.072, so the 100.07 scan
    # runs at once and 100.08 is on time again.
    assert scanner.at == [100.0, 100.01, 100.02, 100.045, 100.05, 100.06, 100.072, 100.08,
                          100.09]
    assert slept == [0.01, 0.01, 0.005, 0.01, 0.008, 0.01, 0.01]  # until the tick
    assert (controller.overruns, controller.missed_ticks) == (2, 1)
    said = [r.getMessage() for r in caplog.records if r.name == "firmware_host.game.controller"]
    assert len(said) == 1 and "15.0 ms after its next tick" in said[0]  # logged once


def test_an_idle_scan_loop_runs_at_its_rate_not_below_it() -> None:
    # The loop slept a period *after* each step: 96 scans a second instead of 100.
    clock = VirtualClock()
    stop = threading.Event()
    scanner = CostlyScanner(clock, stop, polls=101, costs={n: 0.0004 for n in range(1, 102)})
    controller = Controller(Rig("english").session, scanner, clock=clock)
    controller.run(stop, period=0.01,
                   wait=lambda seconds: clock.advance(seconds))
    assert scanner.at[-1] == pytest.approx(1.0)  # 101 scans in one second: 100 a second
    assert controller.overruns == 0
