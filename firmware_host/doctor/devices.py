"""Doctor checks: the device nodes of the configured backends, and SPI and I2C enabled.

Each node a configured backend opens (:func:`board_io.devices.needs`) must exist, be a
character device of the right class (by its major, as ``/proc/devices`` names it: the class the
unit's ``DeviceAllow=`` lets through) and be readable and writable by the service user with the
unit's supplementary groups.
"""

from __future__ import annotations

from pathlib import Path

from board_io.devices import I2C, SPI, DeviceClass, Need, needs, unit_device_classes
from board_io.options import ConfigSource
from firmware_host.doctor.report import Check
from firmware_host.doctor.system import Node, System
from firmware_host.i18n import N_

__all__ = ["check_bus_enabled", "check_devices"]


def _class_of(node: Node, classes: tuple[DeviceClass, ...], majors: dict[int, str]) -> bool:
    name = majors.get(node.major)
    return any(c.name == name or (c.major is not None and c.major == node.major)
               for c in classes)


def _may_open(system: System, node: Node) -> bool:
    found = system.groups_of(system.user)
    uid, groups = found if found is not None else (-1, frozenset[str]())
    groups = groups | {c.group for c in unit_device_classes()}  # SupplementaryGroups=
    return ((node.mode & 0o006) == 0o006
            or (node.uid == uid and (node.mode & 0o600) == 0o600)
            or (system.name_of_group(node.gid) in groups and (node.mode & 0o060) == 0o060))


def _check_node(system: System, need: Need, path: Path, shown: str,
                majors: dict[int, str]) -> Check:
    name = "{node} ({backend}: {why})"
    said = {"node": shown, "backend": need.backend, "why": need.why}
    kinds = "/".join(c.name for c in need.classes)
    node = system.node(path)
    if node is None:
        return Check.said(name, False, N_("missing"), "{enable}", **said,
                          enable=need.classes[0].enable)
    if not node.char or not _class_of(node, need.classes, majors):
        if node.char:
            kind = majors.get(node.major, "unknown")
            detail = N_("{path} is {kind} (major {major}), not {kinds}: the unit's sandbox "
                        "refuses it")
        else:
            kind = ""
            detail = N_("{path} is not a character device (major {major}), not {kinds}: the "
                        "unit's sandbox refuses it")
        return Check.said(name, False, detail, N_("point the config at the {kinds} device"),
                          **said, path=str(node.path), kind=kind, major=str(node.major),
                          kinds=kinds)
    group_name, mode = str(system.name_of_group(node.gid)), f"{node.mode:04o}"
    if not _may_open(system, node):
        return Check.said(name, False, N_("{path} is {group} {mode}: {user} cannot open it"),
                          N_("install systemd/99-draughtsboard.rules (install.sh does) and "
                             "replug or reboot; now: sudo chgrp {wanted} {path} && sudo chmod "
                             "0660 {path}"),
                          **said, path=str(node.path), group=group_name, mode=mode,
                          user=system.user, wanted=need.classes[0].group)
    return Check.said(name, True, "{path}: {kinds}, {group} {mode}", **said,
                      path=str(node.path), kinds=kinds, group=group_name, mode=mode)


def check_devices(config: ConfigSource, system: System) -> list[Check]:
    """One check per device node the configured backends open (none for sim boards)."""
    majors = system.proc_devices()
    checks: list[Check] = []
    for need in needs(config):
        pattern = system.dev_path(need.node)
        if "*" in need.node:
            found = sorted(pattern.parent.glob(pattern.name))
            if not found:
                checks.append(Check.said("{node} ({backend}: {why})", False, N_("none found"),
                                         "{enable}", node=need.node, backend=need.backend,
                                         why=need.why, enable=need.classes[0].enable))
            checks += [_check_node(system, need, path, f"/dev/{path.name}", majors)
                       for path in found]
        else:
            checks.append(_check_node(system, need, pattern, need.node, majors))
    if not checks:
        checks.append(Check.said(N_("device nodes"), True,
                                 N_("the configured backends open none")))
    return checks


def check_bus_enabled(config: ConfigSource, system: System, bus: DeviceClass) -> Check:
    """SPI or I2C (``bus``) enabled in the kernel, when a configured backend needs it."""
    label = {SPI.name: "SPI", I2C.name: "I2C"}.get(bus.name, bus.name)
    name = N_("{label} is enabled")
    users = sorted({n.backend for n in needs(config) if bus in n.classes})
    said = {"label": label, "bus": bus.name, "users": ", ".join(users)}
    if not users:
        return Check.said(name, True, N_("not needed by the configured backends"), **said)
    if bus.name in system.proc_devices().values():
        return Check.said(name, True, N_("the kernel has {bus} devices (for {users})"), **said)
    return Check.said(name, False, N_("{users} need it; the kernel lists no {bus} devices"),
                      "{enable}", **said, enable=bus.enable)
