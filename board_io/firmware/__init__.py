"""Firmware shipped with draughtsboard, as package data (not imported by the service).

``pico/`` is the reference MicroPython firmware for a Raspberry Pi Pico (RP2040): it scans a
reed/hall switch matrix, drives WS2812 LEDs through the PIO, reads buttons and speaks the
serial protocol of ``docs/serial-protocol.md``. ``draughtsboard firmware install`` copies it
to a board with ``mpremote``. :func:`pico_files` lists the files to copy.

Example:
    >>> sorted(p.name for p in pico_files())[:3]
    ['db_buttons.py', 'db_firmware.py', 'db_hw.py']
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PICO_DIR", "SETTINGS_FILE", "pico_files"]

PICO_DIR = Path(__file__).resolve().parent / "pico"
SETTINGS_FILE = "settings.py"  # the one file a builder edits (pins, board size)


def pico_files() -> list[Path]:
    """Return the firmware's files, in copy order (``main.py`` last, so a half copy never boots).

    Example:
        >>> pico_files()[-1].name
        'main.py'
    """
    files = sorted(p for p in PICO_DIR.glob("*.py") if p.name != "main.py")
    return [*files, PICO_DIR / "main.py"]
