"""The players of bench/match.py: the built-in engine (in this process, or as the board runs it:
:class:`WorkerPlayer`, in a process of its own, pondering or not), Scan (its first Hub protocol,
Scan 2.0; Hub 2 through the project's client, Scan 3.x) and py-draughts' TurboEngine (a
subprocess of its own venv, bench/peers/turbo_driver.py), each behind the one :class:`Player`
protocol.
"""

from __future__ import annotations

import hashlib
import queue
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from engine import Board, Move
from engine.clock import SearchClock
from engine.search import MAX_PLY, Limit, Searcher, SearchResult, StopToken
from engine.types import WHITE

#: The depth a search reports when it ran to its last (``SearchOptions.max_depth``): the
#: position's result was known (a table, a forced end), not a depth searched.
KNOWN = MAX_PLY - 1


@dataclass
class MoveStats:
    """What a player reported for its searched moves: depth and seconds (CPU where known).

    ``last`` is the last searched move's ``(depth, nodes, seconds)``; the game loop clears it
    before each move, so it stays None for a move played without a search (a forced one). A
    search that reached its last depth (:data:`KNOWN`: the position's result known, from a
    table or a forced end) is counted in ``known`` and left out of the mean depth.

    >>> stats = MoveStats()
    >>> stats.add(10, 0.5, 1000); stats.add(KNOWN, 0.01, 10); stats.add(12, 0.5, 3000)
    >>> str(stats).split(" (")
    ['mean depth 11.0, 0.337 s, 1,337 nodes a move over 3 moves', '1 to the last depth, 95: a \
known result, left out of the mean depth)']
    """

    moves: int = 0
    depth: int = 0
    seconds: float = 0.0
    nodes: int = 0
    known: int = 0
    last: tuple[int, int, float] | None = None

    def add(self, depth: int, seconds: float, nodes: int = 0) -> None:
        self.moves += 1
        if depth >= KNOWN:
            self.known += 1
        else:
            self.depth += depth
        self.seconds += seconds
        self.nodes += nodes
        self.last = (depth, nodes, seconds)

    def __str__(self) -> str:
        if not self.moves:
            return "no moves"
        n = self.moves
        depth = f"{self.depth / (n - self.known):.1f}" if n > self.known else "-"
        known = (f" ({self.known} to the last depth, {KNOWN}: a known result, left out of the "
                 "mean depth)" if self.known else "")
        return (f"mean depth {depth}, {self.seconds / n:.3f} s, "
                f"{self.nodes / n:,.0f} nodes a move over {n} moves{known}")


class Player(Protocol):
    """One side of a match."""

    name: str
    stats: MoveStats

    def new_game(self) -> None: ...

    def choose(self, board: Board) -> Move:
        """A legal move of ``board`` (which has one); the board is left unchanged."""
        ...

    def close(self) -> None: ...


class PeerError(RuntimeError):
    """A peer engine failed: it died, answered nonsense or played an illegal move."""


class EnginePlayer:
    """Our :class:`Searcher` at full strength, timed as on the board: the search thread's CPU
    time, capped at twice the move's time on the wall clock (:class:`engine.clock.SearchClock`).
    """

    def __init__(self, variant: str, limit: Limit, name: str = "draughtsboard",
                 clock: Callable[[], float] | None = None, tt_mb: float = 16) -> None:
        self.name = name
        self.limit = limit
        self.searcher = Searcher(variant, clock=clock if clock is not None else SearchClock(),
                                 tt_mb=tt_mb)
        self.stats = MoveStats()

    def new_game(self) -> None:
        self.searcher.new_game()

    def choose(self, board: Board) -> Move:
        result = self.searcher.search(board, self.limit)
        if result.move is None:
            raise PeerError(f"{self.name} found no move in {board.fen()}")
        if result.nodes:  # a forced move is played without a search
            self.stats.add(result.depth, result.seconds, result.nodes)
        return result.move

    def close(self) -> None:
        pass


