# draughtsboard reference firmware: drawing the LEDS frames (roles, colours, blinking).
#
# A LEDS code is: bits 6..2 the role (1..13), bits 1..0 the pattern (0 off, 1 on, 2 slow
# 1 Hz, 3 fast 4 Hz). Blinking cells are lit during the first half of each period, all in
# phase.

COLOURS = (
    None,
    (0x00, 0xFF, 0x00),  # 1 from
    (0x00, 0xFF, 0x00),  # 2 to
    (0xA0, 0x00, 0xFF),  # 3 path
    (0xFF, 0x00, 0x00),  # 4 remove
    (0xFF, 0xFF, 0xFF),  # 5 legal
    (0xFF, 0x6E, 0x00),  # 6 must
    (0xFF, 0xDC, 0x00),  # 7 hint
    (0x00, 0xFF, 0x00),  # 8 missing
    (0xFF, 0x00, 0x00),  # 9 extra
    (0x00, 0x3C, 0xFF),  # 10 adjust (drawn at a quarter)
    (0xFF, 0xAA, 0x00),  # 11 crown
    (0xFF, 0xFF, 0xFF),  # 12 result
    (0xFF, 0x00, 0xC0),  # 13 fault: this square's sensor cannot be trusted
)
ADJUST = 10
WHITE = (0xFF, 0xFF, 0xFF)
OFF = (0, 0, 0)


def lit(pattern, now_ms):
    """Is a cell with ``pattern`` lit at ``now_ms``?"""
    if pattern == 1:
        return True
    if pattern == 2:
        return now_ms % 1000 < 500
    if pattern == 3:
        return now_ms % 250 < 125
    return False


class LedRenderer:
    """Turns the last LEDS codes into one colour per LED; ``frame(now)`` is None if unchanged."""

    def __init__(self, count, rgb=True, brightness=0.5, led_cells=None):
        self.codes = bytes(count)  # ``count`` cells, all off
        self._rgb = rgb
        self._scale = max(0.0, min(1.0, brightness))
        self._led_cells = tuple(led_cells) if led_cells is not None else tuple(range(count))
        self._last = None

    @property
    def count(self):
        return len(self._led_cells)

    def set(self, codes):
        self.codes = bytes(codes)

    def colour(self, code, now_ms):
        """The colour of one cell's LED at ``now_ms``."""
        if code == 0 or not lit(code & 0x03, now_ms):
            return OFF
        role = code >> 2
        rgb = COLOURS[role] if self._rgb and 0 < role < len(COLOURS) else WHITE
        scale = self._scale * (0.25 if role == ADJUST else 1.0)
        return (int(rgb[0] * scale), int(rgb[1] * scale), int(rgb[2] * scale))

    def frame(self, now_ms):
        """Return the colours of every LED, or None when they are what was last returned."""
        codes = self.codes
        pixels = [self.colour(codes[cell], now_ms) if cell < len(codes) else OFF
                  for cell in self._led_cells]
        if pixels == self._last:
            return None
        self._last = pixels
        return pixels
