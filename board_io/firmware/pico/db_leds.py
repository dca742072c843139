# draughtsboard reference firmware: drawing the LED frames (colours, blinking).
#
# A cell's code is: bits 6..2 its colour (LEDS: a code of the fixed palette, 1..13; LEDS_RGB:
# an index into the frame's own colours, from 1), bits 1..0 the pattern (0 off, 1 on, 2 slow
# 1 Hz, 3 fast 4 Hz). Blinking cells are lit during the first half of each period, all in
# phase. A single-colour board lights white at the colour's brightness (its brightest
# channel; the palette's blue, code 10, at a quarter). Times are ticks (they wrap at 2**30,
# which 1000 does not divide): the phase is counted from an origin through ticks_diff, never
# from the raw ticks. Colours are computed
# in integers (the brightness in thousandths): a Pico's single-precision floats and CPython's
# doubles round 170 * 0.7 differently.

# The fixed palette of LEDS (protocol versions 1 and 2), docs/serial-protocol.md.
COLOURS = (
    (0x00, 0x00, 0x00),  # 0: no colour (never lit)
    (0x00, 0xFF, 0x00),  # 1 green
    (0x00, 0xFF, 0x00),  # 2 green
    (0xA0, 0x00, 0xFF),  # 3 purple
    (0xFF, 0x00, 0x00),  # 4 red
    (0xFF, 0xFF, 0xFF),  # 5 white
    (0xFF, 0x6E, 0x00),  # 6 orange
    (0xFF, 0xDC, 0x00),  # 7 yellow
    (0x00, 0xFF, 0x00),  # 8 green
    (0xFF, 0x00, 0x00),  # 9 red
    (0x00, 0x3C, 0xFF),  # 10 blue (drawn at a quarter)
    (0xFF, 0xAA, 0x00),  # 11 gold
    (0xFF, 0xFF, 0xFF),  # 12 white
    (0xFF, 0x00, 0xC0),  # 13 magenta (version 2)
)
DIM = 10  # the palette's code drawn at a quarter
WHITE = (0xFF, 0xFF, 0xFF)
OFF = (0, 0, 0)


def lit(pattern, phase_ms):
    """Is a cell with ``pattern`` lit ``phase_ms`` into the blink cycle (0..999)?"""
    if pattern == 1:
        return True
    if pattern == 2:
        return phase_ms % 1000 < 500
    if pattern == 3:
        return phase_ms % 250 < 125
    return False


def _diff(a, b):
    return a - b


def _add(t, ms):
    return t + ms


class LedRenderer:
    """Turns the last LEDS codes into one colour per LED; ``frame(now)`` is None if unchanged.

    ``clock``: ticks_diff and ticks_add of the ticks given to ``frame`` and ``colour`` (None:
    plain integers, as in the tests).
    """

    def __init__(self, count, rgb=True, brightness=0.5, led_cells=None, clock=None):
        self.codes = bytes(count)  # ``count`` cells, all off
        self._rgb = rgb
        self._level = int(max(0.0, min(1.0, brightness)) * 1000 + 0.5)  # thousandths
        self._led_cells = tuple(led_cells) if led_cells is not None else tuple(range(count))
        self._last = None
        self._diff = clock.ticks_diff if clock is not None else _diff
        self._add = clock.ticks_add if clock is not None else _add
        self._origin = None  # ticks at the start of a blink cycle
        self._colours = None  # the LEDS_RGB frame's colours; None: the fixed palette

    @property
    def count(self):
        return len(self._led_cells)

    def set(self, codes, colours=None):
        """Show ``codes``: of the fixed palette, or indexes into ``colours`` (LEDS_RGB)."""
        self.codes = bytes(codes)
        self._colours = colours

    def phase(self, now_ms):
        """Milliseconds into the current 1 s blink cycle (0..999), kept across the wrap."""
        if self._origin is None:
            self._origin = now_ms - now_ms % 1000
        elapsed = self._diff(now_ms, self._origin)
        if elapsed >= 1000 or elapsed < 0:  # move the origin along: a whole number of cycles
            self._origin = self._add(self._origin, (elapsed // 1000) * 1000)
            elapsed = self._diff(now_ms, self._origin)
        return elapsed

    def colour(self, code, now_ms):
        """The colour of one cell's LED at ``now_ms``."""
        return self._colour(code, self.phase(now_ms))

    def _colour(self, code, phase_ms):
        if code == 0 or not lit(code & 0x03, phase_ms):
            return OFF
        index = code >> 2
        level = self._level
        colours = self._colours
        if colours is not None:
            rgb = colours[index - 1] if 0 < index <= len(colours) else OFF
            if not self._rgb:
                brightest = max(rgb)
                rgb = (brightest, brightest, brightest)
            return (rgb[0] * level // 1000, rgb[1] * level // 1000, rgb[2] * level // 1000)
        rgb = COLOURS[index] if self._rgb and 0 < index < len(COLOURS) else WHITE
        scale = 4000 if index == DIM else 1000  # the palette's blue: drawn at a quarter
        return (rgb[0] * level // scale, rgb[1] * level // scale, rgb[2] * level // scale)

    def frame(self, now_ms):
        """Return the colours of every LED, or None when they are what was last returned."""
        codes = self.codes
        phase = self.phase(now_ms)
        pixels = [self._colour(codes[cell], phase) if cell < len(codes) else OFF
                  for cell in self._led_cells]
        if pixels == self._last:
            return None
        self._last = pixels
        return pixels
