"""Consistent Overhead Byte Stuffing: frames that never contain ``0x00``.

COBS (Cheshire and Baker, 1999) rewrites a byte string so that it holds no zero byte, at a
cost of at most one byte per 254. The serial link then uses ``0x00`` as an unambiguous frame
delimiter: a receiver that joins mid-stream, or sees garbage, resynchronises at the next zero.

Example:
    >>> encode(b"\\x11\\x00\\x22")
    b'\\x02\\x11\\x02"'
    >>> decode(encode(b"\\x11\\x00\\x22"))
    b'\\x11\\x00"'
"""

from __future__ import annotations

from board_io.errors import BoardIOError

__all__ = ["CobsError", "decode", "encode", "max_encoded_length"]

_BLOCK = 0xFF  # a code byte of 0xFF means "254 data bytes follow, no zero after them"


class CobsError(BoardIOError, ValueError):
    """A byte string is not valid COBS (a zero inside, or a code pointing past the end)."""


def max_encoded_length(size: int) -> int:
    """Return the longest COBS encoding of ``size`` bytes (without the delimiter).

    Example:
        >>> max_encoded_length(254), max_encoded_length(255)
        (255, 257)
    """
    return size + max(1, -(-size // 254))


def encode(data: bytes) -> bytes:
    """Return ``data`` COBS-encoded, without the trailing ``0x00`` delimiter.

    Example:
        >>> encode(b"")
        b'\\x01'
        >>> encode(b"\\x00")
        b'\\x01\\x01'
    """
    out = bytearray()
    start = 0
    size = len(data)
    while True:
        # One block: up to 254 non-zero bytes ended by a zero, the 254-byte limit or the end.
        zero = data.find(0, start, start + 254)
        if zero < 0:
            end = min(start + 254, size)
            out.append(end - start + 1)
            out += data[start:end]
            if end == size:
                return bytes(out)
            start = end  # a full 254-byte block (code 0xFF) implies no zero after it
        else:
            out.append(zero - start + 1)
            out += data[start:zero]
            start = zero + 1  # a zero as last byte leaves an empty final block (code 0x01)


def decode(data: bytes) -> bytes:
    """Return the bytes that ``data`` encodes (``data`` without its ``0x00`` delimiter).

    Example:
        >>> decode(b"\\x03\\x11\\x22\\x02\\x33")
        b'\\x11"\\x003'

    Raises:
        CobsError: ``data`` is empty, contains ``0x00`` or a code byte points past its end.
    """
    if not data:
        raise CobsError("empty COBS frame")
    if 0 in data:
        raise CobsError(f"zero byte inside a COBS frame at offset {data.index(0)}")
    # Every code byte but the first stands where the decoded data has a zero (unless the block
    # before it was a full 0xFF one): overwrite the codes with zeros and drop the first byte.
    out = bytearray(data)
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        if code == _BLOCK:
            return _decode_blocks(data)
        out[index] = 0
        index += code
    if index > size:
        raise CobsError(_overrun(data))
    del out[0]
    return bytes(out)


def _overrun(data: bytes) -> str:
    index = 0
    while index + data[index] <= len(data) - 1:
        index += data[index]
    return (f"COBS code {data[index]} at offset {index} runs past the end of a "
            f"{len(data)}-byte frame")


def _decode_blocks(data: bytes) -> bytes:
    """The general decoder, for frames with 254-byte blocks (code 0xFF)."""
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        end = index + code
        if end > size:
            raise CobsError(_overrun(data))
        out += data[index + 1 : end]
        index = end
        if code != _BLOCK and index < size:
            out.append(0)
    return bytes(out)
