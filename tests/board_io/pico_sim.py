"""The Pico reference firmware under CPython: stand-ins for ``machine``/``rp2``/``neopixel``,
an electrical model of the switch matrix (diodes or not), and the firmware on a pty.

:class:`SwitchBoard` models the wires: driving a line propagates its level through closed
switches, row -> column always, column -> row only through a switch without a diode. So a
diode-less matrix shows the same ghost closures as real hardware, and the firmware's backwards
diode check sees what it would see on a real board.
"""

from __future__ import annotations

import os
import select
import sys
import threading
import time
import tty
import types
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from board_io.firmware import PICO_DIR

if str(PICO_DIR) not in sys.path:
    sys.path.insert(0, str(PICO_DIR))


# -- stand-ins for the MicroPython modules -------------------------------------------------

class StubPin:
    """``machine.Pin``: a free-standing pin whose input level the test sets (buttons)."""

    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, pin_id: int, mode: int = -1, pull: int | None = None) -> None:
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == StubPin.PULL_UP else 0

    def init(self, mode: int = -1, pull: int | None = None) -> None:
        self.mode = mode
        self.pull = pull

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.level
        self.level = v
        return None


class StubStateMachine:
    """``rp2.StateMachine``: records what is put into its FIFO."""

    def __init__(self, sm_id: int, program: object, **kwargs: object) -> None:
        self.sm_id, self.program, self.kwargs = sm_id, program, kwargs
        self.active_state = 0
        self.words: list[int] = []

    def active(self, value: int) -> None:
        self.active_state = value

    def put(self, words: Iterable[int], shift: int = 0) -> None:
        self.words = [w << shift for w in words]


class StubNeoPixel:
    """``neopixel.NeoPixel``."""

    def __init__(self, pin: object, count: int) -> None:
        self.pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * count
        self.written: list[tuple[int, int, int]] = []

    def __setitem__(self, index: int, rgb: tuple[int, int, int]) -> None:
        self.pixels[index] = rgb

    def write(self) -> None:
        self.written = list(self.pixels)


def install_stubs() -> dict[str, types.ModuleType]:
    """Put ``machine``, ``rp2``, ``neopixel``, ``micropython`` stand-ins in ``sys.modules``."""
    machine = types.ModuleType("machine")
    machine.Pin = StubPin  # type: ignore[attr-defined]
    rp2 = types.ModuleType("rp2")

    class PIO:
        OUT_LOW, OUT_HIGH, SHIFT_LEFT, SHIFT_RIGHT = 0, 1, 0, 1

    def asm_pio(**kwargs: object) -> Callable[[Callable[[], None]], object]:
        # The real decorator runs the function with the PIO instructions as globals; here the
        # program is only carried around (its body is checked by mpy-cross).
        return lambda program: ("pio-program", program.__name__, kwargs)

    rp2.PIO = PIO  # type: ignore[attr-defined]
    rp2.asm_pio = asm_pio  # type: ignore[attr-defined]
    rp2.StateMachine = StubStateMachine  # type: ignore[attr-defined]
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = StubNeoPixel  # type: ignore[attr-defined]
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = lambda code: None  # type: ignore[attr-defined]
    modules = {"machine": machine, "rp2": rp2, "neopixel": neopixel, "micropython": micropython}
    sys.modules.update(modules)
    return modules


# -- the electrical matrix -----------------------------------------------------------------

class SwitchBoard:
    """Reed switches between ``rows`` row lines and ``cols`` column lines.

    ``closed``: cells ``r * cols + c`` whose switch is closed (a piece stands there);
    ``no_diode``: cells whose switch has no diode (``diodes=False``: none has one);
    ``stuck``: cells whose switch is always closed. Thread-safe.
    """

    def __init__(self, rows: int, cols: int, *, diodes: bool = True,
                 active_high: bool = True) -> None:
        self.rows, self.cols = rows, cols
        self.active_high = active_high
        self.no_diode: set[int] = set() if diodes else set(range(rows * cols))
        self.stuck: set[int] = set()
        self._closed: set[int] = set()
        self._lock = threading.Lock()
        self.row_pins = [_LinePin(self, "r", r) for r in range(rows)]
        self.col_pins = [_LinePin(self, "c", c) for c in range(cols)]

    def set_closed(self, cells: Iterable[int]) -> None:
        with self._lock:
            self._closed = set(cells)

    def close(self, cell: int) -> None:
        with self._lock:
            self._closed.add(cell)

    def open(self, cell: int) -> None:
        with self._lock:
            self._closed.discard(cell)

    @property
    def closed(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._closed | self.stuck)

    def level(self, kind: str, index: int) -> int:
        """What the input ``kind``/``index`` reads: a driven line's level if one reaches it."""
        pins = self.row_pins if kind == "r" else self.col_pins
        pin = pins[index]
        active = 1 if self.active_high else 0
        reached = self._reached()
        if (kind, index) in reached:
            return active
        if pin.pull == StubPin.PULL_UP:
            return 1
        if pin.pull == StubPin.PULL_DOWN:
            return 0
        return 1 - active  # floating: read as idle

    def _reached(self) -> set[tuple[str, int]]:
        active = 1 if self.active_high else 0
        closed = self.closed
        start = [("r", p.index) for p in self.row_pins
                 if p.mode == StubPin.OUT and p.level == active]
        start += [("c", p.index) for p in self.col_pins
                  if p.mode == StubPin.OUT and p.level == active]
        seen = set(start)
        todo = list(start)
        while todo:
            kind, i = todo.pop()
            if kind == "r":
                nxt = [("c", c) for c in range(self.cols) if i * self.cols + c in closed]
            else:
                nxt = [("r", r) for r in range(self.rows)
                       if r * self.cols + i in closed and r * self.cols + i in self.no_diode]
            for node in nxt:
                if node not in seen:
                    seen.add(node)
                    todo.append(node)
        return seen


