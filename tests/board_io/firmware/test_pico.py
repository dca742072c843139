"""The Pico reference firmware: its parts under CPython, then the whole against the real host.

The host side is the real ``board_io.serial`` link with the ``serial`` sensors, LEDs and
buttons; the firmware runs on a pty with an electrical model of the switch matrix
(tests/board_io/pico_sim.py). Waits are on conditions and SCAN counts, never sleeps.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import queue
import random
import runpy
import select
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from board_io.buttons.serial_mcu import SerialButtons
from board_io.clock import MonotonicClock, VirtualClock
from board_io.events import ButtonPressed, LinkLost, LinkRestored, OccupancyChanged
from board_io.firmware import PICO_DIR, pico_files
from board_io.geometry import CellMap, dark_squares
from board_io.leds.serial_mcu import SerialLeds
from board_io.scanner import Scanner
from board_io.sensors.serial_mcu import SerialSensors
from board_io.serial import cobs
from board_io.serial import messages as msg
from board_io.serial.framing import encode_frame
from board_io.serial.link import SerialLink
from board_io.types import Led, Pattern
from engine import Board
from tests.board_io.pico_sim import (
    LedStrip,
    PicoOnPty,
    StubNeoPixel,
    StubPin,
    StubStateMachine,
    SwitchBoard,
    install_stubs,
)

install_stubs()
import db_leds  # noqa: E402  (the firmware's flat module names, as on the Pico)
import db_matrix  # noqa: E402
import db_protocol as proto  # noqa: E402

WAIT = 5.0
GREEN = (0, 255, 0)


# -- the protocol module ---------------------------------------------------------------------

def test_cobs_and_crc_agree_with_the_host() -> None:
    rng = random.Random(13)
    for size in [*range(0, 520, 7), 253, 254, 255, 508, 509]:
        for zeros in (0.0, 0.05, 0.5):
            data = bytes(0 if rng.random() < zeros else rng.randrange(1, 256)
                         for _ in range(size))
            assert proto.cobs_encode(data) == cobs.encode(data)
            assert proto.cobs_decode(cobs.encode(data)) == data
    assert proto.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize(
    ("kind", "seq", "body", "wire"),
    [  # the worked examples of docs/serial-protocol.md
        (proto.HELLO, 0, proto.hello_body(8, 4, False, True, 3), "02 01 08 03 08 04 02 03 a8 7f"),
        (proto.SCAN, 9, proto.scan_body(2, 2, bytes([0, 1, 1, 0])),
         "05 02 09 02 02 03 01 01 03 5e 96"),
        (proto.BUTTON, 5, proto.button_body(1, True), "07 03 05 01 01 d7 fc"),
        (proto.ERROR, 3, proto.error_body(4, 17), "04 04 03 04 04 11 dd 06"),
    ],
)
def test_worked_examples(kind: int, seq: int, body: bytes, wire: str) -> None:
    assert proto.encode_frame(kind, seq, body) == b"\x00" + bytes.fromhex(wire) + b"\x00"


def test_decoder_drops_and_counts_bad_frames() -> None:
    decoder = proto.FrameDecoder()
    good = encode_frame(proto.PING, 7, b"")
    bad_crc = bytearray(good)
    bad_crc[-2] ^= 0x01
    frames = decoder.feed(b"\x13\x99\x00" + bytes(bad_crc) + good[:3] + b"\x00"
                          + bytes(range(1, 200)) * 4 + b"\x00" + good)
    assert frames == [(proto.PING, 7, b"")]
    assert (decoder.bad, decoder.oversize, decoder.frames) == (3, 1, 1)


@pytest.mark.parametrize(
    ("body", "ok"),
    [
        (bytes([1, 3, 0x05, 0x00, 0x12]), True),  # the docs' 1x3 example
        (bytes([1, 3, 0x05, 0x00]), False),  # short
        (bytes([1, 2, 0x05, 0x00]), False),  # another board size
        (bytes([1, 3, 0x04, 0x00, 0x00]), False),  # a role without a pattern
        (bytes([1, 3, 0x01, 0x00, 0x00]), False),  # a pattern without a role
        (bytes([1, 3, 0x85, 0x00, 0x00]), False),  # reserved bit 7
    ],
)
def test_leds_bodies_are_checked(body: bytes, ok: bool) -> None:
    if ok:
        unknown: set[int] = set()
        assert proto.parse_leds(body, 1, 3, unknown) == bytes([0x05, 0x00, 0x12])
        assert not unknown
    else:
        with pytest.raises(proto.BadMessage):
            proto.parse_leds(body, 1, 3)


def test_a_role_the_firmware_does_not_know_is_shown_off_not_refused() -> None:
    # Issue 26: a newer host's role (14 here) made the whole frame a bad message (ERROR 3).
    unknown: set[int] = set()
    body = bytes([1, 3, 0x39, 0x05, 0x7E])  # role 14 on, from on, role 31 slow
    assert proto.parse_leds(body, 1, 3, unknown) == bytes([0x00, 0x05, 0x00])
    assert unknown == {14, 31}
    assert len(db_leds.COLOURS) == proto.MAX_CODE + 1


def test_an_unknown_role_is_reported_once_and_the_rest_is_drawn() -> None:
    import db_firmware

    clock = WrappingTicks(5000)
    io = MemoryIo()
    strip = LedStrip()
    fw = db_firmware.Firmware(io, clock, _matrix(SwitchBoard(8, 4)), strip=strip,
                              brightness=1.0, check_diodes=False)
    fw.step()
    frame = bytes([8, 4, 0x05, 14 << 2 | 1]) + bytes(30)
    for _ in range(3):
        fw.handle(proto.LEDS, frame, clock.ticks_ms())
        fw.step()
    assert strip.pixels[:2] == [GREEN, (0, 0, 0)]
    errors = [proto_body for kind, _, proto_body in proto.FrameDecoder().feed(bytes(io.sent))
              if kind == proto.ERROR]
    assert errors == [proto.error_body(proto.ERR_UNKNOWN_CODE, 14)]
    assert msg.ErrorReport.from_body(errors[0]).text.startswith("LED code unknown")


def test_the_host_and_the_firmware_agree_on_the_fixed_palette() -> None:
    renderer = db_leds.LedRenderer(1, brightness=1.0)
    for code, colour in msg.PALETTE.items():
        for pattern in (Pattern.ON, Pattern.SLOW, Pattern.FAST):
            kind, body = msg.Leds(1, 1, (Led(pattern, colour),)).wire(2)
            assert kind == proto.LEDS
            drawn = proto.parse_leds(body, 1, 1)[0]
            assert msg.PALETTE[drawn >> 2] == colour and drawn & 3 == msg.PATTERN_CODES[pattern]
        # The firmware rounds down: the quarter of blue's 255 is 63 there.
        shown = renderer.colour(code << 2 | 1, 0)
        assert all(abs(a - b) <= 1 for a, b in zip(shown, colour, strict=True)), code


@pytest.mark.parametrize("rgb", [True, False])
def test_a_colour_of_the_host_is_drawn_as_it_comes(rgb: bool) -> None:
    # Version 3: the frame carries its colours, so a colour no palette has is drawn exactly
    # (a single-colour board: white at its brightness).
    cyan, dim = (0, 200, 200), (0, 15, 64)
    frame = msg.Leds(1, 3, (Led(Pattern.ON, cyan), None, Led(Pattern.FAST, dim)))
    kind, body = frame.wire(proto.PROTOCOL_VERSION)
    assert kind == proto.LEDS_RGB
    renderer = db_leds.LedRenderer(3, rgb=rgb, brightness=1.0)
    renderer.set(*reversed(proto.parse_leds_rgb(body, 1, 3)))
    expected = [cyan, (0, 0, 0), dim] if rgb else [(200,) * 3, (0, 0, 0), (64,) * 3]
    assert renderer.frame(0) == expected


@pytest.mark.parametrize("body", [
    bytes([1, 2, 1, 9, 9, 9, 0x05]),  # one cell short
    bytes([1, 1, 1, 9, 9, 9, 0x09]),  # colour 2 of 1
    bytes([1, 1, 0, 0x01]),  # lit without a colour
    bytes([1, 1, 32]) + bytes(96) + bytes(1),  # more colours than a cell can name
])
def test_leds_rgb_bodies_are_checked(body: bytes) -> None:
    with pytest.raises(proto.BadMessage):
        proto.parse_leds_rgb(body, body[0], body[1])


# -- the scan logic on the electrical model --------------------------------------------------

def _matrix(board: SwitchBoard) -> Any:
    return db_matrix.Matrix(board.row_pins, board.col_pins, StubPin,
                            active_high=board.active_high)


@pytest.mark.parametrize("active_high", [True, False])
def test_with_diodes_every_position_reads_exactly(active_high: bool) -> None:
    board = SwitchBoard(8, 4, active_high=active_high)
    matrix = _matrix(board)
    rng = random.Random(5)
    for _ in range(50):
        closed = {c for c in range(32) if rng.random() < 0.5}
        board.set_closed(closed)
        assert {i for i, v in enumerate(matrix.read()) if v} == closed
        assert matrix.backwards() == []


def test_without_diodes_three_corners_ghost_the_fourth_and_the_check_sees_it() -> None:
    board = SwitchBoard(8, 4, diodes=False)
    matrix = _matrix(board)
    corners = {1 * 4 + 0, 1 * 4 + 2, 5 * 4 + 0}  # (1,0), (1,2), (5,0)
    board.set_closed(corners)
    assert {i for i, v in enumerate(matrix.read()) if v} == corners | {5 * 4 + 2}
    assert set(matrix.backwards()) >= corners


def test_debouncer_waits_for_a_steady_reading() -> None:
    debouncer = db_matrix.Debouncer(2, lambda a, b: a - b)
    assert debouncer.feed(bytes([0, 0]), 0, 5)
    assert not debouncer.feed(bytes([1, 0]), 10, 5)
    assert not debouncer.feed(bytes([0, 0]), 12, 5)  # a bounce
    assert not debouncer.feed(bytes([1, 0]), 14, 5)
    assert debouncer.feed(bytes([1, 0]), 19, 5)
    assert bytes(debouncer.stable) == bytes([1, 0])


@pytest.mark.parametrize(
    ("code", "now", "rgb", "expected"),
    [
        (0x05, 0, True, GREEN),  # on / from
        (0x12, 100, True, (255, 0, 0)),  # slow / remove, first half of the second
        (0x12, 600, True, (0, 0, 0)),  # ... second half
        (0x1F, 1000, True, (255, 220, 0)),  # fast / hint: lit for the first 125 ms of 250
        (0x1F, 1130, True, (0, 0, 0)),  # ... dark after
        (0x29, 0, True, (0, 15, 63)),  # on / adjust: a quarter
        (0x05, 0, False, (255, 255, 255)),  # single colour: every palette colour white
    ],
)
def test_led_colours_and_blinking(code: int, now: int, rgb: bool,
                                  expected: tuple[int, int, int]) -> None:
    renderer = db_leds.LedRenderer(1, rgb=rgb, brightness=1.0)
    assert renderer.colour(code, now) == expected


# -- the Pico-only modules with the stand-ins ------------------------------------------------

def _settings(**overrides: object) -> ModuleType:
    spec = importlib.util.spec_from_file_location("pico_settings", PICO_DIR / "settings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for key, value in overrides.items():
        setattr(module, key, value)
    return module


def test_pio_strip_sends_grb_words() -> None:
    import db_ws2812

    strip = db_ws2812.PioStrip(22, 2, "GRB")
    strip.write([(0x11, 0x22, 0x33)])
    sm = strip._sm
    assert isinstance(sm, StubStateMachine) and sm.active_state == 1
    assert sm.words == [0x221133 << 8, 0]
    pixels = db_ws2812.NeopixelStrip(22, 1)
    pixels.write([(1, 2, 3)])
    assert isinstance(pixels._np, StubNeoPixel) and pixels._np.written == [(1, 2, 3)]


def test_hardware_is_built_from_the_settings() -> None:
    import db_hw

    parts = db_hw.build(_settings())
    assert (parts["matrix"].rows, parts["matrix"].cols) == (8, 4)
    assert parts["buttons"].count == 7 and parts["strip"].count == 32
    assert not db_hw.safe_mode(parts, _settings())


def test_main_does_not_start_with_the_safe_button_held(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(StubPin, "__init__", _held_pin_init)
    runpy.run_path(str(PICO_DIR / "main.py"))
    assert "safe button held" in capsys.readouterr().out


def _held_pin_init(self: StubPin, pin_id: int, mode: int = -1, pull: int | None = None) -> None:
    self.id, self.mode, self.pull, self.level = pin_id, mode, pull, 0  # every button down


def test_every_file_is_listed_for_install() -> None:
    names = [p.name for p in pico_files()]
    assert names[-1] == "main.py" and "settings.py" in names and "db_protocol.py" in names


# -- against the real host over a pty --------------------------------------------------------

LAYOUT = dark_squares(8)
CELLS = CellMap.compact(LAYOUT)
ADDRESS = CELLS.flat_indices()  # square -> firmware cell (and LED)


@pytest.fixture
def port(tmp_path: Path) -> Path:
    return tmp_path / "usb-Raspberry_Pi_Pico-if00"


@pytest.fixture
def picos() -> Iterator[list[PicoOnPty]]:
    made: list[PicoOnPty] = []
    yield made
    for pico in made:
        pico.close()


def _pico(picos: list[PicoOnPty], port: Path, board: SwitchBoard, **kwargs: Any) -> PicoOnPty:
    pico = PicoOnPty(port, board, **kwargs)
    picos.append(pico)
    return pico


def _occupy(board: SwitchBoard, squares: frozenset[int]) -> None:
    board.set_closed(ADDRESS[sq] for sq in squares)


def _wait_occupancy(scanner: Scanner, link: SerialLink, expected: frozenset[int]) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for event in scanner.poll(time.monotonic()):
            if isinstance(event, OccupancyChanged) and event.occupied == expected:
                return
        if scanner.occupied == expected:
            return
        link.wait_scan(link.scan_count + 1, WAIT)
    raise AssertionError(f"occupancy never became {sorted(expected)}")


def _green(pixels: list[tuple[int, int, int]], squares: set[int]) -> bool:
    return len(pixels) == 32 and {i for i, p in enumerate(pixels) if p == GREEN} == {
        ADDRESS[sq] for sq in squares}


def test_a_game_plays_through(port: Path, picos: list[PicoOnPty]) -> None:
    game = Board("english")
    board = SwitchBoard(8, 4)
    _occupy(board, game.occupied_squares())
    pico = _pico(picos, port, board, buttons=3)
    with SerialLink(str(port), config=msg.Config(10, 5), poll_interval=0.05) as link, \
            SerialSensors(link) as sensors, \
            SerialLeds(link, 32, clock=MonotonicClock(), addresses=ADDRESS) as leds, \
            SerialButtons(link, clock=MonotonicClock(),
                          names={0: "adjust", 1: "hint", 2: "takeback"}) as buttons:
        assert link.hello == msg.Hello(3, 8, 4, colour=False, rgb=True, buttons=3)
        scanner = Scanner(sensors, CELLS, debounce_ms=0, buttons=buttons)
        _wait_occupancy(scanner, link, game.occupied_squares())
        # (opening the port flushes its input: a boot frame may be cut there, not later)
        dropped = link.stats()["dropped"]
        for ply in range(12):
            move = sorted(game.legal_moves, key=lambda m: (not m.is_capture, m.origin))[0]
            if ply % 2:  # the computer's move: lit on the board, carried out by the player
                leds.show({move.origin: Led(Pattern.ON, GREEN),
                           move.destination: Led(Pattern.ON, GREEN)})
                lit = {move.origin, move.destination}
                pico.strip.wait_for(lambda p: _green(p, lit))  # noqa: B023 (waited on here)
            game.push(move)
            _occupy(board, game.occupied_squares())
            _wait_occupancy(scanner, link, game.occupied_squares())
        pico.press(1)
        link.wait_scan(link.scan_count + 2, WAIT)
        presses: list[ButtonPressed] = []
        deadline = time.monotonic() + WAIT
        while not presses and time.monotonic() < deadline:
            presses = [e for e in scanner.poll(time.monotonic()) if isinstance(e, ButtonPressed)]
            if not presses:
                link.wait_scan(link.scan_count + 1, WAIT)
        assert [p.button for p in presses] == ["hint"]
        assert link.stats()["dropped"] == dropped
        assert link.stats()["bad_messages"] == 0, link.last_error


_CONFIG = msg.Config(10, 5)


def _virtual(port: Path, clock: VirtualClock, events: queue.Queue[object],
             config: msg.Config = _CONFIG) -> SerialLink:
    return SerialLink(str(port), clock=clock, watchdog=False, on_event=events.put,
                      config=config)


def test_faults_on_the_wire_are_dropped_and_reported(port: Path, picos: list[PicoOnPty]) -> None:
    board = SwitchBoard(8, 4)
    pico = _pico(picos, port, board)
    errors: queue.Queue[msg.ErrorReport] = queue.Queue()
    with SerialLink(str(port), poll_interval=0.05) as link, \
            SerialLeds(link, 32, clock=MonotonicClock(), addresses=ADDRESS) as leds:
        link.add_listener(lambda m: errors.put(m) if isinstance(m, msg.ErrorReport) else None)
        good = encode_frame(proto.PING, 9, b"")
        bad_crc = bytearray(good)
        bad_crc[-2] ^= 0x40
        pico.host_bytes(b"\x00\x13\x99\xfe\x07\x00")  # garbage
        pico.host_bytes(bytes(bad_crc))  # bad CRC
        pico.host_bytes(good[:3] + b"\x00")  # truncated
        pico.host_bytes(bytes(range(1, 250)) * 3 + b"\x00")  # oversize
        pico.host_bytes(encode_frame(0x7E, 1, b""))  # unknown type
        pico.host_bytes(encode_frame(proto.CONFIG, 2, b"\x00\x00\x00\x05"))  # period 0
        codes = {errors.get(timeout=WAIT).code for _ in range(4)}
        assert codes == {proto.ERR_BAD_FRAME, proto.ERR_OVERRUN, proto.ERR_UNKNOWN_TYPE,
                         proto.ERR_BAD_MESSAGE}
        leds.show({0: Led(Pattern.ON, GREEN)})  # and life goes on
        pico.strip.wait_for(lambda p: _green(p, {0}))
        assert pico.firmware.scan_period_ms == 10
        assert link.connected


def test_a_silence_then_the_link_comes_back(port: Path, picos: list[PicoOnPty]) -> None:
    board = SwitchBoard(8, 4)
    start = frozenset(range(12))
    _occupy(board, start)
    pico = _pico(picos, port, board)
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    with _virtual(port, clock, events) as link, SerialSensors(link) as sensors:
        scanner = Scanner(sensors, CELLS, debounce_ms=0)
        pico.pause()
        clock.set(103.5)
        link.poll()
        assert events.get(timeout=WAIT) == LinkLost(at=103.5)
        moved = (start - {10}) | {14}  # a move made during the silence
        _occupy(board, moved)
        pico.resume()
        assert events.get(timeout=WAIT) == LinkRestored(at=103.5)
        # the SCAN right after HELLO may still be the debounced board from before the silence
        while scanner.occupied != moved:
            link.wait_scan(link.scan_count + 1, WAIT)
            scanner.poll(103.6)
        assert link.stats()["losses"] == 1


def test_an_mcu_reset_gets_its_leds_back(port: Path, picos: list[PicoOnPty]) -> None:
    board = SwitchBoard(8, 4)
    pico = _pico(picos, port, board)
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    with _virtual(port, clock, events, msg.Config(12, 5)) as link, \
            SerialLeds(link, 32, clock=MonotonicClock(), addresses=ADDRESS) as leds:
        leds.show({9: Led(Pattern.ON, GREEN), 13: Led(Pattern.ON, GREEN)})
        pico.strip.wait_for(lambda p: _green(p, {9, 13}))
        clock.set(200.0)
        pico.restart()  # dark, seq 0, HELLO unasked
        assert pico.firmware.scan_period_ms == 10  # its own default
        # The new firmware's HELLO comes before its first SCAN. Lit LEDs alone prove nothing:
        # the re-send after the late answer to the connection's PING may still be on the wire
        # and reach the new firmware first.
        for _ in range(200):
            if link.stats()["mcu_restarts"] >= 1:
                break
            link.wait_scan(link.scan_count + 1, WAIT)
        # >= 1: that late answer may reach the host's reader thread only after the virtual
        # clock jumped, and then counts as a restart too
        assert link.stats()["mcu_restarts"] >= 1
        pico.strip.wait_for(lambda p: _green(p, {9, 13}))
        assert pico.firmware.scan_period_ms == 12  # CONFIG came again, before the LEDs
        assert events.empty() and link.connected


def test_a_matrix_without_diodes_is_reported(port: Path, picos: list[PicoOnPty]) -> None:
    board = SwitchBoard(8, 4, diodes=False)
    board.set_closed({4, 6, 20})
    _pico(picos, port, board)
    errors: queue.Queue[msg.ErrorReport] = queue.Queue()
    with SerialLink(str(port), poll_interval=0.05) as link:
        link.add_listener(lambda m: errors.put(m) if isinstance(m, msg.ErrorReport) else None)
        link.send(msg.Ping())  # the faults are told again after every PING, now to a listener
        cells: set[int] = set()
        while len(cells) < 4:
            report = errors.get(timeout=WAIT)
            assert report.code == proto.ERR_SENSOR
            cells.add(report.arg)
        # the three closed switches, and the ghost corner (5, 2), which reads closed too
        assert cells == {4, 6, 20, 22}


class WrappingTicks:
    """MicroPython's ``time.ticks_*``: milliseconds modulo 2**30, compared with ticks_diff."""

    PERIOD = 1 << 30

    def __init__(self, start: int) -> None:
        self.now = start

    def ticks_ms(self) -> int:
        return self.now % self.PERIOD

    def ticks_add(self, t: int, ms: int) -> int:
        return (t + ms) % self.PERIOD

    def ticks_diff(self, a: int, b: int) -> int:
        return (a - b + self.PERIOD // 2) % self.PERIOD - self.PERIOD // 2

    def sleep_ms(self, ms: int) -> None:
        self.now += ms


class MemoryIo:
    def __init__(self) -> None:
        self.sent = bytearray()

    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.sent += data


def _scans(data: bytes) -> list[bytes]:
    decoder = proto.FrameDecoder()
    return [body for kind, _, body in decoder.feed(data) if kind == proto.SCAN]


def test_the_firmware_keeps_time_across_the_ticks_wraparound() -> None:
    import db_firmware

    board = SwitchBoard(8, 4)
    clock = WrappingTicks(WrappingTicks.PERIOD - 1500)
    io = MemoryIo()
    fw = db_firmware.Firmware(io, clock, _matrix(board), check_diodes=False)
    for _ in range(3500):  # 3.5 s in 1 ms steps, through the wrap
        fw.step()
        clock.sleep_ms(1)
        if clock.now == WrappingTicks.PERIOD + 1000:
            board.close(7)
    scans = _scans(bytes(io.sent))
    # boot, a heartbeat every second across the wrap, and the change 1 s after it
    assert len(scans) >= 4
    first_closed = next(i for i, s in enumerate(scans) if s[2 + 7] == 1)
    assert first_closed >= 3 and all(s[2 + 7] == 1 for s in scans[first_closed:])


# -- the firmware's small faults (issue 26) --------------------------------------------------

class CountingMatrix:
    """A matrix that notes the ticks of every read."""

    def __init__(self, board: SwitchBoard, clock: WrappingTicks) -> None:
        self._matrix = _matrix(board)
        self.rows, self.cols = self._matrix.rows, self._matrix.cols
        self._clock = clock
        self.reads: list[int] = []

    def read(self) -> Any:
        self.reads.append(self._clock.now)
        return self._matrix.read()

    def backwards(self) -> list[int]:
        return []


def test_the_blink_phase_does_not_jump_at_the_ticks_wrap() -> None:
    # ticks_ms wraps at 2**30, which 1000 does not divide: ``now % 1000`` on raw ticks made a
    # slow blink's phase jump there. The LEDs keep their rhythm through the wrap.
    import db_firmware

    clock = WrappingTicks(WrappingTicks.PERIOD - 2000)
    strip = LedStrip()
    fw = db_firmware.Firmware(MemoryIo(), clock, _matrix(SwitchBoard(8, 4)), strip=strip,
                              check_diodes=False)
    fw.step()
    fw.leds.set(bytes([0x06]) + bytes(31))  # cell 0: slow / from
    changes: list[int] = []
    lit_before = None
    for _ in range(4000):
        fw.step()
        lit = strip.pixels[0] != (0, 0, 0)
        if lit_before is not None and lit != lit_before:
            changes.append(clock.now)
        lit_before = lit
        clock.sleep_ms(1)
    gaps = {b - a for a, b in itertools.pairwise(changes)}
    assert len(changes) >= 7 and gaps == {500}, changes


def test_lowering_the_scan_period_takes_effect_at_once() -> None:
    # After CONFIG 1000 ms, a CONFIG of 10 ms waited out the old period (859 ms measured).
    import db_firmware

    clock = WrappingTicks(1_000_000)
    matrix = CountingMatrix(SwitchBoard(8, 4), clock)
    fw = db_firmware.Firmware(MemoryIo(), clock, matrix, check_diodes=False)
    fw.step()
    fw.handle(proto.CONFIG, msg.Config(1000, 5).to_body(), clock.ticks_ms())
    for _ in range(150):
        fw.step()
        clock.sleep_ms(1)
    lowered = clock.now
    fw.handle(proto.CONFIG, msg.Config(10, 5).to_body(), clock.ticks_ms())
    for _ in range(30):
        fw.step()
        clock.sleep_ms(1)
    after = [t for t in matrix.reads if t >= lowered]
    assert after and after[0] - lowered <= 10, (lowered, matrix.reads[-5:])


@pytest.mark.parametrize(
    ("brightness", "role", "expected"),
    [  # the exact products, rounded down: what a Pico's single-precision floats got wrong
        (0.7, 11, (178, 119, 0)),  # crown: 170 * 0.7 = 119 (CPython's doubles gave 118)
        (0.7, 10, (0, 10, 44)),  # adjust, a quarter: 60 * 0.175 = 10.5, 255 * 0.175 = 44.6
        (0.3, 6, (76, 33, 0)),  # must: 110 * 0.3 = 33
        (1.0, 13, (255, 0, 192)),
    ],
)
def test_led_colours_are_exact_integers(brightness: float, role: int,
                                        expected: tuple[int, int, int]) -> None:
    renderer = db_leds.LedRenderer(1, brightness=brightness)
    assert renderer.colour(role << 2 | 1, 0) == expected


def test_junk_in_the_firmwares_buffer_does_not_cost_the_first_ping(
        port: Path, picos: list[PicoOnPty]) -> None:
    # Issue 26: noise on the wire before the host opens the port (a half frame, a plug-in
    # glitch) sat in the firmware's buffer; the host's first PING, sent without a leading
    # 0x00, was glued to it, dropped as a bad frame, and answered only by the second PING.
    pico = _pico(picos, port, SwitchBoard(8, 4))
    pico.pause()
    pico.firmware.step()  # booted: its unasked HELLO is in the pty, read away below
    while select.select([pico._slave], [], [], 0)[0]:
        os.read(pico._slave, 4096)
    pico.host_bytes(b"\x13\x99\x42")
    pico.firmware.receive(pico.io.read(), pico.clock.ticks_ms())
    assert pico.firmware.decoder._buf  # the junk waits for its delimiter
    pico.resume()
    with SerialLink(str(port), connect_timeout=WAIT, ping_backoff=(60.0,)) as link:
        assert link.connected and link.stats()["pings"] == 1
