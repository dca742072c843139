"""Which build of the engine a bench script plays, and a compiled one that a checkout hides.

A script run from a checkout (``python bench/match.py``) puts the checkout first on
``sys.path``, so it imports the checkout's pure-Python ``engine`` even under the python of a venv
that has the compiled engine installed: its figures are then a pure engine's, a quarter of the
speed. :func:`hidden_compiled` finds that case and :func:`warning` says what to do (run a copy
of ``bench/`` outside the checkout, docs/strength.md#running-the-matches).

Example:
    >>> engine_build() in ("compiled", "pure Python")
    True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__all__ = ["engine_build", "hidden_compiled", "warning"]


def _search_file() -> Path:
    import engine.search

    return Path(engine.search.__file__).resolve()


def engine_build() -> str:
    """``"compiled"`` or ``"pure Python"``: the ``engine.search`` this process imported."""
    return "pure Python" if _search_file().suffix == ".py" else "compiled"


def hidden_compiled(path: Sequence[str] | None = None) -> Path | None:
    """The folder of a compiled ``engine`` on ``path`` (default ``sys.path``) that the imported
    pure one hides, or None (the imported engine is compiled, or no compiled one is there)."""
    imported = _search_file()
    if imported.suffix != ".py":
        return None
    for entry in sys.path if path is None else path:
        folder = Path(entry or ".") / "engine"
        if folder.resolve() == imported.parent:
            continue
        if any((folder / f"search{suffix}").is_file() for suffix in EXTENSION_SUFFIXES):
            return folder
    return None


def warning(path: Sequence[str] | None = None) -> str | None:
    """One line for a script's output when a compiled engine is hidden, else None."""
    folder = hidden_compiled(path)
    if folder is None:
        return None
    return (f"warning: this plays the checkout's pure-Python engine, not the compiled one in "
            f"{folder}: run a copy of bench/ outside the checkout (docs/strength.md)")
