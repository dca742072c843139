"""The game clock: time controls and a two-sided chess clock, pure (time is an argument).

A :class:`TimeControl` is read from the text a club writes (:func:`parse_time_control`):

- ``"M+S"``: M minutes for the game, S seconds added after each move (Fischer): ``"3+2"``,
  ``"90+30"``; ``"5"`` has no increment. A number may carry its unit (``h``, ``m``, ``s``):
  the FMJD classical control, 80 minutes and one minute a move, is ``"80+1m"`` (plain
  ``"80+1"`` is 80 minutes and one second a move, as in ``"3+2"``).
- ``"N/M+S"``: N moves in M minutes (FMJD rules, time control: a number of moves within a time
  limit), then M minutes more for each further N moves; ``":M2+S2"`` after it gives the rest of
  the game instead: ``"40/90+30:30+30"``.

:meth:`TimeControl.pdn` writes the PGN/PDN ``TimeControl`` tag (seconds): ``"180+2"``,
``"40/5400+30:1800+30"``.

A :class:`GameClock` counts down the side to move. :meth:`GameClock.press` ends the mover's
turn (a committed move): its time stops, the increment is added and the other side's time runs.
A side whose time is used up has *flagged* (:meth:`GameClock.flagged`); :meth:`GameClock.deadline`
says when that happens, so the session sets a timer for it. :meth:`GameClock.to_data` and
:meth:`GameClock.from_data` keep a clock across a restart: the time while the service was down
is charged to nobody.

>>> control = parse_time_control("3+2")
>>> control.pdn(), control.text
('180+2', '3+2')
>>> clock = GameClock(control)
>>> clock.start(Color.WHITE, at=0.0)
>>> clock.press(at=10.0)          # White moved after 10 s: 170 + 2 left
<Color.WHITE: 0>
>>> clock.left(Color.WHITE, at=15.0), clock.left(Color.BLACK, at=15.0)
(172.0, 175.0)
>>> clk(clock.left(Color.WHITE, at=15.0))
'0:02:52'
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.types import Color
from firmware_host.digits import is_whole_number
from firmware_host.errors import DraughtsboardError

__all__ = ["LOW_TIME_S", "GameClock", "Period", "TimeControl", "TimeControlError", "clk",
           "control_of", "duration_of", "parse_time_control"]

#: At this many seconds left and under, a side is short of time (the pages say so).
LOW_TIME_S = 60.0
#: The longest time a control may give (a day), and the largest number of moves of a period.
MAX_SECONDS = 86_400.0
MAX_MOVES = 500

_NUMBER = r"(\d+(?:\.\d+)?)([hms]?)"
_AMOUNT = re.compile(rf"(?:{_NUMBER})+")
_PART = re.compile(_NUMBER)
_UNIT = {"h": 3600.0, "m": 60.0, "s": 1.0}


class TimeControlError(DraughtsboardError, ValueError):
    """A time control that cannot be read; the message says what is expected."""


@dataclass(frozen=True)
class Period:
    """``seconds`` for ``moves`` moves (None: the rest of the game), ``increment`` a move."""

    moves: int | None
    seconds: float
    increment: float

    def pdn(self) -> str:
        """This period as the PGN TimeControl tag writes it (seconds)."""
        head = f"{self.moves}/" if self.moves is not None else ""
        tail = f"+{_number(self.increment)}" if self.increment else ""
        return f"{head}{_number(self.seconds)}{tail}"


@dataclass(frozen=True)
class TimeControl:
    """A time control: its periods (the last with a move count repeats) and how it was written."""

    periods: tuple[Period, ...]
    text: str

    def pdn(self) -> str:
        """The PGN/PDN ``TimeControl`` tag: periods in seconds, joined by ``:``."""
        return ":".join(p.pdn() for p in self.periods)

    def period(self, moves_made: int) -> tuple[int, Period]:
        """The index and the period of a side's next move, after ``moves_made`` of its moves."""
        done = 0
        for index, period in enumerate(self.periods):
            if period.moves is None or moves_made < done + period.moves:
                return index, period
            done += period.moves
        last = self.periods[-1]  # a fixed-moves last period repeats
        return len(self.periods) - 1, last

    def bonus_after(self, moves_made: int) -> float:
        """The time a side gets once it has made ``moves_made`` moves: a new period's time
        when that move completed one, else 0.

        >>> fixed = parse_time_control("40/90:30")
        >>> repeating = parse_time_control("40/90")
        >>> fixed.bonus_after(39), fixed.bonus_after(40), repeating.bonus_after(80)
        (0.0, 1800.0, 5400.0)
        """
        done = 0
        for index, period in enumerate(self.periods):
            if period.moves is None:
                return 0.0
            done += period.moves
            if moves_made == done:
                following = self.periods[index + 1] if index + 1 < len(self.periods) else period
                return following.seconds
            if moves_made < done:
                return 0.0
        last = self.periods[-1]
        if last.moves is None:  # unreachable: a period without a move count returned above
            return 0.0
        beyond = moves_made - done
        return last.seconds if beyond > 0 and beyond % last.moves == 0 else 0.0


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _amount(text: str, unit: float, whole: str) -> float:
    """Seconds of ``text`` (``"80"``, ``"1h20m"``, ``"30s"``); a bare number is in ``unit``."""
    if not _AMOUNT.fullmatch(text):
        raise TimeControlError(f"time control {whole!r}: {text!r} is not a time "
                               "(a number, optionally with h, m or s)")
    parts = _PART.findall(text)
    if len(parts) > 1 and any(not suffix for _, suffix in parts):
        raise TimeControlError(f"time control {whole!r}: {text!r} mixes numbers with and "
                               "without a unit")
    seconds = sum(float(number) * (_UNIT[suffix] if suffix else unit)
                  for number, suffix in parts)
    if seconds > MAX_SECONDS:
        raise TimeControlError(f"time control {whole!r}: {text!r} is more than a day")
    return seconds


