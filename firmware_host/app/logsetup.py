"""Logging to stderr: ``<N>`` syslog priority prefixes for journald, plain words elsewhere.

Logs never go to stdout: stdout belongs to what a command prints (``run --events json`` prints
only JSON there). systemd sends a service's stderr to the journal like its stdout.

journald reads the prefix as the priority of the line (``SyslogLevelPrefix=yes`` is the default),
so ``journalctl -p warning`` works without a journald library. The prefix is written only when
stderr *is* the journal's stream: systemd names that stream in ``JOURNAL_STREAM``
(``device:inode``), and the prefix is written when stderr's own device and inode are those. A
terminal, a pipe or a file gets plain words (``warning: store: ...``), even where
``JOURNAL_STREAM`` was inherited (a desktop's terminal started by ``systemd --user`` passes it
to every shell: the variable alone would put prefixes on a person's screen).

>>> JournalFormatter().format(logging.makeLogRecord({"msg": "hi", "levelno": 30, "name": "x"}))
'<4>x: hi'
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

_PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


def syslog_priority(levelno: int) -> int:
    """Map a logging level to a syslog priority (debug is 7)."""
    for level, priority in _PRIORITIES:
        if levelno >= level:
            return priority
    return 7


class JournalFormatter(logging.Formatter):
    """Formats ``<priority>logger: message``; one line per record (newlines are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info:
            message += "\n" + self.formatException(record.exc_info)
        message = message.replace("\n", "\\n")
        return f"<{syslog_priority(record.levelno)}>{record.name}: {message}"


class TerminalFormatter(logging.Formatter):
    """Formats ``level: logger: message`` for a person (no level word for info and debug); an
    exception is its one line (``ValueError: ...``), not a traceback: the journal keeps those.

    >>> TerminalFormatter().format(logging.makeLogRecord(
    ...     {"msg": "hi", "levelno": 30, "levelname": "WARNING", "name": "x"}))
    'warning: x: hi'
    """

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message += f" ({type(error).__name__}: {error})"
        level = f"{record.levelname.lower()}: " if record.levelno >= logging.WARNING else ""
        return f"{level}{record.name}: {message}"


def for_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether lines to ``stream`` get syslog prefixes: only when it is the stream systemd
    connected to the journal (``JOURNAL_STREAM`` names its device and inode).

    >>> import io
    >>> for_journal(io.StringIO(), {"JOURNAL_STREAM": "8:1234"})
    False
    """
    env = os.environ if environ is None else environ
    named = env.get("JOURNAL_STREAM", "")
    device, _, inode = named.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        status = os.fstat(stream.fileno())
    except (AttributeError, ValueError, OSError):  # no file behind it (a test's StringIO)
        return False
    return (status.st_dev, status.st_ino) == (int(device), int(inode))


def configure(level: str = "info", stream: TextIO | None = None) -> None:
    """Send the root logger to ``stream`` (stderr) at ``level``, replacing earlier handlers."""
    target = stream or sys.stderr
    handler = logging.StreamHandler(target)
    handler.setFormatter(JournalFormatter() if for_journal(target) else TerminalFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
