"""Logging to stderr in a journald-friendly form: ``<N>`` syslog priority prefixes.

Logs never go to stdout: stdout belongs to what a command prints (``run --events json`` prints
only JSON there). systemd sends a service's stderr to the journal like its stdout.

journald reads the prefix as the priority of the line (``SyslogLevelPrefix=yes`` is the default),
so ``journalctl -p warning`` works without a journald library.

>>> JournalFormatter().format(logging.makeLogRecord({"msg": "hi", "levelno": 30, "name": "x"}))
'<4>x: hi'
"""

from __future__ import annotations

import logging
import sys
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


def configure(level: str = "info", stream: TextIO | None = None) -> None:
    """Send the root logger to ``stream`` (stderr) at ``level``, replacing earlier handlers."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JournalFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
