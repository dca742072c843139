# draughtsboard reference firmware: the Pico's hardware, built from settings.py.
#
# USB serial on stdin/stdout with Ctrl-C disabled (the protocol is binary: a 0x03 byte must
# not stop the program), machine.Pin for the matrix and the buttons, the PIO for the LEDs.

import select
import sys
import time

import micropython
from machine import Pin


class UsbSerial:
    """The USB CDC port as the firmware's ``io``: non-blocking read, write."""

    def __init__(self):
        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 600 and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data)

    def write(self, data):
        self._out.write(data)


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_add(self, t, ms):
        return time.ticks_add(t, ms)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


def _settle(us):
    return lambda: time.sleep_us(us)


def build(settings):
    """Return the keyword arguments of db_firmware.Firmware for this board."""
    from db_buttons import Buttons
    from db_matrix import Matrix

    clock = Clock()
    rows = [Pin(n) for n in settings.ROW_PINS]
    cols = [Pin(n) for n in settings.COL_PINS]
    matrix = Matrix(rows, cols, Pin, active_high=settings.ACTIVE_HIGH,
                    settle=_settle(settings.SETTLE_US) if settings.SETTLE_US else None)
    count = len(settings.LED_CELLS) if settings.LED_CELLS else matrix.rows * matrix.cols
    strip = None
    if settings.LED_PIN >= 0:
        import db_ws2812

        strip = db_ws2812.make_strip(settings.LED_DRIVER, settings.LED_PIN, count,
                                     settings.LED_ORDER)
    buttons = None
    if settings.BUTTON_PINS:
        pull = Pin.PULL_UP if settings.BUTTON_ACTIVE_LOW else Pin.PULL_DOWN
        pins = [Pin(n, Pin.IN, pull) for n in settings.BUTTON_PINS]
        buttons = Buttons(pins, clock.ticks_diff, active_low=settings.BUTTON_ACTIVE_LOW,
                          debounce_ms=settings.BUTTON_DEBOUNCE_MS)
    return {"io": None, "clock": clock, "matrix": matrix, "strip": strip, "buttons": buttons,
            "rgb": settings.RGB, "brightness": settings.BRIGHTNESS,
            "led_cells": settings.LED_CELLS, "check_diodes": settings.CHECK_DIODES,
            "scan_period_ms": settings.SCAN_PERIOD_MS, "debounce_ms": settings.DEBOUNCE_MS}


def safe_mode(parts, settings):
    """True if the safe button is held at boot: leave the REPL to mpremote."""
    buttons = parts["buttons"]
    index = settings.SAFE_BUTTON
    return buttons is not None and 0 <= index < buttons.count and buttons.pressed(index)