class _LinePin(StubPin):
    def __init__(self, board: SwitchBoard, kind: str, index: int) -> None:
        super().__init__(index)
        self.board, self.kind, self.index = board, kind, index

    def value(self, v: int | None = None) -> int | None:
        if v is not None or self.mode == StubPin.OUT:
            return super().value(v)
        return self.board.level(self.kind, self.index)


# -- the firmware on a pty -----------------------------------------------------------------

class RealClock:
    """``time.ticks_ms`` and friends on the monotonic clock."""

    def __init__(self) -> None:
        self._slept_ms = 0  # sleeps pass in virtual time: the clock jumps, nothing waits

    def ticks_ms(self) -> int:
        return int(time.monotonic() * 1000) + self._slept_ms

    def ticks_add(self, t: int, ms: int) -> int:
        return t + ms

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_ms(self, ms: int) -> None:  # only run() uses it; the tests call step()
        self._slept_ms += ms


class LedStrip:
    """The firmware's LED strip: keeps the last pixels, lets a test wait for a picture."""

    def __init__(self) -> None:
        self.pixels: list[tuple[int, int, int]] = []
        self.writes = 0
        self._changed = threading.Condition()

    def write(self, pixels: list[tuple[int, int, int]]) -> None:
        with self._changed:
            self.pixels = list(pixels)
            self.writes += 1
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[list[tuple[int, int, int]]], bool],
                 timeout: float = 5.0) -> list[tuple[int, int, int]]:
        with self._changed:
            if not self._changed.wait_for(lambda: predicate(self.pixels), timeout):
                raise AssertionError(f"LEDs never matched; last {self.pixels}")
            return list(self.pixels)


class PtyIo:
    """The firmware's ``io`` on a pty master: what the host writes to the slave comes out."""

    def __init__(self, master: int) -> None:
        self._fd = master
        self.muted = False  # a cut TX wire: what the firmware sends is lost

    def read(self) -> bytes:
        if not select.select([self._fd], [], [], 0)[0]:
            return b""
        try:
            return os.read(self._fd, 4096)
        except OSError:
            return b""

    def write(self, data: bytes) -> None:
        if not self.muted:
            os.write(self._fd, data)


class PicoOnPty:
    """The reference firmware, stepping on its own thread, behind ``path`` (a by-id link)."""

    def __init__(self, path: Path, board: SwitchBoard, *, buttons: int = 0, rgb: bool = True,
                 check_diodes: bool = True, brightness: float = 1.0) -> None:
        install_stubs()
        import db_buttons

        self.path = path
        self.board = board
        self.strip = LedStrip()
        self.clock = RealClock()
        self.button_pins = [StubPin(20 + i, StubPin.IN, StubPin.PULL_UP) for i in range(buttons)]
        self._buttons = (db_buttons.Buttons(self.button_pins, self.clock.ticks_diff)
                         if buttons else None)
        self._options = {"rgb": rgb, "check_diodes": check_diodes, "brightness": brightness}
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.io = PtyIo(self._master)
        temporary = path.with_name(path.name + ".new")
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(os.ttyname(self._slave))
        temporary.replace(path)
        self.firmware: Any = self._new_firmware()
        self._running = threading.Event()
        self._running.set()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="pico-sim", daemon=True)
        self._thread.start()

    def _new_firmware(self) -> Any:
        import db_firmware
        import db_matrix

        matrix = db_matrix.Matrix(self.board.row_pins, self.board.col_pins, StubPin,
                                  active_high=self.board.active_high)
        return db_firmware.Firmware(self.io, self.clock, matrix, strip=self.strip,
                                    buttons=self._buttons, **self._options)

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._running.is_set():
                with self._lock:
                    self.firmware.step()
            self._stop.wait(0.001)

    def press(self, button: int, down: bool = True) -> None:
        self.button_pins[button].level = 0 if down else 1

    def pause(self) -> None:
        """The firmware hangs (or its TX wire is cut): nothing is read, nothing sent."""
        with self._lock:
            self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def restart(self) -> None:
        """A reset: a new firmware (seq 0, LEDs dark) on the same port, which stays open."""
        with self._lock:
            self.firmware = self._new_firmware()
            self.strip.write([])

    def host_bytes(self, data: bytes) -> None:
        """Put raw bytes on the host -> firmware wire (faults from the host side)."""
        os.write(self._slave, data)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        if self.path.is_symlink():
            self.path.unlink()
        os.close(self._master)
        os.close(self._slave)
