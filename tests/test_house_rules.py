"""Rules of the house that a reader of the code relies on, checked over firmware_host's source.

- no ``assert`` for a runtime check (``python -O`` removes them), in engine and board_io either;
- no engine module imports another inside a function (a cycle dodged, not removed);
- ``Square`` is defined once, in :mod:`engine.types`;
- the Redis keyspace is spelled in one module, ``firmware_host/store/keys.py``: the service's
  code, the tests and the benchmarks name a key through it (``BoardKeys(board).events``);
- a configuration value is read through its option (``config[STORE_URL]``), not a dotted string,
  and a key's dotted path is spelled only where the key is declared;
- a long module is a prompt to look for a second concept (a warning, never a limit);
- the tests mirror the house: ``tests/<package>/<sub-package>/test_<...>.py``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "firmware_host").rglob("*.py"))
#: The other two packages, checked for asserts too.
LIBRARIES = {package: sorted((ROOT / package).rglob("*.py")) for package in ("engine", "board_io")}


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def test_the_sources_are_found() -> None:
    assert len(SOURCES) > 100
    assert len(LIBRARIES["engine"]) > 20 and len(LIBRARIES["board_io"]) > 20


def test_no_assert_outside_tests() -> None:
    found = [_where(path, node) for path in SOURCES
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Assert)]
    assert found == []


@pytest.mark.parametrize("package", sorted(LIBRARIES))
def test_no_assert_in_the_libraries(package: str) -> None:
    found = [_where(path, node) for path in LIBRARIES[package]
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Assert)]
    assert found == []


def _imports_in_functions(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    return [node for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(function) if isinstance(node, ast.Import | ast.ImportFrom)]


def _names_engine(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or (node.module or "").partition(".")[0] == "engine"
    return any(alias.name.partition(".")[0] == "engine" for alias in node.names)


def test_engine_modules_import_each_other_at_the_top() -> None:
    found = [_where(path, node) for path in LIBRARIES["engine"]
             for node in _imports_in_functions(ast.parse(path.read_text(encoding="utf-8")))
             if _names_engine(node)]
    assert found == []


def test_square_is_defined_once() -> None:
    found = [_where(path, node) for path in SOURCES
             for node in ast.parse(path.read_text(encoding="utf-8")).body
             if isinstance(node, ast.Assign | ast.AnnAssign)
             and any(isinstance(t, ast.Name) and t.id == "Square"
                     for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))]
    assert found == []


#: A key spelled out in code: a string constant or f-string part that starts with the root.
_KEY = re.compile(r"^draughtsboard:(\S|$)")


def _strings(tree: ast.AST) -> list[ast.Constant]:
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef
                                | ast.ClassDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [node for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings]


#: The module that spells the keyspace, and the trees that name keys through it.
KEYS = ROOT / "firmware_host" / "store" / "keys.py"
KEY_USERS = {"firmware_host": SOURCES, "tests": sorted((ROOT / "tests").rglob("*.py")),
             "bench": sorted((ROOT / "bench").rglob("*.py"))}


def _spelled_keys(tree: ast.AST) -> list[ast.AST]:
    """The keys ``tree`` spells: a string that starts with the root, or an f-string that puts
    the keys module's ``ROOT`` in front of more of a key (``f"{ROOT}:{board}:events"``)."""
    spelled: list[ast.AST] = [node for node in _strings(tree) if _KEY.match(node.value)]
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and len(node.values) >= 2:
            head, rest = node.values[0], node.values[1]
            if (isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name)
                    and head.value.id == "ROOT" and isinstance(rest, ast.Constant)
                    and isinstance(rest.value, str) and rest.value.startswith(":")
                    and (len(rest.value) > 1 or len(node.values) > 2)):
                spelled.append(node)
    return spelled


@pytest.mark.parametrize("tree", sorted(KEY_USERS))
def test_the_keyspace_is_spelled_in_one_module(tree: str) -> None:
    assert len(KEY_USERS[tree]) > 10
    found = [_where(path, node) for path in KEY_USERS[tree] if path != KEYS
             for node in _spelled_keys(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


def test_configuration_is_read_through_options() -> None:
    read = re.compile(r"""config\[f?["'][a-z_]+\.""")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in SOURCES
             if path.parent.name != "config"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if read.search(line)]
    assert found == []


#: Where the service's configuration keys are declared: their dotted paths are spelled there.
DECLARED = ("firmware_host/config/", "firmware_host/terms/settings.py")


def test_a_configuration_key_is_spelled_where_it_is_declared() -> None:
    from firmware_host.config.schema import options_by_path

    paths = set(options_by_path())
    found = [f"{_where(path, node)} {node.value}" for path in SOURCES
             if not path.relative_to(ROOT).as_posix().startswith(DECLARED)
             for node in _strings(ast.parse(path.read_text(encoding="utf-8")))
             if node.value in paths]
    assert found == []


@pytest.mark.parametrize("package", ["engine", "board_io", "firmware_host"])
def test_the_tests_mirror_the_packages(package: str) -> None:
    """Every folder of a package's tests is a sub-package of that package, and the tests of a
    sub-package are in its folder: firmware_host's own floor holds helpers, no test module."""
    tests = ROOT / "tests" / package
    folders = {path.parent for path in tests.rglob("test_*.py")}
    assert folders, package
    strays = [str(folder.relative_to(ROOT)) for folder in folders
              if not (ROOT / package / folder.relative_to(tests) / "__init__.py").is_file()]
    assert strays == []
    if package == "firmware_host":
        assert sorted(path.name for path in tests.glob("test_*.py")) == []
