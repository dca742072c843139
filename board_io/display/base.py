"""The display interface: a :class:`Face` in, shown as the backend can, off the caller's thread.

A :class:`Display` has two halves of ``half_width`` characters each. :meth:`Display.show` takes
a :class:`Face` and returns at once: the newest face waits in a one-slot mailbox that the
display's own thread (``display``) draws, so a slow bus (an OLED on I2C takes some 25 ms a
frame) never holds up the scan loop, and a face superseded before it was drawn is skipped.
``threaded=False`` draws in the caller's thread (tests, and the ``sim`` backend).

Example:
    >>> display = SimDisplay()
    >>> display.show(Face("5:00", "4:59", mark=Half.RIGHT))
    >>> display.faces[-1].right, display.faces[-1].mark.name
    ('4:59', 'RIGHT')
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from enum import Enum

from board_io.device import Device

__all__ = ["Display", "Face", "Half", "NoDisplay", "SimDisplay"]

log = logging.getLogger(__name__)


class Half(Enum):
    """A half of the display, as the players see it."""

    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True)
class Face:
    """What a display shows: the text of each half, the half marked (None: neither), a
    banner across both (``""``: none) and a small label over each half (where it fits)."""

    left: str
    right: str
    mark: Half | None = None
    banner: str = ""
    labels: tuple[str, str] = ("", "")


#: An empty display.
BLANK = Face("", "")


class Display(Device):
    """A display: :meth:`show` a :class:`Face`; backends draw it in :meth:`_draw`.

    Args:
        half_width: how many characters a half shows.
        threaded: draw on a thread of the display's own (else in the caller's).
    """

    def __init__(self, half_width: int, *, threaded: bool = True) -> None:
        super().__init__()
        self.half_width = half_width
        self._shown: Face | None = None
        self._next: Face | None = None
        self._asked: Face | None = None
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="display", daemon=True)
            self._thread.start()

    def show(self, face: Face) -> None:
        """Show ``face`` (nothing happens when it is the one shown).

        Raises:
            DeviceClosed: after :meth:`close`.
        """
        self._check_open()
        if self._thread is None:
            if face != self._shown:
                self._shown = face
                self._draw(face)
            return
        with self._wake:
            if face == self._asked:
                return  # asked for already (the service asks at every scan)
            self._asked = self._next = face
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._next is None and not self.closed:
                    self._wake.wait()
                face, self._next = self._next, None
            if face is None:
                return
            if face != self._shown:
                self._shown = face
                try:
                    self._draw(face)
                except Exception:  # a display fault must not stop the clock's updates
                    log.exception("display: drawing failed")

    def _draw(self, face: Face) -> None:
        """Backend hook: put ``face`` on the hardware."""

    def _close(self) -> None:
        with self._wake:
            self._next = None
            self._wake.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._release()

    def _release(self) -> None:
        """Backend hook: blank the display and release its bus (called once)."""


class NoDisplay(Display):
    """The ``none`` backend: a board without a display."""

    def __init__(self) -> None:
        super().__init__(8, threaded=False)


class SimDisplay(Display):
    """The ``sim`` backend: keeps every face shown (the simulated board's, the tests')."""

    def __init__(self, half_width: int = 7) -> None:
        super().__init__(half_width, threaded=False)
        self.faces: list[Face] = []

    def _draw(self, face: Face) -> None:
        self.faces.append(face)
