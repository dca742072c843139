"""Doctor check: the clock is set by NTP.

A Raspberry Pi has no battery-backed clock: until NTP sets it, every game's date and every
event's time is wrong. systemd-timesyncd marks a synchronised clock with
``/run/systemd/timesync/synchronized``; ``timedatectl`` says the same for any NTP client.
"""

from __future__ import annotations

from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System

__all__ = ["check_clock"]


def check_clock(system: System) -> Check:
    """PASS when the clock is NTP-synchronised."""
    name = "the clock is set"
    if (system.run / "systemd" / "timesync" / "synchronized").exists():
        return Check(name, True, "synchronised by systemd-timesyncd")
    answer = system.ntp()
    if answer == "yes":
        return Check(name, True, "NTP synchronised (timedatectl)")
    detail = ("not NTP synchronised (timedatectl)" if answer is not None
              else "no NTP synchronisation found (no timedatectl, no timesyncd mark)")
    return Check(name, False, detail,
                 "sudo timedatectl set-ntp true (systemd-timesyncd) and give the Pi a network; "
                 "a board without network keeps a wrong date in its games")
