"""bench/build.py: a compiled engine hidden by a checkout's pure one is found and named."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import bench.build
from bench.build import engine_build, hidden_compiled, warning


def _engine(root: Path, name: str, compiled: bool) -> Path:
    """A folder ``root/name/engine`` with a pure or a compiled search module (empty stand-ins)."""
    folder = root / name / "engine"
    folder.mkdir(parents=True)
    module = folder / (f"search{EXTENSION_SUFFIXES[0]}" if compiled else "search.py")
    module.write_bytes(b"")
    return module


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The imported engine.search is a checkout's pure one."""
    pure = _engine(tmp_path, "checkout", compiled=False)
    monkeypatch.setattr(bench.build, "_search_file", lambda: pure)
    return pure


def test_a_compiled_engine_behind_the_pure_one_is_named(tmp_path: Path, checkout: Path) -> None:
    installed = _engine(tmp_path, "site-packages", compiled=True).parent
    path = [str(checkout.parents[1]), str(installed.parent)]
    assert engine_build() == "pure Python"
    assert hidden_compiled(path) == installed
    text = warning(path)
    assert text is not None and str(installed) in text and "copy of bench/" in text


def test_no_compiled_engine_no_warning(tmp_path: Path, checkout: Path) -> None:
    path = [str(checkout.parents[1]), str(tmp_path)]
    assert hidden_compiled(path) is None and warning(path) is None


def test_a_compiled_import_hides_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = _engine(tmp_path, "site-packages", compiled=True)
    monkeypatch.setattr(bench.build, "_search_file", lambda: compiled)
    other = _engine(tmp_path, "elsewhere", compiled=True).parents[1]
    assert engine_build() == "compiled"
    assert hidden_compiled([str(other)]) is None
