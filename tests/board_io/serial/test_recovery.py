"""Link recovery: the pure state machine from tables, and every edge over a pty.

The pty tests run the link in virtual time (``watchdog=False``, ``poll()`` called by the test)
and wait on the fake microcontroller's conditions or the link's SCAN count, never on a sleep.
"""

from __future__ import annotations

import logging
import queue
from pathlib import Path

import pytest

from board_io.clock import MonotonicClock, VirtualClock
from board_io.errors import BoardIOError
from board_io.events import LinkLost, LinkRestored
from board_io.geometry import CellMap, dark_squares
from board_io.leds.serial_mcu import SerialLeds
from board_io.scanner import Scanner
from board_io.sensors.serial_mcu import SerialSensors
from board_io.serial import messages as msg
from board_io.serial.link import SerialLink
from board_io.serial.recovery import Do, LinkState, Recovery
from board_io.types import Led, Pattern, Reading
from tests.board_io.conftest import plug as _mcu
from tests.board_io.fake_mcu import FakeMcu

GREEN = (0, 255, 0)

WAIT = 5.0
E, OCC = Reading.EMPTY, Reading.OCCUPIED


# -- the state machine alone ---------------------------------------------------------------

def _up(at: float = 0.0) -> Recovery:
    r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p")
    assert r.opened(at) == [Do.PING, Do.RESEND]
    assert r.hello(at + 0.01) == []
    assert r.state is LinkState.UP
    return r


def test_pings_back_off_while_frames_but_no_hello_arrive() -> None:
    r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p",
                 ping_backoff=(0.25, 0.5, 1.0))
    r.opened(0.0)
    pings = []
    t = 0.0
    while t < 6.0:
        t = round(t + 0.05, 2)
        r.frame(t)  # SCANs keep coming: never a silence
        if r.tick(t) == [Do.PING]:
            pings.append(t)
    assert pings[:4] == [0.25, 0.75, 1.75, 2.75]
    assert r.state is LinkState.HANDSHAKE and not r.lost


@pytest.mark.parametrize(
    ("steps", "restarts"),
    [
        # a late answer to a repeated PING, within the link timeout: re-sent, not a restart
        ([("tick", 0.3), ("hello", 0.35), ("hello", 0.5)], 0),
        # a HELLO long after the last PING: the microcontroller restarted
        ([("hello", 0.01), ("hello", 5.0), ("hello", 60.0)], 2),
        # a boot HELLO before the answer to the PING: one extra re-send, no restart
        ([("hello", 0.01), ("frame", 1.0), ("hello", 1.5)], 0),
        # issue 26: a restart (its HELLO has seq 0) within 3 s of the reconnect's PING counts
        ([("hello", 0.01), ("restart", 1.0)], 1),
        ([("tick", 0.3), ("hello", 0.35), ("restart", 0.5), ("hello", 0.6)], 1),
    ],
)
def test_every_further_hello_resends(steps: list[tuple[str, float]], restarts: int) -> None:
    r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p")
    r.opened(0.0)
    got: list[object] = []
    hellos = 0
    for name, at in steps:
        if name == "frame":
            r.frame(at)
        elif name == "tick":
            got += [a for a in r.tick(at) if a is not Do.PING]
        else:
            got += r.hello(at, restarted=name == "restart")
            hellos += 1
    assert got == [Do.RESEND] * (hellos - 1)
    assert r.stats.mcu_restarts == restarts
    assert r.state is LinkState.UP and r.stats.losses == 0


def test_a_ping_sent_by_hand_is_answered_not_a_restart() -> None:
    r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p")
    r.opened(0.0)
    r.hello(0.1)
    r.ping_sent(50.0)
    assert r.hello(50.1) == [Do.RESEND]
    assert r.stats.mcu_restarts == 0


def test_one_loss_one_restore_whatever_happens_between() -> None:
    r = _up()
    got: list[object] = []
    got += r.tick(3.5)  # silence: close, LinkLost, reopen
    got += r.opened(3.5)
    got += r.port_failed(3.6, "port error: gone")  # USB unplugged
    for t in (3.7, 4.6, 5.7):
        got += r.tick(t)
        got += r.open_failed(t, "no such file")
    got += r.tick(6.8)
    got += r.opened(6.8)
    got += r.tick(10.0)  # silent again while still lost
    got += r.opened(10.0)
    got += r.hello(10.2)
    got += r.tick(10.3)
    events = [a for a in got if isinstance(a, LinkLost | LinkRestored)]
    assert events == [LinkLost(at=3.5), LinkRestored(at=10.2)]
    assert (r.stats.losses, r.stats.reconnects) == (1, 1)


def test_no_loss_is_posted_before_the_first_hello() -> None:
    r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p")
    r.opened(0.0)
    assert r.tick(3.5) == [Do.CLOSE, Do.OPEN]
    assert not r.lost


