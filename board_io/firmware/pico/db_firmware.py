# draughtsboard reference firmware: the main loop, hardware-independent.
#
# Everything the Pico provides comes in as an argument, so the same code runs under CPython
# in the tests (pty instead of USB, simulated switches, an LED recorder):
#   io      read() -> bytes available now (never blocks), write(data)
#   clock   ticks_ms(), ticks_add(t, ms), ticks_diff(a, b), sleep_ms(ms) (time.ticks_*: they
#           wrap around, so times are only ever added and compared through these)
#   matrix  db_matrix.Matrix (rows, cols, read(), backwards())
#   strip   write(pixels): one (r, g, b) per LED; None for a board without LEDs
#   buttons db_buttons.Buttons or None
#
# What it does (docs/serial-protocol.md): HELLO and a full SCAN at boot and on every PING;
# a SCAN whenever a debounced cell changes and at least once a second; BUTTON on every
# debounced press and release; LEDS and LEDS_RGB drawn with their blink patterns (a LEDS code
# it does not know shown off and reported once, ERROR 8); CONFIG applied; bad frames dropped
# and counted (ERROR 1, at most once a second); unknown types ERROR 2; bad bodies ERROR 3; a switch
# without a diode ERROR 4 (its cell, once per closure and again after every PING).

import db_protocol as proto
from db_leds import LedRenderer
from db_matrix import Debouncer

HEARTBEAT_MS = 1000
DIODE_CHECK_MS = 1000
ERROR_EVERY_MS = 1000  # at most one ERROR of each code per second


