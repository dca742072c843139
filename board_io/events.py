"""Typed events that :mod:`board_io` posts to the controller's queue.

Example:
    >>> OccupancyChanged(frozenset({0, 5}), None, at=1.5).occupied == {0, 5}
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from board_io.types import Cell, Reading, Square


class FaultKind(StrEnum):
    """Why a sensor cell is reported faulty."""

    FLAPPING = "flapping"  # kept changing for longer than stuck_ms; held at its last stable value


@dataclass(frozen=True)
class OccupancyChanged:
    """The stable occupancy of the board changed (or is reported for the first time).

    ``colours`` is None on presence-only boards, else the reading of every occupied square.
    """

    occupied: frozenset[Square]
    colours: Mapping[Square, Reading] | None
    at: float


@dataclass(frozen=True)
class ButtonPressed:
    """A button was pressed: ``button`` is its name, as the application named it."""

    button: str
    at: float


@dataclass(frozen=True)
class SensorFault:
    """A sensor cell misbehaves; ``square`` is the square it reads (None if unmapped)."""

    cell: Cell
    kind: FaultKind
    at: float
    square: Square | None = None


@dataclass(frozen=True)
class SensorRecovered:
    """A cell reported by :class:`SensorFault` reads steadily again."""

    cell: Cell
    at: float
    square: Square | None = None


@dataclass(frozen=True)
class LinkLost:
    """The link to the board went silent (serial microcontroller unplugged, ...)."""

    at: float


@dataclass(frozen=True)
class LinkRestored:
    """The link is back; an :class:`OccupancyChanged` with the full occupancy follows."""

    at: float


BoardEvent: TypeAlias = (OccupancyChanged | ButtonPressed | SensorFault | SensorRecovered
                         | LinkLost | LinkRestored)
