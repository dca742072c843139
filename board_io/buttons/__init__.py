"""Button backends; :class:`Buttons` is the interface they implement."""

from __future__ import annotations

from board_io.buttons.base import Buttons, NoButtons

__all__ = ["Buttons", "NoButtons"]
