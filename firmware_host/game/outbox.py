"""What leaves a session: its live events and its LED frames.

Every event goes to the store's bus (a broken bus never stops the game: it is logged) and to
the session's listeners, with the session's time ``at``; a frame goes to the LEDs and out as a
``leds`` event, once per change.

>>> from firmware_host.store import open_store
>>> outbox = Outbox(open_store("memory", "doc"), now=lambda: 1.25)
>>> seen = []
>>> outbox.subscribe(seen.append)
>>> outbox.publish("synced")
>>> seen
[{'event': 'synced', 'at': 1.25}]
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from board_io.types import LedFrame
from engine.types import Square
from firmware_host.feedback import leds
from firmware_host.feedback.roles import Role
from firmware_host.feedback.texts import render
from firmware_host.game.types import EventData, Store
from firmware_host.i18n import ENGLISH, Translator

__all__ = ["Listener", "Outbox"]

log = logging.getLogger("firmware_host.game.session")

Listener = Callable[[EventData], None]


class Outbox:
    """The live events and LED frames of one session.

    Args:
        store: its ``publish`` carries the events to the bus.
        now: the session's time (the ``at`` of the event being handled).
        show_leds: called with every new LED frame, in board_io's patterns and colours.
        tr: the board's language when it is not English: each event with a sentence carries it
            in ``text`` (its ``reason`` and fields stay language-free); English boards' events
            are rendered by whoever shows them.
    """

    def __init__(self, store: Store, now: Callable[[], float],
                 show_leds: Callable[[LedFrame], None] | None = None,
                 tr: Translator | None = None) -> None:
        self._store = store
        self._tr = tr if tr is not None and tr.language != ENGLISH.language else None
        self._now = now
        self._show_leds = show_leds
        self._listeners: list[Listener] = []
        #: The frame shown now (None: none yet, or the board lost it: sent again).
        self.frame: dict[Square, Role] | None = None

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every published event."""
        self._listeners.append(listener)

    def publish(self, kind: str, /, **fields: object) -> None:
        """Publish the live event ``kind`` with ``fields``."""
        event: EventData = {"event": kind, "at": round(self._now(), 6), **fields}
        if self._tr is not None and "text" not in event:
            text = render(event, self._tr)
            if text and text != kind:
                event["text"] = text
        try:
            self._store.publish(event)
        except Exception:  # a broken bus must never stop the game
            log.exception("session: publishing %s failed", kind)
        for listener in self._listeners:
            listener(event)

    def show(self, frame: dict[Square, Role], name: Callable[[Square], str]) -> None:
        """Light ``frame`` (its patterns and colours; and publish it, squares by ``name``) if
        it is not shown already."""
        if frame == self.frame:
            return
        self.frame = frame
        if self._show_leds is not None:
            self._show_leds(leds.leds(frame))
        self.publish("leds", frame=leds.to_data(frame, name))
