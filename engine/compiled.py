"""Which engine modules may run compiled (mypyc), and which do in this install.

The same typed source runs either way: ``pip install .`` installs pure Python; with
``DRAUGHTSBOARD_COMPILE=1`` the build (setup.py) compiles the modules listed in
:data:`COMPILABLE` with mypyc into extension modules that Python imports instead of the
``.py`` files beside them. Nothing else changes, and a machine without a C compiler keeps the
pure modules.

Example:
    >>> set(compiled_modules()) <= set(COMPILABLE)
    True
    >>> build() in ("compiled", "pure", "partly compiled")
    True
"""

from __future__ import annotations

import importlib
from importlib.machinery import ExtensionFileLoader

__all__ = ["COMPILABLE", "build", "compiled_modules"]

#: The hot path: bit counting, the capture rules' choice, move generation (with make/unmake),
#: evaluation and its region patterns, move ordering, the transposition table, search, perft.
#: setup.py reads this tuple (without importing the engine); every module in it must compile
#: with mypyc.
COMPILABLE: tuple[str, ...] = (
    "engine.bits",
    "engine.precedence",
    "engine.movegen",
    "engine.patterns",
    "engine.evaluate",
    "engine.ordering",
    "engine.ttable",
    "engine.search",
    "engine.perft",
)


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`COMPILABLE` that this interpreter loaded from an extension module."""
    return tuple(
        name for name in COMPILABLE
        if isinstance(getattr(importlib.import_module(name), "__loader__", None),
                      ExtensionFileLoader)
    )


def build() -> str:
    """``"compiled"``, ``"pure"`` or (a broken install) ``"partly compiled"``."""
    found = len(compiled_modules())
    if found == 0:
        return "pure"
    return "compiled" if found == len(COMPILABLE) else "partly compiled"
