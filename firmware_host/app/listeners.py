"""Listeners of the session's events: the service log, the ``--events json`` printer, and the
sentences a scripted run prints without it.

>>> import io
>>> out = io.StringIO()
>>> json_printer(out)({"event": "synced", "at": 0.5})
>>> out.getvalue()
'{"event":"synced","at":0.5}\\n'
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TextIO

from firmware_host.feedback.texts import render
from firmware_host.game.types import EventData

log = logging.getLogger("draughtsboard")

Listener = Callable[[EventData], None]

#: Events worth one log line each; LED frames and board snapshots are not (they go to the bus).
LOGGED_EVENTS = frozenset({"move", "refused", "result", "takeback", "new_game", "touch",
                           "adjust", "computer_move", "resumed", "sensor_fault", "link"})
#: Logged as warnings: something at the board needs a person.
WARNED_EVENTS = frozenset({"refused", "sensor_fault"})


def json_printer(out: TextIO) -> Listener:
    """A session listener printing one JSON line per event."""

    def emit(event: EventData) -> None:
        out.write(json.dumps(event, separators=(",", ":"), default=str) + "\n")
        out.flush()

    return emit


def text_printer(out: TextIO) -> Listener:
    """A session listener printing the sentence of each event a person follows, one a line.

    >>> import io
    >>> out = io.StringIO()
    >>> text_printer(out)({"event": "move", "ply": 1, "pdn": "11-15"})
    >>> text_printer(out)({"event": "leds", "frame": {}})
    >>> out.getvalue()
    '1. 11-15\\n'
    """

    def emit(event: EventData) -> None:
        if event.get("event") not in LOGGED_EVENTS:
            return
        text = render(event)
        if text:
            out.write(text + "\n")
            out.flush()

    return emit


def event_logger() -> Listener:
    """A session listener logging the events a person reading the journal wants, one line each."""

    def listen(event: EventData) -> None:
        kind = event.get("event")
        if kind not in LOGGED_EVENTS:
            return
        text = render(event)
        level = logging.WARNING if kind in WARNED_EVENTS else logging.INFO
        log.log(level, "%s", text if text else json.dumps(event, default=str))

    return listen
