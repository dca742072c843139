"""Every docstring example of the three packages runs and is right, and so does the README's
example of the engine (as python-chess runs its README).

Why: docs/design.md#types-docs-and-tests.

The modules are found by walking ``engine``, ``board_io`` and ``firmware_host``, so a new
module's examples run without being listed here. Importing a module must not need a library
that exists only on the Pi (those are imported lazily, by the backend that uses them): a
subprocess imports every module with those libraries made unimportable.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGES = ("engine", "board_io", "firmware_host")
README = Path(__file__).resolve().parents[1] / "README.md"

#: Libraries of the Pi's hardware backends: no module may import them when it is imported.
PI_ONLY = ("gpiozero", "lgpio", "RPi", "pigpio", "spidev", "smbus", "smbus2", "luma")


def module_names() -> list[str]:
    """Every module and package of the three packages, packages first."""
    names: list[str] = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        names += [info.name for info in pkgutil.walk_packages(root.__path__, f"{package}.")]
    return names


MODULES = module_names()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_every_package_has_examples() -> None:
    counted = {package: 0 for package in PACKAGES}
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in MODULES:
        examples = sum(len(t.examples) for t in finder.find(importlib.import_module(name), name))
        counted[name.split(".")[0]] += examples
    assert all(counted.values()), counted


def test_modules_import_without_the_pi_only_libraries() -> None:
    script = textwrap.dedent(f"""
        import importlib, importlib.abc, sys

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {PI_ONLY!r}:
                    raise ImportError(f"{{name}} imported at import time")
                return None

        sys.meta_path.insert(0, Block())
        for name in {MODULES!r}:
            importlib.import_module(name)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_readme_example_runs() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README.md",
                                               str(README), 0)
    used = " ".join(example.source for example in test.examples)
    for step in ("Board(", "legal_moves", "push(", "outcome()"):  # the engine at work
        assert step in used, step
    runner = doctest.DocTestRunner()
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
