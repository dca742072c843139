"""Protocol versions: the host speaks the older of its version and the firmware's; a role the
firmware does not know is sent as its nearest older one; frames start with a 0x00.

Issue 26: the protocol added LED role 13 (fault) without a version change, and firmware that
knew roles 1-12 refused every LEDS frame holding it (ERROR 3) and lit nothing.
"""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from board_io.clock import MonotonicClock, VirtualClock
from board_io.leds.serial_mcu import SerialLeds
from board_io.serial import messages as msg
from board_io.serial.link import SerialLink
from board_io.types import Led, Pattern, Role
from tests.board_io.conftest import plug as _mcu
from tests.board_io.fake_mcu import FakeMcu

WAIT = 5.0
SHOWN = {0: Led(Pattern.ON, Role.FAULT), 1: Led(Pattern.SLOW, Role.FROM)}


def _shown(mcu: FakeMcu) -> msg.Leds:
    found = mcu.wait_for(lambda r: any(isinstance(m, msg.Leds) for m in r))
    return next(m for m in reversed(found) if isinstance(m, msg.Leds))


@pytest.mark.parametrize(("version", "fault_as"), [
    (1, Role.EXTRA),  # version 1 knows roles 1-12: fault goes as extra
    (2, Role.FAULT),
    (3, Role.FAULT),  # a newer firmware is spoken to in the host's version
])
def test_roles_are_sent_as_the_firmware_knows_them(port: Path, mcus: list[FakeMcu],
                                                   version: int, fault_as: Role) -> None:
    mcu = _mcu(mcus, port, version=version, rows=1, cols=4, rgb=True)
    with SerialLink(str(port), connect_timeout=WAIT) as link, \
            SerialLeds(link, 4, clock=MonotonicClock()) as leds:
        assert link.hello.version == version
        leds.show(SHOWN)
        cells = _shown(mcu).cells
        assert cells[:2] == (Led(Pattern.ON, fault_as), Led(Pattern.SLOW, Role.FROM))


def test_every_role_has_a_version_and_a_way_down_to_version_one() -> None:
    for role in Role:
        assert msg.ROLE_SINCE.get(role, 1) <= msg.PROTOCOL_VERSION
        assert msg.ROLE_SINCE.get(msg.role_for(role, msg.OLDEST_VERSION), 1) == 1


def test_every_frame_starts_with_a_zero(port: Path, mcus: list[FakeMcu]) -> None:
    # The protocol recommends a 0x00 before each frame: junk in the firmware's buffer then
    # costs only itself, not the host's first PING.
    mcu = _mcu(mcus, port)
    with SerialLink(str(port), connect_timeout=WAIT, config=msg.Config(10, 5)):
        mcu.wait_for(lambda r: len(r) >= 2)
        with mcu._changed:
            raw = bytes(mcu.raw)
    assert raw[0] == 0
    frames = raw.split(b"\x00")
    assert frames[0] == b"" and frames[1][1:2] == bytes([msg.PING])  # COBS code, then type


def test_a_restart_soon_after_a_reconnect_is_counted(port: Path, mcus: list[FakeMcu]) -> None:
    # A HELLO with seq 0 is a reset, even within the link timeout of the PING (it was taken
    # for a late answer to that PING, and not counted).
    mcu = _mcu(mcus, port)
    clock = VirtualClock(100.0)
    events: queue.Queue[object] = queue.Queue()
    config = msg.Config(10, 5)
    with SerialLink(str(port), clock=clock, watchdog=False, on_event=events.put,
                    config=config) as link:
        link.wait_scan(1, WAIT)
        # The first SCAN can come in before the handshake's CONFIG reaches the firmware: count
        # from that CONFIG on, or it is taken for the one the restart asks for.
        mcu.wait_for(lambda r: any(isinstance(m, msg.Config) for m in r))
        before = mcu.count(msg.Config)
        clock.set(101.0)
        mcu.restart()
        mcu.wait_for(lambda r: sum(isinstance(m, msg.Config) for m in r) > before)
        assert link.stats()["mcu_restarts"] == 1
        assert events.empty()


def test_a_hello_whose_seq_wrapped_to_zero_is_no_restart(port: Path, mcus: list[FakeMcu]) -> None:
    # The answer to a PING whose seq wrapped from 255 to 0 is not a reset.
    mcu = _mcu(mcus, port)
    clock = VirtualClock(100.0)
    with SerialLink(str(port), clock=clock, watchdog=False) as link:
        link.wait_scan(1, WAIT)
        mcu._seq = 255  # as if 253 frames had been lost
        mcu.send_scan()
        link.wait_scan(2, WAIT)
        gaps = link.stats()["seq_gaps"]
        link.send(msg.Ping())
        link.wait_scan(3, WAIT)  # HELLO (seq 0) and SCAN (seq 1)
        assert (link.stats()["mcu_restarts"], link.stats()["seq_gaps"]) == (0, gaps)
