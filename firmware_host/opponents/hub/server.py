"""The built-in engine as a Hub engine: ``draughtsboard engine --hub`` on stdin/stdout.

Every Hub-speaking program (the Hub GUI, pydraughts, lidraughts bots) can drive it. Declared
parameters: ``variant`` (Scan's names where we have the rules -- ``normal``, ``losing`` -- and our
own variant names for the rest), ``level`` (strength 1-10, as ``engine.levels``), ``tt-size`` (MB),
``seed`` and ``clock`` (``wall``, or ``cpu``: a time per move is the search thread's CPU time,
capped by the wall clock, as the board's levels count it). A bad line, an unknown command or a
bad value is answered with ``error message="..."``, never a crash; a ``go`` is always answered
with ``done``. The board's service runs it as its engine worker
(:mod:`firmware_host.opponents.build`): the search in a process of its own.

``go ponder`` thinks on the opponent's time, bound only by the level's depth, until
``ponder-hit`` or ``stop``; a ponder search that ends by itself waits for either. ``ponder-hit``
answers at once when the ponder search has already finished, and otherwise keeps that search
going for the move's time, counted from the hit on the search thread's clock.

>>> lines = []
>>> server = HubServer(lines.append, seed=1)
>>> for line in ("hub", "init", "pos start", "level depth=4", "go think"):
...     _ = server.handle(line)
>>> server.wait()
True
>>> lines[0].startswith("id name=draughtsboard"), "wait" in lines, "ready" in lines
(True, True, True)
>>> lines[-1].startswith("done move=")
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TextIO

from engine import VARIANTS, Board, Variant
from engine.clock import SearchClock
from engine.endgame import EndgameTable
from engine.levels import LEVELS, level
from engine.limits import time_budget
from engine.search import Limit, Searcher, SearchResult, StopToken
from firmware_host.opponents.hub.notation import (
    HUB_VARIANTS,
    board_from_pos,
    hub_variant_name,
    move_to_hub,
    score_to_hub,
    variant_from_hub,
)
from firmware_host.opponents.hub.protocol import (
    Done,
    HubMessage,
    HubProtocolError,
    Level,
    ParamSpec,
    message,
    parse_line,
)
from firmware_host.opponents.readstop import ReadStop

__all__ = ["CLOCKS", "ENGINE_NAME", "HubServer", "level_to_limit", "serve", "thread_clock"]

logger = logging.getLogger(__name__)

ENGINE_NAME = "draughtsboard"
#: Commands a GUI may send while a search runs (the protocol allows only these).
_DURING_SEARCH = frozenset({"ping", "stop", "ponder-hit", "quit"})
#: The ``clock`` parameter's values: what a time per move is counted on.
CLOCKS = ("wall", "cpu")


def thread_clock(thread: threading.Thread) -> Callable[[], float]:
    """The CPU seconds of ``thread`` as read from any thread (``time.thread_time`` reads only the
    caller's own); the wall clock where the system has no per-thread CPU clock.

    >>> clock = thread_clock(threading.current_thread())
    >>> clock() >= 0.0
    True
    """
    ident = thread.ident
    getcpuclockid = getattr(time, "pthread_getcpuclockid", None)
    if ident is None or getcpuclockid is None:
        return time.monotonic
    try:
        clock_id = getcpuclockid(ident)
        time.clock_gettime(clock_id)
    except OSError:
        return time.monotonic
    return lambda: time.clock_gettime(clock_id)


def level_to_limit(spec: Level, depth_cap: int | None = None) -> Limit:
    """Translate a Hub ``level`` into our search limit; ``depth_cap`` comes from the strength level.

    Hub adds the increment before each move, so the clock we budget from is ``time + inc``. With
    ``moves`` (moves to the next time control) the time per move is capped at the share of one move.

    >>> level_to_limit(Level(move_time=2.0)) == Limit(movetime=2.0)
    True
    >>> level_to_limit(Level(depth=12), depth_cap=6).depth
    6

    Raises:
        ValueError: a zero depth, node count or move time.
    """
    depth = spec.depth if depth_cap is None or spec.depth is None else min(spec.depth, depth_cap)
    if depth is None:
        depth = depth_cap
    if spec.infinite:
        return Limit(depth=depth)
    movetime = spec.move_time
    time_left = increment = None
    if spec.time is not None:
        increment = spec.inc or 0.0
        time_left = spec.time + increment
        if spec.moves:
            share = 0.9 * (spec.time / spec.moves + increment)
            movetime = share if movetime is None else min(movetime, share)
    return Limit(depth=depth, nodes=spec.nodes, movetime=movetime, time_left=time_left,
                 increment=increment or None)


class HubServer:
    """The Hub protocol for the built-in engine; ``write`` sends one line (no newline).

    Lines come in through :meth:`handle` (from one thread); searches run on a thread named
    ``hub-search``, so ``stop`` and ``ping`` are answered while it thinks.

    >>> server = HubServer(print, variant="russian", strength=5)
    >>> server.handle("ping")                       # True: go on reading
    pong
    True
    >>> server.handle("set-param name=level value=11")
    error message="bad value '11' for level: level must be an integer 1-10, not 11"
    True

    Raises:
        ValueError: an unknown variant or a strength outside 1-10.
    """

    def __init__(self, write: Callable[[str], None], *, variant: Variant | str = "international",
                 strength: int = 10, tt_mb: int = 16, seed: int = 0,
                 clock: Callable[[], float] | None = None) -> None:
        self._write = write
        self._write_lock = threading.Lock()
        self.variant = variant_from_hub(variant) if isinstance(variant, str) else variant
        self.strength = level(strength).number
        self.tt_mb = tt_mb
        self.seed = seed
        self.clock = clock
        #: What a time per move is counted on (the ``clock`` parameter: ``wall`` or ``cpu``).
        self.time_base = "wall"
        self._searcher: Searcher | None = None
        #: The endgame tables of each variant, read once (None: none ship for it).
        self._tables: dict[str, EndgameTable | None] = {}
        self._board: Board | None = None
        self._level = Level()
        self._thread: threading.Thread | None = None
        # Cleared under the write lock as "done" goes out: a GUI that answers "done" at once
        # with "pos" must not find the engine still busy while its search thread winds down.
        self._busy = threading.Event()
        self._token: StopToken = ReadStop()
        #: Set when a ponder search may answer: ``ponder-hit`` or ``stop`` came.
        self._released = threading.Event()
        #: Set once the running search has returned (a ponder search may still wait).
        self._ended = threading.Event()
        #: True from ``go ponder`` until ``ponder-hit`` (or the end of the search).
        self._pondering = False
        self._limit_now = Limit()
        #: The nodes the last ``info`` reported (the final count is sent when it is more).
        self._reported = 0
        #: The handler of each command (a quit handler returns False: stop reading).
        self._handlers: dict[str, Callable[[HubMessage], bool | None]] = {
            "hub": self._cmd_hub, "set-param": self._cmd_set_param, "init": self._cmd_init,
            "ping": self._cmd_ping, "new-game": self._cmd_new_game, "pos": self._cmd_pos,
            "level": self._cmd_level, "go": self._cmd_go, "stop": self._cmd_stop,
            "ponder-hit": self._cmd_ponder_hit, "quit": self._cmd_quit,
        }

    # -- plumbing -----------------------------------------------------------------------------

    def send(self, msg: HubMessage, *, finishes_search: bool = False) -> None:
        """Write one message (thread-safe); ``finishes_search`` marks the end of the search."""
        line = msg.format()
        logger.debug("hub << %s", line)
        with self._write_lock:
            if finishes_search:
                self._busy.clear()
            self._write(line)

    def error(self, text: str) -> None:
        """Send ``error message="..."``."""
        self.send(message("error", message=text.replace('"', "'").replace("\n", " ")))

    @property
    def searching(self) -> bool:
        """True while a search thread runs."""
        return self._busy.is_set()

    def handle(self, line: str) -> bool:
        """Act on one input line; return False once ``quit`` was received. Never raises."""
        logger.debug("hub >> %s", line.rstrip("\r\n"))
        try:
            msg = parse_line(line)
        except HubProtocolError as exc:
            self.error(str(exc))
            return True
        if self.searching and msg.command not in _DURING_SEARCH:
            self.error(f"busy searching: {msg.command!r} ignored (send stop first)")
            return True
        handler = self._handlers.get(msg.command)
        if handler is None:
            self.error(f"unknown command {msg.command!r}")
            return True
        try:
            return handler(msg) is not False
        except Exception as exc:  # a bug must not kill the engine the GUI relies on
            logger.exception("hub command %r failed", msg.command)
            self.error(f"{msg.command} failed: {exc}")
            return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a running search to end; True if none runs any more."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def finished(self, timeout: float | None = None) -> bool:
        """Wait until the running search has returned (a ponder search that has then waits for
        ``ponder-hit`` or ``stop`` before it answers); True if it has, or none runs."""
        return not self.searching or self._ended.wait(timeout)

    def close(self) -> None:
        """Stop a running search (pondering too) and wait for it. Idempotent."""
        self._token.stop()
        self._released.set()
        self.wait()

    # -- commands -----------------------------------------------------------------------------

    def params(self) -> list[ParamSpec]:
        """The parameters declared in answer to ``hub``."""
        names = list(HUB_VARIANTS)
        mapped = {variant_from_hub(name).name for name in names}
        names += [v.name for v in VARIANTS if v.name not in mapped]
        return [
            ParamSpec("variant", hub_variant_name(self.variant), "enum", values=tuple(names)),
            ParamSpec("level", str(self.strength), "int", "1", str(len(LEVELS))),
            ParamSpec("tt-size", str(self.tt_mb), "int", "1", "4096"),
            ParamSpec("seed", str(self.seed), "int", "0", str(2**31 - 1)),
            ParamSpec("clock", self.time_base, "enum", values=CLOCKS),
        ]

    def _cmd_hub(self, msg: HubMessage) -> None:
        self.send(message("id", name=ENGINE_NAME, version=_version(), author="draughtsboard",
                          country="none"))
        for spec in self.params():
            self.send(spec.to_message())
        self.send(message("wait"))

    def _cmd_set_param(self, msg: HubMessage) -> None:
        name, value = msg.get("name"), msg.get("value") or ""
        try:
            if name == "variant":
                self.variant = variant_from_hub(value)
            elif name == "level":
                self.strength = level(int(value)).number
            elif name == "tt-size":
                self.tt_mb = _bounded_int(value, 1, 4096)
            elif name == "seed":
                self.seed = _bounded_int(value, 0, 2**31 - 1)
            elif name == "clock":
                if value not in CLOCKS:
                    raise ValueError(f"must be one of {', '.join(CLOCKS)}")
                self.time_base = value
                return  # the searcher stays: only how its time is counted changes
            else:
                self.error(f"unknown parameter {name!r}")
                return
        except ValueError as exc:
            self.error(f"bad value {value!r} for {name}: {exc}")
            return
        self._searcher = None  # rebuilt with the new settings on the next search

    def _cmd_init(self, msg: HubMessage) -> None:
        self._searcher = self._make_searcher()
        self.send(message("ready"))

    def _cmd_ping(self, msg: HubMessage) -> None:
        self.send(message("pong"))

    def _cmd_new_game(self, msg: HubMessage) -> None:
        if self._searcher is not None:
            self._searcher.new_game()

    def _cmd_pos(self, msg: HubMessage) -> None:
        self._level = Level()  # as in Scan: a new position resets the limit
        self._board = None
        try:
            self._board = board_from_pos(msg, self.variant)
        except ValueError as exc:
            self.error(f"bad position: {exc}")

    def _cmd_level(self, msg: HubMessage) -> None:
        try:
            spec = Level.from_message(msg)
            level_to_limit(spec)  # validate now, not at "go"
        except ValueError as exc:
            self.error(f"bad level: {exc}")
            return
        self._level = spec

    def _cmd_go(self, msg: HubMessage) -> None:
        board = self._board
        if board is None:
            self.error("no position: send pos first")
            self.send(Done().to_message())
            return
        if not board.legal_moves:
            self.send(Done().to_message())
            return
        pondering = "ponder" in msg
        limit = self._limit()
        self._token = ReadStop()
        self._released = threading.Event()
        self._ended = threading.Event()
        self._pondering = pondering
        self._limit_now = limit
        self._reported = 0
        self._busy.set()
        self._thread = threading.Thread(target=self._search, args=(board, limit, pondering),
                                        name="hub-search", daemon=True)
        self._thread.start()

    def _cmd_stop(self, msg: HubMessage) -> None:
        self._token.stop()
        self._released.set()

    def _cmd_ponder_hit(self, msg: HubMessage) -> None:
        thread = self._thread
        if not self.searching or not self._pondering or thread is None:
            return  # nothing pondered (or it already answered): nothing to do
        self._pondering = False
        seconds = time_budget(self._limit_now)[0]
        if seconds is not None and not self._ended.is_set():
            # The search goes on for the move's time from now, on its own thread's clock.
            clock = self._hit_clock(thread)
            threading.Thread(target=_stop_after,
                             args=(clock, seconds, self._token, self._ended),
                             name="hub-ponder-hit", daemon=True).start()
        self._released.set()

    def _cmd_quit(self, msg: HubMessage) -> bool:
        self.close()
        return False

    # -- searching ----------------------------------------------------------------------------

    def _make_searcher(self) -> Searcher:
        clock = self.clock if self.clock is not None else SearchClock()
        options = level(self.strength).options
        name = self.variant.name
        if name not in self._tables:  # read once: a new level or table size keeps them
            self._tables[name] = (EndgameTable.load(self.variant) if options.endgame_tables
                                  and EndgameTable.available(self.variant) else None)
        return Searcher(self.variant, seed=self.seed, tt_mb=self.tt_mb, clock=clock,
                        options=options, tables=self._tables[name])

    def clock_for(self, limit: Limit) -> Callable[[], float]:
        """The clock a search within ``limit`` runs on: our level's own time on the search
        clock (CPU time capped by the wall, as on the board); a time the GUI sets (its
        ``level`` or game clock) on the wall clock it keeps, unless ``clock`` is ``cpu`` (the
        board's worker): then a time per move is the search clock's too. A game clock always
        runs on the wall.

        >>> server = HubServer(lambda line: None)
        >>> _ = server.handle("level move-time=1")
        >>> server.clock_for(Limit(movetime=1.0)) is time.monotonic
        True
        >>> _ = server.handle("set-param name=clock value=cpu")
        >>> server.clock_for(Limit(movetime=1.0))
        SearchClock(wall_factor=2.0)
        """
        if self.clock is not None:
            return self.clock
        if self._level == Level() or (self.time_base == "cpu" and limit.time_left is None):
            return SearchClock()
        return time.monotonic

    def _hit_clock(self, thread: threading.Thread) -> Callable[[], float]:
        """The clock the move's time after a ``ponder-hit`` is counted on: the search thread's
        CPU time capped by the wall (``clock=cpu``, or our level's own time), else the wall."""
        if self.clock is not None:
            return self.clock
        if self._level == Level() or (self.time_base == "cpu"
                                      and self._limit_now.time_left is None):
            return SearchClock(cpu=thread_clock(thread))
        return time.monotonic

    def _limit(self) -> Limit:
        chosen = level(self.strength)
        if self._level == Level():
            return Limit(depth=chosen.depth, movetime=chosen.movetime)
        return level_to_limit(self._level, chosen.depth)

    def _search(self, board: Board, limit: Limit, pondering: bool) -> None:
        try:
            if self._searcher is None or self._searcher.variant.name != board.variant.name:
                self._searcher = self._make_searcher()
            searcher = self._searcher
            searcher.clock = self.clock_for(limit)
            # Pondering is bound by the level's depth only: "ponder-hit" times it from then
            # on (_cmd_ponder_hit), "stop" ends it; one that ends by itself waits for either.
            result = searcher.search(board, Limit(depth=limit.depth) if pondering else limit,
                                     stop=self._token, on_iteration=self._info)
            self._ended.set()
            if pondering:
                self._released.wait()
            self._done(result)
        except Exception as exc:
            logger.exception("hub search failed")
            self.error(f"search failed: {exc}")
            self.send(Done().to_message(), finishes_search=True)

    def _info(self, result: SearchResult) -> None:
        self._reported = result.nodes
        seconds = max(result.seconds, 1e-6)
        pv = " ".join(move_to_hub(move, self.variant) for move in result.pv) or None
        self.send(message("info", depth=result.depth, score=score_to_hub(result.score),
                          nodes=result.nodes, time=round(result.seconds, 3),
                          nps=round(result.nodes / seconds / 1e6, 3), pv=pv))

    def _done(self, result: SearchResult) -> None:
        if result.nodes != self._reported:  # the whole search's nodes, past the last iteration
            self._info(result)
        move = move_to_hub(result.move, self.variant) if result.move is not None else None
        ponder = move_to_hub(result.pv[1], self.variant) if len(result.pv) > 1 else None
        self.send(Done(move, ponder).to_message(), finishes_search=True)


def _stop_after(clock: Callable[[], float], seconds: float, token: StopToken,
                ended: threading.Event) -> None:
    """Stop ``token``'s search once ``clock`` has run ``seconds``, unless it ends first (a CPU
    clock runs no faster than the wall: waiting what is left on the wall never overshoots)."""
    started = clock()
    while True:
        left = seconds - (clock() - started)
        if left <= 0:
            token.stop()
            return
        if ended.wait(left):
            return


def _bounded_int(text: str, low: int, high: int) -> int:
    number = int(text)
    if not low <= number <= high:
        raise ValueError(f"must be {low}..{high}")
    return number


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("draughtsboard")
    except PackageNotFoundError:
        return "0"


def serve(stdin: TextIO, stdout: TextIO, *, variant: str = "international", strength: int = 10,
          tt_mb: int = 16, seed: int = 0) -> int:
    """Run a :class:`HubServer` on text streams until ``quit`` or end of input; return 0.

    >>> import io, sys
    >>> serve(io.StringIO("ping\\nquit\\nping\\n"), sys.stdout, variant="normal")
    pong
    0

    Raises:
        ValueError: an unknown variant or a strength outside 1-10.
    """

    def write(line: str) -> None:
        try:
            stdout.write(line + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):  # the GUI is gone; end of input will follow
            logger.debug("hub output closed; dropped %r", line)

    server = HubServer(write, variant=variant, strength=strength, tt_mb=tt_mb, seed=seed)
    try:
        while True:
            line = stdin.readline()
            if not line:
                break  # the GUI is gone: quit at once, as the protocol asks
            if line.strip() and not server.handle(line):
                break
    finally:
        server.close()
    return 0
