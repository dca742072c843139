"""Sensor matrix backends; :class:`SensorMatrix` is the interface they implement."""

from __future__ import annotations

from board_io.sensors.base import SensorMatrix

__all__ = ["SensorMatrix"]
