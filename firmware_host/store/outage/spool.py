"""A durable on-disk queue of Redis writes made while Redis was unreachable.

One JSON object per line, appended (and fsynced, for records) before :meth:`Spool.append` returns,
so a move is as durable in the spool as in Redis with ``appendfsync always``.

The spool keeps **one order whatever the disk does**: every entry carries its place in the
sequence (``n``, within the spool's ``epoch``). While the disk refuses writes (full, read-only,
gone) entries wait in memory, and every later entry waits behind them: nothing is written to disk
out of turn, and the waiting entries go to disk, oldest first, with the first write that succeeds.
A write the disk cut short is cut off again, so the file never holds half a line followed by more.
A line cut short by a power loss is reported and skipped on reading; the lines before it are kept.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Required, TypedDict

log = logging.getLogger(__name__)

#: How the spool writes to its file: ``writer(fd, data)`` writes all of ``data`` or raises
#: OSError (tests inject a full disk here).
Writer = Callable[[int, bytes], None]


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (``os.write`` may write fewer).

    Raises:
        OSError: the disk refused (ENOSPC, EIO, EROFS, ...).
    """
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class SpooledCommand(TypedDict, total=False):
    """One Redis command of a spooled transaction: its name, positional and keyword arguments
    (a :data:`~.client.Command` as JSON data)."""

    cmd: Required[str]
    args: list[object]
    kwargs: dict[str, object]


class SpoolLine(TypedDict):
    """One line of the spool file: a transaction's epoch, place in the sequence and commands."""

    e: str
    n: int
    tx: list[SpooledCommand]


@dataclass(frozen=True)
class SpoolEntry:
    """One pending transaction: its place in the sequence and its commands."""

    epoch: str
    n: int
    commands: list[SpooledCommand]

    def to_json(self) -> SpoolLine:
        """The entry as one line of the spool file."""
        return {"e": self.epoch, "n": self.n, "tx": self.commands}


class Spool:
    """Append-only file of pending transactions for one board.

    >>> import tempfile
    >>> spool = Spool(Path(tempfile.mkdtemp()) / "board1.jsonl")
    >>> spool.append([{"cmd": "publish", "args": ["c", "m"]}])
    >>> [(entry.n, entry.commands[0]["cmd"]) for entry in spool.entries()]
    [(1, 'publish')]
    """

    def __init__(self, path: Path, writer: Writer = write_all,
                 fsync: Callable[[int], None] = os.fsync) -> None:
        self.path = path
        self._writer = writer
        self._fsync = fsync
        self._memory: list[SpoolEntry] = []
        self._reported: set[int] = set()  # damaged lines already logged (once each)
        on_disk = self._read()
        self.epoch = on_disk[-1].epoch if on_disk else secrets.token_hex(4)
        self._last_n = on_disk[-1].n if on_disk else 0

    @property
    def in_memory(self) -> int:
        """How many entries wait in memory because the disk refused them (0 normally)."""
        return len(self._memory)

    def append(self, commands: list[SpooledCommand], sync: bool = True) -> None:
        """Append one transaction, after every earlier one; durable on return when ``sync``.

        ``sync=False`` (live events) skips the fsync: the entry becomes durable with the next
        synced one. If the disk refuses, the entry waits in memory, in order (logged once).
        """
        self._last_n += 1
        self._memory.append(SpoolEntry(self.epoch, self._last_n, commands))
        self._write_waiting(sync)

    def _write_waiting(self, sync: bool) -> None:
        data = "".join(json.dumps(e.to_json(), separators=(",", ":")) + "\n"
                       for e in self._memory).encode()
        was_waiting = len(self._memory) > 1
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o640)
            try:
                self._append_fd(fd, data, sync)
            finally:
                os.close(fd)
        except OSError as exc:
            if not was_waiting:
                log.error("spool %s unwritable (%s): pending writes wait in memory, in order",
                          self.path, exc.strerror or exc)
            return
        if was_waiting:
            log.warning("spool %s writable again: %d waiting writes saved", self.path,
                        len(self._memory))
        self._memory.clear()

    def _append_fd(self, fd: int, data: bytes, sync: bool) -> None:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data  # a line cut short earlier: never glue the next one to it
        try:
            self._writer(fd, data)
            if sync:
                self._fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)  # what the disk took of a failed write is cut off again
            raise

    def entries(self) -> list[SpoolEntry]:
        """Every pending transaction, in the order it was appended."""
        return self._read() + list(self._memory)

    def _read(self) -> list[SpoolEntry]:
        try:
            lines = self.path.read_bytes().splitlines()
        except FileNotFoundError:
            return []
        except OSError as exc:
            log.error("spool %s unreadable: %s", self.path, exc.strerror)
            return []
        found: list[SpoolEntry] = []
        for number, line in enumerate(lines, 1):
            entry, malformed = _parse(line)
            if entry is None:
                if line.strip() and number not in self._reported:
                    self._reported.add(number)
                    log.warning("spool %s line %d is cut short or corrupt: skipped",
                                self.path, number)
                continue
            if malformed and number not in self._reported:
                self._reported.add(number)
                log.warning("spool %s line %d: %d malformed command(s) skipped", self.path,
                            number, malformed)
            found.append(entry)
        return found

    def __len__(self) -> int:
        return len(self.entries())

    def clear(self) -> None:
        """Forget every pending write (after they reached Redis); a new epoch begins."""
        self._memory.clear()
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            log.error("spool %s cannot be removed: %s", self.path, exc.strerror)
            return  # same epoch: the flushed entries are skipped by their numbers next time
        self.epoch = secrets.token_hex(4)
        self._last_n = 0
        self._reported.clear()


def _parse(line: bytes) -> tuple[SpoolEntry | None, int]:
    """The entry of one line (None: cut short or corrupt) and how many of its commands are
    malformed (left out: nothing could run them)."""
    try:
        data: object = json.loads(line)
    except ValueError:
        return None, 0
    if isinstance(data, dict) and "cmd" in data:  # an older version's line: one command
        command = _command(data)
        return (None, 0) if command is None else (SpoolEntry("", 0, [command]), 0)
    if not isinstance(data, dict) or not isinstance(data.get("tx"), list):
        return None, 0
    try:
        epoch, n = str(data["e"]), int(data["n"])
    except (KeyError, TypeError, ValueError):
        return None, 0
    commands = [c for c in map(_command, data["tx"]) if c is not None]
    return SpoolEntry(epoch, n, commands), len(data["tx"]) - len(commands)


def _command(data: object) -> SpooledCommand | None:
    """A spooled command read back from JSON, or None when it has not the shape of one."""
    if not isinstance(data, dict) or not isinstance(data.get("cmd"), str):
        return None
    command = SpooledCommand(cmd=data["cmd"])
    args, kwargs = data.get("args"), data.get("kwargs")
    if isinstance(args, list):
        command["args"] = args
    elif args is not None:
        return None
    if isinstance(kwargs, dict):
        command["kwargs"] = {str(k): v for k, v in kwargs.items()}
    elif kwargs is not None:
        return None
    return command