def _in_state(state: LinkState, *, lost: bool = False) -> Recovery:
    """A machine in ``state`` at about t=10, its first PING answered at t=0; ``lost``: it
    lost the link on the way (HANDSHAKE here always comes after a loss)."""
    r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p")
    r.opened(0.0)
    r.hello(0.0)
    if lost:
        r.tick(3.5)  # lost, reopen asked
        r.opened(3.5)
        r.port_failed(4.0, "gone")
    if state is LinkState.HANDSHAKE:
        r.tick(10.0)
        r.opened(10.0)
    elif state is LinkState.UP and not lost:
        r.frame(9.0)
        r.tick(9.0)
    elif state is LinkState.UP:
        r.tick(9.0)
        r.opened(9.0)
        r.hello(9.5)
    elif state is LinkState.DOWN:
        r.frame(9.0)
        r.port_failed(9.5, "gone")
        r.open_failed(9.5, "no such file")
    assert r.state is state
    return r


EDGES = [
    # state, lost before, input, expected state, expected actions
    (LinkState.DOWN, True, ("tick", 10.6), LinkState.DOWN, [Do.OPEN]),
    (LinkState.DOWN, True, ("tick", 10.0), LinkState.DOWN, []),
    (LinkState.DOWN, True, ("opened", 10.6), LinkState.HANDSHAKE, [Do.PING, Do.RESEND]),
    (LinkState.DOWN, True, ("open_failed", 10.6), LinkState.DOWN, []),
    (LinkState.DOWN, True, ("hello", 10.6), LinkState.DOWN, []),
    (LinkState.DOWN, True, ("port_failed", 10.6), LinkState.DOWN, []),
    (LinkState.HANDSHAKE, True, ("tick", 10.3), LinkState.HANDSHAKE, [Do.PING]),
    (LinkState.HANDSHAKE, True, ("tick", 10.1), LinkState.HANDSHAKE, []),
    (LinkState.HANDSHAKE, True, ("tick", 13.5), LinkState.DOWN, [Do.CLOSE, Do.OPEN]),
    (LinkState.HANDSHAKE, True, ("port_failed", 10.1), LinkState.DOWN, [Do.CLOSE, Do.OPEN]),
    (LinkState.HANDSHAKE, True, ("hello", 10.1), LinkState.UP, [LinkRestored(at=10.1)]),
    (LinkState.UP, False, ("tick", 11.0), LinkState.UP, []),
    (LinkState.UP, False, ("tick", 12.5),
     LinkState.DOWN, [Do.CLOSE, LinkLost(at=12.5), Do.OPEN]),
    (LinkState.UP, False, ("port_failed", 11.0),
     LinkState.DOWN, [Do.CLOSE, LinkLost(at=11.0), Do.OPEN]),
    (LinkState.UP, False, ("hello", 11.0), LinkState.UP, [Do.RESEND]),
    (LinkState.UP, True, ("hello", 11.0), LinkState.UP, [Do.RESEND]),
]


@pytest.mark.parametrize(("state", "lost", "step", "after", "actions"), EDGES)
def test_every_edge(state: LinkState, lost: bool, step: tuple[str, float], after: LinkState,
                    actions: list[object]) -> None:
    r = _in_state(state, lost=lost)
    name, at = step
    if name == "open_failed":
        result = r.open_failed(at, "no such file")
    elif name == "port_failed":
        result = r.port_failed(at, "gone")
    else:
        result = getattr(r, name)(at)
    assert (r.state, result) == (after, actions)


def test_every_state_is_reachable_and_left() -> None:
    sources = {state for state, *_ in EDGES}
    targets = {after for *_, after, _ in EDGES}
    assert sources == targets == set(LinkState)


def test_bad_backoff_is_refused() -> None:
    with pytest.raises(ValueError, match="ping_backoff"):
        Recovery(link_timeout=3.0, reconnect_interval=1.0, name="p", ping_backoff=())


# -- over a pty ------------------------------------------------------------------------------

def _virtual_link(port: Path, clock: VirtualClock, events: queue.Queue[object],
                  **kwargs: object) -> SerialLink:
    return SerialLink(str(port), clock=clock, watchdog=False, on_event=events.put,
                      reconnect_interval=1.0, **kwargs)  # type: ignore[arg-type]


def _drain(events: queue.Queue[object]) -> list[object]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_a_lost_reconnect_ping_is_repeated_until_hello(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port)
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    with _virtual_link(port, clock, events) as link:
        link.wait_scan(1, WAIT)
        mcu.ignore_pings = 1  # the loose wire eats the reconnect PING
        clock.set(103.1)
        link.poll()  # silence: lost, reopened, PING sent (and missed)
        assert events.get(timeout=WAIT) == LinkLost(at=103.1)
        mcu.wait_for(lambda r: sum(isinstance(m, msg.Ping) for m in r) == 2)
        clock.set(103.2)  # the heartbeat SCANs arrive: no silence, but no HELLO either
        mcu.send_scan()
        link.wait_scan(2, WAIT)
        link.poll()
        assert link.state is LinkState.HANDSHAKE and not link.connected
        clock.set(103.4)
        mcu.send_scan()
        link.wait_scan(3, WAIT)
        link.poll()  # 0.25 s after the lost one: PING again
        assert events.get(timeout=WAIT) == LinkRestored(at=103.4)
        assert link.connected and link.stats()["losses"] == 1
        assert mcu.count(msg.Ping) == 3


