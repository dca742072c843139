"""Doctor checks: free space where the PDN files and the spool are written."""

from __future__ import annotations

from pathlib import Path

from firmware_host.doctor.report import Check
from firmware_host.doctor.system import System

__all__ = ["MIN_FREE", "check_free_space"]

MIN_FREE = 50 * 1024 * 1024
"""Bytes a board needs free: a PDN file is a few kB, but a full disk stops every write."""


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_free_space(label: str, directory: str, system: System) -> Check:
    """PASS when the file system of ``directory`` (or its nearest existing parent) has room."""
    name = f"free space for {label}"
    where = _existing(Path(directory))
    try:
        free = system.disk_free(where)
    except OSError as exc:
        return Check(name, False, f"{directory}: {exc.strerror}", f"create {directory}")
    detail = f"{directory}: {free // (1024 * 1024)} MB free"
    if free < MIN_FREE:
        return Check(name, False, f"{detail} (needs {MIN_FREE // (1024 * 1024)} MB)",
                     f"free space on the file system of {where} (sudo apt-get clean, "
                     "sudo journalctl --vacuum-size=50M)")
    return Check(name, True, detail)
