"""Typed messages of the serial protocol: byte layouts written out by hand, strict validation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board_io.serial import messages as msg
from board_io.serial.framing import Frame, decode_frame
from board_io.types import WHITE, YELLOW, Led, Pattern, Reading
from tests.conftest import sample_size

GREEN, RED, CYAN = (0, 255, 0), (255, 0, 0), (0, 200, 200)


def _decode(type_: int, body: bytes) -> msg.Message:
    return msg.decode(Frame(type_, 0, body))


def test_hello_bytes() -> None:
    hello = _decode(0x01, bytes([1, 10, 10, 0b11, 4]))
    assert hello == msg.Hello(version=1, rows=10, cols=10, colour=True, rgb=True, buttons=4)
    assert msg.Hello(1, 8, 8, colour=False, rgb=True, buttons=0).to_body() == bytes([1, 8, 8, 2, 0])


def test_scan_bytes() -> None:
    body = bytes([2, 3, 0, 1, 2, 3, 4, 5])
    scan = _decode(0x02, body)
    assert scan == msg.Scan(2, 3, (Reading.EMPTY, Reading.OCCUPIED, Reading.WHITE, Reading.BLACK,
                                   Reading.WHITE_KING, Reading.BLACK_KING))
    assert scan.to_body() == body


def test_button_and_error_bytes() -> None:
    assert _decode(0x03, b"\x05\x00") == msg.ButtonChange(button=5, pressed=False)
    error = _decode(0x04, b"\x04\x01\x02")
    assert error == msg.ErrorReport(code=4, arg=0x0102)
    assert error.text == "sensor fault"
    assert msg.ErrorReport(6, 0).to_body() == b"\x06\x00\x00"


def test_leds_bytes_with_their_colours() -> None:
    leds = msg.Leds(1, 4, (None, Led(Pattern.ON, GREEN), Led(Pattern.SLOW, RED),
                           Led(Pattern.FAST, GREEN)))
    # LEDS_RGB: the frame's colours, then per cell the colour's index (from 1) in bits 2-6
    # and the pattern in bits 0-1.
    body = bytes([1, 4, 2, 0, 255, 0, 255, 0, 0, 0x00, 0b1_01, 0b10_10, 0b1_11])
    assert leds.wire() == (msg.LEDS_RGB, body)
    assert _decode(msg.LEDS_RGB, body) == leds
    off = msg.Leds(1, 1, (Led(Pattern.OFF, YELLOW),))
    assert off.wire() == (msg.LEDS_RGB, bytes([1, 1, 0, 0]))


def test_leds_bytes_of_the_fixed_palette() -> None:
    leds = msg.Leds(1, 4, (None, Led(Pattern.ON, GREEN), Led(Pattern.SLOW, RED),
                           Led(Pattern.FAST, WHITE)))
    # Versions 1 and 2: a code of the fixed palette in bits 2-6: green 1, red 4, white 5.
    body = bytes([1, 4, 0x00, 0b1_01, 0b100_10, 0b101_11])
    assert leds.wire(2) == (msg.LEDS, body)
    assert _decode(msg.LEDS, body) == leds
    assert msg.Leds(1, 1, (Led(Pattern.OFF, YELLOW),)).wire(1) == (msg.LEDS, bytes([1, 1, 0]))


def test_a_colour_the_palette_lacks_goes_as_the_nearest() -> None:
    frame = msg.Leds(1, 1, (Led(Pattern.ON, CYAN),))
    assert _decode(*frame.wire(3)) == frame  # version 3: the colour itself
    assert _decode(*frame.wire(2)).cells == (Led(Pattern.ON, GREEN),)


def test_a_frame_too_big_for_its_colours_goes_as_the_fixed_palette() -> None:
    many = tuple(Led(Pattern.ON, (i, 0, 0)) for i in range(msg.MAX_COLOURS + 1))
    assert msg.Leds(1, len(many), many).wire()[0] == msg.LEDS
    wide = (Led(Pattern.ON, GREEN),) * msg.MAX_CELLS
    assert msg.Leds(2, msg.MAX_CELLS // 2, wide).wire()[0] == msg.LEDS


def test_config_and_ping_bytes() -> None:
    assert msg.Config(scan_period_ms=10, debounce_ms=300).to_body() == bytes([0, 10, 1, 44])
    assert _decode(0x82, bytes([0, 10, 1, 44])) == msg.Config(10, 300)
    assert _decode(0x83, b"") == msg.Ping()


def test_encode_whole_frame() -> None:
    wire = msg.encode(msg.ButtonChange(2, True), seq=0x1FF)
    assert wire.endswith(b"\x00")
    frame = decode_frame(wire[:-1])
    assert (frame.type, frame.seq, frame.body) == (0x03, 0xFF, b"\x02\x01")


def test_every_reading_and_pattern_has_a_code() -> None:
    assert set(msg.READING_CODES) == set(Reading)
    assert set(msg.PATTERN_CODES) == set(Pattern)
    assert sorted(msg.PALETTE) == list(range(1, 14))


@pytest.mark.parametrize(
    ("type_", "body", "words"),
    [
        (0x01, bytes([1, 8, 8, 0]), "HELLO body must be 5 bytes, got 4"),
        (0x01, bytes([1, 0, 8, 0, 0]), "0x8 cells is not a valid board"),
        (0x01, bytes([1, 8, 8, 0x04, 0]), "reserved capability bits"),
        (0x02, bytes([8]), "must hold rows and cols"),
        (0x02, bytes([2, 2, 0, 0, 0]), "SCAN body must be 6 bytes, got 5"),
        (0x02, bytes([1, 2, 0, 6]), "cell 1 has unknown reading code 6"),
        (0x02, bytes([30, 30]) + bytes(900), "30x30 cells is not a valid board"),
        (0x03, bytes([1]), "BUTTON body must be 2 bytes"),
        (0x03, bytes([1, 2]), "pressed must be 0 or 1"),
        (0x04, bytes([99, 0, 0]), "unknown error code 99"),
        (0x04, bytes([1]), "ERROR body must be 3 bytes"),
        (0x81, bytes([1, 1, 0x80]), "invalid code 0x80"),
        (0x81, bytes([1, 1, 0b1110_01]), "invalid code 0x39"),  # code 14 does not exist
        (0x81, bytes([1, 1, 0b0001_00]), "invalid code 0x04"),  # a colour with pattern off
        (0x81, bytes([1, 1, 0b0000_01]), "invalid code 0x01"),  # lit without a colour
        (0x84, bytes([1, 1]), "must hold rows, cols and a colour count"),
        (0x84, bytes([1, 1, 32]) + bytes(97), "32 colours, at most 31"),
        (0x84, bytes([1, 1, 1, 0, 0]), "LEDS_RGB body must be 7 bytes, got 5"),
        (0x84, bytes([1, 1, 1, 0, 0, 0, 0b10_01]), "invalid code 0x09"),  # colour 2 of 1
        (0x84, bytes([1, 1, 1, 0, 0, 0, 0b1_00]), "invalid code 0x04"),  # pattern off
        (0x84, bytes([1, 1, 1, 0, 0, 0, 0x81]), "invalid code 0x81"),  # reserved bit
        (0x82, bytes([0, 0, 0, 20]), "scan_period_ms must be 1..1000"),
        (0x82, bytes([0, 10, 0x10, 0]), "debounce_ms 0..1000"),
        (0x82, bytes([0, 10]), "CONFIG body must be 4 bytes"),
        (0x83, b"\x00", "PING body must be 0 bytes"),
        (0x7F, b"", "unknown message type 0x7f"),
    ],
)
def test_strict_validation(type_: int, body: bytes, words: str) -> None:
    with pytest.raises(msg.MessageError, match=words):
        _decode(type_, body)


def test_message_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        _decode(0x83, b"\x01")


def test_to_body_checks_cell_count() -> None:
    with pytest.raises(msg.MessageError, match="3 cells for 2x2"):
        msg.Scan(2, 2, (Reading.EMPTY,) * 3).to_body()
    with pytest.raises(msg.MessageError, match="1 cells for 1x2"):
        msg.Leds(1, 2, (None,)).wire()


@settings(max_examples=sample_size(ci=300, full=10_000), deadline=None)
@given(st.sampled_from([0x01, 0x02, 0x03, 0x04, 0x81, 0x82, 0x83, 0x84, 0x00, 0x7F, 0xFF]),
       st.one_of(st.binary(max_size=40),
                 st.builds(lambda r, c, cells: bytes([r, c]) + cells,
                           st.integers(0, 12), st.integers(0, 12), st.binary(max_size=150))))
def test_any_body_is_a_message_or_a_message_error(type_: int, body: bytes) -> None:
    try:
        message = _decode(type_, body)
    except msg.MessageError:
        return
    if isinstance(message, msg.Leds):  # what parses, re-encodes to a frame that parses alike
        assert _decode(*message.wire(3 if type_ == msg.LEDS_RGB else 2)) == message
        return
    assert type_ == message.TYPE
    assert message.to_body() == body  # what parses, re-encodes to the same bytes
