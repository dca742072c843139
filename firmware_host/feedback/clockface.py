"""What the clock display shows: the game clock as a :class:`~board_io.display.base.Face`.

The display (board_io) shows two halves of text, one marked, and a banner; this module decides
what they say, from the game's clock at a moment (pure: the time is an argument):

- both times, White's on the half ``white`` names (``clock.display_white``, as the display
  faces the players), as the half's width allows: ``1:29:59`` / ``4:59`` on an OLED,
  ``1h29`` / ``4.59`` on four 7-segment digits; under a minute with tenths (``0:45.3``,
  ``45.3``);
- the side whose time runs marked, the mark blinking once a second as a chess clock's colon;
- a flag fall: ``FLAG`` on the side whose time is up;
- a held clock (the hall's pause, the arbiter's hold, a corrected position to set up):
  ``PAUSE`` across (on four digits a half it alternates with the times every 2 s), the side to
  move marked steady;
- no clock: a blank display.

>>> from firmware_host.game.clock import GameClock
>>> from firmware_host.terms.timecontrol import parse_time_control
>>> clock = GameClock(parse_time_control("90+30"))
>>> clock.start(Color.WHITE, at=0.0)
>>> face = clock_face(clock, at=100.2, width=4)
>>> face.left, face.right, face.mark
('1h28', '1h30', <Half.LEFT: 'left'>)
>>> clock_face(clock, at=5345.05, width=7).left
'0:54.9'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from board_io.display.base import BLANK, Face, Half
from engine.types import Color
from firmware_host.terms.timecontrol import LOW_TIME_S

__all__ = ["Running", "clock_face", "time_text"]

#: The banner of a held clock and the text of a fallen flag (7-segment digits draw both).
PAUSE, FLAG = "PAUSE", "FLAG"


def time_text(seconds: float, width: int) -> str:
    """``seconds`` as a clock shows them in ``width`` characters (``.``: a 7-segment point).

    >>> [time_text(s, 7) for s in (5399.9, 299.0, 9.45)]
    ['1:29:59', '4:59', '0:09.4']
    >>> [time_text(s, 4) for s in (5399.9, 1199.0, 299.0, 9.45)]
    ['1h29', '19.59', '4.59', '9.4']
    """
    seconds = max(0.0, seconds)
    whole = math.floor(seconds + 1e-9)
    if seconds < LOW_TIME_S:
        tenths = math.floor(seconds * 10 + 1e-6) % 10
        return f"0:{whole:02d}.{tenths}" if width >= 6 else f"{whole}.{tenths}"
    hours, minutes, secs = whole // 3600, whole // 60 % 60, whole % 60
    if width >= 7:
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return f"{hours}h{minutes:02d}" if hours else f"{minutes}.{secs:02d}"


class Running(Protocol):
    """What the face reads of a running clock (the game's
    :class:`~firmware_host.game.clock.GameClock` is one): the side whose time runs, and each
    side's time left at a moment."""

    @property
    def running(self) -> Color | None: ...
    def left(self, side: Color, at: float) -> float: ...


def clock_face(clock: Running | None, at: float, *, width: int, white: Half = Half.LEFT,
               held: bool = False, flag: Color | None = None,
               words: Callable[[str], str] = str) -> Face:
    """The face of ``clock`` at ``at`` on halves of ``width`` characters (module docstring).

    ``held``: the clock is held; ``flag``: the side whose time is up (the game ended so);
    ``words`` puts the side names of the labels in the board's language.
    """
    if clock is None:
        return BLANK
    sides = {white: Color.WHITE, _other(white): Color.BLACK}
    texts = {half: FLAG if side is flag else time_text(clock.left(side, at), width)
             for half, side in sides.items()}
    labels = (words("White"), words("Black")) if white is Half.LEFT else (
        words("Black"), words("White"))
    running = clock.running
    mark = None if running is None or flag is not None else (
        white if running is Color.WHITE else _other(white))
    if held and flag is None:
        if width < 6 and math.floor(at / 2) % 2 == 0:
            return Face("", "", banner=PAUSE)
        return Face(texts[Half.LEFT], texts[Half.RIGHT], mark,
                    banner=PAUSE if width >= 6 else "", labels=labels)
    if mark is not None and at - math.floor(at) >= 0.5:
        mark = None  # the running side's mark blinks, once a second
    return Face(texts[Half.LEFT], texts[Half.RIGHT], mark, labels=labels)


def _other(half: Half) -> Half:
    return Half.RIGHT if half is Half.LEFT else Half.LEFT
