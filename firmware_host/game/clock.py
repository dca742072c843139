"""The running game clock: a two-sided chess clock, pure (time is an argument).

A :class:`GameClock` counts down the side to move under a
:class:`~firmware_host.terms.timecontrol.TimeControl`. :meth:`GameClock.press` ends the mover's
turn (a committed move): its time stops, the increment is added and the other side's time runs.
A side whose time is used up has *flagged* (:meth:`GameClock.flagged`); :meth:`GameClock.deadline`
says when that happens, so the session sets a timer for it. :meth:`GameClock.to_data` and
:meth:`GameClock.from_data` keep a clock across a restart: the time while the service was down
is charged to nobody.

>>> clock = GameClock(parse_time_control("3+2"))
>>> clock.start(Color.WHITE, at=0.0)
>>> clock.press(at=10.0)          # White moved after 10 s: 170 + 2 left
<Color.WHITE: 0>
>>> clock.left(Color.WHITE, at=15.0), clock.left(Color.BLACK, at=15.0)
(172.0, 175.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from engine.types import Color
from firmware_host.terms.timecontrol import (
    LOW_TIME_S,
    TimeControl,
    TimeControlError,
    parse_time_control,
)

__all__ = ["GameClock", "side_text"]


def _side(value: object) -> Color | None:
    return {"white": Color.WHITE, "black": Color.BLACK}.get(str(value)) if value else None


def side_text(side: Color | None) -> str | None:
    """``"white"``, ``"black"`` or None."""
    return None if side is None else ("white" if side is Color.WHITE else "black")


class GameClock:
    """Both sides' time under one :class:`TimeControl`.

    The clock runs for one side at a time (``running``), from :meth:`start` until the game is
    over (:meth:`stop`); :meth:`pause` holds it (the arbiter), :meth:`resume` goes on.
    """

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        first = control.periods[0].seconds
        self._left = {Color.WHITE: first, Color.BLACK: first}
        self._moves = {Color.WHITE: 0, Color.BLACK: 0}
        #: The side whose time runs (or would, when paused); None before the start and after.
        self.running: Color | None = None
        self._since: float | None = None
        self.paused = False

    @property
    def started(self) -> bool:
        """The clock has been started (and not stopped)."""
        return self.running is not None

    def moves(self, side: Color) -> int:
        """The moves ``side`` has completed on this clock."""
        return self._moves[side]

    def left(self, side: Color, at: float) -> float:
        """``side``'s remaining time at ``at`` (never below 0)."""
        left = self._left[side]
        if side is self.running and self._since is not None:
            left -= max(0.0, at - self._since)
        return max(0.0, left)

    def _charge(self, at: float) -> None:
        if self.running is not None and self._since is not None:
            self._left[self.running] = self.left(self.running, at)
            self._since = at

    def start(self, side: Color, at: float) -> None:
        """Start ``side``'s time (the first move of the game is ``side``'s)."""
        self._charge(at)
        self.running = side
        self._since = None if self.paused else at

    def press(self, at: float) -> Color | None:
        """The running side completed a move at ``at``: add the increment (and a new period's
        time), run the other side. Returns the mover (None: not running, or flagged before)."""
        mover = self.running
        if mover is None or self.flagged(at) is not None:
            return None
        self._charge(at)
        _, period = self.control.period(self._moves[mover])
        self._moves[mover] += 1
        self._left[mover] += period.increment + self.control.bonus_after(self._moves[mover])
        self.running = mover.opponent
        self._since = None if self.paused else at
        return mover

    def switch(self, side: Color, at: float) -> None:
        """Run ``side``'s time without any increment (a move taken back)."""
        if self.running is not None:
            self.start(side, at)

    def pause(self, at: float) -> bool:
        """Hold both times (before the start too: the clock then starts held); False when
        already held.

        >>> clock = GameClock(parse_time_control("5"))
        >>> clock.pause(at=0.0), clock.pause(at=1.0)
        (True, False)
        >>> clock.start(Color.WHITE, at=2.0)
        >>> clock.deadline() is None, clock.resume(at=10.0), clock.deadline()
        (True, True, 310.0)
        """
        if self.paused:
            return False
        self._charge(at)
        self._since = None
        self.paused = True
        return True

    def resume(self, at: float) -> bool:
        """Run the held time again; False when not held."""
        if not self.paused:
            return False
        self.paused = False
        if self.running is not None:
            self._since = at
        return True

    def stop(self, at: float) -> None:
        """The game is over: both times stay as they are."""
        self._charge(at)
        self.running = None
        self._since = None

    def add(self, side: Color, seconds: float, at: float) -> None:
        """Give ``side`` ``seconds`` more (an arbiter's decision)."""
        self._charge(at)
        self._left[side] = max(0.0, self._left[side] + seconds)

    def deadline(self) -> float | None:
        """When the running side flags if nothing happens (None: not running or paused)."""
        if self.running is None or self._since is None:
            return None
        return self._since + self._left[self.running]

    def low_at(self) -> float | None:
        """When the running side's time falls under :data:`LOW_TIME_S` (None: not running,
        paused, or already under it)."""
        deadline = self.deadline()
        if deadline is None or self.running is None or self._left[self.running] <= LOW_TIME_S:
            return None
        return deadline - LOW_TIME_S

    def low(self, at: float) -> Color | None:
        """The running side if it has :data:`LOW_TIME_S` or less at ``at`` (to a microsecond:
        at :meth:`low_at` it has, whatever the rounding of the times added up).

        >>> clock = GameClock(parse_time_control("3"))
        >>> clock.start(Color.WHITE, at=120.6)
        >>> clock.low(at=240.6 - 1e-3), clock.low(at=240.6)
        (None, <Color.WHITE: 0>)
        """
        if self.running is not None and self.left(self.running, at) <= LOW_TIME_S + 1e-6:
            return self.running
        return None

    def flagged(self, at: float) -> Color | None:
        """The side whose time is up at ``at`` (None: neither)."""
        if self.running is not None and self.left(self.running, at) <= 1e-6:
            return self.running
        return None

    def fields(self, at: float) -> dict[str, float]:
        """``clock_white`` and ``clock_black`` (seconds, to a tenth) for events and records."""
        return {"clock_white": round(self.left(Color.WHITE, at), 1),
                "clock_black": round(self.left(Color.BLACK, at), 1)}

    def state(self, at: float) -> dict[str, object]:
        """The ``clock`` event's fields: both times, who runs, paused, the control."""
        return {**self.fields(at), "running": side_text(self.running), "paused": self.paused,
                "control": self.control.text,
                "low": side_text(self.low(at))}

    def to_data(self, at: float) -> dict[str, object]:
        """The clock as JSON-ready data (part of the session snapshot)."""
        return {"control": self.control.text,
                "white": self.left(Color.WHITE, at), "black": self.left(Color.BLACK, at),
                "moves": [self._moves[Color.WHITE], self._moves[Color.BLACK]],
                "running": side_text(self.running), "paused": self.paused}

    @classmethod
    def from_data(cls, data: Mapping[str, object], at: float) -> GameClock:
        """A clock saved by :meth:`to_data`, running again from ``at``.

        >>> clock = GameClock(parse_time_control("5"))
        >>> clock.start(Color.BLACK, at=0.0)
        >>> again = GameClock.from_data(clock.to_data(at=100.0), at=7.0)
        >>> again.left(Color.BLACK, at=8.0), again.running
        (199.0, <Color.BLACK: 1>)

        Raises:
            TimeControlError: the data is malformed.
        """
        try:
            clock = cls(parse_time_control(str(data["control"])))
            moves = data.get("moves", [0, 0])
            if not isinstance(moves, list) or len(moves) != 2:
                raise TypeError("moves")
            for side in Color:
                left = data[side_text(side) or ""]
                if isinstance(left, bool) or not isinstance(left, int | float) \
                        or not math.isfinite(left) or left < 0:
                    raise TypeError(side.name)
                clock._left[side] = float(left)
                count = moves[int(side)]
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise TypeError("moves")
                clock._moves[side] = count
        except (KeyError, TypeError) as exc:
            raise TimeControlError(f"saved clock is malformed ({exc})") from None
        clock.paused = bool(data.get("paused"))
        running = _side(data.get("running"))
        if running is not None:
            clock.start(running, at)
        return clock
