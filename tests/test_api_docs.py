"""The API reference of engine and board_io builds from their docstrings with no warning, and
gives every public module a page (docs/architecture.md#the-api-reference).

It is built as CI builds it, by ``.ci/api_docs.py`` in a process of its own: pdoc reads the
modules as a fresh interpreter imports them, not as earlier tests of this run left them."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]


def _packages() -> tuple[str, ...]:
    """The packages the builder documents (its own ``PACKAGES``)."""
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / ".ci" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.PACKAGES)


def test_the_reference_builds_a_page_per_public_module(tmp_path: Path) -> None:
    built = subprocess.run([sys.executable, str(ROOT / ".ci" / "api_docs.py"), str(tmp_path)],
                           capture_output=True, text=True, cwd=ROOT, timeout=240, check=False)
    assert built.returncode == 0, built.stderr[-3000:]  # a warning of pdoc is an error
    for package in _packages():
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            page = tmp_path.joinpath(*info.name.split(".")).with_suffix(".html")
            assert page.is_file(), info.name
    board = (tmp_path / "engine" / "board.html").read_text(encoding="utf-8")
    assert "find_move" in board and engine.Board.__doc__ is not None
