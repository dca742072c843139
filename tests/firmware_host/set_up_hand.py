"""The hand at a board that does what the set-up lights ask (tests of the set-up, the coach's
exercises and the review): off with a piece lit :attr:`~Role.EXTRA`, on with the piece a
square's light asks for (:data:`READING`), one square at a time."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from board_io.types import Reading
from firmware_host.feedback.roles import Role

#: The piece each set-up light asks for.
READING = {Role.SET_WHITE: Reading.WHITE, Role.SET_BLACK: Reading.BLACK,
           Role.SET_WHITE_KING: Reading.WHITE_KING, Role.SET_BLACK_KING: Reading.BLACK_KING}


def follow_set_up_lights(frame: Callable[[], Mapping[int, Role]],
                         lift: Callable[[int], None], place: Callable[[int, Reading], None],
                         wait: Callable[[], None], *, until: Callable[[], bool] | None = None,
                         steps: int = 60) -> None:
    """Do what the lights of ``frame`` ask, ``wait`` after each step, until none asks (or, with
    ``until``, until it says so: the lights may ask nothing for a while).

    Raises:
        AssertionError: they still ask (``until`` still says no) after ``steps`` steps.
    """
    for _ in range(steps):
        if until is not None and until():
            return
        asked = [(sq, role) for sq, role in sorted(frame().items())
                 if role is Role.EXTRA or role in READING]
        if not asked and until is None:
            return
        if asked:
            square, role = asked[0]
            if role is Role.EXTRA:
                lift(square)
            else:
                place(square, READING[role])
        wait()
    raise AssertionError(f"the lights never settle: {dict(frame())}")
