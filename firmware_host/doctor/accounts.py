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
from firmware_host.i18n import N_

__all__ = ["check_user"]


def check_user(system: System) -> Check:
    """PASS when the user exists, every device group exists and the user is in each."""
    name = N_("the service user and its groups")
    user = system.user
    wanted = sorted({c.group for c in unit_device_classes()})
    found = system.groups_of(user)
    if found is None:
        return Check.said(name, False, N_("no user {user}"),
                          N_("sudo systemd/install.sh (it creates the user and its groups)"),
                          user=repr(user))
    missing_groups = [group for group in wanted if not system.has_group(group)]
    if missing_groups:
        return Check.said(name, False, N_("no group {groups}"),
                          N_("sudo groupadd --system {group} (or re-run install.sh)"),
                          groups=", ".join(missing_groups), group=missing_groups[0])
    _, groups = found
    absent = [group for group in wanted if group not in groups]
    if absent:
        return Check.said(name, False, N_("{user} is not in {groups}"),
                          "sudo usermod -a -G {joined} {user}", user=user,
                          groups=", ".join(absent), joined=",".join(absent))
    return Check.said(name, True, N_("{user} in {groups}"), user=user, groups=" ".join(wanted))
