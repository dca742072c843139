"""Asking for a hardware backend whose library is not installed gives one clear error.

Absence is simulated by putting ``None`` in ``sys.modules`` (the import system then raises
``ModuleNotFoundError``), through the registry exactly as the service builds backends.
"""

from __future__ import annotations

import importlib.machinery
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from board_io.clock import VirtualClock
from board_io.errors import MissingExtraError
from board_io.geometry import dark_squares
from board_io.registry import BackendContext, create_buttons, create_leds, create_sensors


@pytest.fixture
def context() -> Iterator[BackendContext]:
    with BackendContext(dark_squares(8), VirtualClock(), buttons=("hint",)) as context:
        yield context


CASES = [
    (create_sensors, {"board.sensors": "gpio-matrix", "gpio_matrix.row_pins": [5, 6],
                      "gpio_matrix.column_pins": [7, 8]}, "gpiozero", "gpio-matrix", "gpiozero"),
    (create_sensors, {"board.sensors": "shift-register"}, "gpiozero", "shift-register",
     "gpiozero"),
    (create_sensors, {"board.sensors": "serial", "serial.port": "loop://"}, "serial",
     "serial", "serial"),
    (create_leds, {"board.leds": "ws2812-spi"}, "spidev", "ws2812-spi", "spidev"),
    (create_leds, {"board.leds": "max7219"}, "luma.led_matrix.device", "max7219",
     "luma.led_matrix"),
    (create_leds, {"board.leds": "serial", "serial.port": "loop://"}, "serial.threaded",
     "serial", "serial.threaded"),
    (create_buttons, {"board.buttons": "gpio", "buttons.hint_pin": 5}, "gpiozero", "gpio",
     "gpiozero"),
    (create_buttons, {"board.buttons": "serial", "serial.port": "loop://"}, "serial",
     "serial", "serial"),
]


@pytest.mark.parametrize(("create", "config", "hidden", "backend", "package"), CASES)
def test_missing_library_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, context: BackendContext,
    create: Callable[[Any, BackendContext], Any], config: dict[str, Any], hidden: str,
    backend: str, package: str,
) -> None:
    monkeypatch.setitem(sys.modules, hidden, None)
    with pytest.raises(MissingExtraError) as info:
        create(config, context)
    assert str(info.value) == (f"the {backend!r} backend needs the {package!r} package: "
                               "pip install 'draughtsboard[pi]'")
    assert (info.value.backend, info.value.extra) == (backend, "pi")


def test_spidev_missing_for_shift_register_spi(monkeypatch: pytest.MonkeyPatch,
                                               context: BackendContext) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setattr(Device, "pin_factory", MockFactory())
    monkeypatch.setitem(sys.modules, "spidev", None)
    config = {"board.sensors": "shift-register", "shift_register.use_spi": True}
    # use_spi with the default clock/data pins falls back to bit-banging ...
    sensors = create_sensors(config, context)
    assert sensors.interface == "bitbang"  # type: ignore[attr-defined]
    sensors.close()


def test_importing_board_io_needs_no_hardware_library() -> None:
    # In a fresh interpreter where none of the hardware libraries can be imported.
    code = textwrap.dedent("""
        import importlib, sys
        for name in ("gpiozero", "spidev", "serial", "luma", "PIL", "lgpio", "RPi"):
            sys.modules[name] = None
        for module in ("board_io", "board_io.registry", "board_io.sensors.gpio_matrix",
                       "board_io.sensors.shift_register", "board_io.sensors.serial_mcu",
                       "board_io.leds.ws2812_spi", "board_io.leds.max7219",
                       "board_io.leds.serial_mcu", "board_io.buttons.gpio",
                       "board_io.buttons.serial_mcu"):
            importlib.import_module(module)
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.stdout.strip() == "ok", result.stderr


def _no_pin_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    for name in ("lgpio", "RPi", "RPi.GPIO", "pigpio"):
        monkeypatch.setitem(sys.modules, name, None)


def _native_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # Off a Pi the native factory fails by itself; on a Pi (or a CI box with /dev/gpiomem) make
    # sure it does, so that no driver at all loads.
    import gpiozero.pins.native as native

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no native GPIO here")

    monkeypatch.setattr(native.NativeFactory, "__init__", refuse)


@pytest.mark.parametrize("config", [
    {"board.sensors": "gpio-matrix", "gpio_matrix.row_pins": [5, 6],
     "gpio_matrix.column_pins": [7, 8]},
    {"board.sensors": "shift-register", "shift_register.use_spi": False},
])
def test_missing_pin_driver_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, context: BackendContext, config: dict[str, Any],
) -> None:
    import warnings

    _no_pin_driver(monkeypatch)
    _native_fails(monkeypatch)
    with warnings.catch_warnings(record=True) as caught, pytest.raises(MissingExtraError) as info:
        warnings.simplefilter("always")
        create_sensors(config, context)
    backend = config["board.sensors"]
    assert str(info.value) == (f"the {backend!r} backend needs the 'lgpio' package: "
                               "pip install 'draughtsboard[pi]'")
    assert not caught  # gpiozero's PinFactoryFallback warnings do not reach the user


def test_pin_driver_that_cannot_work_here_says_why(monkeypatch: pytest.MonkeyPatch,
                                                   context: BackendContext) -> None:
    import types

    from board_io.errors import BoardIOError

    _no_pin_driver(monkeypatch)
    _native_fails(monkeypatch)
    fake = types.ModuleType("lgpio")
    fake.__spec__ = importlib.machinery.ModuleSpec("lgpio", None)
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)
    config = {"board.buttons": "gpio", "buttons.hint_pin": 5}
    with pytest.raises(BoardIOError) as info:
        create_buttons(config, context)
    message = str(info.value)
    assert message.startswith("the 'gpio' backend cannot drive the GPIO pins through lgpio: ")
    assert "\n" not in message
    assert "pin 5" not in message


def test_pin_driver_is_loaded_from_a_writable_directory(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    # lgpio makes its notification pipe in the current directory at import: `sudo -u
    # draughtsboard draughtsboard doctor` from a home the user cannot write failed there.
    import os
    import tempfile
    import types

    from gpiozero import Device

    import board_io.pins as pins

    seen: list[str] = []

    class Factory:
        def __init__(self) -> None:
            seen.append(os.getcwd())

    fake = types.ModuleType("gpiozero.pins.lgpio")
    fake.LGPIOFactory = Factory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pins, "_cwd_writable", lambda: False)
    factory = pins.load_pin_factory("gpio")
    assert isinstance(factory, Factory)
    assert seen == [os.path.realpath(tempfile.gettempdir())]
    assert os.getcwd() == str(tmp_path)