def _period(text: str, whole: str, last: bool) -> Period:
    moves: int | None = None
    if "/" in text:
        count, text = text.split("/", 1)
        if not is_whole_number(count, 1, MAX_MOVES):
            raise TimeControlError(f"time control {whole!r}: {count!r} is not a number of "
                                   f"moves (1..{MAX_MOVES})")
        moves = int(count)
    base, plus, increment = text.partition("+")
    seconds = _amount(base, 60.0, whole)
    extra = _amount(increment, 1.0, whole) if plus else 0.0
    if seconds <= 0 and extra <= 0:
        raise TimeControlError(f"time control {whole!r}: a period gives no time")
    if not last and moves is None:
        raise TimeControlError(f"time control {whole!r}: only the last period may be without "
                               "a number of moves (N/minutes)")
    return Period(moves, seconds, extra)


def parse_time_control(text: str) -> TimeControl:
    """Read a time control (``"3+2"``, ``"80+1m"``, ``"40/90+30:30+30"``).

    >>> parse_time_control("80+1m").pdn(), parse_time_control("40/90+30:30+30").pdn()
    ('4800+60', '40/5400+30:1800+30')
    >>> parse_time_control("3 minutes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    firmware_host.game.clock.TimeControlError: time control '3 minutes': '3minutes' is not a ...

    Raises:
        TimeControlError: not a time control.
    """
    whole = text.strip()
    compact = re.sub(r"\s+", "", whole).lower()
    if not compact:
        raise TimeControlError("time control '': expected minutes+seconds, e.g. 3+2")
    pieces = compact.split(":")
    periods = tuple(_period(piece, whole, i == len(pieces) - 1)
                    for i, piece in enumerate(pieces))
    if periods[0].seconds <= 0:
        raise TimeControlError(f"time control {whole!r}: the game starts with no time")
    return TimeControl(periods, whole)


def control_of(text: str) -> TimeControl | None:
    """The time control of a config value ('' or 'off': none).

    >>> control_of(" off "), control_of("3+2").pdn()
    (None, '180+2')
    """
    text = text.strip()
    return None if text in ("", "off") else parse_time_control(text)


def duration_of(text: str) -> float:
    """Seconds of a length of time as a club writes it (``clock.default_time``): minutes
    when bare, or with units (``"30"``, ``"1h"``, ``"45m"``, ``"90s"``); ``""``, ``"0"`` or
    ``"off"``: none (0).

    >>> duration_of("30"), duration_of("1h"), duration_of("off"), duration_of(" 1h30m ")
    (1800.0, 3600.0, 0.0, 5400.0)

    Raises:
        TimeControlError: not a length of time.
    """
    whole = text.strip()
    compact = re.sub(r"\s+", "", whole).lower()
    if compact in ("", "0", "off"):
        return 0.0
    return _amount(compact, 60.0, whole)


def clk(seconds: float) -> str:
    """Remaining time as the PGN ``%clk`` command writes it: ``H:MM:SS``, whole seconds shown
    as a clock shows them (rounded down).

    >>> clk(176.7), clk(3725.0), clk(-1.0)
    ('0:02:56', '1:02:05', '0:00:00')
    """
    whole = max(0, math.floor(seconds + 1e-9))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


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
