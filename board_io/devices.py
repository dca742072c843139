"""Which device nodes each hardware backend opens, by the device class the kernel names.

One table for two readers: the systemd unit's sandbox (``DevicePolicy=closed`` plus one
``DeviceAllow=char-<class> rw`` per class here; a test keeps the two in agreement) and
``draughtsboard doctor`` (checks the nodes of the configured backends exist and the service user
may open them). Class names are those of ``/proc/devices``: the kernel registers spidev's major
153 as ``spi``, not ``spidev``.

Example:
    >>> [(need.node, need.classes[0].name) for need in needs({"board.leds": "ws2812-spi"})]
    [('/dev/spidev0.0', 'spi')]
    >>> sorted(c.name for c in unit_device_classes())
    ['gpiochip', 'i2c', 'spi', 'ttyACM', 'ttyUSB']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from board_io.options import ConfigSource

__all__ = ["CLASSES", "GPIOCHIP", "I2C", "SPI", "TTY_ACM", "TTY_USB", "DeviceClass", "Need",
           "backend_classes", "needs", "unit_device_classes"]


@dataclass(frozen=True)
class DeviceClass:
    """A class of character devices: its ``/proc/devices`` name, the group that owns its nodes
    on Raspberry Pi OS (and by ``systemd/99-draughtsboard.rules``), and how to make them appear."""

    name: str
    major: int | None
    """Fixed major number, or None when the kernel assigns one (gpiochip)."""
    group: str
    enable: str


GPIOCHIP = DeviceClass("gpiochip", None, "gpio",
                       "the GPIO driver is in every Raspberry Pi kernel: check that this is a Pi "
                       "and that /dev/gpiochip* exists")
SPI = DeviceClass("spi", 153, "spi",
                  "enable SPI: sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in "
                  "/boot/firmware/config.txt), then reboot")
I2C = DeviceClass("i2c", 89, "i2c",
                  "enable I2C: sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in "
                  "/boot/firmware/config.txt), then reboot")
TTY_ACM = DeviceClass("ttyACM", 166, "dialout",
                      "plug in the microcontroller (USB CDC: RP2040, Arduino Uno) and check "
                      "its vendor:product id in /etc/udev/rules.d/99-draughtsboard.rules")
TTY_USB = DeviceClass("ttyUSB", 188, "dialout",
                      "plug in the microcontroller (USB-serial: CH340, FTDI) and check its "
                      "vendor:product id in /etc/udev/rules.d/99-draughtsboard.rules")
CLASSES = (GPIOCHIP, SPI, I2C, TTY_ACM, TTY_USB)
"""Every class a Pi board may use (I2C: the OLED clock display)."""


@dataclass(frozen=True)
class Need:
    """A node a backend opens: an exact path or a ``/dev`` glob, of one of ``classes``."""

    backend: str
    node: str
    classes: tuple[DeviceClass, ...]
    why: str


def _get(config: ConfigSource, key: str, default: object) -> object:
    """``config[key]``, or ``default`` when absent (values were validated by the loader)."""
    try:
        return config[key]
    except KeyError:
        return default


def _spi(section: str) -> Callable[[ConfigSource, str], tuple[Need, ...]]:
    def spi(config: ConfigSource, backend: str) -> tuple[Need, ...]:
        bus = _get(config, f"{section}.spi_bus", 0)
        device = _get(config, f"{section}.spi_device", 0)
        return (Need(backend, f"/dev/spidev{bus}.{device}", (SPI,), "the SPI bus"),)
    return spi


def _gpio(config: ConfigSource, backend: str) -> tuple[Need, ...]:
    return (Need(backend, "/dev/gpiochip*", (GPIOCHIP,), "GPIO pins (lgpio)"),)


def _shift_register(config: ConfigSource, backend: str) -> tuple[Need, ...]:
    use_spi = bool(_get(config, "shift_register.use_spi", True))
    spi = _spi("shift_register")(config, backend) if use_spi else ()
    return _gpio(config, backend) + spi


def _i2c(config: ConfigSource, backend: str) -> tuple[Need, ...]:
    port = _get(config, "clock.display_i2c_port", 1)
    return (Need(backend, f"/dev/i2c-{port}", (I2C,), "the I2C bus of the clock display"),)


def _display_spi(config: ConfigSource, backend: str) -> tuple[Need, ...]:
    bus = _get(config, "clock.display_spi_bus", 0)
    device = _get(config, "clock.display_spi_device", 1)
    return (Need(backend, f"/dev/spidev{bus}.{device}", (SPI,), "the SPI bus of the clock "
                 "display"),)


def _serial(config: ConfigSource, backend: str) -> tuple[Need, ...]:
    port = str(_get(config, "serial.port", "/dev/serial/by-id/draughtsboard"))
    if not port.startswith("/dev/"):
        return ()  # loop://, socket://, a pty elsewhere: no device node
    return (Need(backend, port, (TTY_ACM, TTY_USB), "the microcontroller's USB serial port"),)


_NEEDS: Mapping[tuple[str, str], Callable[[ConfigSource, str], tuple[Need, ...]]] = {
    ("sensors", "gpio-matrix"): _gpio,
    ("sensors", "shift-register"): _shift_register,
    ("sensors", "serial"): _serial,
    ("leds", "ws2812-spi"): _spi("leds"),
    ("leds", "max7219"): _spi("leds"),
    ("leds", "serial"): _serial,
    ("buttons", "gpio"): _gpio,
    ("buttons", "serial"): _serial,
    ("display", "max7219"): _display_spi,
    ("display", "ssd1306"): _i2c,
    ("display", "sh1106"): _i2c,
}
"""(kind, backend name) -> its needs; a backend absent here (sim, none) opens no device."""

_FULL_CONFIG: Mapping[str, object] = {"shift_register.use_spi": True,
                                      "serial.port": "/dev/ttyACM0"}


def needs(config: ConfigSource) -> tuple[Need, ...]:
    """The device nodes the backends chosen in ``config`` open, in sensors, LEDs, buttons,
    display order.

    Example:
        >>> [n.node for n in needs({"board.sensors": "shift-register", "board.buttons": "gpio"})]
        ['/dev/gpiochip*', '/dev/spidev0.0', '/dev/gpiochip*']
    """
    found: list[Need] = []
    for kind in ("sensors", "leds", "buttons", "display"):
        key = "clock.display" if kind == "display" else f"board.{kind}"
        backend = str(_get(config, key, "none" if kind == "display" else "sim"))
        rule = _NEEDS.get((kind, backend))
        if rule is not None:
            found.extend(rule(config, backend))
    return tuple(found)


def backend_classes() -> dict[tuple[str, str], frozenset[str]]:
    """Every backend that opens devices -> the names of the classes it may open."""
    return {key: frozenset(c.name for need in rule(_FULL_CONFIG, key[1]) for c in need.classes)
            for key, rule in _NEEDS.items()}


def unit_device_classes() -> frozenset[DeviceClass]:
    """The classes the unit must allow: every class some backend may open."""
    return frozenset(c for key, rule in _NEEDS.items()
                     for need in rule(_FULL_CONFIG, key[1]) for c in need.classes)
