"""The structure of firmware_host/game/: its imports go one way, and only the session is whole."""

from __future__ import annotations

import ast
from pathlib import Path

import firmware_host.game

GAME = Path(firmware_host.game.__file__).parent
PREFIX = "firmware_host.game."


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of game/ it imports (TYPE_CHECKING imports included)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(GAME.glob("*.py")):
        deps = {node.module.removeprefix(PREFIX)
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.ImportFrom) and node.module
                and node.module.startswith(PREFIX)}
        graph[path.stem] = deps
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module):], module]
        if module in done:
            return None
        for dep in sorted(graph.get(module, ())):
            found = visit(dep, [*path, module])
            if found:
                return found
        done.add(module)
        return None

    for module in graph:
        found = visit(module, [])
        if found:
            return found
    return None


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_circle_inside_game() -> None:
    assert cycle(import_graph()) is None


def test_only_the_session_module_knows_the_session() -> None:
    importers = sorted(m for m, deps in import_graph().items() if "session" in deps)
    assert importers == []
