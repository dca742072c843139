"""The ``serial`` sensor backend: the SCAN frames of a microcontroller on a serial link.

The microcontroller scans the board itself and sends a SCAN on every change and at least once
a second; :meth:`SerialSensors.read` returns the latest one. While the link is down (or up again
but the board not yet re-sent) it raises :class:`~board_io.errors.LinkTimeout`, which the
:class:`~board_io.scanner.Scanner` turns into ``LinkLost`` / ``LinkRestored``. Cells the
microcontroller reports faulty (ERROR 4, e.g. the reference firmware's diode check) are
collected in :attr:`SerialSensors.reported_faults`.

Example:
    >>> from board_io.serial.link import SerialLink
    >>> link = SerialLink("/dev/serial/by-id/usb-draughtsboard-if00")   # doctest: +SKIP
    >>> sensors = SerialSensors(link, owns_link=True)                      # doctest: +SKIP
    >>> sensors.rows, sensors.cols, sensors.sensing                        # doctest: +SKIP
    (8, 8, <Sensing.PRESENCE: 'presence'>)
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from board_io.errors import LinkTimeout
from board_io.options import ConfigSource
from board_io.sensors.base import SensorMatrix
from board_io.serial import messages as msg
from board_io.serial.link import SerialLink, shared_link
from board_io.types import Frame, Sensing

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["SerialSensors"]


class SerialSensors(SensorMatrix):
    """A view of a :class:`SerialLink` as a sensor matrix (size and sensing from its HELLO).

    ``first_scan_timeout``: how long the constructor waits for the first SCAN.

    Raises:
        LinkTimeout: no SCAN within ``first_scan_timeout`` seconds.
    """

    def __init__(self, link: SerialLink, *, owns_link: bool = False,
                 first_scan_timeout: float = 3.0) -> None:
        hello = link.hello
        super().__init__(hello.rows, hello.cols,
                         Sensing.COLOUR if hello.colour else Sensing.PRESENCE)
        self.link = link
        self._owns_link = owns_link
        self._faults: set[int] = set()
        self._faults_lock = threading.Lock()
        link.add_listener(self._message)
        try:
            link.wait_scan(1, first_scan_timeout)
        except LinkTimeout:
            self.close()
            raise

    @property
    def reported_faults(self) -> frozenset[int]:
        """Cells (``row * cols + col``) the microcontroller reported as sensor faults."""
        with self._faults_lock:
            return frozenset(self._faults)

    def _message(self, message: msg.Message) -> None:
        if isinstance(message, msg.ErrorReport) and message.code == msg.ERROR_SENSOR_FAULT \
                and message.arg < self.cells:
            with self._faults_lock:
                self._faults.add(message.arg)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> SerialSensors:
        """Build on the board's shared link (``serial.*`` options, see docs/hardware.md).

        Raises:
            ConfigError, BoardIOError, LinkTimeout: as :func:`shared_link`.
        """
        return cls(shared_link(config, context))

    def _read(self) -> Frame:
        return self.link.current_scan().cells

    def _close(self) -> None:
        self.link.remove_listener(self._message)
        if self._owns_link:
            self.link.close()
