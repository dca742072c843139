"""Test rigs for the session: events fed directly (table tests) or through the simulated board.

:class:`Rig` drives a :class:`~firmware_host.game.session.Session` with occupancy events in virtual
time, firing its timers as time passes, with a scripted opponent whose moves the test chooses.
:class:`SimRig` runs the whole pipeline: simulated board -> scanner -> controller -> session.
"""

from __future__ import annotations

import itertools
import json
import queue
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from board_io.clock import VirtualClock
from board_io.events import ButtonPressed, OccupancyChanged
from board_io.scanner import Scanner
from board_io.sim import SimulatedBoard
from engine import Board
from engine.search import Limit, SearchResult
from firmware_host.feedback.roles import Role
from firmware_host.game.controller import Controller
from firmware_host.game.session import Session
from firmware_host.game.types import SessionConfig, SessionEvent
from firmware_host.opponents.worker import SyncEngineWorker
from firmware_host.recognition.layout import layout_for
from firmware_host.store import GameRecord, open_store
from firmware_host.terms.buttons import names as button_names
from firmware_host.terms.jobs import EngineResult
from firmware_host.terms.settings import Mode

_BOARD_IDS = itertools.count()


def find_move(board: Board, text: str) -> Any:
    """The legal move written ``text`` (``22-18``, ``14x23``, ``c3:e5``, ``22x13x4``)."""
    squares = [board.variant.parse_square(t) for t in re.split(r"[-x:]", text.strip())]
    for move in board.generate_moves(paths=True):
        if move.origin == squares[0] and move.destination == squares[-1] and (
            len(squares) == 2 or list(move.path) == squares[1:]
        ):
            return move
    raise ValueError(f"no legal move {text!r} in {board.fen()}")


class ListStore:
    """A small in-memory store with the session's part of the store protocol, for heavy suites
    (the real store's fakeredis round trips dominate a long replay). Keeps games as records."""

    def __init__(self) -> None:
        self.games: dict[str, Any] = {}
        self.session: dict[str, Any] | None = None
        self.events = 0

    def new_game(self, headers: Any, variant: str, start_fen: str | None, mode: str, *,
                 session: Any = None) -> str:
        game_id = f"g{len(self.games) + 1}"
        self.games[game_id] = GameRecord(game_id, "test", dict(headers), variant, start_fen,
                                         mode, 0.0)
        if session is not None:
            self.save_session({**session, "game_id": game_id})
        return game_id

    def append_move(self, game_id: str, record: Any, *, result: str | None = None,
                    termination: str = "", session: Any = None) -> None:
        game = self.games[game_id]
        assert record.ply == len(game.moves) + 1, (record.ply, len(game.moves))
        game.moves.append(record)
        if result is not None:
            self.finish(game_id, result, termination)
        if session is not None:
            self.save_session(session)

    def truncate(self, game_id: str, ply: int, *, session: Any = None, note: str = "") -> None:
        del self.games[game_id].moves[ply:]
        self.games[game_id].result = "*"
        if session is not None:
            self.save_session(session)

    def finish(self, game_id: str, result: str, termination: str, *,
               session: Any = None) -> None:
        self.games[game_id].result, self.games[game_id].termination = result, termination
        if session is not None:
            self.save_session(session)

    def save_session(self, state: Any) -> None:
        self.session = json.loads(json.dumps(state))  # what Redis would keep: JSON data

    def load_session(self, board_id: str | None = None) -> Any:
        return self.session if board_id is None else None

    def note(self, game_id: str, ply: int, text: str) -> None:
        self.games[game_id].notes.append((ply, text))

    def publish(self, event: Any) -> None:
        json.dumps(event)  # every event must be plain JSON data
        self.events += 1

    def load_game(self, game_id: str, board_id: str | None = None) -> Any:
        return self.games[game_id]


class ScriptedOpponent:
    """An opponent that plays the moves it is given (PDN texts), then the first legal move."""

    def __init__(self, moves: Iterable[str] = ()) -> None:
        self.moves = list(moves)
        self.searches = 0

    def best_move(self, board: Board, limit: Limit, stop: Any = None) -> SearchResult:
        self.searches += 1
        if self.moves:
            return SearchResult(find_move(board, self.moves.pop(0)), 0, 1, 1, 0.0)
        return SearchResult(next(iter(board.legal_moves)), 0, 1, 1, 0.0)


class ManualWorker:
    """An engine worker that answers only when the test says so (the engine "thinking")."""

    def __init__(self) -> None:
        self.jobs: list[Any] = []
        self.cancelled = 0
        self.post: Any = None

    def submit(self, job: Any) -> None:
        self.jobs.append(job)

    def cancel(self) -> None:
        self.cancelled += 1


