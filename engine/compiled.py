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
from functools import cache
from importlib.machinery import ExtensionFileLoader
from types import ModuleType
from typing import Final

__all__ = ["COMPILABLE", "WORD_BITS", "build", "compiled_modules", "pure_module"]

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


#: The bits a board or a hash key may use in the compiled modules: they hold them in mypyc's
#: ``i64`` (a C ``int64_t``, on a 32-bit machine too), counted by :func:`engine.bits.popcount`
#: up to 62 bits. Boards wider than that (Canadian 12x12: 78 bits; Turkish's orthogonal board:
#: 71) are played by :func:`pure_module`'s copies of the hot path in a compiled install
#: (:mod:`engine.generators`).
WORD_BITS: Final = 62
#: Where a compiled build puts the interpreted copies :func:`pure_module` returns (setup.py):
#: ``engine.movegen``'s is ``engine._pure.movegen``.
_PURE: Final = "engine._pure"


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


def pure_module(name: str) -> ModuleType:
    """The interpreted hot-path module ``name`` (one of :data:`COMPILABLE`): in a compiled
    install the copy the build put beside the compiled one, under ``engine._pure``, its imports
    of other hot-path modules taken from the same copies (Python ints of any width, for the
    boards wider than :data:`WORD_BITS`); in a pure install the module itself.

    Example:
        >>> from engine import Board
        >>> pure_module("engine.perft").perft(Board("russian"), 2)
        49

    Raises:
        ValueError: ``name`` is not a hot-path module.
        ImportError: a compiled install without its copies (a broken install).
    """
    if name not in COMPILABLE:
        raise ValueError(f"{name} is not one of the compilable modules {COMPILABLE}")
    if not _compiled():
        return importlib.import_module(name)
    copy = _PURE + name.removeprefix("engine")
    try:
        return importlib.import_module(copy)
    except ImportError as exc:
        raise ImportError(f"this compiled install has no interpreted copy {copy} of {name} "
                          "(its build writes them: reinstall draughtsboard)") from exc


@cache
def _compiled() -> bool:
    """Whether any hot-path module of this install is compiled."""
    return bool(compiled_modules())
