"""The one schema: board_io's declarations and the service's, and what is derived from them."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path
from typing import Any

import pytest

from board_io import registry
from board_io.errors import ConfigError as BoardConfigError
from board_io.options import Option, read
from board_io.schema import button_pin
from firmware_host.config import buttons
from firmware_host.config.docs import render as render_docs
from firmware_host.config.loader import Config, ConfigError
from firmware_host.config.schema import OPTIONS, SECTIONS, SERVICE_OPTIONS, options_by_path

ROOT = Path(__file__).resolve().parents[3]

#: Numbers bounded by the hardware rather than a range: a cell number is checked against the
#: sensor matrix the backend reports.
UNBOUNDED_ABOVE = {"board.cell_map"}


def test_docs_page_is_current() -> None:
    page = ROOT / "docs" / "configuration.md"
    assert page.read_text() == render_docs(), \
        "regenerate: python -m firmware_host.config.docs > docs/configuration.md"
    for option in OPTIONS:
        assert f"| `{option.path}` |" in page.read_text()


def test_every_key_is_declared_once() -> None:
    paths = [option.path for option in OPTIONS]
    assert len(paths) == len(set(paths))
    assert {option.section for option in OPTIONS} == set(SECTIONS)


def test_board_io_declarations_are_the_schema() -> None:
    """The schema holds board_io's declaration objects themselves, not copies of their limits."""
    by_path = options_by_path()
    for option in registry.OPTIONS:
        assert by_path[option.path] is option
    assert set(by_path) == {o.path for o in (*registry.OPTIONS, *SERVICE_OPTIONS,
                                             *buttons.PINS.values())}


def test_the_gpio_backend_reads_the_pin_of_each_button_the_service_names() -> None:
    for name, option in buttons.PINS.items():
        plain = button_pin(name)  # the declaration board_io reads it by
        assert (option.path, option.kind, option.default, option.minimum, option.maximum,
                option.readers, option.pin) == (plain.path, plain.kind, plain.default,
                                               plain.minimum, plain.maximum, plain.readers,
                                               plain.pin)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.path)
def test_each_declaration_is_whole(option: Option[Any]) -> None:
    assert option.doc.strip() and option.readers
    default = option.default_value()
    assert option.validate(default) == default  # its default is a valid value
    if option.kind in ("int", "float", "list[int]") and option.choices is None:
        assert option.minimum is not None
        assert option.maximum is not None or option.path in UNBOUNDED_ABOVE


@pytest.mark.parametrize("option", registry.OPTIONS, ids=lambda option: option.path)
def test_backends_and_service_read_the_same_default(option: Option[Any]) -> None:
    assert Config.from_mapping({})[option.path] == read({}, option)


@pytest.mark.parametrize("option", [o for o in registry.OPTIONS if o.maximum is not None],
                         ids=lambda option: option.path)
def test_backends_and_service_refuse_the_same_values(option: Option[Any]) -> None:
    assert option.maximum is not None
    over = option.maximum + (1 if option.kind != "float" else 0.5)
    value: object = [int(over)] if option.kind == "list[int]" else \
        (int(over) if option.kind == "int" else over)
    section, key = option.path.split(".")
    with pytest.raises(ConfigError) as from_file:  # the service's
        Config.from_mapping({section: {key: value}})
    with pytest.raises(BoardConfigError) as from_backend:  # board_io's, from the same declaration
        read({option.path: value}, option)
    assert from_file.value.key == from_backend.value.key
    assert str(from_file.value) == f"<mapping>: {from_backend.value}"


def test_pins_come_from_the_declarations() -> None:
    pins = {option.path for option in OPTIONS if option.pin}
    assert "gpio_matrix.row_pins" in pins and "buttons.done_pin" in pins
    assert all(option.kind in ("int", "list[int]") for option in OPTIONS if option.pin)
    text = {"board": {"sensors": "shift-register", "buttons": "gpio"},
            "buttons": {"done_pin": 11}}  # shift_register.clock_pin defaults to 11
    with pytest.raises(ConfigError, match=r"GPIO pin 11 is used twice: shift_register\.clock_pin "
                                          r"and buttons\.done_pin"):
        Config.from_mapping(text)


@pytest.mark.parametrize("name", ["firmware_host.config.schema", "firmware_host.config.loader",
                                  "firmware_host.store.urls", "firmware_host.config.example",
                                  "firmware_host.config.docs", "firmware_host.config.edit"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
