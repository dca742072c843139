"""Whole numbers read from text that anyone may have written: ASCII digits within a range.

Every count, ply, round, rank, date part or command value the service reads from a form, a
file, a stream entry or a command line goes through :func:`whole_number`. Python's own
``str.isdigit()`` and ``int()`` are not that check: ``"²".isdigit()`` is true and ``int("²")``
raises, ``int("١٢")`` is 12, and ``int`` refuses more than 4,300 digits with a traceback. Here a
number is 1 to :data:`MAX_DIGITS` ASCII digits (``0-9``, no sign, no spaces, no ``_``) whose value
lies from ``low`` to ``high``; anything else is one :class:`ValueError` that names the text.

>>> whole_number("12", 1, 99), whole_number("007", 0, 10)
(12, 7)
>>> for text in ("²", "١٢", "", "-1", "1_000", " 5", "9" * 5000, "100"):
...     try:
...         whole_number(text, 1, 99)
...     except ValueError as exc:
...         print(exc)
'²' is not a whole number from 1 to 99
'١٢' is not a whole number from 1 to 99
'' is not a whole number from 1 to 99
'-1' is not a whole number from 1 to 99
'1_000' is not a whole number from 1 to 99
' 5' is not a whole number from 1 to 99
'99999999999999999999...' is not a whole number from 1 to 99
100 is not a whole number from 1 to 99
"""

from __future__ import annotations

import re

__all__ = ["MAX_DIGITS", "is_whole_number", "whole_number", "whole_number_or"]

#: The most digits read (a 64-bit unsigned number has 20).
MAX_DIGITS = 20
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: str, low: int, high: int) -> int:
    """The whole number written as ``text`` (ASCII digits), from ``low`` to ``high``.

    Raises:
        ValueError: not 1 to :data:`MAX_DIGITS` ASCII digits, or out of the range.
    """
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        shown = text[:20] + "..." if isinstance(text, str) and len(text) > 20 else text
        raise ValueError(f"{shown!r} is not a whole number from {low} to {high}")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"{value} is not a whole number from {low} to {high}")
    return value


def is_whole_number(text: str, low: int, high: int) -> bool:
    """Whether :func:`whole_number` reads ``text``.

    >>> is_whole_number("3", 1, 10), is_whole_number("²", 1, 10)
    (True, False)
    """
    try:
        whole_number(text, low, high)
    except ValueError:
        return False
    return True


def whole_number_or(text: str, default: int, low: int = 0, high: int = 2**63 - 1) -> int:
    """:func:`whole_number` of ``text``, or ``default`` when it is not one (a counter read back
    from a store, where a damaged value means "unknown", not an error).

    >>> whole_number_or("12", 0), whole_number_or("²", 0), whole_number_or("", 5)
    (12, 0, 5)
    """
    try:
        return whole_number(text, low, high)
    except ValueError:
        return default