class WorkerPlayer:
    """Our engine as the board runs it: the service's engine worker
    (:class:`firmware_host.opponents.worker.ThreadEngineWorker`) and the built-in engine in a
    process of its own (``draughtsboard engine``), at ``level`` with ``movetime`` CPU seconds a
    move of that process's search thread (capped at twice that on the wall), the
    ``engine.movetime_ms`` of the board. With ``ponder`` it thinks on the opponent's time after
    each move, as on the board; :attr:`hits` counts the moves it had pondered.
    """

    def __init__(self, variant: str, movetime: float, *, ponder: bool, level: int = 10,
                 seed: int = 0, name: str | None = None) -> None:
        from board_io.clock import MonotonicClock
        from engine.variant import find_variant
        from firmware_host.config import Config
        from firmware_host.opponents.build import build_opponent
        from firmware_host.opponents.opponent import HubOpponent
        from firmware_host.opponents.worker import ThreadEngineWorker
        from firmware_host.terms.jobs import EngineResult

        self.name = name or f"draughtsboard level {level} {movetime:g} s"
        self.ponder = ponder
        self.stats = MoveStats()
        config = Config.from_mapping({"engine": {
            "level": level, "seed": seed, "movetime_ms": round(movetime * 1000)}})
        opponent, limit = build_opponent(config, find_variant(variant))
        if not isinstance(opponent, HubOpponent):
            raise PeerError("the built-in engine did not start in a process of its own")
        self.opponent = opponent
        self._searched: list[SearchResult] = []
        best_move = opponent.best_move

        def keep(board: Board, limit: Limit, stop: StopToken | None = None) -> SearchResult:
            result = best_move(board, limit, stop)
            self._searched.append(result)
            return result

        opponent.best_move = keep  # type: ignore[method-assign]
        self._results: queue.SimpleQueue[EngineResult] = queue.SimpleQueue()
        self.worker = ThreadEngineWorker(opponent, limit, MonotonicClock(),
                                         name="match-engine", post=self._results.put)
        self._token = 0
        self.identity = {"engine": "draughtsboard, in its own process", "level": level,
                         "ponder": ponder, "movetime": movetime}

    @property
    def hits(self) -> int:
        """Moves answered after a ponder hit."""
        return self.opponent.hits

    def new_game(self) -> None:
        pass

    def choose(self, board: Board) -> Move:
        from firmware_host.terms.jobs import EngineJob, Purpose

        self._token += 1
        self._searched.clear()  # (a forced move is played without a search: none counted)
        self.worker.submit(EngineJob(self._token, Purpose.REPLY, board.copy(),
                                     ponder=self.ponder))
        try:
            result = self._results.get(timeout=600)
        except queue.Empty:
            raise PeerError(f"{self.name}: no answer in 600 s in {board.fen()}") from None
        if result.move is None:
            raise PeerError(f"{self.name} found no move in {board.fen()}: {result.error}")
        found = self._searched[-1] if self._searched else None
        if found is not None and found.nodes:  # a forced move is played without a search
            self.stats.add(found.depth, found.seconds, found.nodes)
        self.identity["hits"] = self.hits
        return result.move

    def close(self) -> None:
        self.worker.close()
        self.opponent.close()


def _move_for(board: Board, origin: int, destination: int, captures: frozenset[int],
              who: str) -> Move:
    """Our legal move with this key (squares 0-based); PeerError if there is none."""
    for move in board.legal_moves:
        if move.key() == (origin, destination, captures):
            return move
    caps = ",".join(str(c + 1) for c in sorted(captures))
    raise PeerError(f"{who} played {origin + 1}-{destination + 1} x[{caps}], "
                    f"not legal in {board.fen()}")


