"""Build hook: pure Python by default; the engine's hot path compiled with mypyc on request.

``pip install .`` (and ``pip install -e .``) install the pure package, exactly as without this
file. ``DRAUGHTSBOARD_COMPILE=1 pip install .`` compiles the modules of
``engine.compiled.COMPILABLE`` with mypyc (the build fetches the pinned mypy below) when a C
compiler and the Python headers are there, and installs pure Python, with a warning, when they
are not or the compilation fails. ``DRAUGHTSBOARD_COMPILE=require`` fails instead (CI).
An editable install never compiles: the extension modules would sit beside the sources and
shadow every later edit of them.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
#: The compiler: a mypy whose wheel (and every dependency's) installs without a compiler of its
#: own on x86-64, aarch64 and armhf alike (later releases need Rust-built wheels on armhf).
MYPY = "mypy==1.18.2"
ENV = "DRAUGHTSBOARD_COMPILE"
#: The setup.py commands that build extension modules (pip's wheel build runs bdist_wheel).
_BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def _warn(message: str) -> None:
    print(f"draughtsboard setup: {message}", file=sys.stderr)


def _mode() -> str:
    """``pure``, ``auto`` (compile if possible) or ``require``."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("", "0", "no", "false", "pure"):
        return "pure"
    if value == "require":
        return "require"
    if value not in ("1", "yes", "true", "auto"):
        _warn(f"{ENV}={value!r} is not one of 0, 1, require: building pure Python")
        return "pure"
    return "auto"


def _compilable() -> list[str]:
    """The paths of engine.compiled.COMPILABLE, read without importing the engine."""
    tree = ast.parse((HERE / "engine" / "compiled.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "COMPILABLE" and node.value is not None):
            names = ast.literal_eval(node.value)
            return [name.replace(".", "/") + ".py" for name in names]
    raise RuntimeError("engine/compiled.py defines no COMPILABLE")


def _missing_toolchain() -> str | None:
    """What stops a C extension build here, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h; Debian: python3-dev)"
    return None


class _OptionalBuildExt(build_ext):
    """build_ext that leaves the pure package in place when compiling fails (mode auto)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # the compiler's errors have no common base class
            if _mode() == "require":
                raise
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            _warn(f"compiling the engine failed ({error}): installing pure Python")


def _compiled_options() -> dict[str, object]:
    """setup() arguments for a compiled build, or {} for a pure one."""
    mode = _mode()
    if mode == "pure":
        return {}
    if "editable_wheel" in sys.argv or "develop" in sys.argv or "--inplace" in sys.argv:
        _warn("an editable install is never compiled (build a wheel): installing pure Python")
        return {}
    missing = _missing_toolchain()
    if missing is not None:
        if mode == "require":
            raise SystemExit(f"draughtsboard setup: {ENV}=require but {missing}")
        _warn(f"{missing}: installing pure Python")
        return {}
    if not _BUILDING & set(sys.argv):
        # pip asking for the build requirements (egg_info) or the metadata (dist_info): the
        # compiler is one; it installs it into the build environment before the build proper.
        return {"setup_requires": [MYPY]}
    try:
        from mypyc.build import mypycify
    except ImportError:
        if mode == "require":
            raise SystemExit(f"draughtsboard setup: {ENV}=require but no mypy ({MYPY})") from None
        _warn(f"no mypyc (pip install {MYPY!r}): installing pure Python")
        return {}
    os.chdir(HERE)  # mypy reads pyproject.toml's [tool.mypy] and the sources from here
    try:
        modules = mypycify(_compilable(), opt_level="3", group_name="engine",
                           target_dir="build/compiled/c")
    except SystemExit as error:  # mypy found errors: they are printed above
        if mode == "require":
            raise
        _warn(f"mypyc refused the engine ({error}): installing pure Python")
        return {}
    # Its own build directory, so that a later pure build never packs a stale extension.
    return {
        "ext_modules": modules,
        "cmdclass": {"build_ext": _OptionalBuildExt},
        "options": {"build": {"build_base": "build/compiled"}},
    }


if __name__ == "__main__":  # as setuptools' build backend runs it
    setup(**_compiled_options())
