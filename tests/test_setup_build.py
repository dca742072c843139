"""The build's switches (setup.py): pure by default, compiled with mypyc when asked, never an
editable install compiled, pure with a warning where no compiler is. Runs in the main suite
(beside the sources); tests/engine/test_compiled.py checks which build a run is using.
"""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import pytest

from engine.compiled import COMPILABLE

ROOT = Path(__file__).resolve().parents[1]


def _setup_module() -> types.ModuleType:
    path = ROOT / "setup.py"
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
