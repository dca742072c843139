"""The examples in the docstrings of board_io's core modules run and are right."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "board_io", "board_io.types", "board_io.errors", "board_io.clock", "board_io.geometry",
    "board_io.debounce", "board_io.events", "board_io.options", "board_io.schema",
    "board_io.scanner",
    "board_io.registry", "board_io.calibration", "board_io.selftest",
    "board_io.sensors.base", "board_io.leds.base", "board_io.buttons.base",
    "board_io.sim", "board_io.sim.board", "board_io.sim.devices", "board_io.sim.script",
    "board_io.sim.terminal", "board_io.sim.backends",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