def test_an_mcu_restart_gets_config_and_leds_again(port: Path, mcus: list[FakeMcu]) -> None:
    layout = dark_squares(8)
    cell_map = CellMap.identity(layout)
    mcu = _mcu(mcus, port, cells=tuple(OCC if i < 20 else E for i in range(64)))
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    config = msg.Config(10, 5)
    with _virtual_link(port, clock, events, config=config) as link, \
            SerialSensors(link) as sensors, \
            SerialLeds(link, 32, clock=MonotonicClock(), addresses=cell_map.flat_indices()) as leds:
        scanner = Scanner(sensors, cell_map, debounce_ms=0)
        assert scanner.poll(100.0)
        leds.show({11: Led(Pattern.ON, GREEN), 15: Led(Pattern.ON, GREEN)})
        lit = mcu.wait_for(lambda r: isinstance(r[-1], msg.Leds))[-1]
        before = len(mcu.received)
        clock.set(140.0)
        mcu.restart(scan=False)  # HELLO with seq 0, no PING asked for it
        after = mcu.wait_for(lambda r: len(r) >= before + 2)[before:]
        assert after == [config, lit]
        assert sensors.read()  # the board is still known: no LinkTimeout, no lost link
        link.poll()
        assert scanner.poll(140.1) == []
        seen = link.scan_count
        mcu.send_scan()
        link.wait_scan(seen + 1, WAIT)
        assert scanner.poll(140.2) == []
        assert _drain(events) == []
        stats = link.stats()
        assert (stats["mcu_restarts"], stats["losses"], stats["seq_gaps"]) == (1, 0, 0)


def test_a_long_silence_is_one_loss_and_one_warning(
    port: Path, mcus: list[FakeMcu], caplog: pytest.LogCaptureFixture,
) -> None:
    mcu = _mcu(mcus, port)
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    caplog.set_level(logging.DEBUG, logger="board_io.serial")
    with _virtual_link(port, clock, events) as link:
        link.wait_scan(1, WAIT)
        mcu.answer_ping = False  # the firmware hangs
        pings = mcu.count(msg.Ping)
        for t in (103.1, 106.2, 109.3, 112.4, 115.5):
            clock.set(t)
            link.poll()
        mcu.wait_for(lambda r: sum(isinstance(m, msg.Ping) for m in r) >= pings + 5)
        mcu.answer_ping = True
        clock.set(116.0)
        link.poll()  # PING again (backoff)
        assert events.get(timeout=WAIT) == LinkLost(at=103.1)
        assert events.get(timeout=WAIT) == LinkRestored(at=116.0)
        assert _drain(events) == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("lost" in w for w in warnings) == 1, warnings
    infos = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert sum(line.startswith("serial port") for line in infos) == 1, infos  # the first open
    assert any("restored after 12.9 s (5 reopen attempts)" in w for w in warnings), warnings


def test_bad_messages_are_throttled_with_a_count(
    port: Path, mcus: list[FakeMcu], caplog: pytest.LogCaptureFixture,
) -> None:
    mcu = _mcu(mcus, port)
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    bad = msg.ButtonChange(7, True)  # valid CRC, but the board has 3 buttons
    with _virtual_link(port, clock, events) as link:
        link.wait_scan(1, WAIT)
        for _ in range(50):
            mcu.send(bad)
        mcu.send_scan()
        link.wait_scan(2, WAIT)
        clock.set(111.0)
        mcu.send(bad)
        mcu.send_scan()
        link.wait_scan(3, WAIT)
        assert link.stats()["bad_messages"] == 51
    lines = [r.getMessage() for r in caplog.records if "bad message" in r.getMessage()]
    assert len(lines) == 2, lines
    assert "(49 more since the last report 11 s ago)" in lines[1]


def test_a_start_up_error_is_said_once(
    port: Path, mcus: list[FakeMcu], caplog: pytest.LogCaptureFixture,
) -> None:
    _mcu(mcus, port, version=0)
    with pytest.raises(BoardIOError, match="speaks protocol 0"):
        SerialLink(str(port), connect_timeout=WAIT)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_lost_first_ping_is_repeated_at_start_up(port: Path, mcus: list[FakeMcu]) -> None:
    mcu = _mcu(mcus, port)
    mcu.ignore_pings = 1
    with SerialLink(str(port), connect_timeout=WAIT, poll_interval=0.02,
                    ping_backoff=(0.05,)) as link:
        assert link.connected
        assert mcu.count(msg.Ping) >= 2


@pytest.mark.parametrize("name", ["board_io.serial.recovery", "board_io.serial.throttle",
                                  "board_io.firmware"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
