"""Transport of the serial protocol: one port, pyserial's reader thread, a watchdog, reconnects.

:class:`SerialLink` opens a port by URL (``/dev/serial/by-id/...``, a pty path, ``loop://``),
reads it on a :class:`serial.threaded.ReaderThread`, decodes frames into messages and keeps the
latest HELLO and SCAN. Writes go out under a lock. A watchdog thread declares the link lost
after ``link_timeout`` seconds without a valid frame (the microcontroller sends a SCAN at least
once a second) or at once when the port fails (USB unplugged), posts :class:`LinkLost`, and
reopens the same path every ``reconnect_interval`` seconds. On a new port it sends PING, the
CONFIG and the last LEDS frame again, and PING again with a backoff until HELLO comes; that
HELLO posts :class:`LinkRestored` and the full SCAN after it re-syncs the board. When to do
what is decided by the pure state machine in :mod:`board_io.serial.recovery`; this module only
carries it out on a port.

Example:
    >>> link = SerialLink("/dev/serial/by-id/usb-draughtsboard-if00")   # doctest: +SKIP
    >>> link.hello.rows, link.latest_scan().cells[:3]                      # doctest: +SKIP
    (8, (<Reading.EMPTY: 0>, <Reading.OCCUPIED: 1>, <Reading.EMPTY: 0>))
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from board_io import schema
from board_io.clock import Clock, MonotonicClock
from board_io.errors import BoardIOError, DeviceClosed, LinkTimeout
from board_io.extras import require
from board_io.options import ConfigSource, read
from board_io.serial import messages as msg
from board_io.serial.framing import FrameDecoder
from board_io.serial.recovery import PING_BACKOFF, Action, Do, LinkState, Recovery
from board_io.serial.throttle import Throttle
from board_io.types import Reading

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["LinkStats", "SerialLink", "shared_link"]

log = logging.getLogger(__name__)

_PRESENCE = frozenset((Reading.EMPTY, Reading.OCCUPIED))
Listener = Callable[[msg.Message], None]
EventSink = Callable[[Any], None]


@dataclass(slots=True)
class LinkStats:
    """What the link has seen beyond frame decoding (see ``SerialLink.stats()``)."""

    bad_messages: int = 0  # CRC fine, content not a valid message for this board
    seq_gaps: int = 0  # frames the microcontroller numbered but that never arrived intact


class _Protocol:
    """The ``serial.threaded.Protocol`` of one open port; forwards to its link with its epoch."""

    def __init__(self, link: SerialLink, epoch: int) -> None:
        self._link = link
        self._epoch = epoch

    def connection_made(self, transport: Any) -> None:
        pass

    def data_received(self, data: bytes) -> None:
        self._link._received(self._epoch, data)

    def connection_lost(self, exc: BaseException | None) -> None:
        self._link._port_failed(self._epoch, exc)


class SerialLink:
    """A microcontroller on a serial port, shared by the ``serial`` sensor, LED and button views.

    The constructor opens the port, sends PING and waits up to ``connect_timeout`` seconds for
    HELLO, so ``hello`` (board size, capabilities) is known once it returns.

    Example:
        >>> with SerialLink("/dev/ttyACM0", link_timeout=3.0) as link:   # doctest: +SKIP
        ...     link.send(msg.Ping())

    Raises:
        BoardIOError: the port cannot be opened, the URL is invalid or the microcontroller
            speaks a protocol version older than :data:`~board_io.serial.messages.OLDEST_VERSION`
            (a newer one is spoken to in the host's version: versions only add).
        LinkTimeout: no valid HELLO within ``connect_timeout``.
        MissingExtraError: pyserial is not installed.
    """

    _watchdog: threading.Thread | None

    def __init__(
        self,
        url: str,
        *,
        baudrate: int = 115200,
        link_timeout: float = 3.0,
        reconnect_interval: float = 1.0,
        connect_timeout: float = 5.0,
        config: msg.Config | None = None,
        clock: Clock | None = None,
        on_event: EventSink | None = None,
        watchdog: bool = True,
        poll_interval: float = 0.1,
        ping_backoff: Sequence[float] = PING_BACKOFF,
    ) -> None:
        _check_positive(link_timeout=link_timeout, connect_timeout=connect_timeout,
                        reconnect_interval=reconnect_interval, poll_interval=poll_interval,
                        baudrate=baudrate)
        self._serial = require("serial", backend="serial")
        self._threaded = require("serial.threaded", backend="serial")
        self.url = url
        self._baudrate = baudrate
        self._poll_interval = poll_interval
        self._config = config
        self._clock: Clock = clock if clock is not None else MonotonicClock()
        self.on_event: EventSink | None = on_event
        self._init_state()
        self._recovery = Recovery(link_timeout=link_timeout,
                                  reconnect_interval=reconnect_interval, name=url,
                                  ping_backoff=ping_backoff)
        try:
            with self._lock:
                actions = self._open(raise_errors=True)
            self._run(actions)
            if watchdog:  # re-PINGs while the constructor waits
                thread = threading.Thread(
                    target=self._watch, name="draughtsboard-serial-watchdog", daemon=True)
                self._watchdog = thread
                thread.start()
            self._wait_hello(connect_timeout)
        except BaseException:
            self.close()
            raise
        self._starting = False

    def _init_state(self) -> None:
        self._lock = threading.RLock()  # guards everything below but the write sequence
        self._write_lock = threading.Lock()
        self._scan_changed = threading.Condition(self._lock)
        self._hello_seen = threading.Event()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._decoder = FrameDecoder()
        self._stats = LinkStats()
        self._warn = Throttle(log, self._clock, interval=10.0)
        self._listeners: list[Listener] = []
        self._reader: Any = None
        self._epoch = 0  # bumped on every open and loss: stale reader callbacks are ignored
        self._port_error: str | None = None
        self._hello: msg.Hello | None = None
        self._closed = False
        self._starting = True  # errors go into the constructor's exception, not the log
        self._scan: msg.Scan | None = None
        self._scan_count = 0
        self._scan_fresh = False  # a SCAN arrived since the HELLO that brought the link up
        self._last_error = ""
        self._hello_error = ""
        self._last_leds: msg.Leds | None = None
        self._seq = 0
        self._mcu_seq: int | None = None
        self._watchdog = None

    def _wait_hello(self, timeout: float) -> None:
        if not self._hello_seen.wait(timeout):
            why = f" (last error: {self._last_error})" if self._last_error else ""
            raise LinkTimeout(f"no valid HELLO from {self.url} within {timeout} s{why}")
        if self._hello is None:  # a HELLO we cannot work with
            raise BoardIOError(f"{self.url}: {self._hello_error}")

    # -- public API -------------------------------------------------------------------------

    @property
    def hello(self) -> msg.Hello:
        """The microcontroller's HELLO: protocol version, board size, capabilities."""
        hello = self._hello
        if hello is None:  # the constructor waits for it: never None once it returns
            raise BoardIOError(f"{self.url}: no HELLO yet")
        return hello

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    @property
    def connected(self) -> bool:
        """True while the port is open and has said HELLO."""
        with self._lock:
            return self._recovery.state is LinkState.UP

    @property
    def state(self) -> LinkState:
        """Where the link stands: down, waiting for HELLO, or up."""
        with self._lock:
            return self._recovery.state

    @property
    def last_error(self) -> str:
        """Why the last refused message was refused (``""`` if none was)."""
        with self._lock:
            return self._last_error

    def latest_scan(self) -> msg.Scan | None:
        """The last valid SCAN, even a stale one from before a loss of the link."""
        with self._lock:
            return self._scan

    def current_scan(self) -> msg.Scan:
        """The last SCAN, if the link is up and it came after the HELLO that brought it up.

        A microcontroller that restarts while the link is up keeps its board: the SCAN before
        the restart stays current until its next one.

        Raises:
            LinkTimeout: the link is down, or has not re-sent the board since it came back.
            DeviceClosed: the link was closed.
        """
        with self._lock:
            if self._closed:
                raise DeviceClosed(f"serial link {self.url} is closed")
            up = self._recovery.state is LinkState.UP
            if not up or not self._scan_fresh or self._scan is None:
                raise LinkTimeout(f"serial link {self.url} is down")
            return self._scan

    @property
    def scan_count(self) -> int:
        """How many valid SCAN messages have arrived."""
        with self._lock:
            return self._scan_count

    def wait_scan(self, count: int, timeout: float) -> msg.Scan:
        """Wait until ``scan_count >= count`` and return the latest SCAN.

        Raises:
            LinkTimeout: not reached within ``timeout`` seconds.
            DeviceClosed: the link was closed.
        """
        with self._lock:
            ok = self._scan_changed.wait_for(
                lambda: self._closed or self._scan_count >= count, timeout)
            if self._closed:
                raise DeviceClosed(f"serial link {self.url} is closed")
            if not ok or self._scan is None:
                raise LinkTimeout(f"no SCAN #{count} from {self.url} within {timeout} s")
            return self._scan

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(message)`` on the reader thread for every BUTTON and ERROR."""
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling ``listener``; unknown listeners are ignored."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def send(self, message: msg.Message) -> bool:
        """Send ``message``; return False if the link is down (LEDS are re-sent on reconnect).

        Raises:
            DeviceClosed: the link was closed.
        """
        with self._lock:
            if self._closed:
                raise DeviceClosed(f"serial link {self.url} is closed")
            if isinstance(message, msg.Leds):
                self._last_leds = message
            elif isinstance(message, msg.Config):
                self._config = message
            elif isinstance(message, msg.Ping):
                self._recovery.ping_sent(self._clock.monotonic())
            reader, epoch = self._reader, self._epoch
        return reader is not None and self._write(reader, epoch, message)

    def stats(self) -> dict[str, int]:
        """Counters: frames, dropped frames by reason, bad messages, seq gaps, losses, ..."""
        with self._lock:
            life = self._recovery.stats
            link = {"bad_messages": self._stats.bad_messages, "seq_gaps": self._stats.seq_gaps,
                    "losses": life.losses, "reconnects": life.reconnects,
                    "mcu_restarts": life.mcu_restarts, "pings": life.pings,
                    "open_attempts": life.open_attempts}
            return self._decoder.stats.as_dict() | link

    def poll(self) -> None:
        """Check the link now: a port error or silence, a PING to repeat, a port to reopen.

        The watchdog thread calls this every ``poll_interval``; tests with a virtual clock call
        it directly.
        """
        with self._lock:
            if self._closed:
                return
            now = self._clock.monotonic()
            actions: list[Action] = []
            if self._port_error is not None:
                actions += self._recovery.port_failed(now, self._port_error)
                self._port_error = None
            actions += self._recovery.tick(now)
        self._run(actions)

    def close(self) -> None:
        """Stop the watchdog and reader threads and close the port. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            reader, self._reader = self._reader, None
            self._epoch += 1
            self._scan_changed.notify_all()
        self._stop.set()
        self._wake.set()
        self._hello_seen.set()
        if self._watchdog is not None and self._watchdog is not threading.current_thread():
            self._watchdog.join()
        if reader is not None:
            _close_reader(reader)

    def __enter__(self) -> SerialLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else self._recovery.state.value
        return f"<SerialLink {self.url!r} {state}>"

    # -- carrying out the state machine's actions (never under self._lock) ------------------

    def _run(self, actions: list[Action]) -> None:
        for action in actions:
            if action is Do.CLOSE:
                with self._lock:
                    reader = self._detach()
                if reader is not None:
                    _close_reader(reader)
            elif action is Do.OPEN:
                with self._lock:
                    more = [] if self._closed else self._open(raise_errors=False)
                self._run(more)
            elif action is Do.PING:
                self._send_now(msg.Ping())
            elif action is Do.RESEND:
                with self._lock:
                    greeting = [m for m in (self._config, self._last_leds) if m is not None]
                for message in greeting:
                    if not self._send_now(message):
                        break
            else:
                self._post(action)

    def _send_now(self, message: msg.Message) -> bool:
        with self._lock:
            reader, epoch = self._reader, self._epoch
        return reader is not None and self._write(reader, epoch, message)

    # -- port handling (under self._lock) ---------------------------------------------------

    def _open(self, *, raise_errors: bool) -> list[Action]:
        now = self._clock.monotonic()
        try:
            port = self._serial.serial_for_url(
                self.url, baudrate=self._baudrate, timeout=1.0, write_timeout=1.0)
        except (ValueError, OSError, self._serial.SerialException) as exc:
            if raise_errors:
                raise BoardIOError(f"cannot open serial port {self.url}: {exc}") from exc
            return self._recovery.open_failed(now, str(exc))
        self._epoch += 1
        epoch = self._epoch
        self._decoder.reset()
        self._port_error = None
        self._scan_fresh = False
        self._mcu_seq = None
        reader = self._threaded.ReaderThread(port, lambda: _Protocol(self, epoch))
        reader.name = "draughtsboard-serial-reader"
        reader.start()
        self._reader = reader
        # While the link is lost, reopening is routine (every silence): DEBUG, not INFO.
        log.log(logging.DEBUG if self._recovery.lost else logging.INFO,
                "serial port %s open", self.url)
        return self._recovery.opened(now)

    def _detach(self) -> Any:
        reader, self._reader = self._reader, None
        self._epoch += 1
        self._scan_fresh = False
        return reader

    def _write(self, reader: Any, epoch: int, message: msg.Message) -> bool:
        hello = self._hello
        version = msg.PROTOCOL_VERSION if hello is None else min(hello.version,
                                                                 msg.PROTOCOL_VERSION)
        with self._write_lock:
            # A 0x00 before each frame (docs/serial-protocol.md §2): whatever half frame or
            # noise the microcontroller's buffer holds ends there, and costs no PING.
            data = b"\x00" + msg.encode(message, self._seq, version)
            self._seq = (self._seq + 1) & 0xFF
            try:
                reader.write(data)
            except (OSError, self._serial.SerialException) as exc:
                self._port_failed(epoch, exc)
                return False
        log.debug("sent %s to %s", message, self.url)
        return True

    def _port_failed(self, epoch: int, exc: BaseException | None) -> None:
        """Reader thread (or a failed write): the port died. The watchdog does the rest."""
        with self._lock:
            if epoch != self._epoch or self._closed:
                return
            self._port_error = f"port error: {exc}" if exc else "port closed"
        self._wake.set()

    def _watch(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._poll_interval)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self.poll()
            except Exception:  # the watchdog must outlive any surprise
                log.exception("serial watchdog for %s", self.url)

    def _post(self, event: object) -> None:
        sink = self.on_event
        if sink is not None:
            sink(event)

    # -- receiving (reader thread) ----------------------------------------------------------

    def _received(self, epoch: int, data: bytes) -> None:
        with self._lock:
            if epoch != self._epoch:
                return
            frames = self._decoder.feed(data)
            if not frames:
                return
            self._recovery.frame(self._clock.monotonic())
            restarts = []
            for frame in frames:
                # seq 0 on a HELLO: the first frame of a reset microcontroller (unless it
                # follows 255: the count wrapped)
                restart = frame.type == msg.HELLO and frame.seq == 0 and self._mcu_seq != 0xFF
                restarts.append(restart)
                if self._mcu_seq is not None and not restart:
                    self._stats.seq_gaps += (frame.seq - self._mcu_seq - 1) & 0xFF
                self._mcu_seq = frame.seq
        for frame, restart in zip(frames, restarts, strict=True):
            try:
                message = msg.decode(frame)
                if isinstance(message, msg.Hello):
                    self._hello_received(epoch, message, restarted=restart)
                else:
                    self._handle(epoch, message)
            except msg.MessageError as exc:
                self._bad_message(exc)

    def _bad_message(self, exc: msg.MessageError) -> None:
        with self._lock:
            self._stats.bad_messages += 1
            self._last_error = str(exc)
            starting = self._starting
        if starting:  # the constructor's exception says it; once is enough
            log.debug("bad message from %s: %s", self.url, exc)
        else:
            self._warn.warning("bad", "bad message from %s: %s", self.url, exc)

    def _handle(self, epoch: int, message: msg.Message) -> None:
        if isinstance(message, msg.Scan):
            self._scan_received(epoch, message)
        elif isinstance(message, msg.ButtonChange):
            with self._lock:
                hello, listeners = self._hello, tuple(self._listeners)
            if hello is None:
                # the tail of what the microcontroller sent before the port was opened
                log.debug("%s from %s before its HELLO: ignored", message, self.url)
                return
            if message.button >= hello.buttons:
                raise msg.MessageError(
                    f"BUTTON {message.button} but HELLO announced {hello.buttons} buttons")
            for listener in listeners:
                listener(message)
        elif isinstance(message, msg.ErrorReport):
            with self._lock:
                listeners = tuple(self._listeners)
            self._warn.warning(f"error {message.code}", "microcontroller error: %s (arg %d)",
                               message.text, message.arg)
            for listener in listeners:
                listener(message)
        else:
            raise msg.MessageError(f"host-to-microcontroller message {message} received")

    def _hello_received(self, epoch: int, hello: msg.Hello, *, restarted: bool) -> None:
        if hello.version < msg.OLDEST_VERSION:
            error = (f"microcontroller speaks protocol {hello.version}, this host speaks "
                     f"{msg.OLDEST_VERSION} to {msg.PROTOCOL_VERSION}")
            with self._lock:
                self._hello_error = error
            self._hello_seen.set()  # the constructor gives up at once
            raise msg.MessageError(error)
        with self._lock:
            if epoch != self._epoch:
                return
            if self._hello is not None and hello != self._hello:
                raise msg.MessageError(f"HELLO changed from {self._hello} to {hello}")
            if self._hello is None and hello.version != msg.PROTOCOL_VERSION:
                log.info("microcontroller on %s speaks protocol %d: the host speaks %d to it "
                         "(LED roles it does not know are sent as older ones)", self.url,
                         hello.version, min(hello.version, msg.PROTOCOL_VERSION))
            self._hello = hello
            if self._recovery.state is LinkState.HANDSHAKE:
                self._scan_fresh = False  # the SCAN that follows this HELLO re-syncs the board
            actions = self._recovery.hello(self._clock.monotonic(), restarted=restarted)
        self._hello_seen.set()
        self._run(actions)

    def _scan_received(self, epoch: int, scan: msg.Scan) -> None:
        with self._lock:
            if epoch != self._epoch:
                return
            hello = self._hello
            if hello is None:
                # The microcontroller scans whether or not a host listens: a SCAN may come
                # before the answer to the first PING. Not a fault; the next one counts.
                log.debug("SCAN from %s before its HELLO: ignored", self.url)
                return
            if (scan.rows, scan.cols) != (hello.rows, hello.cols):
                raise msg.MessageError(
                    f"SCAN of {scan.rows}x{scan.cols} from a {hello.rows}x{hello.cols} board")
            if not hello.colour and not _PRESENCE.issuperset(scan.cells):
                raise msg.MessageError("SCAN with colours from a presence-only board")
            self._scan = scan
            self._scan_fresh = True
            self._scan_count += 1
            self._scan_changed.notify_all()


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if not value > 0:
            raise BoardIOError(f"serial link: {name} must be > 0, got {value!r}")


def _close_reader(reader: Any) -> None:
    """Stop a reader thread and close its port; safe from the reader thread itself."""
    if reader.ident == threading.get_ident():
        reader.alive = False
        reader.serial.close()
        return
    try:
        reader.close()
    except Exception as exc:  # a dead USB port may fail to close; it is gone either way
        log.debug("closing %s: %s", reader.serial, exc)


def shared_link(config: ConfigSource, context: BackendContext) -> SerialLink:
    """Return the one :class:`SerialLink` of this board, opening it from ``serial.*`` options.

    The sensor, LED and button views all call this; the first call opens the port and the
    context closes it. The microcontroller is told to scan at ``timing.scan_hz``.

    Raises:
        ConfigError: a bad option, named by its key.
        BoardIOError, LinkTimeout: as :class:`SerialLink`.
    """
    def open_link() -> SerialLink:
        scan_hz = read(config, schema.SCAN_HZ)
        return SerialLink(
            read(config, schema.SERIAL_PORT),
            baudrate=read(config, schema.SERIAL_BAUDRATE),
            link_timeout=read(config, schema.SERIAL_LINK_TIMEOUT_S),
            reconnect_interval=read(config, schema.SERIAL_RECONNECT_S),
            connect_timeout=read(config, schema.SERIAL_CONNECT_TIMEOUT_S),
            config=msg.Config(scan_period_ms=max(1, round(1000 / scan_hz)),
                              debounce_ms=read(config, schema.SERIAL_DEBOUNCE_MS)),
            clock=context.clock,
        )

    return context.shared_resource("serial", open_link)
