"""The web app's control speaks the board's own words: a phone presses the board's buttons
(terms/buttons.py) and sets the phone's settings (terms/settings.py), each checked here."""

from __future__ import annotations

import pytest

from firmware_host.terms.buttons import BUTTONS, CLOCK
from firmware_host.web import control


def test_the_page_has_a_button_for_each_of_the_boards_buttons() -> None:
    side_less = {button.name for button in BUTTONS if button.side is None} - {CLOCK} | set(
        control.PHONE_ONLY)  # (the phone's own: a claim against a board gone silent)
    assert set(control.SIMPLE) == side_less
    assert sorted(name for name, _ in control.BUTTONS) == sorted(side_less)
    for name in side_less:
        assert control.command_fields({"command": name}) == {"name": name}


def test_a_sided_button_is_one_of_the_boards_sided_buttons() -> None:
    sided = {(button.command.value, button.side) for button in BUTTONS if button.side}
    offered = {tuple(name.split(":")) for buttons in control.SIDED.values()
               for name, _ in buttons}
    assert offered == sided
    for command, side in sided:
        assert control.command_fields({"command": f"{command}:{side}"}) == {
            "name": command, "side": side}


def test_the_clock_button_is_no_phone_button() -> None:
    with pytest.raises(ValueError, match="unknown command 'clock'"):
        control.command_fields({"command": CLOCK})
