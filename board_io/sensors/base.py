"""The sensor matrix interface: one frame (a reading per cell, row-major) per :meth:`read`.

A backend subclasses :class:`SensorMatrix`, implements :meth:`SensorMatrix._read` and, if it
holds resources, :meth:`SensorMatrix._close`. Third-party imports stay inside the backend module.

Example:
    >>> from board_io.types import Reading
    >>> class Fixed(SensorMatrix):
    ...     def _read(self):
    ...         return (Reading.EMPTY,) * self.cells
    >>> with Fixed(2, 4) as sensors:
    ...     len(sensors.read())
    8
    >>> sensors.closed
    True
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from board_io.device import Device
from board_io.types import Frame, Sensing


class SensorMatrix(Device, ABC):
    """A matrix of ``rows`` x ``cols`` sensor cells, read a whole frame at a time.

    Raises:
        ValueError: rows or cols < 1.
    """

    def __init__(self, rows: int, cols: int, sensing: Sensing = Sensing.PRESENCE) -> None:
        if rows < 1 or cols < 1:
            raise ValueError(f"a sensor matrix needs rows and cols >= 1, not {rows}x{cols}")
        self._rows = rows
        self._cols = cols
        self._sensing = sensing
        super().__init__()

    @property
    def rows(self) -> int:
        """Number of sensor rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """Number of sensor columns."""
        return self._cols

    @property
    def cells(self) -> int:
        """``rows * cols``: the length of a frame."""
        return self._rows * self._cols

    @property
    def sensing(self) -> Sensing:
        """Whether readings carry colours (``COLOUR``) or only presence."""
        return self._sensing

    def read(self) -> Frame:
        """Scan the matrix once; return a reading per cell, row-major.

        Raises:
            DeviceClosed: after :meth:`close`.
            LinkTimeout: the board stopped answering (remote backends).
        """
        self._check_open()
        return self._read()

    @abstractmethod
    def _read(self) -> Frame:
        """Backend hook: scan once and return the frame (length :attr:`cells`)."""


    def __repr__(self) -> str:
        state = " closed" if self._closed else ""
        return f"<{type(self).__name__} {self._rows}x{self._cols} {self._sensing.value}{state}>"
