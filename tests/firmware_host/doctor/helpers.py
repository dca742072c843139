"""A fake machine for the doctor's checks: a /dev and /proc tree in a temporary directory."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from firmware_host.doctor.system import Node, System

PI_DEVICES = """Character devices:
  1 mem
  4 tty
 89 i2c
153 spi
166 ttyACM
188 ttyUSB
254 gpiochip

Block devices:
  8 sd
"""

GROUP_IDS = {"gpio": 997, "spi": 999, "dialout": 20, "root": 0}


class FakeMachine:
    """Nodes by path, the service user's groups, /proc/devices: all editable by a test."""

    def __init__(self, root: Path) -> None:
        self.dev = root / "dev"
        self.proc = root / "proc"
        self.run = root / "run"
        for directory in (self.dev, self.proc, self.run):
            directory.mkdir(parents=True)
        (self.proc / "devices").write_text(PI_DEVICES)
        self.nodes: dict[str, Node] = {}
        self.user_groups: frozenset[str] | None = frozenset({"draughtsboard", "gpio",
                                                            "dialout", "spi", "i2c"})
        self.groups = {"draughtsboard", "gpio", "dialout", "spi", "i2c"}

    def add(self, name: str, major: int, group: str = "gpio", mode: int = 0o660, *,
            char: bool = True, target: str | None = None) -> None:
        """A node /dev/<name> (created as a plain file so that globs find it)."""
        path = self.dev / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
        self.nodes[str(path)] = Node(target or f"/dev/{name}", char, major, 0,
                                     GROUP_IDS[group], mode)

    def system(self) -> System:
        def groups_of(user: str) -> tuple[int, frozenset[str]] | None:
            return None if self.user_groups is None else (500, self.user_groups)

        return System(
            dev=self.dev, proc=self.proc, run=self.run, unit_dropin=self.run / "dropin.conf",
            node=lambda path: self.nodes.get(str(path)), groups_of=groups_of,
            has_group=lambda name: name in self.groups,
            name_of_group={v: k for k, v in GROUP_IDS.items()}.__getitem__,
            pin_factory=lambda backend: object(), ntp=lambda: "yes",
            disk_free=lambda path: 10**10, resolve=lambda host: [])


def with_(system: System, **changes: object) -> System:
    return replace(system, **changes)  # type: ignore[arg-type]
