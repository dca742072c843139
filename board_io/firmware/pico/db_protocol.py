# draughtsboard reference firmware: the serial protocol (docs/serial-protocol.md).
#
# Plain MicroPython (no typing, no dataclasses), also importable by CPython for the tests:
# COBS framing, CRC-16/CCITT-FALSE, a streaming frame decoder with the protocol's limits, and
# the message bodies the firmware sends (HELLO, SCAN, BUTTON, ERROR) and parses (LEDS,
# LEDS_RGB, CONFIG, PING).

HELLO = 0x01
SCAN = 0x02
BUTTON = 0x03
ERROR = 0x04
LEDS = 0x81
CONFIG = 0x82
PING = 0x83
LEDS_RGB = 0x84

PROTOCOL_VERSION = 3  # 2 added palette code 13 and ERROR 8; 3 added LEDS_RGB
MAX_CODE = 13  # the highest LEDS palette code this firmware knows; higher ones are shown off
MAX_COLOURS = 31  # the most colours a LEDS_RGB frame carries
MAX_BODY = 512
MAX_ENCODED = 519  # COBS of type, seq, 512 body bytes and the CRC

FLAG_COLOUR = 0x01
FLAG_RGB = 0x02

ERR_BAD_FRAME = 1
ERR_UNKNOWN_TYPE = 2
ERR_BAD_MESSAGE = 3
ERR_SENSOR = 4
ERR_LED = 5
ERR_OVERRUN = 6
ERR_WATCHDOG = 7
ERR_UNKNOWN_CODE = 8


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (poly 0x1021, init 0xFFFF, no reflection)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """Return ``data`` COBS-encoded (no zero byte inside), without the delimiter."""
    out = bytearray()
    block = bytearray()
    full = False  # the last block written was a full 254-byte one (code 0xFF)
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
            full = False
        else:
            block.append(byte)
            full = False
            if len(block) == 254:
                out.append(0xFF)
                out.extend(block)
                block = bytearray()
                full = True
    if not full:  # a full block at the very end needs no empty block after it
        out.append(len(block) + 1)
        out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """Decode one COBS frame (without delimiter); return None if it is not valid COBS."""
    size = len(data)
    if size == 0:
        return None
    out = bytearray()
    index = 0
    while index < size:
        code = data[index]
        if code == 0:
            return None
        end = index + code
        if end > size:
            return None
        out.extend(data[index + 1:end])
        index = end
        if code != 0xFF and index < size:
            out.append(0)
    return bytes(out)


def encode_frame(kind, seq, body):
    """Return the wire bytes of one frame: a leading 0x00, COBS(payload), a closing 0x00."""
    payload = bytearray((kind, seq & 0xFF))
    payload.extend(body)
    crc = crc16(payload)
    payload.append(crc >> 8)
    payload.append(crc & 0xFF)
    return b"\x00" + cobs_encode(payload) + b"\x00"


class FrameDecoder:
    """Bytes in, ``(type, seq, body)`` frames out; bad frames are counted, never raised."""

    def __init__(self):
        self._buf = bytearray()
        self._skipping = False  # an oversize run: drop everything up to the next 0x00
        self.frames = 0
        self.bad = 0  # failed COBS, too short or wrong CRC
        self.oversize = 0

    def feed(self, data):
        """Return the list of valid frames completed by ``data``."""
        frames = []
        for byte in data:
            if byte != 0:
                if self._skipping:
                    continue
                if len(self._buf) >= MAX_ENCODED:
                    self._buf = bytearray()
                    self._skipping = True
                    self.oversize += 1
                    continue
                self._buf.append(byte)
                continue
            if self._skipping:
                self._skipping = False
                continue
            if self._buf:
                frame = self._frame(bytes(self._buf))
                self._buf = bytearray()
                if frame is not None:
                    frames.append(frame)
        return frames

    def _frame(self, raw):
        payload = cobs_decode(raw)
        if payload is None or len(payload) < 4:
            self.bad += 1
            return None
        crc = (payload[-2] << 8) | payload[-1]
        if crc16(payload[:-2]) != crc:
            self.bad += 1
            return None
        self.frames += 1
        return (payload[0], payload[1], payload[2:-2])


# -- message bodies ----------------------------------------------------------------------

def hello_body(rows, cols, colour, rgb, buttons):
    flags = (FLAG_COLOUR if colour else 0) | (FLAG_RGB if rgb else 0)
    return bytes((PROTOCOL_VERSION, rows, cols, flags, buttons))


def scan_body(rows, cols, cells):
    body = bytearray((rows, cols))
    body.extend(cells)
    return bytes(body)


def button_body(button, pressed):
    return bytes((button, 1 if pressed else 0))


def error_body(code, arg=0):
    return bytes((code, (arg >> 8) & 0xFF, arg & 0xFF))


class BadMessage(Exception):
    """A frame of a known type whose body is not valid (ERROR code 3)."""


def parse_leds(body, rows, cols, unknown=None):
    """Return the LED codes of a LEDS body for a ``rows`` x ``cols`` board.

    A palette code above MAX_CODE (a newer host's) is not an error: that cell is off, and the
    code goes into the set ``unknown`` if one is given.

    Raises BadMessage: wrong size, or a code with a reserved bit, colour 0 with a pattern or a
    pattern 0 with a colour.
    """
    if len(body) < 2 or body[0] != rows or body[1] != cols or len(body) != 2 + rows * cols:
        raise BadMessage("LEDS size")
    codes = bytearray(body[2:])
    for index in range(len(codes)):
        code = codes[index]
        if code == 0:
            continue
        colour = code >> 2
        if code & 0x80 or code & 0x03 == 0 or colour == 0:
            raise BadMessage("LEDS code")
        if colour > MAX_CODE:
            codes[index] = 0
            if unknown is not None:
                unknown.add(colour)
    return bytes(codes)


def parse_leds_rgb(body, rows, cols):
    """Return ``(colours, codes)`` of a LEDS_RGB body for a ``rows`` x ``cols`` board:
    the frame's colours (``(r, g, b)`` tuples) and per cell ``index << 2 | pattern``, the
    index counting the colours from 1.

    Raises BadMessage: wrong size, too many colours, a code with the reserved bit, an index
    beyond the colours, index 0 with a pattern or a pattern 0 with an index.
    """
    if len(body) < 3 or body[0] != rows or body[1] != cols:
        raise BadMessage("LEDS_RGB size")
    count = body[2]
    start = 3 + 3 * count
    if count > MAX_COLOURS or len(body) != start + rows * cols:
        raise BadMessage("LEDS_RGB size")
    colours = tuple((body[3 + 3 * i], body[4 + 3 * i], body[5 + 3 * i]) for i in range(count))
    codes = bytes(body[start:])
    for code in codes:
        if code == 0:
            continue
        index = code >> 2
        if code & 0x80 or code & 0x03 == 0 or index == 0 or index > count:
            raise BadMessage("LEDS_RGB code")
    return colours, codes


def parse_config(body):
    """Return ``(scan_period_ms, debounce_ms)``. Raises BadMessage: length or range."""
    if len(body) != 4:
        raise BadMessage("CONFIG size")
    period = (body[0] << 8) | body[1]
    debounce = (body[2] << 8) | body[3]
    if not 1 <= period <= 1000 or debounce > 1000:
        raise BadMessage("CONFIG range")
    return period, debounce
