"""Bit counting for the hot path, fast both compiled and interpreted.

``int.bit_count`` is one C call for the interpreter, but mypyc has no primitive for it: compiled
code boxes the integer into a Python object and calls the method through the interpreter, about
37 ns a call on the 2-core bench machine, where the evaluation makes some forty of them. The
shifts and masks of :func:`popcount` stay in machine words when compiled (about 8 ns). An
interpreter runs the builtin instead, which is faster there: the module replaces the function
with it when it is not compiled.

Example:
    >>> popcount(0b1011), popcount(0), popcount(1 << 61 | 1 << 3), bit(54)
    (3, 0, 2, 18014398509481984)
"""

from __future__ import annotations

from types import FunctionType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # mypyc's 64-bit machine integer; a plain int when interpreted
    from mypy_extensions import i64

__all__ = ["COMPILED", "bit", "popcount"]

#: The masks cover 62 bits: 0x5555555555555555 is past mypyc's tagged integers, and would be
#: read back from a Python int at every call.
_M1: Final[i64] = 0x1555555555555555
_M2: Final[i64] = 0x3333333333333333
_M4: Final[i64] = 0x0F0F0F0F0F0F0F0F


def popcount(x: i64) -> int:
    """The number of set bits of ``x`` (``0 <= x < 2 ** 62``), as ``x.bit_count()``."""
    x -= (x >> 1) & _M1
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


#: A tuple, not a constant: mypyc 1.18 would fold an ``i64`` constant 1 into a C ``int``
#: literal, and ``1 << n`` would then overflow at bit 31.
_ONE: Final = (1,)


def bit(n: int) -> i64:
    """``1 << n`` as an ``i64`` (``0 <= n < 62``): a board's bit, in a machine word when
    compiled (``1 << n`` is an ``int`` there, boxed beyond 30 bits on a 32-bit machine)."""
    one: i64 = _ONE[0]
    return one << n


#: Whether this module runs compiled: mypyc makes its functions builtins, not Python functions.
COMPILED: Final = not isinstance(popcount, FunctionType)

if not COMPILED:  # interpreted, the builtins are single C calls
    popcount = int.bit_count  # type: ignore[assignment]
    bit = (1).__lshift__  # type: ignore[assignment]