class Firmware:
    """One microcontroller: call ``step()`` forever (``run()`` does)."""

    def __init__(self, io, clock, matrix, strip=None, buttons=None, rgb=True, brightness=0.5,
                 led_cells=None, check_diodes=True, scan_period_ms=10, debounce_ms=5):
        self.io = io
        self.clock = clock
        self.matrix = matrix
        self.strip = strip
        self.buttons = buttons
        self.rgb = rgb and strip is not None
        self.check_diodes = check_diodes
        self.scan_period_ms = scan_period_ms
        self.debounce_ms = debounce_ms
        cells = matrix.rows * matrix.cols
        self.leds = LedRenderer(cells, rgb=rgb, brightness=brightness, led_cells=led_cells,
                                clock=clock)
        self.debouncer = Debouncer(cells, clock.ticks_diff)
        self.decoder = proto.FrameDecoder()
        self.seq = 0
        self.sent_errors = {}  # code -> ticks of the last ERROR sent
        self.no_diode = set()  # cells reported without a diode, until they open again
        self.unknown_codes = set()  # LEDS codes reported unknown (ERROR 8) since the last PING
        self._seen_bad = 0
        self._seen_oversize = 0
        now = clock.ticks_ms()
        self._next_scan = now
        self._last_scan_sent = now
        self._next_diode_check = now
        self._booted = False

    # -- sending ---------------------------------------------------------------------------

    def send(self, kind, body=b""):
        self.io.write(proto.encode_frame(kind, self.seq, body))
        self.seq = (self.seq + 1) & 0xFF

    def send_hello(self):
        buttons = self.buttons.count if self.buttons is not None else 0
        self.send(proto.HELLO, proto.hello_body(self.matrix.rows, self.matrix.cols, False,
                                                self.rgb, buttons))

    def send_scan(self, now):
        self.send(proto.SCAN, proto.scan_body(self.matrix.rows, self.matrix.cols,
                                              self.debouncer.stable))
        self._last_scan_sent = now

    def send_error(self, code, arg, now):
        last = self.sent_errors.get(code)
        if last is not None and self.clock.ticks_diff(now, last) < ERROR_EVERY_MS:
            return
        self.sent_errors[code] = now
        self.send(proto.ERROR, proto.error_body(code, arg))

    # -- the loop --------------------------------------------------------------------------

    def boot(self):
        """First scan, then HELLO and SCAN unasked (the host treats it as a restart)."""
        now = self.clock.ticks_ms()
        self.debouncer.feed(self.matrix.read(), now, self.debounce_ms)
        self.send_hello()
        self.send_scan(now)
        self._next_scan = self.clock.ticks_add(now, self.scan_period_ms)
        self._booted = True

    def step(self):
        """One pass: input, scan when due, heartbeat, buttons, diode check, LEDs."""
        if not self._booted:
            self.boot()
        now = self.clock.ticks_ms()
        data = self.io.read()
        if data:
            self.receive(data, now)
        diff = self.clock.ticks_diff
        if diff(now, self._next_scan) >= 0:
            self._next_scan = self.clock.ticks_add(now, self.scan_period_ms)
            if self.debouncer.feed(self.matrix.read(), now, self.debounce_ms):
                self.send_scan(now)
        if diff(now, self._last_scan_sent) >= HEARTBEAT_MS:
            self.send_scan(now)
        if self.buttons is not None:
            for button, pressed in self.buttons.poll(now):
                self.send(proto.BUTTON, proto.button_body(button, pressed))
        if self.check_diodes and diff(now, self._next_diode_check) >= 0:
            self._next_diode_check = self.clock.ticks_add(now, DIODE_CHECK_MS)
            self.diode_check(now)
        if self.strip is not None:
            pixels = self.leds.frame(now)
            if pixels is not None:
                self.strip.write(pixels)

    def run(self):
        while True:
            self.step()
            self.clock.sleep_ms(1)

    # -- receiving -------------------------------------------------------------------------

    def receive(self, data, now):
        for kind, _seq, body in self.decoder.feed(data):
            self.handle(kind, body, now)
        if self.decoder.oversize != self._seen_oversize:
            self._seen_oversize = self.decoder.oversize
            self.send_error(proto.ERR_OVERRUN, 0, now)
        if self.decoder.bad != self._seen_bad:
            self._seen_bad = self.decoder.bad
            self.send_error(proto.ERR_BAD_FRAME, 0, now)

    def handle(self, kind, body, now):
        try:
            if kind == proto.PING:
                if body:
                    raise proto.BadMessage("PING body")
                self.send_hello()
                self.send_scan(now)
                self.no_diode = set()  # a host (re)connected: tell it the faults again
                self.unknown_codes = set()
                self._next_diode_check = now
            elif kind == proto.LEDS:
                unknown = set()  # type: set[int]
                self.leds.set(proto.parse_leds(body, self.matrix.rows, self.matrix.cols,
                                               unknown))
                for code in sorted(unknown):
                    if code not in self.unknown_codes:  # once each: shown off, not refused
                        self.unknown_codes.add(code)
                        self.send(proto.ERROR, proto.error_body(proto.ERR_UNKNOWN_CODE, code))
            elif kind == proto.LEDS_RGB:
                colours, codes = proto.parse_leds_rgb(body, self.matrix.rows,
                                                      self.matrix.cols)
                self.leds.set(codes, colours)
            elif kind == proto.CONFIG:
                self.scan_period_ms, self.debounce_ms = proto.parse_config(body)
                soonest = self.clock.ticks_add(now, self.scan_period_ms)
                if self.clock.ticks_diff(self._next_scan, soonest) > 0:
                    self._next_scan = soonest  # a shorter period counts from now
            else:
                self.send_error(proto.ERR_UNKNOWN_TYPE, kind, now)
        except proto.BadMessage:
            self.send_error(proto.ERR_BAD_MESSAGE, kind, now)

    # -- the diode check -------------------------------------------------------------------

    def diode_check(self, now):
        closed = self.debouncer.stable
        found = [cell for cell in self.matrix.backwards() if closed[cell]]
        for cell in found:
            if cell not in self.no_diode:
                self.no_diode.add(cell)
                self.send(proto.ERROR, proto.error_body(proto.ERR_SENSOR, cell))
        self.no_diode = set(cell for cell in self.no_diode if closed[cell])
