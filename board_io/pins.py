"""Opening gpiozero devices from config, with errors that name the config key.

The gpiozero backends (``gpio-matrix``, ``shift-register``, ``gpio`` buttons) open their pins
through :func:`open_pins`, so a pin given twice, a pin the board does not have or a pin already
taken gives one :class:`~board_io.errors.ConfigError` naming the option, and a failure half-way
closes the devices already opened. The pin driver is loaded first by :func:`load_pin_factory`,
which turns gpiozero's fallback warnings and "Unable to load any default pin factory!" into one
line: the extra to install when lgpio is missing, else why lgpio cannot drive the pins.

Example:
    >>> check_pins({"rows[0]": 5, "cols[0]": 5})
    Traceback (most recent call last):
    ...
    board_io.errors.ConfigError: cols[0]: pin 5 is also given as rows[0]
"""

from __future__ import annotations

import importlib.util
import logging
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import Any, TypeAlias

from board_io.errors import BoardIOError, ConfigError, MissingExtraError
from board_io.extras import require

__all__ = ["PinSpec", "check_pins", "load_pin_factory", "open_pins"]

log = logging.getLogger(__name__)

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


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module set to None in sys.modules
        return False


def _cwd_writable() -> bool:
    try:
        return os.access(os.getcwd(), os.W_OK)
    except OSError:
        return False


@contextmanager
def _writable_cwd() -> Iterator[None]:
    """lgpio creates its notification pipe ``.lgd-nfy<n>`` in the current directory when it is
    imported: from an unwritable one (a user's home, ``/``: ``sudo -u draughtsboard ...``) the
    import fails. Import it from the temporary directory then, and come back."""
    if _cwd_writable():
        yield
        return
    cwd = os.getcwd()
    os.chdir(tempfile.gettempdir())
    try:
        yield
    finally:
        os.chdir(cwd)


def load_pin_factory(backend: str) -> object:
    """Return gpiozero's pin factory, loading the default one (lgpio) if none is set yet.

    Raises:
        MissingExtraError: gpiozero, or the lgpio pin driver, is not installed (and no other
            pin driver loads): one line naming the extra.
        BoardIOError: lgpio is installed but cannot drive the pins here (not a Raspberry Pi,
            no /dev/gpiochip*, or a sandbox hiding /proc/cpuinfo): one line with lgpio's reason.
    """
    gpiozero = require("gpiozero", backend=backend)
    device = gpiozero.Device
    if device.pin_factory is not None:
        return device.pin_factory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with _writable_cwd():
                device.ensure_pin_factory()
        except Exception as exc:  # BadPinFactory, or a named factory's own error
            failure: BaseException | None = exc
        else:
            failure = None
    reasons = {str(w.message).partition(": ")[0].removeprefix("Falling back from "):
               str(w.message).partition(": ")[2] for w in caught}
    if failure is None:
        log.info("GPIO pin factory: %s", type(device.pin_factory).__name__)
        return device.pin_factory
    if not _importable("lgpio"):
        raise MissingExtraError(backend, "lgpio", "pi") from failure
    reason = reasons.get("lgpio") or str(failure)
    raise BoardIOError(f"the {backend!r} backend cannot drive the GPIO pins through lgpio: "
                       f"{reason} (run `draughtsboard doctor`)") from failure


def open_pins(
    stack: ExitStack, backend: str, specs: Mapping[str, tuple[Callable[..., Any], PinSpec]],
    **common: Any,
) -> dict[str, Any]:
    """Open one gpiozero device per key: ``specs[key] = (device class, pin)``.

    Each device is registered on ``stack`` for closing; ``common`` keyword arguments (such as
    ``pin_factory``) go to every device.

    Raises:
        ConfigError: a pin that does not exist, is already in use or cannot do the job.
        MissingExtraError: gpiozero, or a pin driver for it, is not installed.
        BoardIOError: the pin driver is installed but cannot work here.
    """
    gpiozero = require("gpiozero", backend=backend)
    check_pins({key: pin for key, (_, pin) in specs.items()})
    if common.get("pin_factory") is None:
        load_pin_factory(backend)
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
