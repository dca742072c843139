"""Time controls as a club writes them, and the time left as PDN's ``%clk`` writes it.

The board's word for a time control, said once below every room that uses it: the
configuration checks ``clock.time_control`` and ``clock.default_time`` with it, the phone's
setting and the session read it, the PDN writer writes a move's ``%clk`` with :func:`clk` (as
python-chess keeps ``%clk`` in its PGN module), the pages and the clock display say when a side
is short of time (:data:`LOW_TIME_S`). The running clock is the game's
(:mod:`firmware_host.game.clock`).

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

>>> control = parse_time_control("3+2")
>>> control.pdn(), control.text
('180+2', '3+2')
>>> clk(172.0)
'0:02:52'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from firmware_host.digits import is_whole_number
from firmware_host.errors import DraughtsboardError

__all__ = ["LOW_TIME_S", "MAX_MOVES", "MAX_SECONDS", "Period", "TimeControl", "TimeControlError",
           "clk", "control_of", "duration_of", "parse_time_control"]

#: At this many seconds left and under, a side is short of time (the pages, the clock display
#: and the LEDs say so).
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
    firmware_host.terms.timecontrol.TimeControlError: time control '3 minutes': '3minutes' is ...

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
