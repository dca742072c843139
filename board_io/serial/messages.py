"""Typed messages of the serial protocol, checked strictly in both directions.

Microcontroller -> host: :class:`Hello`, :class:`Scan`, :class:`ButtonChange`,
:class:`ErrorReport`. Host -> microcontroller: :class:`Leds`, :class:`Config`, :class:`Ping`.
An LED frame travels as LEDS_RGB (its own colours, protocol version 3 on) or, to older
firmware, as LEDS: each colour as the nearest of the fixed palette that version has.
Every message turns into a frame body with ``to_body()`` (an LED frame: ``wire()``) and back
with ``decode()``; a body of the wrong length or with an out-of-range value raises
:class:`MessageError`, never a crash further on. Byte layouts are in ``docs/serial-protocol.md``.

Example:
    >>> from board_io.serial.framing import Frame
    >>> decode(Frame(HELLO, 0, bytes([1, 8, 8, 0b01, 3])))
    Hello(version=1, rows=8, cols=8, colour=True, rgb=False, buttons=3)
    >>> Config(scan_period_ms=10, debounce_ms=20).to_body().hex(" ")
    '00 0a 00 14'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Protocol, TypeAlias

from board_io.errors import BoardIOError
from board_io.serial.framing import MAX_BODY, Frame, encode_frame
from board_io.types import Led, Pattern, Reading, Rgb

__all__ = [
    "BUTTON",
    "CONFIG",
    "ERROR",
    "ERROR_SENSOR_FAULT",
    "HELLO",
    "LEDS",
    "LEDS_RGB",
    "MAX_CELLS",
    "MAX_COLOURS",
    "OLDEST_VERSION",
    "PALETTE",
    "PALETTE_FALLBACK",
    "PALETTE_SINCE",
    "PING",
    "PROTOCOL_VERSION",
    "SCAN",
    "ButtonChange",
    "Config",
    "ErrorReport",
    "Hello",
    "Leds",
    "Message",
    "MessageError",
    "Ping",
    "Scan",
    "decode",
    "encode",
    "palette_code",
]

#: The protocol version this host speaks. Versions only ever add (a message, a palette
#: colour, an error code, a flag): with a microcontroller of another version the host speaks
#: the older of the two.
PROTOCOL_VERSION = 3
#: The oldest version the host still speaks (a HELLO below it is refused).
OLDEST_VERSION = 1
MAX_CELLS = MAX_BODY - 2  # a SCAN/LEDS body is rows, cols and one byte per cell

HELLO, SCAN, BUTTON, ERROR = 0x01, 0x02, 0x03, 0x04
LEDS, CONFIG, PING, LEDS_RGB = 0x81, 0x82, 0x83, 0x84

# Wire codes are part of the protocol: fixed here by name, independent of enum values.
READING_CODES: Mapping[Reading, int] = MappingProxyType({
    Reading.EMPTY: 0, Reading.OCCUPIED: 1, Reading.WHITE: 2, Reading.BLACK: 3,
    Reading.WHITE_KING: 4, Reading.BLACK_KING: 5,
})
_READINGS = {code: reading for reading, code in READING_CODES.items()}
PATTERN_CODES: Mapping[Pattern, int] = MappingProxyType({
    Pattern.OFF: 0, Pattern.ON: 1, Pattern.SLOW: 2, Pattern.FAST: 3,
})
_PATTERNS = {code: pattern for pattern, code in PATTERN_CODES.items()}
#: The fixed palette of LEDS (versions 1 and 2): code -> the colour firmware lights, as
#: docs/serial-protocol.md lists it (code 10, blue, is drawn at a quarter). Never changes: a
#: new colour needs no code, it travels in LEDS_RGB.
PALETTE: Mapping[int, Rgb] = MappingProxyType({
    1: (0, 255, 0), 2: (0, 255, 0), 3: (160, 0, 255), 4: (255, 0, 0), 5: (255, 255, 255),
    6: (255, 110, 0), 7: (255, 220, 0), 8: (0, 255, 0), 9: (255, 0, 0), 10: (0, 15, 64),
    11: (255, 170, 0), 12: (255, 255, 255), 13: (255, 0, 192),
})
#: The version that added a palette code (codes not listed: version 1).
PALETTE_SINCE: Mapping[int, int] = MappingProxyType({13: 2})
#: What a code added later is sent as to firmware of an older version: magenta (13) as red
#: (9), "not a piece to play with", rather than its nearest colour, purple.
PALETTE_FALLBACK: Mapping[int, int] = MappingProxyType({13: 9})
#: The most colours one LEDS_RGB frame carries (a cell's colour index has 5 bits).
MAX_COLOURS = 31


def palette_code(colour: Rgb, version: int) -> int:
    """The LEDS code of the fixed palette closest to ``colour`` that firmware of protocol
    ``version`` has (ties: the lowest code).

    Example:
        >>> palette_code((0, 255, 0), 2), palette_code((0, 15, 64), 2)
        (1, 10)
        >>> palette_code((255, 0, 192), 2), palette_code((255, 0, 192), 1)
        (13, 9)
        >>> palette_code((0, 200, 200), 2)  # a colour the palette lacks: the nearest
        1
    """
    def distance(code: int) -> int:
        return sum((a - b) ** 2 for a, b in zip(PALETTE[code], colour, strict=True))

    code = min(PALETTE, key=lambda c: (distance(c), c))
    while PALETTE_SINCE.get(code, 1) > version:
        code = PALETTE_FALLBACK[code]
    return code

ERROR_CODES: Mapping[int, str] = MappingProxyType({
    1: "bad frame received", 2: "unknown message type", 3: "bad message",
    4: "sensor fault", 5: "LED fault", 6: "receive buffer overrun", 7: "watchdog reset",
    8: "LED code unknown to the firmware, shown off",
})
ERROR_SENSOR_FAULT = 4  # ERROR code: a sensor cell is faulty (arg: the cell)
_FLAG_COLOUR, _FLAG_RGB = 0x01, 0x02


class MessageError(BoardIOError, ValueError):
    """A frame's body does not hold a valid message of its type."""


