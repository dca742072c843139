"""LED sink backends; :class:`LedMatrix` is the interface they implement."""

from __future__ import annotations

from board_io.leds.base import (
    BLINK_HZ,
    DIM_ROLES,
    ROLE_COLOURS,
    LedMatrix,
    NoLeds,
    Rgb,
    grid_addresses,
    pattern_lit,
)

__all__ = ["BLINK_HZ", "DIM_ROLES", "ROLE_COLOURS", "LedMatrix", "NoLeds", "Rgb",
           "grid_addresses", "pattern_lit"]
