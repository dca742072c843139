"""Doctor check: a GPIO pin factory loads, when a configured backend drives GPIO pins."""

from __future__ import annotations

from board_io.devices import GPIOCHIP, needs
from board_io.errors import BoardIOError, MissingExtraError
from board_io.options import ConfigSource
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System
from firmware_host.i18n import N_

__all__ = ["check_pin_factory"]


def check_pin_factory(config: ConfigSource, system: System) -> Check:
    """PASS when gpiozero loads a pin factory (lgpio on a Pi), or no backend needs one."""
    name = N_("a GPIO pin factory loads")
    users = sorted({n.backend for n in needs(config) if GPIOCHIP in n.classes})
    if not users:
        return Check.said(name, True, N_("not needed by the configured backends"))
    try:
        factory = system.pin_factory(users[0])
    except MissingExtraError as exc:
        return Check.said(name, False, "{error}",
                          N_("re-run sudo systemd/install.sh (it installs the [pi] extra's "
                             "lgpio)"), error=str(exc))
    except BoardIOError as exc:
        return Check.said(name, False, "{error}",
                          N_("run on the Raspberry Pi itself, with /dev/gpiochip* present"),
                          error=str(exc).removesuffix(" (run `draughtsboard doctor`)"))
    return Check.said(name, True, N_("{factory} (for {backends})"),
                      factory=type(factory).__name__, backends=", ".join(users))
