"""LED sink backends; :class:`LedMatrix` is the interface they implement."""

from __future__ import annotations

from board_io.leds.base import (
    BLINK_HZ,
    LedMatrix,
    NoLeds,
    Rgb,
    grid_addresses,
    pattern_lit,
    scale,
    single_colour,
)

__all__ = ["BLINK_HZ", "LedMatrix", "NoLeds", "Rgb", "grid_addresses", "pattern_lit", "scale",
           "single_colour"]