class Rig:
    """A session fed with occupancy events; time advances by ``step`` seconds per action.

    Squares are given by name (``"22"``, ``"c3"``).
    """

    def __init__(self, variant: str = "english", *, mode: Mode = Mode.RECORD,
                 fen: str | None = None, computer: Sequence[str] = (), store: Any = None,
                 start: bool = True, occupied: Iterable[int] | None = None,
                 step: float = 0.1, manual: bool = False, wall: float = 1_700_000_000.0,
                 **settings: Any) -> None:
        self.config = replace(SessionConfig(mode=mode), **settings)
        self.store = store if store is not None else open_store("memory", self.board_id())
        self.opponent = ScriptedOpponent(computer)
        self.worker: Any = None
        self.queue: list[Any] = []
        if mode is not Mode.RECORD:
            self.worker = (ManualWorker() if manual
                           else SyncEngineWorker(self.opponent, Limit(depth=1), VirtualClock()))
            self.worker.post = self.queue.append
        self.session = Session(variant, self.store, self.config, thinker=self.worker, fen=fen,
                               wall_clock=lambda: wall)  # (``wall``: Unix time, fixed)
        self.events: list[dict[str, Any]] = []
        self.session.subscribe(self.events.append)
        self.now = 0.0
        self.step = step
        self.variant = self.session.variant
        if start:
            initial = Board(variant, fen=fen).occupied_squares() if occupied is None else occupied
            self.occupied = set(initial)
            self.session.start(frozenset(self.occupied), self.now)
            self._drain()
        else:
            self.occupied = set()

    @staticmethod
    def board_id() -> str:
        return f"test{next(_BOARD_IDS)}"

    # -- time and events ------------------------------------------------------------------------
    def _drain(self) -> None:
        while self.queue:
            self.session.handle(self.queue.pop(0))

    def _fire(self, until: float) -> None:
        while True:
            deadline = self.session.next_deadline()
            if deadline is None or deadline > until + 1e-9:
                return
            self.now = max(self.now, deadline)
            for event in self.session.due_timers(self.now):
                self.session.handle(event)
                self._drain()

    def wait(self, ms: float) -> None:
        """Let ``ms`` pass, firing the timers that run out."""
        target = self.now + ms / 1000.0
        self._fire(target)
        self.now = target

    def _send(self) -> None:
        self.wait(self.step * 1000)
        self.session.handle(OccupancyChanged(frozenset(self.occupied), None, self.now))
        self._drain()

    def sq(self, name: str | int) -> int:
        return self.variant.parse_square(str(name))

    def lift(self, *names: str | int) -> None:
        for name in names:
            self.occupied.remove(self.sq(name))
            self._send()

    def place(self, *names: str | int) -> None:
        for name in names:
            square = self.sq(name)
            assert square not in self.occupied, name
            self.occupied.add(square)
            self._send()

    def set(self, occupied: Iterable[int], colours: Any = None) -> None:
        """The board shows ``occupied`` (indices) at once (``colours``: colour-aware readings)."""
        self.occupied = set(occupied)
        self.wait(self.step * 1000)
        self.session.handle(OccupancyChanged(frozenset(self.occupied), colours, self.now))
        self._drain()

    def play(self, text: str, settle: bool = True, base: bool = False) -> None:
        """Carry out a move (PDN text) neatly, lift then place: a move of the position after the
        pending computer move, if any (of the session's position itself with ``base``)."""
        board = self.session.board
        if self.session.pending is not None and not base:
            board = board.copy()
            board.push(self.session.pending)
        self.carry_out(board, find_move(board, text), settle)

    def carry_out(self, board: Board, move: Any, settle: bool = True) -> None:
        self.occupied.discard(move.origin)
        self._send()
        for captured in move.captures:
            self.occupied.discard(captured)
            self._send()
        self.occupied.add(move.destination)
        self._send()
        if settle:
            self.wait(self.config.settle_ms + 10)

    def computer_move(self, settle: bool = True) -> str:
        """Carry out the pending computer move; return its text."""
        pending = self.session.pending
        assert pending is not None, self.session.state
        text = self.session.board.move_notation(pending)
        self.carry_out(self.session.board, pending, settle)
        return text

    def answer(self, text: str | None) -> None:
        """The manual engine answers its last job with the move ``text``."""
        job = self.worker.jobs[-1]
        move = None if text is None else find_move(job.board, text)
        self.wait(self.step * 1000)
        self.session.handle(EngineResult(job.token, job.purpose, move, self.now))
        self._drain()

    def press(self, button: str) -> None:
        self.wait(self.step * 1000)
        self.session.handle(ButtonPressed(button, self.now))
        self._drain()

    def command(self, name: str, side: str | None = None) -> None:
        self.wait(self.step * 1000)
        self.session.command(name, self.now, side)
        self._drain()

    # -- looking -----------------------------------------------------------------------------
    @property
    def state(self) -> str:
        return self.session.state.value

    def published(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == kind]

    def last(self, kind: str) -> dict[str, Any]:
        found = self.published(kind)
        assert found, f"no {kind!r} event in {[e['event'] for e in self.events]}"
        return found[-1]

    def leds(self, role: Role) -> set[str]:
        """Names of the squares lit with ``role`` now."""
        frame = self.session.frame
        return {self.variant.square_name(sq) for sq, led in frame.items() if led is role}

    def leds_of(self, role: str) -> set[str]:
        """Names of the squares lit with the role called ``role`` now."""
        return self.leds(Role(role))

    def lit(self) -> dict[str, str]:
        frame = self.session.frame
        return {self.variant.square_name(sq): led.value for sq, led in frame.items()}

    def moves(self) -> list[str]:
        """The moves recorded in the store for the current game."""
        game = self.store.load_game(self.session.game_id)
        return [m.pdn for m in game.moves]

    def game(self) -> Any:
        return self.store.load_game(self.session.game_id)


