"""Doctor check: a GPIO pin factory loads, when a configured backend drives GPIO pins."""

from __future__ import annotations

from board_io.devices import GPIOCHIP, needs
from board_io.errors import BoardIOError, MissingExtraError
from board_io.options import ConfigSource
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System

__all__ = ["check_pin_factory"]


def check_pin_factory(config: ConfigSource, system: System) -> Check:
    """PASS when gpiozero loads a pin factory (lgpio on a Pi), or no backend needs one."""
    name = "a GPIO pin factory loads"
    users = sorted({n.backend for n in needs(config) if GPIOCHIP in n.classes})
    if not users:
        return Check(name, True, "not needed by the configured backends")
    try:
        factory = system.pin_factory(users[0])
    except MissingExtraError as exc:
        return Check(name, False, str(exc),
                     "re-run sudo systemd/install.sh (it installs the [pi] extra's lgpio)")
    except BoardIOError as exc:
        return Check(name, False, str(exc).removesuffix(" (run `draughtsboard doctor`)"),
                     "run on the Raspberry Pi itself, with /dev/gpiochip* present")
    return Check(name, True, f"{type(factory).__name__} (for {', '.join(users)})")
