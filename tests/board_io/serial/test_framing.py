"""COBS and the frame layer, on byte strings only (no port, no thread).

Expected bytes are written out by hand from the COBS paper's rules and the catalogued
CRC-16/CCITT-FALSE check value, never computed by the code under test.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board_io.serial import cobs
from board_io.serial.framing import (
    MAX_ENCODED,
    Frame,
    FrameDecoder,
    FrameError,
    crc16,
    decode_frame,
    encode_frame,
)
from tests.conftest import sample_size

# (decoded, encoded) pairs: the examples of the COBS paper / Wikipedia article.
COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
]


@pytest.mark.parametrize(("decoded", "encoded"), COBS_VECTORS)
def test_cobs_vectors(decoded: bytes, encoded: bytes) -> None:
    assert cobs.encode(decoded) == encoded
    assert cobs.decode(encoded) == decoded
    assert len(encoded) <= cobs.max_encoded_length(len(decoded))


def test_cobs_round_trip_random() -> None:
    rng = random.Random(4)
    for _ in range(sample_size(ci=300, full=20_000)):
        data = bytes(rng.choice((0, 0, rng.randrange(256))) for _ in range(rng.randrange(600)))
        encoded = cobs.encode(data)
        assert 0 not in encoded
        assert len(encoded) <= cobs.max_encoded_length(len(data))
        assert cobs.decode(encoded) == data


@pytest.mark.parametrize(
    ("encoded", "words"),
    [
        (b"", "empty"),
        (b"\x03\x11", "runs past the end"),
        (b"\x02\x11\x05\x22", "runs past the end"),
        (b"\x03\x11\x00", "zero byte"),
        (b"\x00", "zero byte"),
    ],
)
def test_cobs_rejects_bad_input(encoded: bytes, words: str) -> None:
    with pytest.raises(cobs.CobsError, match=words):
        cobs.decode(encoded)


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogue's check value
    assert crc16(b"") == 0xFFFF


def test_ping_frame_bytes() -> None:
    # PING (0x83), seq 7, no body: CRC over 83 07 is 0x2323; no zero so one COBS block of 4.
    assert crc16(b"\x83\x07") == 0x2323
    assert encode_frame(0x83, 7) == bytes.fromhex("05 83 07 23 23 00")
    # seq 0 is a zero byte: COBS splits the block there.
    assert crc16(b"\x83\x00") == 0x53C4
    assert encode_frame(0x83, 0) == bytes.fromhex("02 83 03 53 c4 00")


def test_encode_decode_frame() -> None:
    body = bytes([8, 8]) + bytes(64)
    wire = encode_frame(0x02, 200, body)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert decode_frame(wire[:-1]) == Frame(0x02, 200, body)


@pytest.mark.parametrize(
    ("type_", "seq", "body"), [(256, 0, b""), (0, -1, b""), (1, 0, bytes(513))]
)
def test_encode_frame_rejects_bad_arguments(type_: int, seq: int, body: bytes) -> None:
    with pytest.raises(ValueError):
        encode_frame(type_, seq, body)


def test_decode_frame_errors() -> None:
    wire = encode_frame(0x03, 1, b"\x02\x01")[:-1]
    corrupted = wire[:3] + bytes([wire[3] ^ 0x40]) + wire[4:]
    with pytest.raises(FrameError, match="CRC mismatch") as info:
        decode_frame(corrupted)
    assert info.value.kind == "crc"
    with pytest.raises(FrameError) as info:
        decode_frame(wire[:-2] + b"\x09")
    assert info.value.kind == "truncated"
    with pytest.raises(FrameError, match="shorter than 4") as info:
        decode_frame(b"\x03\x83\x07")
    assert info.value.kind == "truncated"
    with pytest.raises(FrameError) as info:
        decode_frame(b"\x01" * (MAX_ENCODED + 1))
    assert info.value.kind == "oversize"


def _frames(n: int) -> list[bytes]:
    return [encode_frame(0x02, i & 0xFF, bytes([2, 2, 0, 1, 0, i & 1])) for i in range(n)]


def test_stream_split_anywhere() -> None:
    stream = b"".join(_frames(5))
    for cut in range(1, len(stream)):
        decoder = FrameDecoder()
        got = decoder.feed(stream[:cut]) + decoder.feed(stream[cut:])
        assert [f.seq for f in got] == [0, 1, 2, 3, 4]
        assert decoder.stats.dropped == 0


def test_stream_byte_by_byte() -> None:
    decoder = FrameDecoder()
    got: list[Frame] = []
    for byte in b"".join(_frames(3)):
        got += decoder.feed(bytes([byte]))
    assert [f.body[-1] for f in got] == [0, 1, 0]


def test_stream_drops_and_counts_bad_frames() -> None:
    good = _frames(4)
    bad_crc = bytearray(good[1])
    bad_crc[1] ^= 0x01  # type 0x02 -> 0x03, no zero introduced
    truncated = good[2][:3] + b"\x00"  # the cable dropped the rest of the frame
    stream = (
        b"\x17\x42\xfe\x00"  # garbage before the first delimiter (joined mid-stream)
        + good[0]
        + bytes(bad_crc)
        + b"\x00\x00"  # empty frames: ignored, not errors
        + truncated
        + good[3]
    )
    decoder = FrameDecoder()
    got = decoder.feed(stream)
    assert [f.seq for f in got] == [0, 3]
    assert decoder.stats.frames == 2
    assert decoder.stats.crc == 1
    assert decoder.stats.truncated == 2  # the garbage block overruns its COBS code too
    assert decoder.stats.dropped == 3


def test_stream_discards_oversize_runs() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x05" * (MAX_ENCODED + 10)) == []
    assert decoder.stats.oversize == 1
    assert decoder.feed(b"\x05" * 1000) == []  # still the same run: counted once
    assert decoder.stats.oversize == 1
    frame = encode_frame(0x83, 9)
    got = decoder.feed(b"\x05\x05\x00" + frame)  # the run ends at its delimiter
    assert [f.seq for f in got] == [9]
    assert decoder.stats.oversize == 1 and decoder.stats.truncated == 0


def test_random_garbage_never_raises() -> None:
    rng = random.Random(44)
    decoder = FrameDecoder()
    frames = _frames(200)
    received = 0
    rounds = sample_size(ci=200, full=20_000)
    for _ in range(rounds):
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        got = decoder.feed(noise + b"\x00" + rng.choice(frames))
        received += len(got)
        assert all(f.type == 0x02 for f in got)
    # Every good frame follows a delimiter, so each one arrives intact.
    assert received == rounds


def test_reset_forgets_partial_frame() -> None:
    decoder = FrameDecoder()
    frame = encode_frame(0x83, 1)
    decoder.feed(frame[:3])
    decoder.reset()
    assert decoder.feed(frame[3:]) == []
    assert decoder.feed(frame) == [Frame(0x83, 1, b"")]


def test_stats_as_dict() -> None:
    decoder = FrameDecoder()
    decoder.feed(b"\x01\x00" + encode_frame(0x83, 1))
    assert decoder.stats.as_dict() == {
        "frames": 1, "crc": 0, "truncated": 1, "oversize": 0, "dropped": 1,
    }


@settings(max_examples=sample_size(ci=150, full=5000), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=300)),
                max_size=8),
       st.lists(st.integers(1, 200), max_size=10))
def test_any_frames_survive_any_split(frames: list[tuple[int, int, bytes]],
                                      cuts: list[int]) -> None:
    stream = b"".join(encode_frame(*frame) for frame in frames)
    decoder = FrameDecoder()
    got: list[Frame] = []
    start = 0
    for cut in [*cuts, len(stream)]:
        got += decoder.feed(stream[start:start + cut])
        start += cut
    got += decoder.feed(stream[start:])
    assert got == [Frame(*frame) for frame in frames]
    assert decoder.stats.dropped == 0


@settings(max_examples=sample_size(ci=150, full=5000), deadline=None)
@given(st.lists(st.binary(max_size=120), max_size=12))
def test_any_bytes_never_raise(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    for chunk in chunks:
        decoder.feed(chunk)
    # every delimiter ends at most one frame, good or dropped
    delimiters = sum(chunk.count(0) for chunk in chunks)
    assert decoder.stats.frames + decoder.stats.crc + decoder.stats.truncated <= delimiters
