"""The build's switches (setup.py): compiled with mypyc by default, pure when asked, never an
editable install compiled, pure with a warning where no compiler is; the build cache. Runs in
the main suite (beside the sources); tests/engine/test_compiled.py checks which build a
run is using.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import types
from pathlib import Path

import pytest
from setuptools import Distribution, Extension

from engine.compiled import COMPILABLE

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_shared_build_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """The switches are tested without the run's build cache (``.ci/test`` exports
    DRAUGHTSBOARD_BUILD_CACHE): compiled modules kept there under this tree's key, by an earlier
    run's ``.ci/compiled``, would be reused instead of the decision under test. The cache's own
    test gives a folder of its own."""
    monkeypatch.delenv("DRAUGHTSBOARD_BUILD_CACHE", raising=False)


def _setup_module() -> types.ModuleType:
    path = ROOT / "setup.py"
    spec = importlib.util.spec_from_file_location("draughtsboard_setup", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines the hook; setup() runs only as __main__
    return module


def test_setup_compiles_the_listed_modules_from_their_sources() -> None:
    setup = _setup_module()
    paths = setup._compilable()
    assert paths == [name.replace(".", "/") + ".py" for name in COMPILABLE]
    assert all((ROOT / path).is_file() for path in paths)


@pytest.mark.parametrize(("value", "mode"), [
    ("", "auto"), ("0", "pure"), ("1", "auto"), ("yes", "auto"), ("require", "require"),
    ("REQUIRE", "require"), ("sometimes", "pure"),
])
def test_setup_reads_the_compile_switch(
    monkeypatch: pytest.MonkeyPatch, value: str, mode: str
) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", value)
    assert setup._mode() == mode


@pytest.mark.parametrize("command", ["editable_wheel", "develop"])
def test_an_editable_install_is_never_compiled(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "require")
    monkeypatch.setattr("sys.argv", ["setup.py", command])
    assert setup._compiled_options() == {}
    assert "never compiled" in capsys.readouterr().err


def test_a_pure_build_adds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "0")
    monkeypatch.setattr("sys.argv", ["setup.py", "bdist_wheel"])
    assert setup._compiled_options() == {}


def test_without_a_compiler_the_build_falls_back_to_pure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = _setup_module()
    monkeypatch.setattr("sys.argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setattr(setup.shutil, "which", lambda name: None)
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "1")
    assert setup._compiled_options() == {}
    assert "no C compiler" in capsys.readouterr().err
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "require")
    with pytest.raises(SystemExit, match="no C compiler"):
        setup._compiled_options()


def test_pip_is_asked_for_the_compiler_before_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup_module()
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "1")
    monkeypatch.setattr(setup, "_missing_toolchain", lambda: None)
    monkeypatch.setattr("sys.argv", ["setup.py", "egg_info"])
    assert setup._compiled_options() == {"setup_requires": [setup.MYPY]}


def test_the_pi_builds_with_the_pinned_compiler() -> None:
    setup = _setup_module()
    pins = (ROOT / "systemd" / "build-constraints.txt").read_text(encoding="utf-8").splitlines()
    assert setup.MYPY in pins


def test_by_default_pip_is_asked_for_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup_module()
    monkeypatch.delenv("DRAUGHTSBOARD_COMPILE", raising=False)
    monkeypatch.delenv("DRAUGHTSBOARD_BUILD_CACHE", raising=False)
    monkeypatch.setattr(setup, "_missing_toolchain", lambda: None)
    monkeypatch.setattr("sys.argv", ["setup.py", "egg_info"])
    assert setup._compiled_options() == {"setup_requires": [setup.MYPY]}


def test_by_default_no_compiler_means_pure_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = _setup_module()
    monkeypatch.delenv("DRAUGHTSBOARD_COMPILE", raising=False)
    monkeypatch.delenv("DRAUGHTSBOARD_BUILD_CACHE", raising=False)
    monkeypatch.setattr("sys.argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setattr(setup.shutil, "which", lambda name: None)
    assert setup._compiled_options() == {}
    warnings = capsys.readouterr().err.strip().splitlines()
    assert len(warnings) == 1 and "no C compiler" in warnings[0]


def test_by_default_an_editable_install_is_pure_and_silent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = _setup_module()
    monkeypatch.delenv("DRAUGHTSBOARD_COMPILE", raising=False)
    monkeypatch.setattr("sys.argv", ["setup.py", "editable_wheel"])
    assert setup._compiled_options() == {}
    assert capsys.readouterr().err == ""


def _tree(tmp_path: Path) -> Path:
    """A copy of what the build key reads: engine/*.py and setup.py."""
    tree = tmp_path / "src"
    shutil.copytree(ROOT / "engine", tree / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "data"))
    shutil.copy2(ROOT / "setup.py", tree / "setup.py")
    (tree / "firmware_host").mkdir()
    (tree / "firmware_host" / "app.py").write_text("A = 1\n", encoding="utf-8")
    return tree


def test_the_build_key_changes_with_the_engine_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    setup = _setup_module()
    monkeypatch.setattr(setup, "HERE", _tree(tmp_path))
    key = setup.build_key()
    assert setup.build_key() == key
    (setup.HERE / "firmware_host" / "app.py").write_text("A = 2\n", encoding="utf-8")
    assert setup.build_key() == key  # outside the engine: the same build
    board = setup.HERE / "engine" / "board.py"  # not compiled, but read by the compilation
    board.write_text(board.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert setup.build_key() != key


def _build_ext(setup: types.ModuleType, cmdclass: type, extensions: list[Extension],
               build_lib: Path) -> None:
    dist = Distribution({"name": "probe", "ext_modules": extensions,
                         "cmdclass": {"build_ext": cmdclass}})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(build_lib)
    command.build_temp = str(build_lib.parent / "temp")
    dist.run_command("build_ext")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_compiled_build_is_kept_and_reused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A real (tiny) C extension built once: kept in the cache under the engine's key, then a
    second build with the same key copies it without compiling; another key misses."""
    setup = _setup_module()
    monkeypatch.setattr(setup, "HERE", _tree(tmp_path))
    cache = tmp_path / "cache"
    monkeypatch.setenv("DRAUGHTSBOARD_BUILD_CACHE", str(cache))
    monkeypatch.setenv("DRAUGHTSBOARD_COMPILE", "require")
    source = tmp_path / "probe.c"
    source.write_text(
        "#include <Python.h>\n"
        "static struct PyModuleDef m = {PyModuleDef_HEAD_INIT, \"probe_ext\", 0, -1, 0};\n"
        "PyMODINIT_FUNC PyInit_probe_ext(void) { return PyModule_Create(&m); }\n",
        encoding="utf-8")
    _build_ext(setup, setup._OptionalBuildExt,
               [Extension("pkg.probe_ext", [str(source)])], tmp_path / "first")
    key = setup.build_key()
    assert json.loads((cache / "last-build.json").read_text())["build"] == "compiled"
    options = setup._reuse(cache)
    assert options is not None
    assert [e.name for e in options["ext_modules"]] == ["pkg.probe_ext"]
    source.unlink()  # the second build cannot compile: it must copy
    _build_ext(setup, options["cmdclass"]["build_ext"], options["ext_modules"],
               tmp_path / "second")
    first = next((tmp_path / "first" / "pkg").glob("probe_ext*"))
    second = tmp_path / "second" / "pkg" / first.name
    assert second.read_bytes() == first.read_bytes()
    assert json.loads((cache / "last-build.json").read_text()) == {
        "key": key, "build": "reused", "seconds": 0.0}
    board = setup.HERE / "engine" / "board.py"
    board.write_text(board.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert setup._reuse(cache) is None


def test_a_compiled_build_writes_the_interpreted_copies_of_the_hot_path(tmp_path: Path) -> None:
    """The compiled build's build_py writes ``engine/_pure``: each hot-path module, its imports
    of the others pointed at their copies (and no other import touched)."""
    setup = _setup_module()
    compilable = setup._compilable()
    assert setup.pure_copy("from engine.movegen import MoveGen\nfrom engine.board import Board\n"
                           "from engine.bits import bit\nimport engine.movegenx\n",
                           compilable) == (
        "from engine._pure.movegen import MoveGen\nfrom engine.board import Board\n"
        "from engine._pure.bits import bit\nimport engine.movegenx\n")
    command = setup._PureCopies(Distribution({"packages": []}))
    command.initialize_options()
    command.build_lib = str(tmp_path)
    command.finalize_options()
    command.run()
    written = sorted(p.name for p in (tmp_path / "engine" / "_pure").iterdir())
    assert written == sorted(["__init__.py", *(name.split(".")[1] + ".py" for name in COMPILABLE)])
    search = (tmp_path / "engine" / "_pure" / "search.py").read_text(encoding="utf-8")
    assert "from engine._pure.movegen import" in search
    assert "from engine.movegen import" not in search
