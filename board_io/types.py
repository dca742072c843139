"""Value types shared by every part of :mod:`board_io`: readings, colours, LED patterns.

Buttons are named by the application (``BackendContext.buttons``); board_io only passes the
names on.

Example:
    >>> Led(Pattern.SLOW, (255, 0, 0))
    Led(pattern=<Pattern.SLOW: 'slow'>, colour=(255, 0, 0))
    >>> Reading.WHITE_KING.occupied
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TypeAlias

Square: TypeAlias = int
"""A square index, ``0 .. n-1`` (for numeric notation: the PDN number minus one)."""

Cell: TypeAlias = tuple[int, int]
"""A sensor matrix cell ``(row, col)``, in the sensor's own wiring coordinates."""


class Reading(IntEnum):
    """What one sensor cell reads.

    Presence-only sensors give ``EMPTY``/``OCCUPIED``; colour-aware ones may give the colours and,
    where they can tell, crowns.
    """

    EMPTY = 0
    OCCUPIED = 1
    WHITE = 2
    BLACK = 3
    WHITE_KING = 4
    BLACK_KING = 5

    @property
    def occupied(self) -> bool:
        """True for every reading but ``EMPTY``."""
        return self is not Reading.EMPTY


Frame: TypeAlias = tuple[Reading, ...]
"""One scan of a sensor matrix: a reading per cell, row-major (``row * cols + col``)."""


class Sensing(Enum):
    """What a sensor backend can tell: presence only, or the colour of the piece too."""

    PRESENCE = "presence"
    COLOUR = "colour"


class Pattern(Enum):
    """How an LED shows: off, steady, or blinking at 1 Hz (``SLOW``) or 4 Hz (``FAST``)."""

    OFF = "off"
    ON = "on"
    SLOW = "slow"
    FAST = "fast"


Rgb: TypeAlias = tuple[int, int, int]
"""A colour as an RGB LED lights it at full brightness: red, green, blue, each 0..255."""

WHITE: Rgb = (255, 255, 255)
#: The colour board_io's own tools light a square in (calibration, the self-test's walk).
YELLOW: Rgb = (255, 220, 0)


@dataclass(frozen=True, slots=True)
class Led:
    """One square's LED: how it blinks and the colour it shows.

    A single-colour LED shows the colour's brightness (its brightest channel): a dim blue is a
    dim light. What a colour means is the application's business.
    """

    pattern: Pattern
    colour: Rgb = WHITE


LedFrame: TypeAlias = Mapping[Square, Led]
"""What the LEDs show: square -> LED. Squares absent are off."""
