"""The API reference of engine and board_io builds from their docstrings with no warning, and
gives every public module a page (docs/architecture.md#the-api-reference)."""

from __future__ import annotations

import importlib.util
import pkgutil
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]


def _builder() -> object:
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / ".ci" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_builds_a_page_per_public_module(tmp_path: Path) -> None:
    api = _builder()
    api.build(tmp_path)  # type: ignore[attr-defined]  # a warning of pdoc raises
    for package in api.PACKAGES:  # type: ignore[attr-defined]
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            page = tmp_path.joinpath(*info.name.split(".")).with_suffix(".html")
            assert page.is_file(), info.name
    board = (tmp_path / "engine" / "board.html").read_text(encoding="utf-8")
    assert "find_move" in board and engine.Board.__doc__ is not None
