"""One exception tree per package: every exception class a module of ``engine``, ``board_io``
or ``firmware_host`` defines sits under that package's root (issue 41)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from board_io.errors import BoardIOError, ConfigProblem
from engine.errors import DraughtsError
from firmware_host.errors import ConfigError, DraughtsboardError

ROOTS: dict[str, type[BaseException]] = {
    "engine": DraughtsError, "board_io": BoardIOError, "firmware_host": DraughtsboardError}
#: Exceptions that never leave the module that raises them (control flow, not errors), and the
#: shape board_io's ConfigError and the service's share (never raised itself).
PRIVATE = {"engine.search._Stop", "board_io.errors.ConfigProblem"}


def _defined(package: str) -> list[type[BaseException]]:
    root = importlib.import_module(package)
    found = []
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        if info.name.startswith(("engine._pure", "engine.compiled_")):
            continue
        module = importlib.import_module(info.name)
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, BaseException) and cls.__module__ == info.name
                  and f"{cls.__module__}.{cls.__qualname__}" not in PRIVATE]
    return found


@pytest.mark.parametrize("package", sorted(ROOTS))
def test_every_exception_is_under_its_packages_root(package: str) -> None:
    classes = _defined(package)
    assert classes, package
    strays = [f"{cls.__module__}.{cls.__qualname__}" for cls in classes
              if not issubclass(cls, ROOTS[package])]
    assert strays == []


def test_the_service_has_its_own_config_error() -> None:
    assert issubclass(ConfigError, DraughtsboardError) and issubclass(ConfigError, ValueError)
    assert not issubclass(ConfigError, BoardIOError)
    assert issubclass(ConfigError, ConfigProblem)  # it names the key and the file as board_io's
