"""The ``serial`` LED backend: LED frames sent to a microcontroller as LEDS messages.

The microcontroller draws each cell from its pattern and colour (it blinks by itself; a
single-colour board shows the colour's brightness), so a frame is sent once per
:meth:`SerialLeds.show`, not per blink; :meth:`LedMatrix.tick` sends nothing. The link re-sends
the last frame after a reconnect.

Example:
    >>> from board_io.clock import MonotonicClock
    >>> from board_io.types import Led, Pattern
    >>> leds = SerialLeds(link, 32, clock=MonotonicClock(), addresses=addresses)  # doctest: +SKIP
    >>> leds.show({11: Led(Pattern.ON, (0, 255, 0))})  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from board_io.clock import Clock
from board_io.geometry import CellMap
from board_io.leds.base import LedMatrix, Rgb
from board_io.options import ConfigSource
from board_io.serial import messages as msg
from board_io.serial.link import SerialLink, shared_link
from board_io.types import Led, LedFrame

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["SerialLeds"]


class SerialLeds(LedMatrix):
    """A view of a :class:`SerialLink` as an LED sink.

    ``addresses[sq]`` is the microcontroller cell (``row * cols + col``, the same numbering as
    its SCAN) of square ``sq``'s LED; ``rgb`` comes from the HELLO.

    Raises:
        ValueError: an address outside the microcontroller's cells.
    """

    def __init__(self, link: SerialLink, num_squares: int, *, clock: Clock,
                 addresses: Sequence[int] | None = None, owns_link: bool = False) -> None:
        hello = link.hello
        super().__init__(num_squares, clock=clock, rgb=hello.rgb, addresses=addresses,
                         num_leds=hello.rows * hello.cols)
        self.link = link
        self._owns_link = owns_link

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> SerialLeds:
        """Build on the board's shared link; each square's LED is at its sensor cell.

        Raises:
            ConfigError, BoardIOError, LinkTimeout: as :func:`shared_link` and the cell map.
        """
        link = shared_link(config, context)
        hello = link.hello
        cell_map = CellMap.from_config(config, context.layout, hello.rows, hello.cols)
        return cls(link, context.layout.num_squares, clock=context.clock,
                   addresses=cell_map.flat_indices())

    def show(self, frame: LedFrame) -> None:
        """Show ``frame``: one LEDS message (kept by the link for a reconnect).

        Raises:
            DeviceClosed: after :meth:`close`.
            ValueError: a square outside the board.
        """
        super().show(frame)
        cells: list[Led | None] = [None] * self.num_leds
        for sq, led in self.frame.items():
            cells[self._addresses[sq]] = led
        hello = self.link.hello
        self.link.send(msg.Leds(hello.rows, hello.cols, tuple(cells)))

    def _write(self, pixels: tuple[Rgb, ...]) -> None:
        pass  # the microcontroller renders; ``pixels`` stays available for a terminal view

    def _close(self) -> None:
        hello = self.link.hello
        if not self.link.closed:
            self.link.send(msg.Leds(hello.rows, hello.cols, (None,) * self.num_leds))
        if self._owns_link:
            self.link.close()
