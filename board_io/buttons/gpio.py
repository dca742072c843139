"""The ``gpio`` button backend: push buttons on GPIO pins, read with gpiozero's ``Button``.

Each button connects its pin to ground; the Pi's internal pull-up holds it high otherwise
(``pull_up=False``: to 3.3 V with a pull-down). gpiozero debounces (``bounce_ms``) and calls
back on its own thread; the callback only posts a :class:`~board_io.events.ButtonPressed`.

Example:
    >>> from board_io.clock import MonotonicClock
    >>> buttons = GpioButtons({"left": 5, "right": 6},
    ...                       clock=MonotonicClock())                   # doctest: +SKIP
    >>> buttons.when_pressed = events.put                               # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import ExitStack
from functools import partial
from typing import TYPE_CHECKING, Any

from board_io.buttons.base import Buttons
from board_io.clock import Clock
from board_io.errors import ConfigError
from board_io.extras import require
from board_io.options import ConfigSource, read
from board_io.pins import PinSpec, open_pins
from board_io.schema import BUTTON_BOUNCE_MS, BUTTON_PULL_UP, button_pin

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["GpioButtons"]

_BACKEND = "gpio"


def _key(name: str) -> str:
    return button_pin(name).path


class GpioButtons(Buttons):
    """Buttons on GPIO pins: ``pins[name]`` is the pin of button ``name``.

    Raises:
        ConfigError: no buttons, a pin given twice, a pin the board does not have or already
            in use, ``bounce_ms`` out of 0..1000.
        MissingExtraError: gpiozero is not installed.
    """

    def __init__(self, pins: Mapping[str, PinSpec], *, clock: Clock,
                 pull_up: bool = True, bounce_ms: int = 20, pin_factory: Any = None) -> None:
        if not pins:
            raise ConfigError("buttons", "no button pins given (buttons.<name>_pin)")
        if not 0 <= bounce_ms <= 1000:
            raise ConfigError("buttons.bounce_ms", f"must be 0..1000, got {bounce_ms!r}")
        gpiozero = require("gpiozero", backend=_BACKEND)
        super().__init__(pins, clock=clock)
        button = partial(gpiozero.Button, pull_up=pull_up,
                         bounce_time=bounce_ms / 1000 if bounce_ms else None)
        with ExitStack() as stack:
            devices = open_pins(stack, _BACKEND,
                                {_key(name): (button, pin) for name, pin in pins.items()},
                                pin_factory=pin_factory)
            self._stack = stack.pop_all()
        self.devices = {name: devices[_key(name)] for name in pins}
        for name, device in self.devices.items():
            device.when_pressed = partial(self._on_press, name)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> GpioButtons:
        """Build from the ``buttons.<name>_pin`` option of each of the context's button names
        (-1 or absent: no such button).

        Raises:
            ConfigError: a bad option, named by its key.
        """
        pins = {name: pin for name in context.buttons
                if (pin := read(config, button_pin(name))) >= 0}
        return cls(pins, clock=context.clock, pull_up=read(config, BUTTON_PULL_UP),
                   bounce_ms=read(config, BUTTON_BOUNCE_MS))

    def _on_press(self, name: str) -> None:
        if not self.closed:  # a callback may race with close()
            self._pressed(name)

    def _close(self) -> None:
        self._stack.close()
