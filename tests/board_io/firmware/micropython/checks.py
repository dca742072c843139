# The Pico firmware's pure modules under a real MicroPython, against vectors the host wrote.
#
# MicroPython code (no typing, no dataclasses): run by run.mjs under the WebAssembly port, or
# by the unix port as ``micropython checks.py FIRMWARE_DIR VECTORS_JSON``. The host's test
# (tests/board_io/firmware/test_micropython.py) writes the vectors with its own code
# (board_io.serial: COBS, CRC, frames, LEDS bodies of the fixed palette, LEDS_RGB frames) and
# reads the last line this prints: ``RESULT {"passed": [...], "failed": [[name, why], ...],
# "wire": hex, "pixels": [...]}``, where ``wire`` is what the firmware sent in the session
# check, for the host to decode.

import json
import sys
import time
from binascii import hexlify, unhexlify

if __name__ == "__main__" and len(sys.argv) >= 3:  # the unix port: the firmware's directory
    sys.path.insert(0, sys.argv[1])

import db_firmware  # the firmware's flat module names, as on the Pico
import db_leds
import db_matrix
import db_protocol as proto


def _hex(data):
    return hexlify(bytes(data)).decode()


def _bytes(text):
    return unhexlify(text)


class Results:
    def __init__(self):
        self.passed = []
        self.failed = []

    def check(self, name, ok, why=""):
        if ok:
            self.passed.append(name)
        else:
            self.failed.append([name, why])


# -- stand-ins: machine.Pin and the wires of a switch matrix ------------------------------

class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, board, kind, index):
        self.board, self.kind, self.index = board, kind, index
        self.mode, self.pull, self.level = Pin.IN, None, 0

    def init(self, mode=-1, pull=None):
        self.mode, self.pull = mode, pull

    def value(self, v=None):
        if v is not None:
            self.level = v
            return None
        if self.mode == Pin.OUT:
            return self.level
        return self.board.level(self.kind, self.index, self.pull)


class Wires:
    """Switches between row and column lines (active high); without diodes, current also
    flows column -> row through a closed switch."""

    def __init__(self, rows, cols, diodes=True):
        self.rows, self.cols, self.diodes = rows, cols, diodes
        self.closed = set()
        self.row_pins = [Pin(self, "r", r) for r in range(rows)]
        self.col_pins = [Pin(self, "c", c) for c in range(cols)]

    def level(self, kind, index, pull):
        if (kind, index) in self._reached():
            return 1
        return 1 if pull == Pin.PULL_UP else 0

    def _reached(self):
        todo = [("r", p.index) for p in self.row_pins if p.mode == Pin.OUT and p.level == 1]
        todo += [("c", p.index) for p in self.col_pins if p.mode == Pin.OUT and p.level == 1]
        seen = set(todo)
        while todo:
            kind, i = todo.pop()
            if kind == "r":
                nxt = [("c", c) for c in range(self.cols) if i * self.cols + c in self.closed]
            elif self.diodes:
                nxt = []
            else:
                nxt = [("r", r) for r in range(self.rows) if r * self.cols + i in self.closed]
            for node in nxt:
                if node not in seen:
                    seen.add(node)
                    todo.append(node)
        return seen


class Ticks:
    """The firmware's clock on MicroPython's own time.ticks_* (wrapping at its period)."""

    def __init__(self, start):
        self.now = start

    def ticks_ms(self):
        return self.now

    def ticks_add(self, t, ms):
        return time.ticks_add(t, ms)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        self.now = time.ticks_add(self.now, ms)


class Io:
    def __init__(self, data):
        self.pending = bytearray(data)
        self.sent = bytearray()

    def read(self):
        data, self.pending = bytes(self.pending[:64]), self.pending[64:]
        return data

    def write(self, data):
        self.sent.extend(data)


class Strip:
    def __init__(self):
        self.pixels = []

    def write(self, pixels):
        self.pixels = list(pixels)


# -- the checks -----------------------------------------------------------------------------

def check_crc(r, vectors):
    for data, crc in vectors["crc"]:
        r.check("crc " + data[:16], proto.crc16(_bytes(data)) == crc)


def check_cobs(r, vectors):
    for data, encoded in vectors["cobs"]:
        raw, wire = _bytes(data), _bytes(encoded)
        r.check(f"cobs encode {len(raw)}", proto.cobs_encode(raw) == wire)
        r.check(f"cobs decode {len(raw)}", proto.cobs_decode(wire) == raw)


def check_frames(r, vectors):
    for kind, seq, body, wire in vectors["frames"]:
        got = proto.encode_frame(kind, seq, _bytes(body))
        r.check(f"frame {kind}/{seq}", got == _bytes(wire), _hex(got))


def check_decoder(r, vectors):
    case = vectors["decoder"]
    decoder = proto.FrameDecoder()
    stream = _bytes(case["stream"])
    frames = []
    for start in range(0, len(stream), 7):  # in pieces, as the USB port hands them over
        frames += decoder.feed(stream[start:start + 7])
    got = [[kind, seq, _hex(body)] for kind, seq, body in frames]
    r.check("decoder frames", got == case["frames"], json.dumps(got))
    r.check("decoder counts", [decoder.bad, decoder.oversize] == case["counts"],
            f"{decoder.bad} bad, {decoder.oversize} oversize")


