"""engine is a pure library: it imports without board_io/firmware_host and only the stdlib."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys, pkgutil, importlib
sys.modules['board_io'] = None
sys.modules['firmware_host'] = None
import engine
for m in pkgutil.walk_packages(engine.__path__, 'engine.'):
    importlib.import_module(m.name)
# Names starting with "_" are the interpreter's and the editable install's own hooks.
third_party = sorted(
    name.split('.')[0] for name, module in sys.modules.items()
    if module is not None and not name.startswith('_')
    and name.split('.')[0] not in sys.stdlib_module_names and name.split('.')[0] != 'engine'
)
print(','.join(sorted(set(third_party))))
"""


def test_engine_imports_alone_and_only_stdlib() -> None:
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                            check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_docstring_examples_run() -> None:
    """The examples in the rules core's docstrings are true."""
    import doctest
    import importlib

    for name in ("types", "errors", "variant", "movegen", "board", "fen", "notation", "perft"):
        module = importlib.import_module(f"engine.{name}")
        failed, _tried = doctest.testmod(module, verbose=False)
        assert failed == 0, f"engine.{name}"
