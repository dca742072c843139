"""engine.bits.popcount: the same count as ``int.bit_count``, in the build that runs.

The compiled run (.ci/compiled) checks the shifts and masks as compiled; the pure run checks that
the interpreter uses the builtin (faster there) and that the shifts, as the source writes them,
count as it does. Compiled, the function takes an ``i64``: boards of up to 62 bits (wider ones,
Canadian's and Turkish's, are counted by the pure copies of engine.generators, the builtin).
"""

from __future__ import annotations

import os
import random
import types
from pathlib import Path

import pytest

from engine import bits
from engine.bits import popcount

EXPECTED = os.environ.get("DRAUGHTSBOARD_ENGINE_BUILD", "pure")
#: The module's source: beside the compiled module as well (the wheel ships both).
SOURCE = Path(str(bits.__file__)).with_name("bits.py")


def _samples() -> list[int]:
    """Values of every width a compiled board may have (below 2 ** 62)."""
    rng = random.Random(7)
    values = [0, 1, (1 << 55) - 1, (1 << 56) - 1, 1 << 56, (1 << 61) | 1, (1 << 62) - 1]
    values += [rng.getrandbits(n) for n in (8, 30, 31, 32, 55, 56, 61, 62) for _ in range(200)]
    return values


def _shifts() -> types.FunctionType:
    """The source's popcount before the interpreter's module swaps in the builtin."""
    text = SOURCE.read_text(encoding="utf-8").split("\nif not COMPILED:")[0]
    namespace: dict[str, object] = {}
    exec(compile(text, str(SOURCE), "exec"), namespace)
    function = namespace["popcount"]
    assert isinstance(function, types.FunctionType)
    return function


def test_popcount_counts_as_bit_count_on_every_board_size() -> None:
    for value in _samples():
        assert popcount(value) == value.bit_count(), value


def test_the_shifts_as_written_count_as_bit_count() -> None:
    shifts = _shifts()
    for value in _samples():
        assert shifts(value) == value.bit_count(), value


def test_the_interpreter_runs_the_builtin_and_the_compiled_build_its_own() -> None:
    assert bits.COMPILED is (EXPECTED == "compiled")
    assert (popcount is int.bit_count) == (EXPECTED == "pure")


def test_the_compiled_build_refuses_a_board_wider_than_its_word() -> None:
    wide = (1 << 78) - 1
    if EXPECTED == "compiled":
        with pytest.raises(TypeError):
            popcount(wide)
    else:
        assert popcount(wide) == 78


def test_bit_is_the_shift_of_one_past_31_bits() -> None:
    # mypyc 1.18 folds an i64 constant 1 into a C int literal, whose shift overflows at bit 31.
    assert [bits.bit(n) for n in range(62)] == [1 << n for n in range(62)]
