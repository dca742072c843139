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
import re
import sys
from importlib.machinery import ExtensionFileLoader
from pathlib import Path
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
#: Where :func:`pure_module` puts its copies: ``engine.movegen`` becomes ``engine._pure.movegen``.
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
    """The pure-Python source of the hot-path module ``name`` (one of :data:`COMPILABLE`),
    loaded once beside the compiled one under ``engine._pure``, its imports of other hot-path
    modules taken from the same copies: Python ints of any width, for the boards wider than
    :data:`WORD_BITS`. In a pure install it is the same source as the module itself.

    Example:
        >>> pure_module("engine.perft").__name__
        'engine._pure.perft'

    Raises:
        ValueError: ``name`` is not a hot-path module.
    """
    if name not in COMPILABLE:
        raise ValueError(f"{name} is not one of the compilable modules {COMPILABLE}")
    alias = _PURE + name.removeprefix("engine")
    if alias in sys.modules:
        return sys.modules[alias]
    if _PURE not in sys.modules:
        sys.modules[_PURE] = ModuleType(_PURE, "Pure-Python copies of the hot path.")
    # COMPILABLE lists each module after those it imports: load them in that order, so that
    # every rewritten import finds its copy in sys.modules.
    for other in COMPILABLE[: COMPILABLE.index(name)]:
        pure_module(other)
    here = Path(__file__).resolve().parent
    path = here / (name.removeprefix("engine.") + ".py")
    source = _HOT_IMPORT.sub(lambda m: _PURE + m.group(0).removeprefix("engine"),
                             path.read_text(encoding="utf-8"))
    module = ModuleType(alias)
    module.__file__ = str(path)
    sys.modules[alias] = module  # dataclasses look their module up there
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except BaseException:
        del sys.modules[alias]
        raise
    return module


#: A reference to a hot-path module in an import line of another one.
_HOT_IMPORT: Final = re.compile(
    r"(?<=from )engine\.(?:" + "|".join(n.removeprefix("engine.") for n in COMPILABLE)
    + r")\b"
)