class _LineProcess:
    """A child process spoken to in lines; its stderr goes to a file (or nowhere)."""

    def __init__(self, argv: Sequence[str], cwd: str | None, stderr_path: str | None) -> None:
        self._err = open(stderr_path, "ab") if stderr_path else None  # noqa: SIM115
        self.proc = subprocess.Popen(
            list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._err if self._err else subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise PeerError(f"engine exited (code {self.proc.poll()})") from exc

    def receive(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise PeerError(f"engine exited (code {self.proc.wait()})")
        return line.rstrip("\n")

    def close(self, quit_line: str = "quit") -> None:
        if self.proc.poll() is None:
            try:
                self.send(quit_line)
                self.proc.wait(timeout=5)
            except (PeerError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self._err):
            if stream is not None:
                stream.close()


def scan_position(board: Board) -> str:
    """The first Hub protocol's position: side to move and the 50 squares, ``w b W B e``.

    >>> scan_position(Board()) == "w" + "b" * 20 + "e" * 10 + "w" * 20
    True
    """
    letters = []
    for sq in range(board.variant.num_squares):
        piece = board.piece_at(sq)
        if piece is None:
            letters.append("e")
        else:
            letter = "w" if piece.color is WHITE else "b"
            letters.append(letter.upper() if piece.king else letter)
    return ("w" if board.turn is WHITE else "b") + "".join(letters)


def parse_scan_move(text: str) -> tuple[int, int, frozenset[int]]:
    """A first-Hub-protocol move (``32-28``, ``28x19x23``: origin, destination, captured
    squares) as 0-based (origin, destination, captures).

    >>> parse_scan_move("28x19x23")
    (27, 18, frozenset({22}))
    >>> parse_scan_move("32-28")
    (31, 27, frozenset())
    """
    parts = text.replace("-", "x").split("x")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        raise PeerError(f"not a move: {text!r}")
    squares = [int(p) - 1 for p in parts]
    return squares[0], squares[1], frozenset(squares[2:])


def scan_move(move: Move) -> str:
    """A move as the first Hub protocol writes it: ``32-28``, or origin ``x`` destination and
    then each captured square (``28x19x23``).

    >>> scan_move(Move(origin=27, destination=18, path=(18,), captures=(22,)))
    '28x19x23'
    """
    if not move.captures:
        return f"{move.origin + 1}-{move.destination + 1}"
    return f"{move.origin + 1}x{move.destination + 1}" + "".join(
        f"x{square + 1}" for square in sorted(move.captures))


class ScanHub1Player:
    """Scan 2.0 through the first Hub protocol, book off, at a fixed depth or (``movetime``)
    a fixed time a move on its own wall clock.

    With ``history`` (the default) each search sends ``pos`` with the game's start position and
    then the game's moves, one ``move`` each, as Scan 2.0's own hub loop takes them: its board
    keeps the positions since the last capture or man move, and its search scores a position
    that repeats one of them as a draw and ends the game after 50 such plies (the 25-move king
    rule), as our engine, which is given the same game, does. FMJD's counts of 16 and 5 moves
    for a few kings against a lone king Scan 2.0 does not keep; our engine does. Without
    ``history`` Scan sees the current position only (the matches before this option), blind to
    a repetition coming. Scan 2.0 resets its search settings on every ``pos``, so the depth or
    time follows the moves; at a fixed time it still searches at least 12 plies
    (``search.cpp``: no stop before depth 12).
    """

    def __init__(self, command: Sequence[str], cwd: str | None, depth: int | None,
                 stderr_path: str | None = None, history: bool = True,
                 movetime: float | None = None) -> None:
        if (depth is None) == (movetime is None):
            raise ValueError("give Scan a depth or a move time, one of them")
        self.name = f"Scan depth {depth}" if depth is not None else f"Scan {movetime:g} s"
        self.depth = depth
        self.movetime = movetime
        self.history = history
        self.stats = MoveStats()
        self.proc = _LineProcess(command, cwd, stderr_path)
        self.proc.send("hub")
        self.engine_name = ""
        #: What the engine said about itself before ``wait`` (its name, version, options).
        self.hello: list[str] = []
        while (line := self.proc.receive()) != "wait":
            self.hello.append(line)
            if line.startswith("name "):
                self.engine_name = line[5:]
        self.identity = {"engine": self.engine_name, "hello": self.hello,
                         "program_sha256": program_sha256(command[0], cwd),
                         "sees": "the game" if history else "the position",
                         "limit": f"depth {depth}" if depth is not None else f"{movetime:g} s"}
        self.proc.send("set book false")
        self.proc.send("init")
        while self.proc.receive() != "ready":
            pass

    def new_game(self) -> None:
        self.proc.send("new")

    def _send_game(self, board: Board) -> None:
        """``pos`` with the game's start position, its moves, then ``ping``: Scan answers an
        illegal ``move`` with an ``error`` line before its ``pong``."""
        replay = board.root()
        self.proc.send(f"pos {scan_position(replay)}")
        for move in board.move_stack:
            self.proc.send(f"move {scan_move(move)}")
        self.proc.send("ping")
        while (line := self.proc.receive()) != "pong":
            if line.startswith("error"):
                moves = " ".join(scan_move(m) for m in board.move_stack)
                raise PeerError(f"Scan: {line} in the game from {replay.fen()}: {moves}")

    def _search(self, board: Board) -> tuple[list[str], list[str]]:
        """(the last ``info`` line, the ``move`` line) of a search of ``board``, as words."""
        if self.history:
            self._send_game(board)
        else:
            self.proc.send(f"pos {scan_position(board)}")
        if self.depth is not None:
            self.proc.send(f"depth {self.depth}")
        else:
            self.proc.send(f"time {round(1000 * (self.movetime or 0.0))}")
        self.proc.send("go")
        last: list[str] = []
        while True:
            line = self.proc.receive()
            words = line.split()
            if not words:
                continue
            if words[0] == "info" and len(words) >= 6:
                last = words
            elif words[0] == "error":
                raise PeerError(f"Scan: {line} in {board.fen()}")
            elif words[0] == "move" and len(words) >= 2:
                return last, words

    def choose(self, board: Board) -> Move:
        started = time.perf_counter()
        last, words = self._search(board)
        # Scan 2.0 prints info lines in hub mode only now and then (``info depth mean-depth
        # score nodes seconds ...``); at a fixed depth the depth is the one set, the seconds are
        # wall time seen from here.
        depth = self.depth if self.depth is not None else int(last[1]) if last else 0
        self.stats.add(depth, time.perf_counter() - started, int(last[4]) if last else 0)
        return _move_for(board, *parse_scan_move(words[1]), who=self.name)

    def score(self, board: Board) -> float:
        """Scan's score of ``board`` for the side to move, in hundredths of a man (its info
        line: ``info depth mean-depth score nodes seconds ...``).

        Raises:
            PeerError: Scan printed no score (or an error).
        """
        last, _ = self._search(board)
        try:
            return float(last[3])
        except (IndexError, ValueError):
            raise PeerError(f"Scan gave no score for {board.fen()}") from None

    def score_or_none(self, board: Board) -> float | None:
        """:meth:`score`, or None where Scan printed none (a labeller leaves it out)."""
        try:
            return self.score(board)
        except PeerError:
            return None

    def close(self) -> None:
        self.proc.close()


def scan_hub1(scan: str, depth: int, history: bool = False) -> ScanHub1Player:
    """Scan 2.0 at the path ``scan``, started in hub mode from its own folder (where its
    ``scan.ini``, bitbases and weights are), at ``depth``: the labellers' Scan, which scores
    positions (FENs, no game behind them), so it is sent the position only by default."""
    program = str(Path(scan).resolve())
    return ScanHub1Player((program, "hub"), str(Path(program).parent), depth, history=history)


class HubPlayer:
    """A Hub 2 engine (Scan 3.x) at a fixed depth through the project's Hub client."""

    def __init__(self, command: Sequence[str], cwd: str | None, depth: int) -> None:
        from firmware_host.opponents.hub.client import HubEngine, HubEngineConfig

        self.name = f"Scan depth {depth}"
        self.limit = Limit(depth=depth)
        self.stats = MoveStats()
        self.engine = HubEngine(HubEngineConfig(command=tuple(command), cwd=cwd,
                                                params={"book": "false"}))
        self.engine.start("international")
        self.engine_name = f"{self.engine.name} {self.engine.engine_id.get('version', '')}"
        self.identity = {"engine": self.engine.name,
                         "version": self.engine.engine_id.get("version", ""),
                         "program_sha256": program_sha256(command[0], cwd)}

    def new_game(self) -> None:
        pass

    def choose(self, board: Board) -> Move:
        result = self.engine.play(board, self.limit)
        info = result.info
        self.stats.add(info.depth or 0, info.time or result.seconds, info.nodes or 0)
        return result.move

    def close(self) -> None:
        self.engine.close()


def program_sha256(program: str, cwd: str | None = None) -> str:
    """The SHA-256 of a peer's program file (which build played), or ``""`` if unreadable."""
    path = Path(program) if cwd is None else Path(cwd) / program
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def _py_draughts_version(python: str) -> str:
    """The py-draughts version installed for ``python`` (``"unknown"`` if it says none)."""
    code = "import importlib.metadata as m; print(m.version('py-draughts'))"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60,
                             check=True)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def pydraughts_fen(board: Board) -> str:
    """``board`` as a comma-listed FEN (py-draughts and pydraughts read no ranges).

    >>> pydraughts_fen(Board("international", "W:W31,K32:B1"))
    'W:W31,K32:B1'
    """
    sides: dict[int, list[str]] = {0: [], 1: []}
    for sq, piece in sorted(board.pieces().items()):
        sides[int(piece.color)].append(("K" if piece.king else "") + board.variant.square_name(sq))
    turn = "W" if board.turn is WHITE else "B"
    return f"{turn}:W{','.join(sides[int(WHITE)])}:B{','.join(sides[1 - int(WHITE)])}"


def _turbo_move(move: Move) -> str:
    head = f"{move.origin + 1}{'x' if move.captures else '-'}{move.destination + 1}"
    return head + (":" + ",".join(str(c + 1) for c in move.captures) if move.captures else "")


class TurboPlayer:
    """py-draughts 1.10.1's TurboEngine in its own venv, ``seconds`` of its CPU a move."""

    DRIVER = Path(__file__).resolve().parent / "peers" / "turbo_driver.py"

    def __init__(self, python: str, seconds: float, stderr_path: str | None = None,
                 driver: Path | None = None) -> None:
        self.name = f"TurboEngine {seconds:g} s"
        self.seconds = seconds
        self.stats = MoveStats()
        self.engine_name = "py-draughts TurboEngine"
        script = driver if driver is not None else self.DRIVER
        self.identity = {"engine": self.engine_name, "version": _py_draughts_version(python)}
        self.proc = _LineProcess([python, str(script)], None, stderr_path)

    def new_game(self) -> None:
        pass

    def choose(self, board: Board) -> Move:
        root = board.root()
        moves = " ".join(_turbo_move(m) for m in board.move_stack)
        self.proc.send(f"go {self.seconds} {pydraughts_fen(root)} {moves}".rstrip())
        words = self.proc.receive().split()
        if len(words) != 7 or words[0] != "move":
            raise PeerError(f"TurboEngine: {' '.join(words)!r} in {board.fen()}")
        caps = frozenset() if words[3] == "-" else frozenset(int(c) - 1
                                                              for c in words[3].split(","))
        if int(words[5]) > 1:  # a forced move is played without a search
            self.stats.add(int(words[4]), float(words[6]), int(words[5]))
        return _move_for(board, int(words[1]) - 1, int(words[2]) - 1, caps, who=self.name)

    def close(self) -> None:
        self.proc.close()
