"""A stand-in for the ``spidev`` module (Pi-only), to build SPI backends from config in tests.

Install it with ``monkeypatch.setitem(sys.modules, "spidev", fake_spidev.module(...))``.
"""

from __future__ import annotations

import types
from typing import ClassVar


class SpiDev:
    """Records what a backend does with ``/dev/spidevB.D``; reads return ``fill`` bytes."""

    fill = 0xFF
    opened: ClassVar[list[SpiDev]] = []  # replaced per test by module()

    def __init__(self) -> None:
        self.bus_device: tuple[int, int] | None = None
        self.max_speed_hz = 0
        self.mode = 0
        self.written: list[bytes] = []
        self.closed = False
        type(self).opened.append(self)

    def open(self, bus: int, device: int) -> None:
        self.bus_device = (bus, device)

    def readbytes(self, n: int) -> list[int]:
        return [self.fill] * n

    def writebytes(self, data: list[int]) -> None:
        self.written.append(bytes(data))

    def writebytes2(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def module(fill: int = 0xFF) -> types.ModuleType:
    """Return a fresh fake ``spidev`` module whose ``SpiDev.opened`` lists the devices made."""
    spidev = types.ModuleType("spidev")
    device_class = type("SpiDev", (SpiDev,), {"fill": fill, "opened": []})
    spidev.SpiDev = device_class  # type: ignore[attr-defined]
    return spidev
