"""Build the API reference of the engine and board_io from their docstrings, with pdoc.

    python .ci/api_docs.py [DIR]        (default: build/api; open DIR/index.html)

Every public module of ``engine`` and ``board_io`` gets its page (pdoc walks a package's
submodules but, where the package has an ``__all__``, only those it lists: the others are
named here). Any warning pdoc raises (a module that cannot be imported, a docstring it cannot
read, a name listed twice) fails the build: CI runs it through tests/test_api_docs.py. The
reference is not committed; docs/architecture.md points to it.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings
from pathlib import Path

PACKAGES = ("engine", "board_io")


def modules() -> list[str]:
    """The modules to name to pdoc: each package, and every public submodule its own walk
    would not reach (pdoc walks a package's submodules, only those of its ``__all__`` where it
    has one)."""
    names: list[str] = []
    reached: set[str] = set()
    for package in PACKAGES:
        names.append(package)
        reached.add(package)
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):  # parents first
            parent, _, short = info.name.rpartition(".")
            listed = getattr(importlib.import_module(parent), "__all__", None)
            if parent in reached and (listed is None or short in listed):
                reached.add(info.name)
            elif not any(part.startswith("_") for part in info.name.split(".")):
                names.append(info.name)
                reached.add(info.name)
    return names


def build(out: Path) -> None:
    """Write the reference into ``out``.

    Raises:
        Warning: the first warning pdoc gives, as an error.
    """
    import pdoc

    pdoc.render.configure(docformat="google", search=True, show_source=False)
    for package in PACKAGES:  # names a package imports when first asked for (board_io's
        root = importlib.import_module(package)  # simulator): asked for now, so pdoc sees them
        for name in getattr(root, "__all__", ()):
            getattr(root, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pdoc.pdoc(*modules(), output_directory=out)


if __name__ == "__main__":
    build(Path(sys.argv[1] if len(sys.argv) > 1 else "build/api"))
