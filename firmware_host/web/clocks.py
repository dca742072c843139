"""A board's game clock as the pages show it: read from its events or its session, checked, and
given as both sides' time *now* (pure: the time is an argument).

A board with a clock publishes a ``clock`` event at every change (a move, a pause, time given,
the end: docs/events.md) and keeps the clock in its session snapshot (saved every few seconds
while it runs). Either is a :class:`ClockReading`: both sides' time left at the Unix time
``time``, the side whose time runs, whether it is paused. A page is sent the times left at the
moment it is drawn or a feed message is made (:meth:`ClockReading.at`), and its script counts
the running side down from there (static/app.js): the server sends readings when the clock
changes, the browser counts in between, so the browser's own clock need not agree with the
board's.

>>> reading = from_event({"event": "clock", "time": 100.0, "clock_white": 95.0,
...                       "clock_black": 180.0, "running": "white", "paused": False,
...                       "control": "3+2"})
>>> shown = reading.at(140.0)
>>> shown["white"], shown["black"], shown["running"], shown["low"], clock_text(shown["white"])
(55.0, 180.0, 'white', 'white', '0:55')
>>> reading.at(200.0)["flag"], clock_text(0.0), clock_text(3725.9)
('white', '0:00', '1:02:05')
>>> from_event({"event": "clock", "time": "soon", "clock_white": 1}) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from firmware_host.terms.timecontrol import LOW_TIME_S

__all__ = ["ClockNow", "ClockReading", "clock_text", "from_event", "from_snapshot"]

#: The longest time a clock may show (a day, as the clock's own limit) and the Unix times read.
MAX_LEFT_S = 86_400.0 * 2
MAX_TIME = 1e11
SIDES = ("white", "black")


class ClockNow(TypedDict):
    """Both sides' time as a page shows it at one moment (the page's ``data-clock`` JSON)."""

    white: float
    black: float
    #: The side whose time runs (``white``/``black``), None before the start and after the end.
    running: str | None
    paused: bool
    #: The running side when it has under a minute, else None.
    low: str | None
    #: The side whose time is up (the game ends by time; its clock stays at 0), else None.
    flag: str | None
    control: str


@dataclass(frozen=True)
class ClockReading:
    """Both sides' time left at the Unix time ``time``."""

    white: float
    black: float
    running: str | None
    paused: bool
    control: str
    time: float

    def left(self, side: str, now: float) -> float:
        """``side``'s time left at ``now`` (never below 0)."""
        left = self.white if side == "white" else self.black
        if side == self.running and not self.paused:
            left -= max(0.0, now - self.time)
        return max(0.0, left)

    def at(self, now: float) -> ClockNow:
        """What a page shows at ``now``."""
        white, black = self.left("white", now), self.left("black", now)
        running = self.running
        left = None if running is None else (white if running == "white" else black)
        return {"white": _ms(white), "black": _ms(black), "running": running,
                "paused": self.paused, "control": self.control,
                "low": running if left is not None and left < LOW_TIME_S else None,
                "flag": "white" if white <= 0 else "black" if black <= 0 else None}


def _ms(seconds: float) -> float:
    """To the millisecond, rounded down (a time shown in whole seconds stays the same)."""
    return math.floor(seconds * 1000 + 1e-6) / 1000


def clock_text(seconds: float) -> str:
    """A time as a clock shows it: ``M:SS``, ``H:MM:SS`` from an hour, whole seconds (rounded
    down, as the PDN's ``%clk``)."""
    whole = max(0, math.floor(seconds + 1e-9))
    hours, minutes, secs = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _seconds(value: object, limit: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and 0 <= number <= limit else None


def _reading(white: object, black: object, running: object, paused: object, control: object,
             at: object) -> ClockReading | None:
    left_white, left_black = _seconds(white, MAX_LEFT_S), _seconds(black, MAX_LEFT_S)
    when = _seconds(at, MAX_TIME)
    if left_white is None or left_black is None or when is None:
        return None
    side = running if isinstance(running, str) and running in SIDES else None
    text = control if isinstance(control, str) and control.isprintable() else ""
    return ClockReading(left_white, left_black, side, paused is True, text[:40], when)


def from_event(message: Mapping[str, object]) -> ClockReading | None:
    """The reading of a ``clock`` event (None: not a readable one)."""
    return _reading(message.get("clock_white"), message.get("clock_black"),
                    message.get("running"), message.get("paused"), message.get("control"),
                    message.get("time"))


def from_snapshot(session: object) -> ClockReading | None:
    """The reading in a session snapshot (its ``clock``: saved at ``saved``; None: none).

    >>> from_snapshot({"clock": {"control": "5", "white": 300, "black": 250.5,
    ...     "running": "black", "paused": True, "saved": 50.0}}).at(99.0)["black"]
    250.5
    >>> from_snapshot({"game_id": "g"}) is None
    True
    """
    clock = session.get("clock") if isinstance(session, Mapping) else None
    if not isinstance(clock, Mapping):
        return None
    return _reading(clock.get("white"), clock.get("black"), clock.get("running"),
                    clock.get("paused"), clock.get("control"), clock.get("saved"))
