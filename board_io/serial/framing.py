"""Frames of the serial protocol: COBS, a two-byte header and a CRC-16, ``0x00``-delimited.

A frame on the wire is ``cobs(payload) + b"\\x00"`` where
``payload = type:u8, seq:u8, body, crc:u16`` and ``crc`` is CRC-16/CCITT-FALSE (polynomial
0x1021, initial value 0xFFFF, big-endian on the wire) over ``type .. body``. This layer is pure:
it turns bytes into :class:`Frame` objects and back, with no thread and no port. The full
protocol is documented in ``docs/serial-protocol.md``.

Example:
    >>> wire = encode_frame(0x83, 7, b"")
    >>> wire.hex(" ")
    '05 83 07 23 23 00'
    >>> decoder = FrameDecoder()
    >>> decoder.feed(b"\\xde\\xad\\x00" + wire)     # garbage is dropped and counted
    [Frame(type=131, seq=7, body=b'')]
    >>> decoder.stats.dropped
    1
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, fields

from board_io.errors import BoardIOError
from board_io.serial import cobs

__all__ = [
    "DELIMITER",
    "MAX_BODY",
    "MAX_ENCODED",
    "Frame",
    "FrameDecoder",
    "FrameError",
    "FrameStats",
    "crc16",
    "decode_frame",
    "encode_frame",
]

DELIMITER = 0x00
MAX_BODY = 512
_OVERHEAD = 4  # type, seq and the two CRC bytes
MAX_ENCODED = cobs.max_encoded_length(MAX_BODY + _OVERHEAD)


class FrameError(BoardIOError, ValueError):
    """A frame could not be decoded; ``kind`` says why (``truncated``, ``crc``, ``oversize``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: message type, sequence number and body (CRC already checked)."""

    type: int
    seq: int
    body: bytes


@dataclass(slots=True)
class FrameStats:
    """Counters kept by a :class:`FrameDecoder` (one per link, never shared)."""

    frames: int = 0
    crc: int = 0
    truncated: int = 0
    oversize: int = 0

    @property
    def dropped(self) -> int:
        """All frames dropped, whatever the reason."""
        return self.crc + self.truncated + self.oversize

    def as_dict(self) -> dict[str, int]:
        """Return the counters as a plain dict (for logs and the live event feed)."""
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"dropped": self.dropped}


def crc16(data: bytes) -> int:
    """Return the CRC-16/CCITT-FALSE of ``data``.

    Example:
        >>> hex(crc16(b"123456789"))   # the catalogued check value
        '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def encode_frame(type_: int, seq: int, body: bytes = b"") -> bytes:
    """Return the wire bytes of one frame, delimiter included.

    Example:
        >>> encode_frame(0x83, 0).hex(" ")
        '02 83 03 53 c4 00'

    Raises:
        ValueError: ``type_`` or ``seq`` is not a byte, or ``body`` is longer than ``MAX_BODY``.
    """
    if not 0 <= type_ <= 0xFF or not 0 <= seq <= 0xFF:
        raise ValueError(f"type and seq must be 0..255, got type={type_}, seq={seq}")
    if len(body) > MAX_BODY:
        raise ValueError(f"frame body of {len(body)} bytes exceeds the {MAX_BODY}-byte limit")
    payload = bytes((type_, seq)) + body
    payload += crc16(payload).to_bytes(2, "big")
    return cobs.encode(payload) + b"\x00"


def decode_frame(encoded: bytes) -> Frame:
    """Decode one frame given without its ``0x00`` delimiter.

    Example:
        >>> decode_frame(bytes.fromhex("02 83 03 53 c4"))
        Frame(type=131, seq=0, body=b'')

    Raises:
        FrameError: ``kind="oversize"`` longer than any valid frame; ``"truncated"`` the COBS
            codes run past the end or fewer than 4 bytes decode; ``"crc"`` the CRC does not match.
    """
    if len(encoded) > MAX_ENCODED:
        raise FrameError("oversize", f"frame of {len(encoded)} bytes exceeds {MAX_ENCODED}")
    try:
        payload = cobs.decode(encoded)
    except cobs.CobsError as exc:
        raise FrameError("truncated", f"bad COBS: {exc}") from None
    if len(payload) < _OVERHEAD:
        raise FrameError("truncated", f"frame of {len(payload)} bytes is shorter than 4")
    expected = crc16(payload[:-2])
    received = int.from_bytes(payload[-2:], "big")
    if expected != received:
        raise FrameError(
            "crc", f"CRC mismatch: received 0x{received:04x}, computed 0x{expected:04x}"
        )
    return Frame(payload[0], payload[1], payload[2:-2])


class FrameDecoder:
    """Split a byte stream at ``0x00`` delimiters into frames, dropping and counting bad ones.

    Bytes are fed in whatever pieces the port delivers; a frame split across calls is kept
    until its delimiter arrives. Empty frames (two delimiters in a row) are ignored: a sender
    may put a ``0x00`` before each frame to flush a receiver's partial frame. A run of bytes
    longer than any valid frame is discarded up to the next delimiter so garbage cannot grow
    the buffer.

    Example:
        >>> decoder = FrameDecoder()
        >>> wire = encode_frame(0x01, 0, b"\\x01\\x08\\x08\\x00\\x00")
        >>> decoder.feed(wire[:3]), len(decoder.feed(wire[3:]))
        ([], 1)
    """

    def __init__(self) -> None:
        self.stats = FrameStats()
        self._buffer = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list[Frame]:
        """Add received bytes and return the frames they complete, in order."""
        frames: list[Frame] = []
        buffer = self._buffer
        buffer += data
        start = 0
        while (end := buffer.find(DELIMITER, start)) >= 0:
            if self._discarding:
                self._discarding = False
            elif end > start:
                self._decode_one(bytes(buffer[start:end]), frames)
            start = end + 1
        del buffer[:start]
        if len(buffer) > MAX_ENCODED:
            if not self._discarding:
                self.stats.oversize += 1
                self._discarding = True
            buffer.clear()
        return frames

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect); the counters are kept."""
        self._buffer.clear()
        self._discarding = False

    def _decode_one(self, encoded: bytes, frames: list[Frame]) -> None:
        try:
            frame = decode_frame(encoded)
        except FrameError as exc:
            setattr(self.stats, exc.kind, getattr(self.stats, exc.kind) + 1)
            return
        self.stats.frames += 1
        frames.append(frame)
