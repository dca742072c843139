"""The unit's sandbox allows exactly the device classes the backends open (board_io.devices)."""

from __future__ import annotations

from pathlib import Path

from board_io.devices import CLASSES, backend_classes, unit_device_classes
from board_io.registry import BUTTON_BACKENDS, DISPLAY_BACKENDS, LED_BACKENDS, SENSOR_BACKENDS

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "draughtsboard.service"


def unit_lines(prefix: str) -> list[str]:
    return [line.removeprefix(prefix) for line in UNIT.read_text().splitlines()
            if line.startswith(prefix)]


def test_device_allow_lines_are_the_backends_classes() -> None:
    allowed = sorted(unit_lines("DeviceAllow="))
    assert allowed == sorted(f"char-{c.name} rw" for c in unit_device_classes())


def test_supplementary_groups_are_the_classes_groups() -> None:
    (groups,) = unit_lines("SupplementaryGroups=")
    assert sorted(groups.split()) == sorted({c.group for c in unit_device_classes()})


def test_every_hardware_backend_declares_its_devices() -> None:
    declared = backend_classes()
    tables = {"sensors": SENSOR_BACKENDS, "leds": LED_BACKENDS, "buttons": BUTTON_BACKENDS,
              "display": DISPLAY_BACKENDS}
    for kind, table in tables.items():
        for name in table:
            if name in ("sim", "none"):
                assert (kind, name) not in declared
            else:
                assert declared[(kind, name)], (kind, name)
    assert set(declared) <= {(kind, name) for kind, table in tables.items() for name in table}


def test_class_names_are_those_of_proc_devices() -> None:
    # The kernel registers spidev's major 153 as "spi" (drivers/spi/spidev.c), i2c-dev's 89 as
    # "i2c", the CDC ACM driver's 166 as "ttyACM", usb-serial's 188 as "ttyUSB".
    assert {(c.name, c.major) for c in CLASSES} == {
        ("gpiochip", None), ("spi", 153), ("i2c", 89), ("ttyACM", 166), ("ttyUSB", 188)}
