"""The board's engine searches in a process of its own: the service never runs a search, a
killed engine process is started again and the move searched again, and the scan loop sees
every touch while a search (a depth-only one too) runs.

The service runs on the simulated board in virtual time (its loop's clock and sleep injected);
the engine process is real and answers in real time: the tests wait on its answers as events.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import redis

import engine.hint
import engine.search
from board_io.clock import VirtualClock
from engine import Move
from firmware_host.app.notify import Notifier
from firmware_host.app.service import Service, Wiring, build_service
from firmware_host.config import Config
from firmware_host.game.types import State
from firmware_host.opponents.opponent import HubOpponent
from firmware_host.opponents.worker import ThreadEngineWorker
from firmware_host.terms.commands import Command
from firmware_host.terms.jobs import EngineResult
from tests.redis_server import RedisServer

PERIOD = 0.01


@pytest.fixture
def searches_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every search and hint begun in this (the service's) process, by its entry point."""
    begun: list[str] = []
    search, hint = engine.search.Searcher.search, engine.hint.hint

    def spied_search(self: Any, *args: Any, **kwargs: Any) -> Any:
        begun.append("Searcher.search")
        return search(self, *args, **kwargs)

    def spied_hint(*args: Any, **kwargs: Any) -> Any:
        begun.append("hint")
        return hint(*args, **kwargs)

    monkeypatch.setattr(engine.search.Searcher, "search", spied_search)
    monkeypatch.setattr(engine.hint, "hint", spied_hint)
    monkeypatch.setattr("firmware_host.opponents.worker.hint", spied_hint)
    return begun