def _expect_length(name: str, body: bytes, length: int) -> None:
    if len(body) != length:
        raise MessageError(f"{name} body must be {length} bytes, got {len(body)}")


def _check_dims(name: str, rows: int, cols: int) -> None:
    if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
        raise MessageError(f"{name}: {rows}x{cols} cells is not a valid board (1..{MAX_CELLS})")


def _cells(name: str, body: bytes) -> tuple[int, int, bytes]:
    if len(body) < 2:
        raise MessageError(f"{name} body must hold rows and cols, got {len(body)} bytes")
    rows, cols = body[0], body[1]
    _check_dims(name, rows, cols)
    _expect_length(name, body, 2 + rows * cols)
    return rows, cols, body[2:]


@dataclass(frozen=True, slots=True)
class Hello:
    """MCU -> host, at start-up and in reply to every :class:`Ping`: what the board is."""

    TYPE: ClassVar[int] = HELLO
    version: int
    rows: int
    cols: int
    colour: bool  # the sensors tell WHITE/BLACK (and crowns), not only presence
    rgb: bool  # the LEDs show colours; otherwise patterns alone
    buttons: int  # button ids 0 .. buttons-1 exist

    @classmethod
    def from_body(cls, body: bytes) -> Hello:
        """Parse a HELLO body. Raises: MessageError."""
        _expect_length("HELLO", body, 5)
        version, rows, cols, flags, buttons = body
        _check_dims("HELLO", rows, cols)
        if flags & ~(_FLAG_COLOUR | _FLAG_RGB):
            raise MessageError(f"HELLO: reserved capability bits set in 0x{flags:02x}")
        return cls(version, rows, cols, bool(flags & _FLAG_COLOUR), bool(flags & _FLAG_RGB),
                   buttons)

    def to_body(self) -> bytes:
        """Return the body bytes."""
        flags = (_FLAG_COLOUR if self.colour else 0) | (_FLAG_RGB if self.rgb else 0)
        return bytes((self.version, self.rows, self.cols, flags, self.buttons))


@dataclass(frozen=True, slots=True)
class Scan:
    """MCU -> host: one reading per cell, row-major (cell ``r * cols + c``)."""

    TYPE: ClassVar[int] = SCAN
    rows: int
    cols: int
    cells: tuple[Reading, ...]

    @classmethod
    def from_body(cls, body: bytes) -> Scan:
        """Parse a SCAN body. Raises: MessageError."""
        rows, cols, data = _cells("SCAN", body)
        try:
            cells = tuple(map(_READINGS.__getitem__, data))
        except KeyError:
            bad = next(i for i, code in enumerate(data) if code not in _READINGS)
            raise MessageError(f"SCAN: cell {bad} has unknown reading code {data[bad]}") from None
        return cls(rows, cols, cells)

    def to_body(self) -> bytes:
        """Return the body bytes."""
        _check_dims("SCAN", self.rows, self.cols)
        if len(self.cells) != self.rows * self.cols:
            raise MessageError(f"SCAN: {len(self.cells)} cells for {self.rows}x{self.cols}")
        return bytes((self.rows, self.cols)) + bytes(map(READING_CODES.__getitem__, self.cells))


