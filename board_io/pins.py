"""Opening gpiozero devices from config, with errors that name the config key.

The gpiozero backends (``gpio-matrix``, ``shift-register``, ``gpio`` buttons) open their pins
through :func:`open_pins`, so a pin given twice, a pin the board does not have or a pin already
taken gives one :class:`~board_io.errors.ConfigError` naming the option, and a failure half-way
closes the devices already opened.

Example:
    >>> check_pins({"rows[0]": 5, "cols[0]": 5})
    Traceback (most recent call last):
    ...
    board_io.errors.ConfigError: cols[0]: pin 5 is also given as rows[0]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import ExitStack
from typing import Any, TypeAlias

from board_io.errors import ConfigError
from board_io.extras import require

__all__ = ["PinSpec", "check_pins", "open_pins"]

PinSpec: TypeAlias = int | str
"""A pin as gpiozero names it: ``17``, ``"GPIO17"``, ``"BCM17"``, ``"BOARD11"``, ``"J8:11"``."""


def _normal(pin: PinSpec) -> str:
    text = str(pin).strip().upper()
    for prefix in ("GPIO", "BCM"):
        if text.startswith(prefix) and text[len(prefix):].isdigit():
            return str(int(text[len(prefix):]))
    return str(int(text)) if text.isdigit() else text


def check_pins(pins: Mapping[str, object]) -> None:
    """Check that every value is a pin name or number and that no pin is given twice.

    Example:
        >>> check_pins({"load": 5, "clock": "GPIO6"})

    Raises:
        ConfigError: a value is not a pin (``bool``, negative, empty), or a pin is repeated.
    """
    seen: dict[str, str] = {}
    for key, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, int | str) or (
                isinstance(pin, int) and pin < 0) or (isinstance(pin, str) and not pin.strip()):
            raise ConfigError(key, f"{pin!r} is not a GPIO pin (a number like 17 or a name "
                                   f"like 'GPIO17')")
        name = _normal(pin)
        if name in seen:
            raise ConfigError(key, f"pin {pin!r} is also given as {seen[name]}")
        seen[name] = key


def open_pins(
    stack: ExitStack, backend: str, specs: Mapping[str, tuple[Callable[..., Any], PinSpec]],
    **common: Any,
) -> dict[str, Any]:
    """Open one gpiozero device per key: ``specs[key] = (device class, pin)``.

    Each device is registered on ``stack`` for closing; ``common`` keyword arguments (such as
    ``pin_factory``) go to every device.

    Raises:
        ConfigError: a pin that does not exist, is already in use or cannot do the job.
        MissingExtraError: gpiozero is not installed.
    """
    gpiozero = require("gpiozero", backend=backend)
    check_pins({key: pin for key, (_, pin) in specs.items()})
    devices: dict[str, Any] = {}
    for key, (factory, pin) in specs.items():
        try:
            device = factory(pin, **common)
        except gpiozero.PinInvalidPin as exc:
            raise ConfigError(key, f"pin {pin!r} does not exist on this board ({exc})") from None
        except gpiozero.GPIOPinInUse as exc:
            raise ConfigError(key, f"pin {pin!r} is already in use ({exc})") from None
        except gpiozero.GPIOZeroError as exc:
            raise ConfigError(key, f"pin {pin!r}: {exc}") from None
        stack.callback(device.close)
        devices[key] = device
    return devices
