# draughtsboard reference firmware: WS2812 / SK6812 LEDs on the RP2040's PIO.
#
# The PIO program is the one of the MicroPython rp2 examples: 800 kHz, one bit every ten
# PIO cycles at 8 MHz, the data line as side-set pin. Only imported on the Pico.

import array

import rp2
from machine import Pin

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this as True
if TYPE_CHECKING:  # the PIO instructions asm_pio supplies, for the type check (.ci/test)
    from rp2.asm_pio import jmp, label, nop, not_x, out, wrap, wrap_target, x


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=24)
def _ws2812():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


_SHIFT = {"R": 0, "G": 1, "B": 2}


class PioStrip:
    """``write(pixels)``: one (r, g, b) per LED, sent through PIO state machine ``sm_id``."""

    def __init__(self, pin, count, order="GRB", sm_id=0):
        self.count = count
        self._sm = rp2.StateMachine(sm_id, _ws2812, freq=8_000_000, sideset_base=Pin(pin))
        self._sm.active(1)
        self._order = tuple(_SHIFT[c] for c in order)
        self._words = array.array("I", [0] * count)

    def write(self, pixels):
        words, order = self._words, self._order
        for i in range(self.count):
            rgb = pixels[i] if i < len(pixels) else (0, 0, 0)
            words[i] = (rgb[order[0]] << 16) | (rgb[order[1]] << 8) | rgb[order[2]]
        self._sm.put(words, 8)


def make_strip(driver, pin, count, order="GRB"):
    """The strip of ``driver``: "pio" (PioStrip) or "neopixel" (NeopixelStrip)."""
    if driver == "neopixel":
        return NeopixelStrip(pin, count, order)
    return PioStrip(pin, count, order)


class NeopixelStrip:
    """The same through MicroPython's ``neopixel`` module (bit-banged, no PIO)."""

    def __init__(self, pin, count, order="GRB"):
        import neopixel

        self.count = count
        self._np = neopixel.NeoPixel(Pin(pin), count)
        self._order = order

    def write(self, pixels):
        for i in range(self.count):
            self._np[i] = pixels[i] if i < len(pixels) else (0, 0, 0)
        self._np.write()
