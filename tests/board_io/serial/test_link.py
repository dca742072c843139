"""The serial link and its sensor/LED/button views against a fake microcontroller on a pty.

Every wait is on an event or a condition (with a generous timeout), never a sleep.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from board_io.buttons.serial_mcu import SerialButtons
from board_io.clock import MonotonicClock, VirtualClock
from board_io.errors import BoardIOError, DeviceClosed, LinkTimeout
from board_io.events import ButtonPressed, LinkLost, LinkRestored, OccupancyChanged
from board_io.geometry import CellMap, dark_squares
from board_io.leds.serial_mcu import SerialLeds
from board_io.registry import (
    BackendContext,
    create_buttons,
    create_leds,
    create_scanner,
    create_sensors,
)
from board_io.scanner import Scanner
from board_io.sensors.serial_mcu import SerialSensors
from board_io.serial import messages as msg
from board_io.serial.framing import encode_frame
from board_io.serial.link import SerialLink
from board_io.types import YELLOW, Led, Pattern, Reading, Sensing
from tests.board_io.conftest import plug as _mcu
from tests.board_io.fake_mcu import FakeMcu

GOLD = (255, 170, 0)
GREEN = (0, 255, 0)
RED = (255, 0, 0)

E, OCC = Reading.EMPTY, Reading.OCCUPIED
WAIT = 5.0


def _cells(occupied: set[int], n: int = 64) -> tuple[Reading, ...]:
    return tuple(OCC if i in occupied else E for i in range(n))


def _link(port: Path, **kwargs: object) -> SerialLink:
    kwargs.setdefault("reconnect_interval", 0.02)
    kwargs.setdefault("poll_interval", 0.02)
    return SerialLink(str(port), **kwargs)  # type: ignore[arg-type]


def _next(events: queue.Queue[object], kind: type) -> object:
    while True:
        event = events.get(timeout=WAIT)
        if isinstance(event, kind):
            return event


def test_connect_reads_hello_and_board(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, rows=10, cols=5, colour=True, buttons=2,
               cells=(Reading.WHITE,) * 20 + (E,) * 10 + (Reading.BLACK_KING,) * 20)
    config = msg.Config(scan_period_ms=5, debounce_ms=15)
    with _link(port, config=config) as link, SerialSensors(link) as sensors:
        assert link.hello == msg.Hello(msg.PROTOCOL_VERSION, 10, 5, colour=True, rgb=False,
                                       buttons=2)
        assert (sensors.rows, sensors.cols, sensors.sensing) == (10, 5, Sensing.COLOUR)
        frame = sensors.read()
        assert frame[:20] == (Reading.WHITE,) * 20 and frame[-1] is Reading.BLACK_KING
        received = mcu.wait_for(lambda r: len(r) >= 2)
        assert received[:2] == [msg.Ping(), config]


def test_a_scan_before_the_hello_is_no_fault(port: Path, mcus: list[FakeMcu]) -> None:
    # A microcontroller scans whether a host listens or not: what it sent before the answer
    # to the first PING is the tail of an older stream, not a bad message.
    mcu = _mcu(mcus, port, cells=_cells({4}), scan_first=True)
    presses: list[msg.Message] = []
    with _link(port) as link, SerialSensors(link) as sensors:
        link.add_listener(presses.append)
        seen = link.scan_count
        mcu.send_scan()
        link.wait_scan(seen + 1, WAIT)
        assert link.stats()["bad_messages"] == 0, link.last_error
        assert [i for i, r in enumerate(sensors.read()) if r is OCC] == [4]
        assert presses == []


def test_scans_follow_the_board(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, cells=_cells({0, 2}))
    with _link(port) as link, SerialSensors(link) as sensors:
        seen = link.scan_count
        mcu.set_cells(_cells({2, 9}))
        link.wait_scan(seen + 1, WAIT)
        assert [i for i, r in enumerate(sensors.read()) if r is OCC] == [2, 9]


def test_garbage_truncated_and_bad_crc_are_dropped(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, cells=_cells({1}))
    with _link(port) as link, SerialSensors(link) as sensors:
        seen = link.scan_count
        good = msg.encode(msg.Scan(8, 8, _cells({5})), 0x40)
        bad_crc = bytearray(good)
        bad_crc[-3] ^= 0xFF  # a CRC byte
        mcu.send_raw(b"\x00\x13\x99\xfe\x07\x00")  # garbage between delimiters
        mcu.send_raw(good[: len(good) // 2] + b"\x00")  # truncated frame
        mcu.send_raw(bytes(bad_crc))  # bad CRC
        mcu.send_raw(bytes(range(1, 200)) * 6)  # a long run without any delimiter
        mcu.send_raw(b"\x00" + encode_frame(0x02, 0x41, b"\x08\x08" + bytes([9]) * 64))
        mcu.set_cells(_cells({6}))  # and life goes on
        link.wait_scan(seen + 1, WAIT)
        assert [i for i, r in enumerate(sensors.read()) if r is OCC] == [6]
        assert link.scan_count == seen + 1
        stats = link.stats()
        # A cut frame fails COBS or, when cut at a block boundary, the CRC.
        assert stats["crc"] >= 1 and stats["crc"] + stats["truncated"] == 3
        assert stats["oversize"] == 1
        assert stats["dropped"] == 4
        assert stats["bad_messages"] == 1  # a valid frame holding reading code 9
        assert link.connected


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (msg.Scan(8, 4, (E,) * 32), "SCAN of 8x4 from a 8x8 board"),
        (msg.Scan(8, 8, (Reading.WHITE,) * 64), "colours from a presence-only board"),
        (msg.ButtonChange(3, True), "BUTTON 3 but HELLO announced 3 buttons"),
        (msg.Ping(), "host-to-microcontroller message"),
    ],
)
def test_messages_that_do_not_fit_the_board_are_refused(
    port: Path, mcus: list[FakeMcu], caplog: pytest.LogCaptureFixture, message: msg.Message,
    words: str,
) -> None:
    mcu = _mcu(mcus, port, cells=_cells({3}))
    with _link(port) as link, SerialSensors(link) as sensors:
        seen = link.scan_count
        mcu.send(message)
        mcu.send_scan()
        link.wait_scan(seen + 1, WAIT)
        assert link.stats()["bad_messages"] == 1
        assert words in caplog.text
        assert [i for i, r in enumerate(sensors.read()) if r is OCC] == [3]


def test_leds_are_sent_per_cell(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, rows=8, cols=4, rgb=True)
    layout = dark_squares(8)
    addresses = CellMap.compact(layout).flat_indices()
    with _link(port) as link, SerialLeds(link, 32, clock=MonotonicClock(),
                                        addresses=addresses) as leds:
        assert leds.rgb
        leds.show({28: Led(Pattern.ON, GREEN), 0: Led(Pattern.SLOW, RED),
                   5: Led(Pattern.OFF, YELLOW)})
        sent = mcu.wait_for(lambda r: isinstance(r[-1], msg.Leds))[-1]
        assert isinstance(sent, msg.Leds) and (sent.rows, sent.cols) == (8, 4)
        # square 29 (index 28) is a1: cell (0, 0); square 1 (index 0) is b8: cell (7, 0).
        lit = {i: led for i, led in enumerate(sent.cells) if led is not None}
        assert lit == {0: Led(Pattern.ON, GREEN), 28: Led(Pattern.SLOW, RED)}
    # closing the LEDs switches them off
    last = mcu.wait_for(lambda r: isinstance(r[-1], msg.Leds)
                        and all(c is None for c in r[-1].cells))[-1]
    assert isinstance(last, msg.Leds)


def test_buttons_post_presses(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, buttons=3)
    presses: queue.Queue[ButtonPressed] = queue.Queue()
    with _link(port) as link, SerialButtons(link, clock=MonotonicClock(),
                                            names={0: "hint", 2: "done"}) as b:
        b.when_pressed = presses.put
        assert b.available == {"hint", "done"}
        mcu.send(msg.ButtonChange(2, True))
        mcu.send(msg.ButtonChange(2, False))  # release: no event
        mcu.send(msg.ButtonChange(1, True))  # no function: ignored
        mcu.send(msg.ButtonChange(0, True))
        assert presses.get(timeout=WAIT).button == "done"
        assert presses.get(timeout=WAIT).button == "hint"
        assert presses.empty()


def test_button_ids_take_the_names_of_the_context_in_order(port: Path,
                                                           mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, buttons=8)
    presses: queue.Queue[ButtonPressed] = queue.Queue()
    names = (*(f"b{i}" for i in range(7)), "clock", "spare")
    config = {"board.buttons": "serial", "serial.port": str(port)}
    with BackendContext(dark_squares(8), MonotonicClock(), buttons=names) as context, \
            create_buttons(config, context) as buttons:
        buttons.when_pressed = presses.put
        assert buttons.available == set(names[:8])  # the board has 8: "spare" is none
        mcu.send(msg.ButtonChange(7, True))
        assert presses.get(timeout=WAIT).button == "clock"


def test_button_names_are_checked(port: Path, mcus: list[FakeMcu]) -> None:
    _mcu(mcus, port, buttons=2)
    with _link(port) as link:
        with pytest.raises(BoardIOError, match=r"button ids \[5\] do not exist"):
            SerialButtons(link, clock=MonotonicClock(), names={5: "hint"})
        unnamed = SerialButtons(link, clock=MonotonicClock())
        assert unnamed.available == frozenset()  # an id without a name does nothing


def test_unplug_and_replug_mid_game(port: Path, mcus: list[FakeMcu]) -> None:
    layout = dark_squares(8)
    cell_map = CellMap.identity(layout)
    start = cell_map.flat_indices()[:12]  # the first twelve squares
    first = _mcu(mcus, port, cells=_cells(set(start)))
    events: queue.Queue[object] = queue.Queue()
    clock = MonotonicClock()
    with _link(port, on_event=events.put, config=msg.Config(10, 20)) as link, \
            SerialSensors(link) as sensors, \
            SerialLeds(link, 32, clock=clock, addresses=cell_map.flat_indices()) as leds:
        scanner = Scanner(sensors, cell_map, debounce_ms=0)
        first_report = scanner.poll(0.0)
        assert isinstance(first_report[-1], OccupancyChanged)
        assert first_report[-1].occupied == frozenset(range(12))
        leds.show({11: Led(Pattern.ON, GREEN), 15: Led(Pattern.ON, GREEN)})
        first.wait_for(lambda r: isinstance(r[-1], msg.Leds))

        first.unplug()
        assert isinstance(_next(events, LinkLost), LinkLost)
        assert not link.connected
        with pytest.raises(LinkTimeout):
            sensors.read()
        assert [type(e) for e in scanner.poll(1.0)] == [LinkLost]
        # The service may change the LEDs while the board is away: no error, kept for later.
        leds.show({15: Led(Pattern.FAST, GOLD)})

        # Meanwhile the player carried out the computer's move: square index 11 -> 15.
        moved = (set(start) - {cell_map.flat_indices()[11]}) | {cell_map.flat_indices()[15]}
        second = _mcu(mcus, port, cells=_cells(moved))
        assert isinstance(_next(events, LinkRestored), LinkRestored)
        received = second.wait_for(lambda r: any(isinstance(m, msg.Leds) for m in r))
        assert received[:2] == [msg.Ping(), msg.Config(10, 20)]
        leds_sent = received[2]
        assert isinstance(leds_sent, msg.Leds)
        lit = {i: led for i, led in enumerate(leds_sent.cells) if led is not None}
        assert lit == {cell_map.flat_indices()[15]: Led(Pattern.FAST, GOLD)}
        link.wait_scan(2, WAIT)
        after = scanner.poll(2.0)
        assert [type(e) for e in after] == [LinkRestored, OccupancyChanged]
        change = after[-1]
        assert isinstance(change, OccupancyChanged)
        assert change.occupied == frozenset(range(11)) | {15}
        assert link.stats()["losses"] == 1 and link.stats()["reconnects"] == 1


def test_silence_is_a_lost_link(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port)
    clock = VirtualClock(100.0)
    events: list[object] = []
    with _link(port, clock=clock, watchdog=False, on_event=events.append) as link:
        mcu_pings = len(mcu.wait_for(lambda r: len(r) >= 1))
        link.wait_scan(1, WAIT)  # the answer to the first PING is in
        clock.set(102.9)
        link.poll()
        assert link.connected and events == []
        clock.set(103.1)  # 3.1 s without a frame
        link.poll()  # lost, then reopened at once: the same pty is still there
        assert events[0] == LinkLost(at=103.1)
        mcu.wait_for(lambda r: sum(isinstance(m, msg.Ping) for m in r) > mcu_pings)
        link.wait_scan(2, WAIT)
        assert link.connected
        assert events == [LinkLost(at=103.1), LinkRestored(at=103.1)]


def test_no_hello_is_a_clear_error(port: Path, mcus: list[FakeMcu]) -> None:
    _mcu(mcus, port, answer_ping=False)
    with pytest.raises(LinkTimeout, match="no valid HELLO"):
        _link(port, connect_timeout=0.3)
    assert not [t for t in threading.enumerate() if t.name.startswith("draughtsboard-serial")]


def test_wrong_protocol_version_is_named(port: Path, mcus: list[FakeMcu]) -> None:
    _mcu(mcus, port, version=0)
    with pytest.raises(BoardIOError, match="speaks protocol 0, this host speaks 1 to 3"):
        _link(port, connect_timeout=WAIT)


def test_loopback_plug_is_detected() -> None:
    # A TX-RX loop (or a wrong port echoing) sends our own PING back.
    with pytest.raises(LinkTimeout, match="host-to-microcontroller message"):
        SerialLink("loop://", connect_timeout=0.3)


@pytest.mark.parametrize("url", ["/nonexistent/ttyACM9", "nosuchscheme://x"])
def test_bad_port_is_a_clear_error(url: str) -> None:
    with pytest.raises(BoardIOError, match="cannot open serial port"):
        SerialLink(url)


@pytest.mark.parametrize("option", ["link_timeout", "reconnect_interval", "baudrate"])
def test_bad_options(option: str) -> None:
    with pytest.raises(BoardIOError, match=f"{option} must be > 0"):
        SerialLink("loop://", **{option: 0})  # type: ignore[arg-type]


def test_close_is_idempotent_and_final(port: Path, mcus: list[FakeMcu]) -> None:
    _mcu(mcus, port)
    link = _link(port)
    sensors = SerialSensors(link, owns_link=True)
    sensors.close()
    assert link.closed
    sensors.close()
    link.close()
    with pytest.raises(DeviceClosed):
        link.send(msg.Ping())
    with pytest.raises(DeviceClosed):
        sensors.read()
    assert not [t for t in threading.enumerate()
                if t.name.startswith("draughtsboard-serial") and t.is_alive()]


def test_registry_shares_one_link(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port, rows=8, cols=4, buttons=7, cells=_cells(set(range(12)), 32))
    config = {"board.sensors": "serial", "board.leds": "serial", "board.buttons": "serial",
              "serial.port": str(port), "timing.scan_hz": 200, "serial.debounce_ms": 8}
    names = ("adjust", "hint", "takeback", "newgame", "done", "resign", "draw", "clock")
    with BackendContext(dark_squares(8), MonotonicClock(), buttons=names) as context:
        sensors = create_sensors(config, context)
        leds = create_leds(config, context)
        buttons = create_buttons(config, context)
        assert sensors.link is leds.link is buttons.link  # type: ignore[attr-defined]
        assert buttons.available == set(names[:7])  # 7 buttons: id i is the i-th name
        assert mcu.wait_for(lambda r: len(r) >= 2)[:2] == [msg.Ping(), msg.Config(5, 8)]
        scanner = create_scanner(config, context.layout, sensors, buttons)
        # compact 8x4 map: square 1 (index 0) is b8 = cell (7, 0), square 32 is g1 = (0, 3)
        leds.show({0: Led(Pattern.ON, YELLOW), 31: Led(Pattern.ON, YELLOW)})
        sent = mcu.wait_for(lambda r: isinstance(r[-1], msg.Leds))[-1]
        assert isinstance(sent, msg.Leds)
        assert [i for i, led in enumerate(sent.cells) if led] == [3, 28]
        mcu.send(msg.ButtonChange(4, True))
        link = sensors.link  # type: ignore[attr-defined]
        mcu.send_scan()
        link.wait_scan(2, WAIT)
        events = [e for t in (0.0, 0.01, 0.02) for e in scanner.poll(t)]
        assert [e.button for e in events if isinstance(e, ButtonPressed)] == ["done"]
        change = next(e for e in events if isinstance(e, OccupancyChanged))
        assert change.occupied == frozenset(range(20, 32))  # cells 0..11: rows 0-2
    assert link.closed


def test_sequence_gaps_are_counted(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port)
    with _link(port) as link, SerialSensors(link):
        seen = link.scan_count
        mcu.send_raw(b"\x00" + msg.encode(msg.Scan(8, 8, _cells({1})), 0x02))  # in sequence
        mcu.send_raw(b"\x00" + msg.encode(msg.Scan(8, 8, _cells({2})), 0x06))  # 3, 4, 5 lost
        link.wait_scan(seen + 2, WAIT)
        assert link.stats()["seq_gaps"] == 3


def test_sensor_faults_reported_by_the_microcontroller_are_kept(
    port: Path, mcus: list[FakeMcu],
) -> None:
    mcu = _mcu(mcus, port)
    with _link(port) as link, SerialSensors(link) as sensors:
        seen = link.scan_count
        mcu.send(msg.ErrorReport(4, 17))  # the diode check: cell 17
        mcu.send(msg.ErrorReport(5, 3))  # an LED fault: not a sensor
        mcu.send(msg.ErrorReport(4, 900))  # no such cell: ignored
        mcu.send_scan()
        link.wait_scan(seen + 1, WAIT)
        assert sensors.reported_faults == {17}
