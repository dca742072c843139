"""A durable on-disk queue of Redis writes made while Redis was unreachable.

One JSON object per line, appended and fsynced before :meth:`Spool.append` returns, so a move is
as durable in the spool as in Redis with ``appendfsync always``. A line cut short by a power loss is
reported and skipped on reading; the lines before it are kept.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


class Spool:
    """Append-only file of pending writes for one board.

    >>> import tempfile
    >>> spool = Spool(Path(tempfile.mkdtemp()) / "board1.jsonl")
    >>> spool.append({"cmd": "publish", "channel": "c", "message": "m"})
    >>> [entry["cmd"] for entry in spool.entries()]
    ['publish']
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._memory: list[dict[str, Any]] = []

    def append(self, entry: dict[str, Any]) -> None:
        """Append one write and make it durable (falls back to memory if the disk fails)."""
        line = json.dumps(entry, separators=(",", ":")) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
            try:
                os.write(fd, line.encode())
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            # Keep playing: the entry waits in memory, and the loss of the disk is logged once.
            if not self._memory:
                log.error("spool %s unwritable (%s): keeping pending writes in memory",
                          self.path, exc.strerror)
            self._memory.append(entry)

    def entries(self) -> list[dict[str, Any]]:
        """Every pending write, oldest first (disk, then memory)."""
        found: list[dict[str, Any]] = []
        try:
            lines = self.path.read_text().splitlines()
        except FileNotFoundError:
            lines = []
        except OSError as exc:
            log.error("spool %s unreadable: %s", self.path, exc.strerror)
            lines = []
        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
            except ValueError:
                log.warning("spool %s line %d is cut short or corrupt: skipped", self.path, number)
                continue
            if isinstance(entry, dict):
                found.append(entry)
        return found + list(self._memory)

    def __len__(self) -> int:
        return len(self.entries())

    def clear(self) -> None:
        """Forget every pending write (after they reached Redis)."""
        self._memory.clear()
        self.path.unlink(missing_ok=True)
