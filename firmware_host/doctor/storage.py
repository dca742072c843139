"""Doctor checks: free space where the PDN files and the spool are written."""

from __future__ import annotations

from pathlib import Path

from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System
from firmware_host.i18n import N_

__all__ = ["MIN_FREE", "check_free_space"]

MIN_FREE = 50 * 1024 * 1024
"""Bytes a board needs free: a PDN file is a few kB, but a full disk stops every write."""


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


#: The check's name per ``label`` (what is written there).
NAMES = {"games": N_("free space for games"), "the spool": N_("free space for the spool")}


def check_free_space(label: str, directory: str, system: System) -> Check:
    """PASS when the file system of ``directory`` (or its nearest existing parent) has room."""
    name = NAMES.get(label, "free space for {label}")
    where = _existing(Path(directory))
    try:
        free = system.disk_free(where)
    except OSError as exc:
        return Check.said(name, False, "{directory}: {error}", N_("create {directory}"),
                          label=label, directory=directory, error=str(exc.strerror))
    mb = str(free // (1024 * 1024))
    if free < MIN_FREE:
        return Check.said(
            name, False, N_("{directory}: {mb} MB free (needs {needed} MB)"),
            N_("free space on the file system of {where} (sudo apt-get clean, "
               "sudo journalctl --vacuum-size=50M)"),
            label=label, directory=directory, mb=mb, needed=str(MIN_FREE // (1024 * 1024)),
            where=str(where))
    return Check.said(name, True, N_("{directory}: {mb} MB free"), label=label,
                      directory=directory, mb=mb)
