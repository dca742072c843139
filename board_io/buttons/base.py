"""The buttons interface: a set of named buttons whose presses become :class:`ButtonPressed`.

A backend calls :meth:`Buttons._pressed` from wherever it learns of a press (a gpiozero callback
thread, the serial reader, the simulator). The press goes to :attr:`Buttons.when_pressed` when a
handler is set (it should only put the event on a queue), else it waits for :meth:`Buttons.drain`
(the :class:`~board_io.scanner.Scanner` drains on every poll).

Example:
    >>> from board_io.clock import VirtualClock
    >>> buttons = NoButtons(clock=VirtualClock(2.0))
    >>> buttons._pressed("left")
    Traceback (most recent call last):
    ...
    ValueError: this board has no 'left' button
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from board_io.clock import Clock
from board_io.device import Device
from board_io.events import ButtonPressed


class Buttons(Device):
    """A set of named buttons (the names are the application's: ``BackendContext.buttons``)."""

    def __init__(self, available: Iterable[str], *, clock: Clock) -> None:
        self.available = frozenset(available)
        self.when_pressed: Callable[[ButtonPressed], None] | None = None
        self._clock = clock
        self._queue: deque[ButtonPressed] = deque()  # append/popleft are thread-safe
        super().__init__()

    def _pressed(self, name: str) -> None:
        """Backend hook: report a press of ``name`` now.

        Raises:
            ValueError: the board has no such button.
            DeviceClosed: after :meth:`close`.
        """
        self._check_open()
        if name not in self.available:
            raise ValueError(f"this board has no {name!r} button")
        event = ButtonPressed(name, self._clock.monotonic())
        handler = self.when_pressed
        if handler is not None:
            handler(event)
        else:
            self._queue.append(event)

    def drain(self) -> list[ButtonPressed]:
        """Return the presses waiting since the last call, oldest first."""
        events = []
        while self._queue:
            events.append(self._queue.popleft())
        return events



class NoButtons(Buttons):
    """The ``none`` backend: a board without buttons."""

    def __init__(self, *, clock: Clock) -> None:
        super().__init__((), clock=clock)