def hall_board(client: Any, board_id: str, **settings: Any) -> Rig:
    """A board of a hall: international draughts recorded into ``client`` (a Redis) as
    ``board_id``, reading its round's pairing there, its game open at the start position."""
    from firmware_host.store import RedisStore
    from firmware_host.tournament.pairing import PairingSource

    rig = Rig("international", store=RedisStore(client, board_id, name="test"), start=False,
              **settings)
    rig.session.game.pairing = PairingSource(client, board_id)
    rig.occupied = set(rig.session.game.initial)
    rig.session.start(frozenset(rig.occupied), rig.now)
    return rig


class SimRig:
    """The whole pipeline in virtual time: simulated board, scanner, controller and session."""

    def __init__(self, variant: str, *, mode: Mode = Mode.RECORD, fen: str | None = None,
                 store: Any = None, opponent: Any = None, scan_hz: int = 100,
                 debounce_ms: int = 20, occupied: Any = None, reviewer: Any = None,
                 **settings: Any) -> None:
        self.clock = VirtualClock()
        self.layout = layout_for(variant)
        start = Board(variant, fen=fen)
        # ``occupied``: what stands on the board (squares, or square -> piece) instead of fen's
        self.board = SimulatedBoard(self.layout, occupied=start.occupied_squares()
                                    if occupied is None else occupied,
                                    clock=self.clock, buttons=button_names(simulated=True))
        self.scanner = Scanner(self.board.sensor_matrix, self.board.cell_map,
                               debounce_ms=debounce_ms, buttons=self.board.buttons)
        self.config = replace(SessionConfig(mode=mode), **settings)
        self.store = store if store is not None else ListStore()
        events: queue.SimpleQueue[SessionEvent] = queue.SimpleQueue()  # as the service wires it
        worker = None
        if mode is not Mode.RECORD:
            worker = SyncEngineWorker(opponent or ScriptedOpponent(), Limit(depth=1), self.clock,
                                      post=events.put)
        self.worker = worker
        # ``reviewer(worker)``: the session's reviewer, answering through this rig's worker
        self.session = Session(variant, self.store, self.config, thinker=worker, fen=fen,
                               wall_clock=lambda: 1_700_000_000.0,
                               reviewer=None if reviewer is None else reviewer(worker))
        self.events: list[dict[str, Any]] = []
        self.session.subscribe(self.events.append)
        self.controller = Controller(self.session, self.scanner, clock=self.clock,
                                     events=events)
        self.period = 1.0 / scan_hz
        self.now = 0.0

    def run_for(self, ms: float) -> None:
        """Scan at the scan rate for ``ms`` of virtual time."""
        end = self.now + ms / 1000.0
        while self.now < end - 1e-9:
            self.now = min(self.now + self.period, end)
            self.clock.set(self.now)
            self.controller.step(self.now)

    def hands(self, events: Iterable[Any]) -> None:
        """Apply sloppy-hands events (``dt_ms``, action, square) in virtual time."""
        for event in events:
            self.run_for(event.dt_ms)
            if event.action == "lift":
                self.board.lift(event.square)
            elif event.action == "place":
                self.board.place(event.square)
            else:
                self.board.press("adjust")