@dataclass(frozen=True, slots=True)
class ButtonChange:
    """MCU -> host: button ``button`` went down (``pressed``) or up."""

    TYPE: ClassVar[int] = BUTTON
    button: int
    pressed: bool

    @classmethod
    def from_body(cls, body: bytes) -> ButtonChange:
        """Parse a BUTTON body. Raises: MessageError."""
        _expect_length("BUTTON", body, 2)
        if body[1] > 1:
            raise MessageError(f"BUTTON: pressed must be 0 or 1, got {body[1]}")
        return cls(body[0], bool(body[1]))

    def to_body(self) -> bytes:
        """Return the body bytes."""
        return bytes((self.button, int(self.pressed)))


@dataclass(frozen=True, slots=True)
class ErrorReport:
    """MCU -> host, ERROR: the microcontroller reports a fault (``code`` in ERROR_CODES).

    A message, not an exception: it is data the link logs and hands to its listeners.
    """

    TYPE: ClassVar[int] = ERROR
    code: int
    arg: int  # the cell index for sensor/LED faults, else 0

    @classmethod
    def from_body(cls, body: bytes) -> ErrorReport:
        """Parse an ERROR body. Raises: MessageError."""
        _expect_length("ERROR", body, 3)
        if body[0] not in ERROR_CODES:
            raise MessageError(f"ERROR: unknown error code {body[0]}")
        return cls(body[0], int.from_bytes(body[1:3], "big"))

    @property
    def text(self) -> str:
        """What the code means, in words."""
        return ERROR_CODES.get(self.code, f"error {self.code}")

    def to_body(self) -> bytes:
        """Return the body bytes."""
        return bytes((self.code,)) + self.arg.to_bytes(2, "big")


@dataclass(frozen=True, slots=True)
class Leds:
    """Host -> MCU: one LED state per cell, row-major; cells not given are off.

    Sent as LEDS_RGB (``0x84``: the frame's colours, then a colour index and a pattern per
    cell) to firmware of version 3 on, else as LEDS (``0x81``: a code of the fixed
    :data:`PALETTE` per cell); see :meth:`wire`.

    Example:
        >>> frame = Leds(1, 2, (Led(Pattern.ON, (0, 255, 0)), None))
        >>> [(kind, body.hex(" ")) for kind, body in (frame.wire(3), frame.wire(2))]
        [(132, '01 02 01 00 ff 00 05 00'), (129, '01 02 05 00')]
    """

    TYPE: ClassVar[int] = LEDS
    rows: int
    cols: int
    cells: tuple[Led | None, ...]

    @classmethod
    def from_body(cls, body: bytes) -> Leds:
        """Parse a LEDS body (the fake microcontroller and firmware tests use it): each
        cell's colour is its palette code's. Raises: MessageError."""
        rows, cols, data = _cells("LEDS", body)
        return cls(rows, cols, tuple(_led_from_code(i, code) for i, code in enumerate(data)))

    @classmethod
    def from_rgb_body(cls, body: bytes) -> Leds:
        """Parse a LEDS_RGB body. Raises: MessageError."""
        if len(body) < 3:
            raise MessageError(f"LEDS_RGB body must hold rows, cols and a colour count, got "
                               f"{len(body)} bytes")
        rows, cols, count = body[0], body[1], body[2]
        _check_dims("LEDS_RGB", rows, cols)
        if count > MAX_COLOURS:
            raise MessageError(f"LEDS_RGB: {count} colours, at most {MAX_COLOURS}")
        _expect_length("LEDS_RGB", body, 3 + 3 * count + rows * cols)
        colours = [(body[3 + 3 * i], body[4 + 3 * i], body[5 + 3 * i]) for i in range(count)]
        data = body[3 + 3 * count:]
        return cls(rows, cols, tuple(_led_from_index(i, code, colours)
                                     for i, code in enumerate(data)))

    def wire(self, version: int = PROTOCOL_VERSION) -> tuple[int, bytes]:
        """The message type and body for firmware of protocol ``version``: LEDS_RGB from
        version 3 on (LEDS when the frame has more than :data:`MAX_COLOURS` colours or does
        not fit a frame: a board of nearly 512 cells), else LEDS."""
        _check_dims("LEDS", self.rows, self.cols)
        if len(self.cells) != self.rows * self.cols:
            raise MessageError(f"LEDS: {len(self.cells)} cells for {self.rows}x{self.cols}")
        if version >= 3:
            colours = list(dict.fromkeys(led.colour for led in self.cells
                                         if led is not None and led.pattern is not Pattern.OFF))
            if len(colours) <= MAX_COLOURS and 3 + 3 * len(colours) + len(self.cells) <= MAX_BODY:
                index = {colour: i + 1 for i, colour in enumerate(colours)}
                head = bytes((self.rows, self.cols, len(colours)))
                return LEDS_RGB, head + bytes(c for colour in colours for c in colour) + bytes(
                    0 if led is None or led.pattern is Pattern.OFF
                    else PATTERN_CODES[led.pattern] | index[led.colour] << 2
                    for led in self.cells)
        return LEDS, bytes((self.rows, self.cols)) + bytes(_led_code(led, version)
                                                           for led in self.cells)


