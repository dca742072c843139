"""The pin option of each of the board's buttons (firmware_host/terms/buttons.py), which
board_io's ``gpio`` backend reads (``buttons.<name>_pin``).

Example:
    >>> PINS["hint"].path, PINS["hint"].default
    ('buttons.hint_pin', -1)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from board_io.options import Option
from board_io.schema import button_pin
from firmware_host.terms.buttons import BUTTONS

__all__ = ["PINS"]

#: The pin option of each button, by the button's name.
PINS: Mapping[str, Option[int]] = MappingProxyType({
    button.name: button_pin(button.name,
                            f"GPIO pin of the {button.words} button; -1: none.{button.more}")
    for button in BUTTONS})
