"""The compiled engine (mypyc) and the pure one: which one runs, and that both are whole.

``DRAUGHTSBOARD_ENGINE_BUILD=compiled`` (set by .ci/compiled, which runs the engine's tests
against the compiled wheel) says this run must be using the compiled build; unset (the main run,
an editable install, which is never compiled) it must be the pure one. The build's switches
(setup.py) are tested in tests/test_setup_build.py.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import types
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from engine.compiled import COMPILABLE, build, compiled_modules

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = os.environ.get("DRAUGHTSBOARD_ENGINE_BUILD", "pure")


def _is_extension(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith(tuple(EXTENSION_SUFFIXES))


def test_the_build_in_use_is_the_one_this_run_expects() -> None:
    assert EXPECTED in ("compiled", "pure")
    assert build() == EXPECTED
    assert all(_is_extension(name) == (EXPECTED == "compiled") for name in COMPILABLE)


def test_the_hot_functions_are_native_code_exactly_when_compiled() -> None:
    from engine import movegen, perft

    # A mypyc function is a builtin, not a Python function with bytecode.
    native = EXPECTED == "compiled"
    for function in (movegen.board_bits, perft.perft, movegen.make_move):
        assert isinstance(function, types.FunctionType) != native, function
    assert hasattr(movegen.MoveGen.moves, "__code__") != native


def test_compiled_modules_are_those_loaded_from_an_extension() -> None:
    assert compiled_modules() == tuple(name for name in COMPILABLE if _is_extension(name))
    assert build() in ("pure", "compiled")  # never a mix: the build compiles all or none


def test_every_compilable_module_is_an_engine_source() -> None:
    assert COMPILABLE and len(set(COMPILABLE)) == len(COMPILABLE)
    for name in COMPILABLE:
        assert name.startswith("engine.")
        assert importlib.util.find_spec(name) is not None, name
