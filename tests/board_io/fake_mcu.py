"""A fake microcontroller speaking the serial protocol on the master side of a pty pair.

The host opens ``path``, a symlink to the pty's slave side, like a ``/dev/serial/by-id/...``
link. Unplugging is :meth:`FakeMcu.unplug` (removes the link and closes the pty: the host's
reads fail); plugging a new one in is another ``FakeMcu`` on the same path.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Callable, Sequence
from pathlib import Path

from board_io.serial import messages as msg
from board_io.serial.framing import FrameDecoder
from board_io.types import Reading


class FakeMcu:
    """Answers PING with HELLO and a full SCAN; records every message the host sends."""

    def __init__(self, path: Path, *, rows: int = 8, cols: int = 8, colour: bool = False,
                 rgb: bool = False, buttons: int = 3, version: int = msg.PROTOCOL_VERSION,
                 cells: Sequence[Reading] | None = None, answer_ping: bool = True,
                 scan_first: bool = False) -> None:
        self.path = path
        self.hello = msg.Hello(version, rows, cols, colour, rgb, buttons)
        self.cells = tuple(cells) if cells is not None else (Reading.EMPTY,) * (rows * cols)
        self.answer_ping = answer_ping
        self.scan_first = scan_first  # a SCAN (and a BUTTON) already under way when PINGed
        self.ignore_pings = 0  # the next this many PINGs are missed (a loose wire)
        self.received: list[msg.Message] = []
        self.kinds: list[int] = []  # the message type of each, as it came on the wire
        self.raw = bytearray()  # every byte the host sent, as it came
        self.decoder = FrameDecoder()
        self._changed = threading.Condition()
        self._seq = 0
        self._write_lock = threading.Lock()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no line discipline mangling bytes before the host opens it
        self._wake_r, self._wake_w = os.pipe()
        temporary = path.with_name(path.name + ".new")
        temporary.unlink(missing_ok=True)
        self.tty = os.ttyname(self._slave)
        temporary.symlink_to(self.tty)
        temporary.replace(path)  # atomic: the host never sees a missing link mid-switch
        self._thread = threading.Thread(target=self._run, name="fake-mcu", daemon=True)
        self._thread.start()

    # -- what the test does ------------------------------------------------------------------
    def send(self, message: msg.Message) -> None:
        """Send a message (with a leading delimiter, as real firmware should)."""
        with self._write_lock:
            data = msg.encode(message, self._seq)
            self._seq = (self._seq + 1) & 0xFF
        self.send_raw(b"\x00" + data)

    def send_raw(self, data: bytes) -> None:
        """Write raw bytes on the wire."""
        with self._write_lock:
            os.write(self._master, data)

    def set_cells(self, cells: Sequence[Reading]) -> None:
        """Change the board and send the SCAN."""
        self.cells = tuple(cells)
        self.send_scan()

    def send_scan(self) -> None:
        """Send the current board."""
        self.send(msg.Scan(self.hello.rows, self.hello.cols, self.cells))

    def restart(self, *, scan: bool = True) -> None:
        """Reset as a microcontroller does: seq back to 0, HELLO (and a SCAN) unasked."""
        with self._write_lock:
            self._seq = 0
        self.send(self.hello)
        if scan:
            self.send_scan()

    def count(self, kind: type) -> int:
        """How many messages of ``kind`` the host has sent so far."""
        with self._changed:
            return sum(isinstance(m, kind) for m in self.received)

    def wait_for(self, predicate: Callable[[list[msg.Message]], bool],
                 timeout: float = 5.0) -> list[msg.Message]:
        """Wait until ``predicate(received)`` holds; return the messages received.

        Raises:
            AssertionError: not within ``timeout`` seconds.
        """
        with self._changed:
            if not self._changed.wait_for(lambda: predicate(self.received), timeout):
                raise AssertionError(f"fake MCU: condition not met; received {self.received}")
            return list(self.received)

    def unplug(self) -> None:
        """Remove the by-id link and close the pty, as a USB unplug does. Idempotent."""
        if self._master < 0:
            return
        if self.path.is_symlink() and os.readlink(self.path) == self.tty:
            self.path.unlink()  # udev removes the link; the pty number may be reused at once
        os.write(self._wake_w, b"x")
        self._thread.join()
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            os.close(fd)
        self._master = -1

    # -- the firmware ------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            ready, _, _ = select.select([self._master, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            with self._changed:
                self.raw += data
            for frame in self.decoder.feed(data):
                message = msg.decode(frame)
                with self._changed:
                    self.received.append(message)
                    self.kinds.append(frame.type)
                    self._changed.notify_all()
                if isinstance(message, msg.Ping) and self.ignore_pings > 0:
                    self.ignore_pings -= 1
                elif isinstance(message, msg.Ping) and self.answer_ping:
                    if self.scan_first:
                        self.send_scan()
                        self.send(msg.ButtonChange(0, True))
                    self.send(self.hello)
                    self.send_scan()