def check_leds(r, vectors):
    for body, rows, cols, codes, unknown in vectors["leds"]:
        seen = set()
        got = proto.parse_leds(_bytes(body), rows, cols, seen)
        r.check("leds " + body[:24], _hex(got) == codes and sorted(seen) == unknown,
                _hex(got) + " " + str(sorted(seen)))
    for code, brightness, phase, rgb in vectors["colours"]:
        renderer = db_leds.LedRenderer(1, brightness=brightness)
        got = list(renderer.colour(code, phase))
        r.check(f"colour {code} at {brightness}, {phase} ms", got == rgb, str(got))


def check_rgb_frames(r, vectors):
    for body, rows, cols, rgb, brightness, shown in vectors["rgb_frames"]:
        colours, codes = proto.parse_leds_rgb(_bytes(body), rows, cols)
        renderer = db_leds.LedRenderer(rows * cols, rgb=rgb, brightness=brightness)
        renderer.set(codes, colours)
        got = [list(pixel) for pixel in renderer.frame(0)]
        r.check(f"rgb frame {rgb} at {brightness}", got == shown, str(got))


def check_blink_through_the_wrap(r):
    clock = Ticks(time.ticks_add(0, -2000))  # 2 s before MicroPython's ticks wrap
    renderer = db_leds.LedRenderer(1, clock=clock)
    renderer.set(bytes([0x06]))  # slow / from
    changes, before = [], None
    for ms in range(4000):
        lit = renderer.frame(clock.now) or renderer._last
        on = lit[0] != (0, 0, 0)
        if before is not None and on != before:
            changes.append(ms)
        before = on
        clock.sleep_ms(1)
    gaps = [changes[i + 1] - changes[i] for i in range(len(changes) - 1)]
    r.check("blink through the wrap", len(changes) >= 7 and set(gaps) == {500}, str(changes))


def check_debounce(r, vectors):
    debouncer = db_matrix.Debouncer(2, time.ticks_diff)
    for cells, now, debounce, changed, stable in vectors["debounce"]:
        got = debouncer.feed(_bytes(cells), now, debounce)
        r.check(f"debounce at {now}", bool(got) == changed and _hex(debouncer.stable) == stable,
                f"{got} {_hex(debouncer.stable)}")


def check_matrix(r, vectors):
    wires = Wires(8, 4)
    matrix = db_matrix.Matrix(wires.row_pins, wires.col_pins, Pin)
    for closed in vectors["matrix"]:
        wires.closed = set(closed)
        got = [i for i, v in enumerate(matrix.read()) if v]
        r.check(f"matrix {closed[:4]}", got == sorted(closed) and matrix.backwards() == [],
                str(got))
    ghosts = vectors["ghost"]
    wires = Wires(8, 4, diodes=False)
    matrix = db_matrix.Matrix(wires.row_pins, wires.col_pins, Pin)
    wires.closed = set(ghosts["closed"])
    got = [i for i, v in enumerate(matrix.read()) if v]
    back = sorted(matrix.backwards())
    r.check("matrix ghost", got == ghosts["reads"], str(got))
    r.check("matrix diode check", set(ghosts["closed"]) <= set(back), str(back))


def run_session(vectors):
    """The firmware's main loop on host-written input; returns what it sent, the LEDs."""
    session = vectors["session"]
    wires = Wires(8, 4)
    wires.closed = set(session["closed"])
    matrix = db_matrix.Matrix(wires.row_pins, wires.col_pins, Pin)
    clock = Ticks(time.ticks_add(0, -session["before_wrap_ms"]))
    io = Io(_bytes(session["input"]))
    strip = Strip()
    firmware = db_firmware.Firmware(io, clock, matrix, strip=strip, brightness=1.0,
                                    check_diodes=False)
    for _ in range(session["steps"]):
        firmware.step()
        clock.sleep_ms(1)
    return _hex(io.sent), [list(p) for p in strip.pixels]


def main(vectors_path):
    with open(vectors_path) as f:
        vectors = json.load(f)
    r = Results()
    for check in (check_crc, check_cobs, check_frames, check_decoder, check_leds,
                  check_rgb_frames, check_debounce, check_matrix):
        try:
            check(r, vectors)
        except Exception as exc:  # one broken check must not hide the others
            r.check(check.__name__, False, f"raised {exc!r}")
    try:
        check_blink_through_the_wrap(r)
        wire, pixels = run_session(vectors)
    except Exception as exc:
        r.check("session", False, f"raised {exc!r}")
        wire, pixels = "", []
    print("RESULT " + json.dumps({"implementation": sys.implementation.name,
                                  "passed": r.passed, "failed": r.failed,
                                  "wire": wire, "pixels": pixels}))


if __name__ == "__main__" and len(sys.argv) >= 3:
    main(sys.argv[2])
