"""Build hook: the engine's hot path compiled with mypyc wherever a C compiler is.

``pip install .`` compiles the modules of ``engine.compiled.COMPILABLE`` with mypyc (the build
fetches the pinned mypy below) when a C compiler and the Python headers are there, and installs
pure Python, with one warning, when they are not or the compilation fails.
``DRAUGHTSBOARD_COMPILE=0`` builds pure Python without trying; ``=require`` fails instead of
falling back (CI); ``=1`` is the default. An editable install (``pip install -e .``) never
compiles: the extension modules would sit beside the sources and shadow every later edit of
them.

``DRAUGHTSBOARD_BUILD_CACHE=DIR`` keeps the compiled modules in ``DIR``, keyed by a hash of
everything the compilation reads (the engine's sources, this file, the compiler's version, the
Python and the machine): a later build of the same engine copies them instead of compiling
again (install.sh uses it, so a re-run after a change outside the engine does not recompile).
``DIR/last-build.json`` says what the last build did.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import platform
import re
import shutil
import sys
import sysconfig
import time
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: The compiler: a mypy whose wheel (and every dependency's) installs without a compiler of its
#: own on x86-64, aarch64 and armhf alike (later releases need Rust-built wheels on armhf).
MYPY = "mypy==1.18.2"
ENV = "DRAUGHTSBOARD_COMPILE"
CACHE_ENV = "DRAUGHTSBOARD_BUILD_CACHE"
#: mypycify's settings (part of the cache key).
_OPT_LEVEL, _GROUP = "3", "engine"
#: The setup.py commands that build extension modules (pip's wheel build runs bdist_wheel).
_BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def _warn(message: str) -> None:
    print(f"draughtsboard setup: {message}", file=sys.stderr)


def _mode() -> str:
    """``pure``, ``auto`` (compile if possible) or ``require``."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("0", "no", "false", "pure"):
        return "pure"
    if value == "require":
        return "require"
    if value not in ("", "1", "yes", "true", "auto"):
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


#: Where the interpreted copies of the hot path go in a compiled build (engine.compiled's
#: ``pure_module`` imports them): ``engine/movegen.py`` is copied to ``engine/_pure/movegen.py``.
PURE_PACKAGE = "engine/_pure"


def pure_copy(source: str, compilable: list[str]) -> str:
    """``source``, a hot-path module, with its imports of the other hot-path modules turned to
    their copies (``from engine.movegen import`` -> ``from engine._pure.movegen import``)."""
    names = "|".join(path.removeprefix("engine/").removesuffix(".py") for path in compilable)
    return re.sub(rf"(?<=from )engine\.(?={names}\b)", "engine._pure.", source)


class _PureCopies(build_py):
    """build_py that also writes the interpreted copies of the hot path beside the modules
    the build compiles: boards wider than a machine word are searched by them."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / PURE_PACKAGE
        target.mkdir(parents=True, exist_ok=True)
        (target / "__init__.py").write_text(
            '"""Interpreted copies of the hot path, made by the build (setup.py): '
            'engine.compiled.pure_module."""\n', encoding="utf-8")
        compilable = _compilable()
        for path in compilable:
            source = (HERE / path).read_text(encoding="utf-8")
            (target / Path(path).name).write_text(pure_copy(source, compilable),
                                                  encoding="utf-8")


