"""Create sensor, LED and button backends by the names given in the configuration.

The backends are data: a table per kind maps a name to ``"module:attribute"``. The module is
imported only when that backend is asked for, so a Pi-only library is needed only by the
backend that uses it. The attribute is either a class with a ``from_config(config, context)``
classmethod or a factory function ``(config, context) -> backend``.

Adding a backend = adding a row here, and its keys to :mod:`board_io.schema`. Names read:
``board.sensors``, ``board.leds``, ``board.buttons`` (default ``sim``), declared here from the
tables (:data:`SENSOR_BACKEND` ...), so the allowed names are the rows. :data:`OPTIONS` is every
key board_io reads.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> with BackendContext(dark_squares(10), VirtualClock()) as context:
    ...     sensors = create_sensors({"board.sensors": "sim"}, context)
    ...     (sensors.rows, sensors.cols)
    (10, 10)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from board_io import schema
from board_io.buttons.base import Buttons
from board_io.context import BackendContext
from board_io.display.base import Display
from board_io.errors import BoardIOError, ConfigError, MissingExtraError
from board_io.geometry import CellMap, Layout
from board_io.leds.base import LedMatrix
from board_io.options import ConfigSource, Option, read
from board_io.scanner import Scanner
from board_io.sensors.base import SensorMatrix

__all__ = [
    "BUTTON_BACKEND", "BUTTON_BACKENDS", "DISPLAY_BACKEND", "DISPLAY_BACKENDS", "LED_BACKEND",
    "LED_BACKENDS", "OPTIONS", "SENSOR_BACKEND", "SENSOR_BACKENDS", "BackendContext",
    "create_buttons", "create_display", "create_leds", "create_scanner", "create_sensors",
]

SENSOR_BACKENDS: Mapping[str, str] = MappingProxyType({
    "sim": "board_io.sim.backends:sim_sensors",
    "gpio-matrix": "board_io.sensors.gpio_matrix:GpioMatrix",
    "shift-register": "board_io.sensors.shift_register:ShiftRegisterChain",
    "serial": "board_io.sensors.serial_mcu:SerialSensors",
})
LED_BACKENDS: Mapping[str, str] = MappingProxyType({
    "sim": "board_io.sim.backends:sim_leds",
    "none": "board_io.sim.backends:no_leds",
    "ws2812-spi": "board_io.leds.ws2812_spi:Ws2812Spi",
    "max7219": "board_io.leds.max7219:Max7219",
    "serial": "board_io.leds.serial_mcu:SerialLeds",
})
BUTTON_BACKENDS: Mapping[str, str] = MappingProxyType({
    "sim": "board_io.sim.backends:sim_buttons",
    "none": "board_io.sim.backends:no_buttons",
    "gpio": "board_io.buttons.gpio:GpioButtons",
    "serial": "board_io.buttons.serial_mcu:SerialButtons",
})
DISPLAY_BACKENDS: Mapping[str, str] = MappingProxyType({
    "none": "board_io.sim.backends:no_display",
    "sim": "board_io.sim.backends:sim_display",
    "max7219": "board_io.display.seven_segment:SevenSegment",
    "ssd1306": "board_io.display.oled:Oled",
    "sh1106": "board_io.display.oled:sh1106",
})

SENSOR_BACKEND = Option("board.sensors", "str", "sim", "Sensor backend.",
                        choices=tuple(SENSOR_BACKENDS), readers=("registry",))
LED_BACKEND = Option("board.leds", "str", "sim", "LED backend.", choices=tuple(LED_BACKENDS),
                     readers=("registry",))
BUTTON_BACKEND = Option("board.buttons", "str", "sim", "Button backend.",
                        choices=tuple(BUTTON_BACKENDS), readers=("registry",))
DISPLAY_BACKEND = Option(
    "clock.display", "str", "none",
    "The clock display players read (both times, the side to move, a flag fall, a pause): "
    "max7219 (an 8-digit 7-segment module on SPI), ssd1306 or sh1106 (a 128x64 OLED on I2C), "
    "sim, none. docs/hardware.md.", choices=tuple(DISPLAY_BACKENDS), readers=("registry",))

#: Every key board_io reads: the backend names, then :data:`board_io.schema.OPTIONS`.
OPTIONS: tuple[Option[Any], ...] = (SENSOR_BACKEND, LED_BACKEND, BUTTON_BACKEND,
                                    DISPLAY_BACKEND, *schema.OPTIONS)


def _resolve(kind: str, option: Option[str], name: str, table: Mapping[str, str]
             ) -> Callable[..., Any]:
    target = table.get(name)
    if target is None:
        known = ", ".join(sorted(table))
        raise ConfigError(option.path, f"unknown {kind} backend {name!r}; known: {known}")
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        if missing.split(".")[0] in ("board_io", "engine", "firmware_host"):
            raise BoardIOError(f"the {kind} backend {name!r} is not available ({exc})") from exc
        raise MissingExtraError(name, missing) from exc
    built: Callable[..., Any] = getattr(module, attribute)
    return getattr(built, "from_config", built)


def _create(kind: str, option: Option[str], table: Mapping[str, str], expected: type,
            config: ConfigSource, context: BackendContext) -> Any:
    name = read(config, option)
    backend = _resolve(kind, option, name, table)(config, context)
    if not isinstance(backend, expected):
        raise TypeError(f"{kind} backend {name!r} built a {type(backend).__name__}, "
                        f"not a {expected.__name__}")
    return backend


def create_sensors(config: ConfigSource, context: BackendContext) -> SensorMatrix:
    """Build the sensor backend named by ``board.sensors``.

    Raises:
        ConfigError: unknown backend name (the message lists the known ones) or a bad option.
        MissingExtraError: the backend's library is not installed.
    """
    sensors: SensorMatrix = _create("sensor", SENSOR_BACKEND, SENSOR_BACKENDS, SensorMatrix,
                                    config, context)
    return sensors


def create_leds(config: ConfigSource, context: BackendContext) -> LedMatrix:
    """Build the LED backend named by ``board.leds`` (see :func:`create_sensors`)."""
    leds: LedMatrix = _create("LED", LED_BACKEND, LED_BACKENDS, LedMatrix, config, context)
    return leds


def create_buttons(config: ConfigSource, context: BackendContext) -> Buttons:
    """Build the button backend named by ``board.buttons`` (see :func:`create_sensors`)."""
    buttons: Buttons = _create("button", BUTTON_BACKEND, BUTTON_BACKENDS, Buttons, config,
                               context)
    return buttons


def create_display(config: ConfigSource, context: BackendContext) -> Display:
    """Build the clock display named by ``clock.display`` (see :func:`create_sensors`)."""
    display: Display = _create("display", DISPLAY_BACKEND, DISPLAY_BACKENDS, Display, config,
                               context)
    return display


def create_scanner(config: ConfigSource, layout: Layout, sensors: SensorMatrix,
                   buttons: Buttons | None = None) -> Scanner:
    """Build the scanner: cell map from ``board.cell_map``/``board.transform``, debouncing from
    ``timing.debounce_ms`` and ``timing.stuck_ms`` (declared in :mod:`board_io.schema`).

    Raises:
        ConfigError: a bad value, named by its key.
    """
    cell_map = CellMap.from_config(config, layout, sensors.rows, sensors.cols)
    return Scanner(sensors, cell_map, debounce_ms=read(config, schema.DEBOUNCE_MS),
                   stuck_ms=read(config, schema.STUCK_MS), buttons=buttons)
