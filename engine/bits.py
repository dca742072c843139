"""Bit counting for the hot path, fast both compiled and interpreted.

``int.bit_count`` is one C call for the interpreter, but mypyc has no primitive for it: compiled
code boxes the integer into a Python object and calls the method through the interpreter, about
37 ns a call on the 2-core bench machine, where the evaluation makes some forty of them. The
shifts and masks of :func:`popcount` stay in machine words when compiled (about 8 ns). An
interpreter runs the builtin instead, which is faster there: the module replaces the function
with it when it is not compiled.

Example:
    >>> popcount(0b1011), popcount(0), popcount(1 << 70 | 1 << 3)
    (3, 0, 2)
"""

from __future__ import annotations

from types import FunctionType
from typing import Final

__all__ = ["COMPILED", "popcount"]

_M1: Final = 0x55555555555555
_M2: Final = 0x33333333333333
_M4: Final = 0x0F0F0F0F0F0F0F
#: The bits a machine word holds for the compiled code's small integers (below 2 ** 62).
_LOW: Final = (1 << 56) - 1


def popcount(x: int) -> int:
    """The number of set bits of ``x`` (``x >= 0``), as ``x.bit_count()``."""
    if x >> 56:  # boards of more than 56 bits (Canadian): count the word, then the rest
        return popcount(x & _LOW) + popcount(x >> 56)
    x -= (x >> 1) & _M1
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


#: Whether this module runs compiled: mypyc makes its functions builtins, not Python functions.
COMPILED: Final = not isinstance(popcount, FunctionType)

if not COMPILED:  # interpreted, the builtin is a single C call
    popcount = int.bit_count  # type: ignore[assignment]
