"""The Pico firmware's pure modules under a real MicroPython, against vectors the host writes.

The other firmware tests run it under CPython, which is not what a Pico runs: MicroPython has
other integers, floats, ticks and library corners. Here the host writes vectors with its own
code (``board_io.serial``: CRC, COBS, frames, LED frames by protocol version: the fixed
palette's codes and colours, and LEDS_RGB frames with colours of their own),
``micropython/checks.py`` runs the firmware's framing, COBS, CRC, LED codes and colours,
debounce, the matrix on stand-in ``machine.Pin`` wires and the
whole main loop under MicroPython, and the host decodes what the firmware sent.

MicroPython comes from the WebAssembly port on npm (``@micropython/micropython-webassembly-
pyscript``, run by Node; ``.ci/test`` installs it in ``.ci/micropython``, or
``DRAUGHTSBOARD_MICROPYTHON_MJS`` names its ``micropython.mjs``) or a unix port on the PATH
(``micropython``). Without either the test is skipped, unless
``DRAUGHTSBOARD_MICROPYTHON=required`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from board_io.firmware import PICO_DIR
from board_io.serial import cobs
from board_io.serial import messages as msg
from board_io.serial.framing import FrameDecoder, crc16, encode_frame
from board_io.types import Led, Pattern

HERE = Path(__file__).resolve().parent / "micropython"
ROOT = Path(__file__).resolve().parents[3]
NPM_MJS = (ROOT / ".ci" / "micropython" / "node_modules" / "@micropython"
           / "micropython-webassembly-pyscript" / "micropython.mjs")
BOARD = {1, 2, 5, 9, 14, 20, 31}  # closed cells of the session's 8x4 matrix
SESSION_STEPS = 1500
MAGENTA, GREEN, CYAN, DIM_BLUE = (255, 0, 192), (0, 255, 0), (0, 200, 200), (0, 15, 64)
#: The fixed palette as the firmware holds it: its blue (code 10) is drawn at a quarter.
FULL_PALETTE = {**msg.PALETTE, 10: (0, 60, 255)}


def _runner() -> list[str] | None:
    """The command that runs checks.py with the vectors file appended, or None."""
    mjs = Path(os.environ.get("DRAUGHTSBOARD_MICROPYTHON_MJS", NPM_MJS))
    node = shutil.which("node")
    if node and mjs.is_file():
        return [node, str(HERE / "run.mjs"), str(mjs), str(PICO_DIR), str(HERE / "checks.py")]
    unix = shutil.which("micropython")
    if unix:
        return [unix, "-X", "heapsize=192K", str(HERE / "checks.py"), str(PICO_DIR)]
    return None


def _session_input() -> bytes:
    leds = msg.Leds(8, 4, (Led(Pattern.ON, MAGENTA), Led(Pattern.ON, GREEN)) + (None,) * 30)
    kind, wire = leds.wire(2)  # a host of version 2 (LEDS), which the firmware still draws
    assert kind == msg.LEDS
    body = bytearray(wire)
    body[2 + 2] = 14 << 2 | 1  # a code of a protocol newer than the firmware's
    return b"".join(b"\x00" + part for part in (
        msg.encode(msg.Ping(), 0), msg.encode(msg.Config(10, 5), 1),
        encode_frame(msg.LEDS, 2, bytes(body)), encode_frame(msg.LEDS, 3, bytes(body))))


def _vectors() -> dict[str, Any]:
    rng = random.Random(26)
    blobs = [bytes(0 if rng.random() < zeros else rng.randrange(1, 256) for _ in range(size))
             for size in (0, 1, 2, 13, 253, 254, 255, 300, 508, 509) for zeros in (0.0, 0.3)]
    frames = [(kind, seq, blob[:msg.MAX_CELLS]) for kind, seq, blob in zip(
        [msg.HELLO, msg.SCAN, msg.BUTTON, msg.ERROR, msg.LEDS, msg.CONFIG, msg.PING] * 3,
        range(0, 256, 12), blobs, strict=False)]
    good = [encode_frame(kind, seq, body) for kind, seq, body in frames[:6]]
    bad_crc = bytearray(good[1])
    bad_crc[-2] ^= 0x10
    stream = (b"\x13\x99\x00" + good[0] + bytes(bad_crc) + b"\x00" + good[2][:4] + b"\x00"
              + bytes(range(1, 256)) * 3 + b"\x00" + good[3] + good[4] + good[5])
    expected = FrameDecoder().feed(stream)
    leds = []
    for version in (1, 2):
        for pattern in (Pattern.ON, Pattern.SLOW, Pattern.FAST):
            cells = tuple(Led(pattern, colour) for colour in msg.PALETTE.values())
            kind, body = msg.Leds(1, len(cells), cells).wire(version)
            assert kind == msg.LEDS
            leds.append([body.hex(), 1, len(cells), body[2:].hex(), []])
    leds.append([bytes([1, 3, 0x39, 0x05, 0x7E]).hex(), 1, 3, "000500", [14, 31]])
    colours = []
    for code in msg.PALETTE:
        for brightness in (1.0, 0.7, 0.3):
            level = round(brightness * 1000) // (4 if code == 10 else 1)
            rgb = [c * level // 1000 for c in FULL_PALETTE[code]]
            for blink, phase, lit in ((1, 999, True), (2, 499, True), (2, 500, False),
                                      (3, 124, True), (3, 130, False), (3, 260, True)):
                colours.append([code << 2 | blink, brightness, phase,
                                rgb if lit else [0, 0, 0]])
    rgb_frames = []  # version 3: the frame's own colours, a colour no palette has among them
    cells = (Led(Pattern.ON, CYAN), None, Led(Pattern.ON, DIM_BLUE), Led(Pattern.FAST, MAGENTA))
    kind, body = msg.Leds(1, 4, cells).wire(msg.PROTOCOL_VERSION)
    assert kind == msg.LEDS_RGB
    for rgb in (True, False):
        for brightness in (1.0, 0.7):
            level = round(brightness * 1000)
            shown = [[c * level // 1000 for c in (led.colour if rgb else (max(led.colour),) * 3)]
                     if led is not None else [0, 0, 0] for led in cells]
            rgb_frames.append([body.hex(), 1, 4, rgb, brightness, shown])
    return {
        "crc": [[blob.hex(), crc16(blob)] for blob in blobs],
        "cobs": [[blob.hex(), cobs.encode(blob).hex()] for blob in blobs],
        "frames": [[kind, seq, body.hex(), (b"\x00" + encode_frame(kind, seq, body)).hex()]
                   for kind, seq, body in frames],
        "decoder": {"stream": stream.hex(), "counts": [3, 1],  # bad: junk, CRC, cut; oversize
                    "frames": [[f.type, f.seq, f.body.hex()] for f in expected]},
        "leds": leds,
        "colours": colours,
        "rgb_frames": rgb_frames,
        "debounce": [  # cells, now, debounce ms, changed, stable (as the protocol says)
            ["0000", 0, 5, True, "0000"], ["0100", 10, 5, False, "0000"],
            ["0000", 12, 5, False, "0000"], ["0100", 14, 5, False, "0000"],
            ["0100", 19, 5, True, "0100"], ["0101", 20, 0, True, "0101"]],
        "matrix": [sorted(rng.sample(range(32), rng.randrange(33))) for _ in range(20)],
        "ghost": {"closed": [4, 6, 20], "reads": [4, 6, 20, 22]},  # (1,0) (1,2) (5,0): (5,2)
        "session": {"closed": sorted(BOARD), "before_wrap_ms": 700, "steps": SESSION_STEPS,
                    "input": _session_input().hex()},
    }


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    runner = _runner()
    if runner is None:
        if os.environ.get("DRAUGHTSBOARD_MICROPYTHON") == "required":
            pytest.fail("no MicroPython: install it with .ci/test (npm) or put micropython on "
                        "the PATH")
        pytest.skip("no MicroPython here (node with .ci/micropython, or micropython)")
    vectors = tmp_path_factory.mktemp("micropython") / "vectors.json"
    vectors.write_text(json.dumps(_vectors()), encoding="utf-8")
    done = subprocess.run([*runner, str(vectors)], capture_output=True, text=True,
                          timeout=120, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, (done.stdout[-2000:], done.stderr[-2000:])
    found: dict[str, Any] = json.loads(lines[-1].removeprefix("RESULT "))
    found["vectors"] = json.loads(vectors.read_text(encoding="utf-8"))
    return found


def test_it_is_micropython(result: dict[str, Any]) -> None:
    assert result["implementation"] == "micropython"


def test_every_pure_module_agrees_with_the_host(result: dict[str, Any]) -> None:
    assert result["failed"] == []
    names = " ".join(result["passed"])
    for kind in ("crc", "cobs encode", "cobs decode", "frame", "decoder frames",
                 "decoder counts", "leds", "colour", "rgb frame", "debounce", "matrix",
                 "matrix ghost",
                 "matrix diode check", "blink through the wrap"):
        assert kind in names, kind
    v = result["vectors"]
    assert len(result["passed"]) == (  # every vector was checked
        len(v["crc"]) + 2 * len(v["cobs"]) + len(v["frames"]) + 2 + len(v["leds"])
        + len(v["colours"]) + len(v["rgb_frames"]) + len(v["debounce"]) + len(v["matrix"]) + 2 + 1)


def test_the_main_loop_answers_the_host(result: dict[str, Any]) -> None:
    # PING, CONFIG, then twice a LEDS frame (an older host's) with a code from a newer
    # protocol, through the ticks' wrap: HELLO (version 3) and SCAN, the frame drawn, the
    # unknown code told once.
    messages = [msg.decode(f) for f in FrameDecoder().feed(bytes.fromhex(result["wire"]))]
    hellos = [m for m in messages if isinstance(m, msg.Hello)]
    assert hellos[:2] == [msg.Hello(3, 8, 4, colour=False, rgb=True, buttons=0)] * 2
    scans = [m for m in messages if isinstance(m, msg.Scan)]
    assert len(scans) >= 3  # boot, the PING's, the heartbeat a second later
    assert {i for i, reading in enumerate(scans[-1].cells) if reading.value != 0} == BOARD
    errors = [m for m in messages if isinstance(m, msg.ErrorReport)]
    assert errors == [msg.ErrorReport(8, 14)]
    assert result["pixels"][:3] == [list(MAGENTA), list(GREEN), [0, 0, 0]]
