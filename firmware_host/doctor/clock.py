"""Doctor check: the clock is set by NTP.

A Raspberry Pi has no battery-backed clock: until NTP sets it, every game's date and every
event's time is wrong. systemd-timesyncd marks a synchronised clock with
``/run/systemd/timesync/synchronized``; ``timedatectl`` says the same for any NTP client.
"""

from __future__ import annotations

from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System
from firmware_host.i18n import N_

__all__ = ["check_clock"]


def check_clock(system: System) -> Check:
    """PASS when the clock is NTP-synchronised."""
    name = N_("the clock is set")
    if (system.run / "systemd" / "timesync" / "synchronized").exists():
        return Check.said(name, True, N_("synchronised by systemd-timesyncd"))
    answer = system.ntp()
    if answer == "yes":
        return Check.said(name, True, N_("NTP synchronised (timedatectl)"))
    detail = (N_("not NTP synchronised (timedatectl)") if answer is not None
              else N_("no NTP synchronisation found (no timedatectl, no timesyncd mark)"))
    return Check.said(name, False, detail,
                      N_("sudo timedatectl set-ntp true (systemd-timesyncd) and give the Pi a "
                         "network; a board without network keeps a wrong date in its games"))