class Board:
    """The service on the simulated board, in virtual time, with its real engine process."""

    def __init__(self, stack: ExitStack, tmp_path: Path, **engine: Any) -> None:
        config = Config.from_mapping({
            "game": {"mode": "play", "variant": "international"},
            "engine": engine, "board": {"sensors": "sim", "leds": "sim", "buttons": "sim"},
            "store": {"url": "memory", "games_dir": str(tmp_path)}})
        self.clock = VirtualClock()
        self.service: Service = build_service(config, stack, Wiring(
            clock=self.clock, resume=False, notifier=Notifier(environ={})))
        self.controller = self.service.controller
        self.session = self.controller.session
        sim = self.service.sim
        assert sim is not None
        self.sim = sim
        worker = self.service.worker
        assert isinstance(worker, ThreadEngineWorker)
        self.worker = worker
        assert isinstance(worker.opponent, HubOpponent)
        self.opponent = worker.opponent
        # The engine's answers, as they are posted to the controller's queue.
        self.answers: queue.SimpleQueue[EngineResult] = queue.SimpleQueue()
        post = worker.post
        assert post is not None

        def tee(result: EngineResult) -> None:
            post(result)
            self.answers.put(result)

        worker.post = tee
        self.events: list[dict[str, Any]] = []
        self.session.subscribe(self.events.append)
        self.scan(0.1)

    def scan(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass, a scan every tick."""
        end = self.clock.monotonic() + seconds
        while self.clock.monotonic() < end - 1e-9:
            self.clock.advance(PERIOD)
            self.controller.step()

    def move(self, text: str) -> None:
        """The human plays ``text`` (lift, place), and lets the piece go."""
        self.carry_out(self.session.board.parse_move(text))

    def carry_out(self, move: Move) -> None:
        """Lift the piece, take the captured ones, put it down, let it go."""
        self.sim.lift(move.origin)
        self.scan(0.1)
        for captured in move.captures:
            self.sim.lift(captured)
            self.scan(0.1)
        self.sim.place(move.destination)
        self.scan(self.session.config.settle_ms / 1000 + 0.1)

    def answer(self, timeout: float = 60.0) -> EngineResult:
        """Wait for the engine's next answer (real time) and let the session take it."""
        result = self.answers.get(timeout=timeout)
        self.scan(0.05)
        return result

    def carry_out_computer_move(self) -> None:
        pending = self.session.pending
        assert pending is not None
        self.carry_out(pending)


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as opened:
        yield opened


def test_the_service_process_never_runs_a_search(stack: ExitStack, tmp_path: Path,
                                                 searches_here: list[str]) -> None:
    board = Board(stack, tmp_path, level=2)
    board.move("32-28")
    assert board.session.state is State.ENGINE_THINKING
    result = board.answer()
    assert result.move is not None and board.session.state is State.COMPUTER_MOVE_PENDING
    board.carry_out_computer_move()
    board.session.command("hint", board.clock.monotonic())
    hinted = board.answer()
    assert hinted.move is not None and hinted.move in board.session.board.legal_moves
    assert searches_here == []  # the engine's process searched, this one did not
    assert board.opponent.engine.pid not in (None, os.getpid())
    assert board.opponent.engine.starts == 1  # started once, kept between moves


def test_a_killed_engine_process_is_started_again_and_the_move_searched_again(
        stack: ExitStack, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    board = Board(stack, tmp_path, level=10, movetime_ms=800)
    board.move("32-28")
    board.answer()
    board.carry_out_computer_move()
    first = board.opponent.engine.pid
    assert first is not None
    with caplog.at_level(logging.WARNING, logger="firmware_host.opponents"):
        reply = next(iter(board.session.board.legal_moves))
        board.move(board.session.board.move_notation(reply))
        assert board.session.state is State.ENGINE_THINKING  # its search has begun ...
        os.kill(first, signal.SIGKILL)  # ... and its process dies under it
        result = board.answer()
    assert result.error is None and result.move in board.session.board.legal_moves
    assert board.session.state is State.COMPUTER_MOVE_PENDING  # the game goes on
    assert board.opponent.engine.starts == 2 and board.opponent.engine.pid != first
    said = [r.getMessage() for r in caplog.records
            if r.levelno >= logging.WARNING and r.name.startswith("firmware_host.opponents")]
    assert len(said) == 1 and "started again" in said[0]
    assert not [e for e in board.events if e["event"] == "engine_error"]


@pytest.mark.parametrize("engine_settings", [
    {"level": 10, "depth": 40},           # depth-only: never stops by itself
    {"level": 10, "movetime_ms": 60_000},  # a long search on the clock
], ids=["depth-only", "timed"])
def test_the_scan_loop_sees_every_touch_while_the_engine_searches(
        stack: ExitStack, tmp_path: Path, searches_here: list[str],
        engine_settings: dict[str, int]) -> None:
    board = Board(stack, tmp_path, **engine_settings)
    board.move("32-28")
    assert board.session.state is State.ENGINE_THINKING
    layout = board.sim.layout
    touched = layout.parse("31")
    # The human lifts a piece for 50 ms and puts it back, twenty times, 200 ms apart, while
    # the engine thinks; the service's own loop runs on its clock and sleep.
    schedule: list[tuple[float, Callable[[], None]]] = []
    start = board.clock.monotonic()
    for n in range(20):
        at = start + 0.2 * (n + 1)
        schedule.append((at, lambda: board.sim.lift(touched)))
        schedule.append((at + 0.05, lambda: board.sim.place(touched)))
    seen: list[frozenset[int]] = []
    original = board.controller.post

    def watch(event: Any) -> None:
        occupied = getattr(event, "occupied", None)
        if occupied is not None:
            seen.append(frozenset(occupied))
        original(event)

    board.controller.post = watch  # type: ignore[method-assign]
    stop = threading.Event()
    end = start + 0.2 * 21 + 0.5

    def sleep(seconds: float) -> None:
        target = board.clock.monotonic() + seconds
        while schedule and schedule[0][0] <= target:
            at, act = schedule.pop(0)
            board.clock.set(max(board.clock.monotonic(), at))
            act()
        board.clock.set(target)
        if target >= end:
            stop.set()

    board.controller.run(stop, period=PERIOD, wait=sleep)
    lifts = [n for n, occupied in enumerate(seen) if touched not in occupied]
    assert len(lifts) == 20  # every 50 ms lift seen, each once
    assert board.session.state is State.ENGINE_THINKING  # still searching all the while
    assert board.answers.empty()
    assert board.session.occupied == board.session.board.occupied_squares()  # in sync
    assert board.service.scanner.occupied == board.sim.occupied
    assert board.controller.overruns == 0
    assert searches_here == []


def test_a_level_set_from_the_phone_is_sent_to_the_engines_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from board_io.clock import MonotonicClock
    from engine.levels import limit_for_level
    from firmware_host.opponents.build import builtin_engine_config, builtin_limit
    from firmware_host.opponents.hub.client import HubEngine
    from firmware_host.opponents.level import level_hook

    config = Config.from_mapping({"engine": {"level": 8}})
    engine_process = HubEngine(builtin_engine_config(config))  # not started: nothing searches
    sent: list[dict[str, str]] = []
    monkeypatch.setattr(engine_process, "configure", sent.append)
    worker = ThreadEngineWorker(HubOpponent(engine_process), builtin_limit(config),
                                MonotonicClock())
    hook = level_hook(config, worker, None)
    assert hook is not None
    hook(3)
    assert sent == [{"level": "3"}] and worker.limit == limit_for_level(3)


def test_a_board_set_to_play_a_person_afar_starts_the_engine_only_when_it_plays(
        stack: ExitStack, tmp_path: Path, redis_server: RedisServer) -> None:
    """``remote.opponent``: the person on the other board plays across this one, so the
    engine's process (tens of MB on a Pi) is not started with the service; once the pair is
    ended the engine plays again, its process started for its first move."""
    redis.Redis.from_url(redis_server.url).flushall()
    config = Config.from_mapping({
        "game": {"mode": "play", "variant": "international"}, "engine": {"level": 2},
        "board": {"sensors": "sim", "leds": "sim", "buttons": "sim", "id": "afar-a"},
        "remote": {"opponent": "afar-b"},
        "store": {"url": redis_server.url, "games_dir": str(tmp_path)}})
    clock = VirtualClock()
    service = build_service(config, stack, Wiring(clock=clock, resume=False,
                                                  notifier=Notifier(environ={})))
    worker = service.worker
    assert isinstance(worker, ThreadEngineWorker) and isinstance(worker.opponent, HubOpponent)
    engine = worker.opponent.engine
    for _ in range(20):
        clock.advance(PERIOD)
        service.controller.step()
    assert service.duel is not None and engine.pid is None and engine.starts == 0
    answers: queue.SimpleQueue[EngineResult] = queue.SimpleQueue()
    post = worker.post
    assert post is not None

    def tee(result: EngineResult) -> None:
        post(result)
        answers.put(result)

    worker.post = tee
    session = service.controller.session
    seen: list[dict[str, Any]] = []
    session.subscribe(seen.append)
    service.controller.post(Command("pair", clock.monotonic(), value=""))  # the engine again
    for _ in range(500):  # a new game opens: the board stands at the start
        clock.advance(PERIOD)
        service.controller.step()
        if any(e["event"] == "new_game" for e in seen):
            break
    sim = service.sim
    assert sim is not None
    move = session.board.parse_move("32-28")
    for action in (lambda: sim.lift(move.origin), lambda: sim.place(move.destination)):
        action()
        for _ in range(int(session.config.settle_ms / 1000 / PERIOD) + 20):
            clock.advance(PERIOD)
            service.controller.step()
    assert service.duel is None and session.state is State.ENGINE_THINKING
    result = answers.get(timeout=60)
    assert result.move is not None and engine.starts == 1 and engine.pid not in (None, os.getpid())