def _missing_toolchain() -> str | None:
    """What stops a C extension build here, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h; Debian: python3-dev)"
    return None


def build_key() -> str:
    """A hash of everything the compilation reads: a build with the same key is the same."""
    digest = hashlib.sha256()
    for path in sorted((HERE / "engine").rglob("*.py")):
        digest.update(path.relative_to(HERE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update((HERE / "setup.py").read_bytes())
    for part in (MYPY, _OPT_LEVEL, _GROUP, sys.version, platform.machine(),
                 str(sysconfig.get_config_var("EXT_SUFFIX"))):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


def _cache_dir() -> Path | None:
    value = os.environ.get(CACHE_ENV, "").strip()
    return Path(value) if value else None


def _cached(cache: Path, key: str) -> list[dict[str, str]] | None:
    """The manifest of the cached build ``key`` (its modules' names and files), or None."""
    try:
        manifest = json.loads((cache / key / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entries = manifest if isinstance(manifest, list) else []
    ok = all(isinstance(e, dict) and (cache / key / str(e.get("file"))).is_file()
             for e in entries)
    return entries if entries and ok else None


def _record(cache: Path, key: str, what: str, seconds: float) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    report = {"key": key, "build": what, "seconds": round(seconds, 1)}
    (cache / "last-build.json").write_text(json.dumps(report) + "\n", encoding="utf-8")


class _OptionalBuildExt(build_ext):
    """build_ext that leaves the pure package in place when compiling fails (mode auto), and
    keeps what it compiled in the build cache (when one is set)."""

    def run(self) -> None:
        started = time.monotonic()
        try:
            super().run()
        except Exception as error:  # the compiler's errors have no common base class
            if _mode() == "require":
                raise
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            _warn(f"compiling the engine failed ({error}): installing pure Python")
            return
        cache = _cache_dir()
        if cache is not None:
            self._keep(cache, time.monotonic() - started)

    def _keep(self, cache: Path, seconds: float) -> None:
        key = build_key()
        fresh = cache / f".{key}.tmp"
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        manifest = []
        for ext in self.extensions:
            built = Path(self.get_ext_fullpath(ext.name))
            relative = Path(os.path.relpath(built, self.build_lib))
            (fresh / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, fresh / relative)
            manifest.append({"name": ext.name, "file": relative.as_posix()})
        (fresh / "manifest.json").write_text(json.dumps(manifest) + "\n", encoding="utf-8")
        for old in cache.iterdir():  # one engine's build is kept: the newest
            if old.is_dir() and old != fresh:
                shutil.rmtree(old, ignore_errors=True)
        fresh.rename(cache / key)
        _record(cache, key, "compiled", seconds)


class _CachedBuildExt(build_ext):
    """build_ext that copies this engine's compiled modules from the build cache."""

    def build_extension(self, ext: Extension) -> None:
        cache = _cache_dir()
        assert cache is not None
        key = build_key()
        entries = {e["name"]: e["file"] for e in _cached(cache, key) or []}
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cache / key / entries[ext.name], target)

    def run(self) -> None:
        super().run()
        cache = _cache_dir()
        assert cache is not None
        _record(cache, build_key(), "reused", 0.0)


def _reuse(cache: Path) -> dict[str, object] | None:
    """setup() arguments that install the cached build of this engine, or None."""
    entries = _cached(cache, build_key())
    if entries is None:
        return None
    return {
        "ext_modules": [Extension(e["name"], sources=[]) for e in entries],
        "cmdclass": {"build_ext": _CachedBuildExt, "build_py": _PureCopies},
        "options": {"build": {"build_base": "build/compiled"}},
    }


def _compiled_options() -> dict[str, object]:
    """setup() arguments for a compiled build, or {} for a pure one."""
    mode = _mode()
    if mode == "pure":
        return {}
    if "editable_wheel" in sys.argv or "develop" in sys.argv or "--inplace" in sys.argv:
        if os.environ.get(ENV, "").strip():  # asked for: say why not (by default, silent)
            _warn("an editable install is never compiled (build a wheel): installing pure Python")
        return {}
    cache = _cache_dir()
    reuse = None if cache is None else _reuse(cache)
    if reuse is not None:
        return reuse
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
        modules = mypycify(_compilable(), opt_level=_OPT_LEVEL, group_name=_GROUP,
                           target_dir="build/compiled/c")
    except SystemExit as error:  # mypy found errors: they are printed above
        if mode == "require":
            raise
        _warn(f"mypyc refused the engine ({error}): installing pure Python")
        return {}
    # Its own build directory, so that a later pure build never packs a stale extension.
    return {
        "ext_modules": modules,
        "cmdclass": {"build_ext": _OptionalBuildExt, "build_py": _PureCopies},
        "options": {"build": {"build_base": "build/compiled"}},
    }


if __name__ == "__main__":  # as setuptools' build backend runs it
    setup(**_compiled_options())
