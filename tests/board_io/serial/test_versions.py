"""Protocol versions: the host speaks the older of its version and the firmware's; firmware of
version 3 on gets each light's own colour, older firmware the nearest of the fixed palette it
has; frames start with a 0x00.

Issue 26: the protocol added LED role 13 (fault) without a version change, and firmware that
knew roles 1-12 refused every LEDS frame holding it (ERROR 3) and lit nothing. Issue 41: a
new kind of light needs no new version at all: the colour travels with the frame.
"""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from board_io.clock import MonotonicClock, VirtualClock
from board_io.leds.serial_mcu import SerialLeds
from board_io.serial import messages as msg
from board_io.serial.link import SerialLink
from board_io.types import Led, Pattern
from tests.board_io.conftest import plug as _mcu
from tests.board_io.fake_mcu import FakeMcu

WAIT = 5.0
MAGENTA, RED, GREEN, CYAN = (255, 0, 192), (255, 0, 0), (0, 255, 0), (0, 200, 200)
SHOWN = {0: Led(Pattern.ON, MAGENTA), 1: Led(Pattern.SLOW, GREEN), 2: Led(Pattern.FAST, CYAN)}


def _shown(mcu: FakeMcu) -> msg.Leds:
    found = mcu.wait_for(lambda r: any(isinstance(m, msg.Leds) for m in r))
    return next(m for m in reversed(found) if isinstance(m, msg.Leds))


@pytest.mark.parametrize(("version", "kind", "magenta_as", "cyan_as"), [
    (1, msg.LEDS, RED, GREEN),  # version 1's palette has no magenta: red, "not to play with"
    (2, msg.LEDS, MAGENTA, GREEN),  # a colour no palette has: the nearest
    (3, msg.LEDS_RGB, MAGENTA, CYAN),  # every colour as it is
    (4, msg.LEDS_RGB, MAGENTA, CYAN),  # a newer firmware is spoken to in the host's version
])
def test_colours_are_sent_as_the_firmware_can_show_them(
        port: Path, mcus: list[FakeMcu], version: int, kind: int, magenta_as: tuple[int, ...],
        cyan_as: tuple[int, ...]) -> None:
    mcu = _mcu(mcus, port, version=version, rows=1, cols=4, rgb=True)
    with SerialLink(str(port), connect_timeout=WAIT) as link, \
            SerialLeds(link, 4, clock=MonotonicClock()) as leds:
        assert link.hello.version == version
        leds.show(SHOWN)
        cells = _shown(mcu).cells
        assert cells[:3] == (Led(Pattern.ON, magenta_as), Led(Pattern.SLOW, GREEN),
                             Led(Pattern.FAST, cyan_as))
        assert mcu.kinds[-1] == kind


def test_every_palette_code_has_a_way_down_to_version_one() -> None:
    for code in msg.PALETTE:
        assert msg.PALETTE_SINCE.get(code, 1) <= msg.PROTOCOL_VERSION
        assert msg.palette_code(msg.PALETTE[code], msg.OLDEST_VERSION) in msg.PALETTE
        assert msg.PALETTE_SINCE.get(msg.palette_code(msg.PALETTE[code], 1), 1) == 1


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
