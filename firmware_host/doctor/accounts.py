"""Doctor check: the service user exists and is in the groups that own the board's devices.

The unit runs the service as ``draughtsboard`` with ``SupplementaryGroups=`` the groups of
:func:`board_io.devices.unit_device_classes` (gpio, dialout, spi): each must exist, or systemd
refuses to start it, and the user should be in them, so that ``calibrate`` and ``selftest`` run
as that user reach the same devices.
"""

from __future__ import annotations

from board_io.devices import unit_device_classes
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System

__all__ = ["check_user"]


def check_user(system: System) -> Check:
    """PASS when the user exists, every device group exists and the user is in each."""
    name = "the service user and its groups"
    wanted = sorted({c.group for c in unit_device_classes()})
    found = system.groups_of(system.user)
    if found is None:
        return Check(name, False, f"no user {system.user!r}",
                     "sudo systemd/install.sh (it creates the user and its groups)")
    missing_groups = [group for group in wanted if not system.has_group(group)]
    if missing_groups:
        return Check(name, False, f"no group {', '.join(missing_groups)}",
                     f"sudo groupadd --system {missing_groups[0]} (or re-run install.sh)")
    _, groups = found
    absent = [group for group in wanted if group not in groups]
    if absent:
        return Check(name, False, f"{system.user} is not in {', '.join(absent)}",
                     f"sudo usermod -a -G {','.join(absent)} {system.user}")
    return Check(name, True, f"{system.user} in {' '.join(wanted)}")
