"""Lazy imports of the optional hardware libraries, with one clear error when one is missing.

Backends import their third-party library through :func:`require` at construction time, never
at module import, so ``import board_io`` works on any machine and only the backend actually
chosen in the config needs its library.

Example:
    >>> require("json", backend="demo").__name__
    'json'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from board_io.errors import MissingExtraError

__all__ = ["require"]


def require(
    module: str, *, backend: str, package: str | None = None, extra: str = "pi"
) -> ModuleType:
    """Import and return ``module`` for ``backend``; ``package`` is its pip name if different.

    Example:
        >>> require("nonexistent_lib_xyz", backend="demo")
        Traceback (most recent call last):
        ...
        board_io.errors.MissingExtraError: the 'demo' backend needs the 'nonexistent_lib_xyz' \
package: pip install 'draughtsboard[pi]'

    Raises:
        MissingExtraError: the module (or one it needs) cannot be imported; the message names
            the extra to install.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(backend, package or module, extra) from exc
