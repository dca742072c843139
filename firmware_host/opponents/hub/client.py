"""A client for an external Hub engine (Scan ``scan hub``, or any Hub-speaking program).

Three layers, as in python-chess's ``engine`` module:

- :class:`HubProcess` (in :mod:`firmware_host.opponents.hub.process`) is the transport: the engine
  process (argv list, never a shell), a named reader thread that queues its stdout lines,
  writes under a lock, every line logged at DEBUG.
- :class:`HubClient` speaks the protocol over one process: ``hub``/``param``/``wait``,
  ``set-param``, ``init``/``ready``, ``pos``, ``level``, ``go``/``info``/``done``, ``stop``,
  ``ping``/``pong``, ``quit``. Every call has a timeout (:class:`HubTimeout`).
- :class:`HubEngine` is the blocking facade the session uses: ``play(board, limit, stop)``.
  It starts the engine on first use, restarts it (re-sending the parameters) on the next call
  after it stopped answering, starts it again and repeats the search when it died (once a
  search), and validates every move it returns. ``ponder(board, limit)`` has it think on the
  opponent's time (``go ponder``); the next ``play`` of that same position is a ``ponder-hit``,
  any other stops the ponder search first. How to run the engine is a
  :class:`~firmware_host.opponents.hub.config.HubEngineConfig`.

Example, with our own engine as the Hub engine (Scan is ``("/opt/scan/scan", "hub")`` run from
its own directory, with ``params={"book": "true", "threads": "1"}``):

>>> import sys
>>> from engine import Board
>>> config = HubEngineConfig(command=(sys.executable, "-m", "firmware_host.cli", "engine",
...                                   "--hub"), params={"tt-size": "1"})
>>> with HubEngine(config) as engine:
...     result = engine.play(Board("international"), Limit(depth=2))
...     (engine.name, result.move in Board("international").legal_moves)
('draughtsboard', True)
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType

from engine import Board, Move, Variant
from engine.clock import WALL_FACTOR
from engine.search import Limit, StopToken
from firmware_host.opponents.hub.config import CONFIG_KEYS, HubEngineConfig
from firmware_host.opponents.hub.notation import hub_variant_name, move_from_hub, pos_message
from firmware_host.opponents.hub.process import (
    HubEngineDied,
    HubEngineError,
    HubProcess,
    HubTimeout,
)
from firmware_host.opponents.hub.protocol import (
    Done,
    HubMessage,
    HubProtocolError,
    Level,
    ParamSpec,
    SearchInfo,
    message,
    parse_line,
)

InfoHook = Callable[[SearchInfo], None]

__all__ = [
    "CONFIG_KEYS",
    "HubClient",
    "HubEngine",
    "HubEngineConfig",
    "HubEngineDied",
    "HubEngineError",
    "HubPlayResult",
    "HubProcess",
    "HubTimeout",
    "limit_to_level",
    "search_budget",
]

logger = logging.getLogger(__name__)

#: How often a waiting call looks at a stop token, in seconds.
_STOP_POLL = 0.02


@dataclass(frozen=True)
class _Pondering:
    """A ``go ponder`` under way: the ``pos`` line of the position it thinks on, its limit."""

    pos: str
    limit: Limit
    level: Level


@dataclass(frozen=True)
class HubPlayResult:
    """What the engine answered to one ``go``: the move, its expected reply, the last ``info``.

    ``stopped`` is True when the search was cut short (stop token or time-out).
    """

    move: Move
    ponder: str | None
    info: SearchInfo
    seconds: float
    stopped: bool = False
    #: The engine had pondered this position: the answer came after a ``ponder-hit``.
    hit: bool = False


class HubClient:
    """The Hub protocol over one :class:`HubProcess`; every call takes a timeout in seconds.

    Malformed lines from the engine are logged and skipped, never fatal.

    >>> import sys
    >>> client = HubClient(HubProcess([sys.executable, "-m", "firmware_host.cli", "engine",
    ...                                "--hub"]))
    >>> engine_id, params = client.handshake(timeout=10)
    >>> engine_id["name"], sorted(params)
    ('draughtsboard', ['clock', 'level', 'seed', 'tt-size', 'variant'])
    >>> client.init(timeout=10)
    >>> client.ping(timeout=10)                 # the error lines received meanwhile
    []
    >>> client.quit(timeout=5)
    """

    def __init__(self, process: HubProcess, clock: Callable[[], float] = time.monotonic) -> None:
        self.process = process
        self.clock = clock

    def send(self, msg: HubMessage) -> None:
        """Send one message.

        Raises:
            HubEngineDied: the engine has exited.
        """
        self.process.send(msg.format())

    def receive(self, timeout: float) -> HubMessage:
        """Return the next well-formed message; malformed lines are logged and skipped.

        Raises:
            HubTimeout, HubEngineDied.
        """
        deadline = self.clock() + timeout
        while True:
            line = self.process.receive(deadline - self.clock())
            if not line.strip():
                continue
            try:
                return parse_line(line)
            except HubProtocolError as exc:
                logger.warning("hub engine %d sent a malformed line, ignored: %s",
                               self.process.pid, exc)

    def wait_for(self, command: str, timeout: float,
                 on_other: Callable[[HubMessage], None] | None = None) -> HubMessage:
        """Read until a ``command`` message arrives; others go to ``on_other`` (or are logged).

        Raises:
            HubTimeout: ``command`` did not come within ``timeout``.
            HubEngineDied: the engine exited meanwhile.
        """
        deadline = self.clock() + timeout
        while True:
            msg = self.receive(deadline - self.clock())
            if msg.command == command:
                return msg
            if on_other is not None:
                on_other(msg)
            elif msg.command == "error":
                logger.warning("hub engine %d error: %s", self.process.pid, msg.get("message"))
            else:
                logger.debug("hub engine %d: ignored %r while waiting for %r",
                             self.process.pid, msg.command, command)

    def handshake(self, timeout: float) -> tuple[dict[str, str], dict[str, ParamSpec]]:
        """Send ``hub``; return the ``id`` fields and the declared parameters by name.

        Raises:
            HubTimeout: no ``wait`` within ``timeout``. HubEngineDied.
        """
        engine_id: dict[str, str] = {}
        params: dict[str, ParamSpec] = {}

        def collect(msg: HubMessage) -> None:
            if msg.command == "id":
                engine_id.update((k, v or "") for k, v in msg.args)
            elif msg.command == "param":
                try:
                    spec = ParamSpec.from_message(msg)
                except HubProtocolError as exc:
                    logger.warning("hub engine %d: bad param line ignored: %s",
                                   self.process.pid, exc)
                    return
                params[spec.name] = spec

        self.send(message("hub"))
        self.wait_for("wait", timeout, collect)
        return engine_id, params

    def set_param(self, name: str, value: str) -> None:
        """Send ``set-param name=... value=...`` (no answer expected)."""
        self.send(message("set-param", name=name, value=value))

    def init(self, timeout: float) -> None:
        """Send ``init`` and wait for ``ready``.

        Raises:
            HubTimeout, HubEngineDied.
        """
        self.send(message("init"))
        self.wait_for("ready", timeout)

    def ping(self, timeout: float) -> list[str]:
        """Send ``ping``, wait for ``pong``; return the ``error`` messages received meanwhile.

        Raises:
            HubTimeout, HubEngineDied.
        """
        errors: list[str] = []

        def collect(msg: HubMessage) -> None:
            if msg.command == "error":
                errors.append(msg.get("message") or msg.format())

        self.send(message("ping"))
        self.wait_for("pong", timeout, collect)
        return errors

    def go(self, timeout: float, stop: StopToken | None, stop_timeout: float,
           on_info: InfoHook | None = None) -> tuple[Done, bool]:
        """Send ``go think``; wait for ``done``; return it and whether ``stop`` had to be sent.

        ``stop`` is sent when the token is set or ``timeout`` passes; the engine then has
        ``stop_timeout`` to answer ``done``.

        Raises:
            HubTimeout: no ``done`` even after ``stop``. HubEngineDied.
        """
        self.send(message("go", "think"))
        return self.finish(timeout, stop, stop_timeout, on_info)

    def finish(self, timeout: float, stop: StopToken | None, stop_timeout: float,
               on_info: InfoHook | None = None) -> tuple[Done, bool]:
        """Wait for the ``done`` of the search under way (see :meth:`go`).

        Raises:
            HubTimeout: no ``done`` even after ``stop``. HubEngineDied.
        """
        deadline = self.clock() + timeout
        stopped = False
        while True:
            now = self.clock()
            if not stopped and (now >= deadline or (stop is not None and stop.stopped)):
                self.send(message("stop"))
                stopped = True
                deadline = now + stop_timeout
            wait = deadline - now
            if stop is not None and not stopped:
                wait = min(wait, _STOP_POLL)
            try:
                msg = self.receive(wait)
            except HubTimeout:
                if stopped and self.clock() >= deadline:
                    raise HubTimeout(f"hub engine {self.process.pid} gave no move "
                                     f"{stop_timeout:.1f} s after stop") from None
                continue
            if msg.command == "done":
                return Done.from_message(msg), stopped
            if msg.command == "info" and on_info is not None:
                on_info(SearchInfo.from_message(msg))
            elif msg.command == "error":
                logger.warning("hub engine %d error: %s", self.process.pid, msg.get("message"))

    def quit(self, timeout: float) -> None:
        """Send ``quit`` and close the process (killed if it does not exit within ``timeout``)."""
        with contextlib.suppress(HubEngineDied):
            self.send(message("quit"))
        self.process.close(timeout)


def limit_to_level(limit: Limit, default_movetime: float, *, whole: bool = False) -> Level:
    """Translate our search limit into one Hub ``level`` form (the protocol's ``level`` takes
    one of ``depth=``, ``nodes=``, ``move-time=``, ``[moves=] time= [inc=]``, ``infinite``).

    The first bound of depth, nodes, time per move, clock is sent; a time bound not sent is kept
    by :class:`HubEngine` itself, which sends ``stop`` when it has passed (see
    :func:`search_budget`). Hub engines add the increment before each move, so the clock sent is
    ``time_left - increment``. A limit with no bound at all gets ``default_movetime``.
    ``whole``: every bound in the one line (the built-in engine's own process reads them all).

    >>> limit_to_level(Limit(depth=8, movetime=0.6), 1.0).to_message().format()
    'level depth=8'
    >>> limit_to_level(Limit(depth=8, movetime=0.6), 1.0, whole=True).to_message().format()
    'level depth=8 move-time=0.6'
    >>> limit_to_level(Limit(time_left=60.0, increment=2.0), 1.0) == Level(time=58.0, inc=2.0)
    True
    >>> limit_to_level(Limit(), default_movetime=1.5).to_message().format()
    'level move-time=1.5'
    """
    if whole and (limit.depth, limit.nodes, limit.movetime, limit.time_left) != (None,) * 4:
        increment = limit.increment or 0.0
        clock = None if limit.time_left is None else max(0.0, limit.time_left - increment)
        return Level(depth=limit.depth, nodes=limit.nodes, move_time=limit.movetime, time=clock,
                     inc=limit.increment if clock is not None else None)
    if limit.depth is not None:
        return Level(depth=limit.depth)
    if limit.nodes is not None:
        return Level(nodes=limit.nodes)
    if limit.movetime is not None:
        return Level(move_time=limit.movetime)
    if limit.time_left is not None:
        increment = limit.increment or 0.0
        return Level(time=max(0.0, limit.time_left - increment),
                     inc=limit.increment)
    return Level(move_time=default_movetime)


def search_budget(limit: Limit, level: Level, config: HubEngineConfig) -> float:
    """Seconds to wait for ``done`` before sending ``stop``: the shortest time bound of the
    limit and of the ``level`` sent (else ``config.search_timeout``), plus the margin. The
    built-in engine's process counts a time per move in CPU seconds, which may take up to
    ``WALL_FACTOR`` times as long on the wall: it is given that.

    >>> config = HubEngineConfig(command=("scan", "hub"), search_margin=0.5)
    >>> search_budget(Limit(depth=8, movetime=2.0), Level(depth=8), config)
    2.5
    """
    budgets = [config.search_timeout]
    factor = WALL_FACTOR if config.builtin else 1.0
    for seconds in (limit.movetime, level.move_time):
        if seconds is not None:
            budgets.append(seconds * factor)
    if level.time is not None:
        budgets.append(level.time + (level.inc or 0.0))
    return min(budgets) + config.search_margin


class HubEngine:
    """Blocking facade over an external Hub engine, started on first use and restarted after it
    dies or stops answering (the parameters are sent again). One call at a time (a lock).

    >>> with HubEngine(HubEngineConfig(command=("/opt/scan/scan", "hub"))) as engine:
    ...     engine.name, engine.starts      # nothing started before the first request
    ('/opt/scan/scan', 0)

    Raises:
        ValueError: ``config.params`` sets ``variant`` (the board being played decides it).
    """

    def __init__(self, config: HubEngineConfig, *, clock: Callable[[], float] = time.monotonic,
                 process_factory: Callable[[Sequence[str], str | None], HubProcess] = HubProcess,
                 ) -> None:
        if "variant" in config.params:
            raise ValueError("do not set the hub 'variant' parameter: the board's variant is used")
        self.config = config
        self.clock = clock
        self._factory = process_factory
        self._client: HubClient | None = None
        self._variant: str | None = None  # the Hub name of the running engine's variant
        self._our_variant = "international"  # the same, as our name: restarts use it
        self._lock = threading.Lock()
        self._closed = False
        self._pondering: _Pondering | None = None
        #: Parameters set since start (:meth:`configure`): sent at every start, and those not
        #: yet sent to the running engine (``_due``) before its next search.
        self._params_lock = threading.Lock()
        self._overrides: dict[str, str] = {}
        self._due: dict[str, str] = {}
        #: ``id`` fields and declared parameters of the running engine (empty before start).
        self.engine_id: dict[str, str] = {}
        self.params: dict[str, ParamSpec] = {}
        #: How many times the engine process has been started.
        self.starts = 0

    @property
    def name(self) -> str:
        """The engine's ``id name``, or its program path before it has started."""
        return self.engine_id.get("name", self.config.command[0])

    @property
    def pid(self) -> int | None:
        """The process id of the running engine (None before it has started or once closed)."""
        client = self._client
        return None if client is None else client.process.pid

    def start(self, variant: Variant | str = "international") -> None:
        """Start the engine now for ``variant`` (else the first :meth:`play` does).

        Raises:
            HubEngineError: it cannot start, rejects a parameter, or lacks the variant.
        """
        with self._lock:
            self._running(variant)

    def play(self, board: Board, limit: Limit, stop: StopToken | None = None,
             on_info: InfoHook | None = None) -> HubPlayResult:
        """Ask the engine for its move in ``board`` within ``limit``; returns a legal move.

        Setting ``stop`` (from another thread) sends ``stop``; the engine's move is still returned.

        An engine that dies (before the search, found dead between two moves, or during it) is
        started again, with one warning, and asked once more, so the game does not lose a move
        to it; a second death in the same call raises. When the engine was pondering
        (:meth:`ponder`) on this very position and limit, the ponder search becomes this one
        (``ponder-hit``); otherwise it is stopped and its answer dropped first.

        Raises:
            ValueError: ``board`` has no legal move.
            HubTimeout: no answer in time (the engine is killed; the next call restarts it).
            HubEngineError: it died twice, rejected the position, or played an illegal move.
        """
        if not board.legal_moves:
            raise ValueError(f"no legal move to search in {board.fen()}")
        with self._lock:
            for attempt in (1, 2):
                client = self._running(board.variant)
                try:
                    return self._play(client, board, limit, stop, on_info)
                except HubEngineDied as exc:
                    self._discard()
                    if attempt == 2 or self._closed:  # closed meanwhile: ended on purpose
                        raise
                    logger.warning("engine %s died (%s); started again, searching the move again",
                                   self.name, exc)
                except HubEngineError:
                    self._discard()
                    raise
            raise AssertionError("unreachable: the second attempt returns or raises")

    def ponder(self, board: Board, limit: Limit) -> bool:
        """Have the running engine think on ``board`` (the position after the reply it expects)
        until the next :meth:`play`; False when it cannot (not running, no legal move, another
        variant, closed). A failure here only loses the ponder: the next :meth:`play` starts
        the engine again if it died.
        """
        if not board.legal_moves:
            return False
        with self._lock:
            client = self._client
            if (self._closed or client is None or not client.process.alive
                    or self._variant != hub_variant_name(board.variant)):
                return False
            self._end_ponder(client)
            try:
                level = self._send_position(client, board, limit)
                client.send(message("go", "ponder"))
            except HubEngineError as exc:
                logger.info("%s: no pondering (%s)", self.name, exc)
                if not client.process.alive:
                    self._discard()
                return False
            self._pondering = _Pondering(pos_message(board).format(), limit, level)
            return True

    @property
    def pondering(self) -> bool:
        """The engine is thinking on the opponent's time (:meth:`ponder`)."""
        return self._pondering is not None

    def configure(self, params: dict[str, str]) -> None:
        """Set parameters from the next search on (a running engine is sent ``set-param``
        before it; a restart sends them with the others). Never blocks: a search may run.

        Raises:
            ValueError: ``variant`` is among them (the board being played decides it).
        """
        if "variant" in params:
            raise ValueError("do not set the hub 'variant' parameter: the board's variant is used")
        with self._params_lock:
            self._overrides.update(params)
            self._due.update(params)

    def _play(self, client: HubClient, board: Board, limit: Limit, stop: StopToken | None,
              on_info: InfoHook | None) -> HubPlayResult:
        started = self.clock()
        infos: list[SearchInfo] = []

        def keep(info: SearchInfo) -> None:
            infos.append(info)
            if on_info is not None:
                on_info(info)

        pondered = self._pondering
        hit = (pondered is not None and not self._due and pondered.limit == limit
               and pondered.pos == pos_message(board).format())
        if hit and pondered is not None:
            self._pondering = None
            client.send(message("ponder-hit"))
            level = pondered.level
        else:
            self._end_ponder(client)
            level = self._send_position(client, board, limit)
            client.send(message("go", "think"))
        done, stopped = client.finish(search_budget(limit, level, self.config), stop,
                                      self.config.stop_timeout, keep)
        text = done.move
        if text is None:
            raise HubEngineError(f"{self.name} gave no move in {board.fen()}: "
                                 f"{done.to_message().format()!r}")
        try:
            move = move_from_hub(board, text)
        except ValueError as exc:
            raise HubEngineError(f"{self.name} played {text!r}, not legal in {board.fen()}: "
                                 f"{exc}") from exc
        info = infos[-1] if infos else SearchInfo()
        return HubPlayResult(move, done.ponder, info, self.clock() - started, stopped, hit)

    def _send_position(self, client: HubClient, board: Board, limit: Limit) -> Level:
        """Parameters due, ``pos`` (checked by a ``ping``) and ``level``; returns the level."""
        self._send_due(client)
        client.send(pos_message(board))
        # Scan answers a bad "pos" only with "error" and would then search another
        # position: a ping round trip catches that before "go".
        errors = client.ping(self.config.reply_timeout)
        if errors:
            raise HubEngineError(f"{self.name} rejected the position {board.fen()}: {errors}")
        level = limit_to_level(limit, self.config.default_movetime, whole=self.config.builtin)
        client.send(level.to_message())  # one level line (one form, but for our own engine)
        return level

    def _end_ponder(self, client: HubClient) -> None:
        """Stop a ponder search under way and drop its answer (it pondered the wrong move)."""
        pondered, self._pondering = self._pondering, None
        if pondered is not None:
            client.send(message("stop"))
            client.wait_for("done", self.config.stop_timeout)

    def _send_due(self, client: HubClient) -> None:
        with self._params_lock:
            due, self._due = self._due, {}
        for name, value in self._checked(due.items()):
            client.set_param(name, value)

    def ping(self) -> None:
        """Check that the engine answers (starting it if needed).

        Raises:
            HubTimeout, HubEngineError.
        """
        with self._lock:
            client = self._client
            if client is None or not client.process.alive:
                client = self._running(self._our_variant)
            try:
                client.ping(self.config.reply_timeout)
            except HubEngineError:
                self._discard()
                raise

    def _running(self, variant: Variant | str) -> HubClient:
        if self._closed:
            raise HubEngineError(f"hub engine {self.name} is closed")
        hub_name = hub_variant_name(variant)
        client = self._client
        if client is not None and client.process.alive and self._variant == hub_name:
            return client
        if client is not None:
            if client.process.alive:
                logger.info("restarting %s for variant %s", self.name, hub_name)
            else:
                logger.warning("hub engine %s died; restarting it", self.name)
            self._discard()
        self._client = self._launch(hub_name)
        self._variant = hub_name
        self._our_variant = variant if isinstance(variant, str) else variant.name
        return self._client

    def _launch(self, hub_name: str) -> HubClient:
        process = self._factory(self.config.command, self.config.cwd)
        self.starts += 1
        client = HubClient(process, self.clock)
        try:
            engine_id, params = client.handshake(self.config.handshake_timeout)
            self.engine_id, self.params = engine_id, params
            for name, value in self._settings(hub_name):
                client.set_param(name, value)
            client.init(self.config.init_timeout)
        except BaseException:
            process.close(self.config.quit_timeout)
            raise
        logger.info("hub engine %s %s started (pid %d, variant %s)", self.name,
                    engine_id.get("version", ""), process.pid, hub_name)
        return client

    def _settings(self, hub_name: str) -> list[tuple[str, str]]:
        """The ``set-param`` pairs to send, checked against what the engine declared."""
        pairs: list[tuple[str, str]] = []
        spec = self.params.get("variant")
        if spec is None:
            if hub_name != "normal":
                raise HubEngineError(f"{self.name} declares no variant: it plays international "
                                     f"draughts only, not {hub_name}")
        elif spec.values and hub_name not in spec.values:
            raise HubEngineError(f"{self.name} does not play {hub_name}; it plays "
                                 f"{', '.join(spec.values)}")
        elif spec.value != hub_name:
            pairs.append(("variant", hub_name))
        with self._params_lock:
            given = {**self.config.params, **self._overrides}
            self._due.clear()  # a new process is sent them all now
        pairs += self._checked(given.items())
        return pairs

    def _checked(self, given: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """The ``set-param`` pairs of ``given``, checked against what the engine declared.

        Raises:
            HubEngineError: a parameter it does not declare, or a value it would refuse.
        """
        pairs: list[tuple[str, str]] = []
        for name, value in given:
            declared = self.params.get(name)
            if declared is None:
                raise HubEngineError(f"{self.name} has no parameter {name!r}; it has: "
                                     f"{', '.join(sorted(self.params)) or 'none'}")
            problem = declared.problem(str(value))
            if problem is not None:
                raise HubEngineError(f"hub parameter {name}={value!r}: must be {problem}")
            pairs.append((name, str(value)))
        return pairs

    def _discard(self) -> None:
        self._pondering = None
        client, self._client, self._variant = self._client, None, None
        if client is not None:
            client.quit(self.config.quit_timeout)  # killed if it does not exit in time

    def close(self) -> None:
        """Send ``quit`` and end the engine process. Idempotent.

        Called from another thread while :meth:`play` runs, it ends the process at once; that
        ``play`` then raises :class:`HubEngineDied`.
        """
        self._closed = True
        if not self._lock.acquire(blocking=False):
            client = self._client
            if client is not None:
                client.process.close(self.config.quit_timeout)
            return
        try:
            client, self._client = self._client, None
            if client is not None:
                client.quit(self.config.quit_timeout)
        finally:
            self._lock.release()

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
