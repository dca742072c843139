"""systemd notification (sd_notify) with the standard library only.

systemd passes the socket in ``NOTIFY_SOCKET``: a filesystem path or, starting with ``@``, an
abstract socket. Without it (not run by systemd) every call is a cheap no-op.

>>> notifier = Notifier(environ={})
>>> notifier.ready()
False
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends ``READY=1``, ``WATCHDOG=1``, ``STOPPING=1`` and ``STATUS=`` to systemd."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self._address = self._parse_address(env.get("NOTIFY_SOCKET", ""))
        self._socket: socket.socket | None = None
        watchdog_usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_interval: float | None = (
            int(watchdog_usec) / 1_000_000 / 2 if watchdog_usec.isdigit() else None
        )

    @staticmethod
    def _parse_address(value: str) -> str | None:
        if not value:
            return None
        if value.startswith("@"):
            return "\0" + value[1:]
        return value

    @property
    def enabled(self) -> bool:
        """Whether a notification socket was given."""
        return self._address is not None

    def notify(self, state: str) -> bool:
        """Send one state string; return whether it was sent.

        A failing send is not an error of the service: systemd may be gone while we shut down.
        """
        if self._address is None:
            return False
        try:
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto(state.encode(), self._address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        """Tell systemd the service is up (the board is scanned and the game resumed)."""
        return self.notify("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        """Tell systemd the scan loop is alive."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        """Tell systemd the service is shutting down."""
        return self.notify("STOPPING=1")

    def status(self, text: str) -> bool:
        """Set the one-line status shown by ``systemctl status``."""
        return self.notify(f"STATUS={text}")

    def close(self) -> None:
        """Close the socket; idempotent."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