def _led_code(led: Led | None, version: int) -> int:
    if led is None or led.pattern is Pattern.OFF:
        return 0
    return PATTERN_CODES[led.pattern] | palette_code(led.colour, version) << 2


def _led_from_code(cell: int, code: int) -> Led | None:
    pattern, colour = code & 0x03, code >> 2
    if code == 0:
        return None
    if pattern == 0 or colour not in PALETTE:
        raise MessageError(f"LEDS: cell {cell} has invalid code 0x{code:02x}")
    return Led(_PATTERNS[pattern], PALETTE[colour])


def _led_from_index(cell: int, code: int, colours: list[Rgb]) -> Led | None:
    pattern, index = code & 0x03, code >> 2
    if code == 0:
        return None
    if code & 0x80 or pattern == 0 or not 1 <= index <= len(colours):
        raise MessageError(f"LEDS_RGB: cell {cell} has invalid code 0x{code:02x}")
    return Led(_PATTERNS[pattern], colours[index - 1])


@dataclass(frozen=True, slots=True)
class Config:
    """Host -> MCU: how often to scan and how long a cell must be stable before it is sent."""

    TYPE: ClassVar[int] = CONFIG
    scan_period_ms: int
    debounce_ms: int

    def __post_init__(self) -> None:
        if not 1 <= self.scan_period_ms <= 1000 or not 0 <= self.debounce_ms <= 1000:
            raise MessageError(
                f"CONFIG: scan_period_ms must be 1..1000 and debounce_ms 0..1000, "
                f"got {self.scan_period_ms} and {self.debounce_ms}"
            )

    @classmethod
    def from_body(cls, body: bytes) -> Config:
        """Parse a CONFIG body. Raises: MessageError."""
        _expect_length("CONFIG", body, 4)
        return cls(int.from_bytes(body[0:2], "big"), int.from_bytes(body[2:4], "big"))

    def to_body(self) -> bytes:
        """Return the body bytes."""
        return self.scan_period_ms.to_bytes(2, "big") + self.debounce_ms.to_bytes(2, "big")


@dataclass(frozen=True, slots=True)
class Ping:
    """Host -> MCU: "who are you?"; the MCU answers with HELLO then a full SCAN."""

    TYPE: ClassVar[int] = PING

    @classmethod
    def from_body(cls, body: bytes) -> Ping:
        """Parse a PING body. Raises: MessageError."""
        _expect_length("PING", body, 0)
        return cls()

    def to_body(self) -> bytes:
        """Return the body bytes."""
        return b""


Message: TypeAlias = Hello | Scan | ButtonChange | ErrorReport | Leds | Config | Ping


class _Parser(Protocol):
    def __call__(self, body: bytes, /) -> Message: ...


_PARSERS: Mapping[int, _Parser] = MappingProxyType({
    **{cls.TYPE: cls.from_body
       for cls in (Hello, Scan, ButtonChange, ErrorReport, Leds, Config, Ping)},
    LEDS_RGB: Leds.from_rgb_body,
})


def decode(frame: Frame) -> Message:
    """Return the message a frame carries.

    Example:
        >>> decode(Frame(BUTTON, 3, bytes([2, 1])))
        ButtonChange(button=2, pressed=True)

    Raises:
        MessageError: unknown type, wrong body length or a value out of range.
    """
    parser = _PARSERS.get(frame.type)
    if parser is None:
        raise MessageError(f"unknown message type 0x{frame.type:02x}")
    return parser(frame.body)


def encode(message: Message, seq: int, version: int = PROTOCOL_VERSION) -> bytes:
    """Return the wire bytes (frame and delimiter) of ``message`` with sequence number ``seq``
    for a microcontroller speaking protocol ``version``.

    Example:
        >>> encode(Ping(), 7).hex(" ")
        '05 83 07 23 23 00'
    """
    kind, body = (message.wire(version) if isinstance(message, Leds)
                  else (message.TYPE, message.to_body()))
    return encode_frame(kind, seq & 0xFF, body)
