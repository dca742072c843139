"""The compiled engine (mypyc) and the pure one: which one runs, and that both are whole.

``DRAUGHTSBOARD_ENGINE_BUILD=compiled`` (set by .ci/compiled, which runs the engine's tests
against the compiled wheel) or ``=pure`` says which build this run must be using; unset, only
the checks that hold for both run.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import types
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from engine.compiled import COMPILABLE, build, compiled_modules

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = os.environ.get("DRAUGHTSBOARD_ENGINE_BUILD")


def _is_extension(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith(tuple(EXTENSION_SUFFIXES))


@pytest.mark.skipif(EXPECTED is None, reason="DRAUGHTSBOARD_ENGINE_BUILD not set")
def test_the_build_in_use_is_the_one_this_run_expects() -> None:
    assert EXPECTED in ("compiled", "pure")
    assert build() == EXPECTED
    assert all(_is_extension(name) == (EXPECTED == "compiled") for name in COMPILABLE)


@pytest.mark.skipif(EXPECTED != "compiled", reason="not a run of the compiled engine")
def test_compiled_functions_are_native_code() -> None:
    from engine import movegen, perft, search

    # A mypyc function is a builtin, not a Python function with bytecode.
    for function in (movegen.generator_for, perft.perft, search._apply):
        assert not isinstance(function, types.FunctionType), function
    assert not hasattr(movegen.MoveGen.moves, "__code__")


def test_compiled_modules_are_those_loaded_from_an_extension() -> None:
    assert compiled_modules() == tuple(name for name in COMPILABLE if _is_extension(name))
    assert build() in ("pure", "compiled")  # never a mix: the build compiles all or none


def test_every_compilable_module_is_an_engine_source() -> None:
    assert COMPILABLE and len(set(COMPILABLE)) == len(COMPILABLE)
    for name in COMPILABLE:
        assert name.startswith("engine.")
        assert importlib.util.find_spec(name) is not None, name


def _setup_module() -> types.ModuleType:
    path = ROOT / "setup.py"
    if not path.exists():
        pytest.skip("no setup.py beside the tests (a run against an installed wheel)")
    pytest.importorskip("setuptools")
    spec = importlib.util.spec_from_file_location("draughtsboard_setup", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines the hook; setup() runs only as __main__
    return module


def test_setup_compiles_the_listed_modules_from_their_sources() -> None:
    setup = _setup_module()
    paths = setup._compilable()
    assert paths == [name.replace(".", "/") + ".py" for name in COMPILABLE]
    assert all((ROOT / path).is_file() for path in paths)


@pytest.mark.parametrize(("value", "mode"), [
    ("", "pure"), ("0", "pure"), ("1", "auto"), ("yes", "auto"), ("require", "require"),
    ("REQUIRE", "require"), ("sometimes", "pure"),
])
def test_setup_reads_the_compile_switch(
    monkeypatch: pytest.MonkeyPatch, value: str, mode: str
) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", value)
    assert setup._mode() == mode


@pytest.mark.parametrize("command", ["editable_wheel", "develop"])
def test_an_editable_install_is_never_compiled(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "require")
    monkeypatch.setattr("sys.argv", ["setup.py", command])
    assert setup._compiled_options() == {}
    assert "never compiled" in capsys.readouterr().err


def test_a_pure_build_adds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup_module()
    monkeypatch.delenv("DRAUGHTSBOARD_COMPILE", raising=False)
    monkeypatch.setattr("sys.argv", ["setup.py", "bdist_wheel"])
    assert setup._compiled_options() == {}


def test_without_a_compiler_the_build_falls_back_to_pure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = _setup_module()
    monkeypatch.setattr("sys.argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setattr(setup.shutil, "which", lambda name: None)
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "1")
    assert setup._compiled_options() == {}
    assert "no C compiler" in capsys.readouterr().err
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "require")
    with pytest.raises(SystemExit, match="no C compiler"):
        setup._compiled_options()


def test_pip_is_asked_for_the_compiler_before_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "1")
    monkeypatch.setattr(setup, "_missing_toolchain", lambda: None)
    monkeypatch.setattr("sys.argv", ["setup.py", "egg_info"])
    assert setup._compiled_options() == {"setup_requires": [setup.MYPY]}


def test_the_pi_builds_with_the_pinned_compiler() -> None:
    setup = _setup_module()
    pins = (ROOT / "systemd" / "build-constraints.txt").read_text(encoding="utf-8").splitlines()
    assert setup.MYPY in pins
