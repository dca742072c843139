"""The base of every board device: an idempotent ``close()`` and the context-manager protocol.

As gpiozero's ``Device``: a backend overrides ``_close()`` (called once, under a lock, so a
scan thread and a shutdown cannot close twice) and calls ``_check_open()`` before using the
hardware.

>>> class Lamp(Device):
...     def _close(self) -> None:
...         print("off")
>>> with Lamp() as lamp:
...     pass
off
>>> lamp.closed, lamp.close()
(True, None)
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import Self

from board_io.errors import DeviceClosed


class Device:
    """Something that owns hardware (or a simulation of it) until :meth:`close`."""

    def __init__(self) -> None:
        self._closed = False
        self._lock = threading.RLock()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    def _check_open(self) -> None:
        """Raise :class:`DeviceClosed` after :meth:`close`."""
        if self._closed:
            raise DeviceClosed(f"{type(self).__name__} is closed")

    def close(self) -> None:
        """Release the hardware. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._close()

    def _close(self) -> None:
        """Backend hook: release resources (called once)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
