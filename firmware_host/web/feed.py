"""The live feed's messages: cursors, Server-Sent Events, and what changed (pure: no I/O).

A feed follows a set of boards (one board page, or the whole hall). Its cursor is the last
stream id it delivered per board. Every SSE message carries, as its ``id``, the cursor of the
board it is about (``board1=1764590000000-0``); the page keeps the whole cursor and reconnects
with it, so the feed resumes after exactly what it delivered: nothing is missed, nothing
repeated (a browser's own reconnection sends the last ``id`` back as ``Last-Event-ID``: that
board resumes exactly).

>>> parse_cursor("b1=1-0,b2=5-3")
{'b1': '1-0', 'b2': '5-3'}
>>> format_cursor({"b1": "1-0", "b2": "5-3"})
'b1=1-0,b2=5-3'

A cursor comes from the client, so it is checked before anything reads with it: a board id by
the configuration's rule and a stream id Redis accepts (two ASCII numbers below 2**64); anything
else is a :class:`BadCursor` (the feed answers 400), never a read that Redis refuses:

>>> parse_cursor("b1=99999999999999999999-0")
Traceback (most recent call last):
...
firmware_host.web.feed.BadCursor: 'b1=99999999999999999999-0': not a board and a stream id

A batch of a board's events becomes one small JSON message of what changed (:func:`delta`): the
moves with the position after them, the LED frame, the state, the board's sentences (each in
every language, rendered from the event's key and values: the page shows its viewer's). A batch
that starts a game, takes moves back, ends a game or changes its tags asks for the whole card or
panel instead (``full``): rare, and simpler than a delta of them.

>>> d = Delta()
>>> d.add({"event": "move", "ply": 1, "pdn": "32-28", "fen": "B:W28,31-50:B1-20", "from": "32",
...        "to": "28", "by": "human", "at": 1.0})
>>> d.add({"event": "state", "state": "engine_thinking"})
>>> d.message("board1", hall=False)
{'board': 'board1', 'moves': [{'ply': 1, 'pdn': '32-28', 'label': '1. 32-28', 'fen': \
'B:W28,31-50:B1-20', 'from': '32', 'to': '28'}], 'state': 'thinking', 'state_key': \
'engine_thinking'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware_host.digits import whole_number
from firmware_host.errors import DraughtsboardError
from firmware_host.feedback.texts import STATE_NAMES, said_everywhere
from firmware_host.web import edge
from firmware_host.web.clocks import MAX_LEFT_S, ClockReading, from_event
from firmware_host.web.reader import SPOKEN

__all__ = ["FULL_EVENTS", "LIVE_EVENTS", "BadCursor", "Delta", "format_cursor", "id_key",
           "parse_cursor", "sse", "stream_id"]

#: How long a feed waits without news before a keep-alive comment (ms).
BLOCK_MS = 15_000
#: Events a page changes on (the LED frames too: the diagrams draw them).
LIVE_EVENTS = SPOKEN | {"new_game", "synced", "state", "move", "leds", "touch", "correction",
                        "resume_failed", "clock"}
#: Events after which the page gets the whole card or panel again.
FULL_EVENTS = frozenset({"new_game", "resumed", "takeback", "result", "header",
                         "settings_applied", "resume_failed"})
#: Fields of a move event passed on (the clocks when the board keeps them).
MOVE_FIELDS = ("fen", "from", "to", "clock_white", "clock_black")
#: A part of a stream id: what Redis takes (an unsigned 64-bit number).
MAX_ID_PART = 2**64 - 1
#: Boards a cursor names at most (a hall's boards: web/reader.py MAX_BOARDS).
MAX_CURSOR_BOARDS = 1000
_BOARD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")


class BadCursor(DraughtsboardError, ValueError):
    """A feed's cursor that is not boards and stream ids (the feed answers 400)."""


def stream_id(text: str) -> str | None:
    """``text`` if it is a stream id Redis takes (``1764590000000-3``: ASCII digits, each part
    below 2**64), else None.

    >>> stream_id("1-0"), stream_id("18446744073709551616-0"), stream_id("١-0")
    ('1-0', None, None)
    """
    ms, sep, seq = text.partition("-")
    try:
        whole_number(ms, 0, MAX_ID_PART)
        whole_number(seq, 0, MAX_ID_PART)
    except ValueError:
        return None
    return text if sep else None


def parse_cursor(text: str) -> dict[str, str]:
    """The cursor of a feed's ``cursor`` or ``Last-Event-ID`` (empty parts are skipped).

    Raises:
        BadCursor: a part that is not ``board=id``, or more than :data:`MAX_CURSOR_BOARDS`.
    """
    out = {}
    parts = [part for part in text.split(",", MAX_CURSOR_BOARDS + 1) if part]
    if len(parts) > MAX_CURSOR_BOARDS:
        raise BadCursor(f"more than {MAX_CURSOR_BOARDS} boards")
    for part in parts:
        board, sep, entry = part.partition("=")
        if not (sep and _BOARD.fullmatch(board) and stream_id(entry)):
            raise BadCursor(f"{part[:60]!r}: not a board and a stream id")
        out[board] = entry
    return out


def format_cursor(cursor: Mapping[str, str]) -> str:
    """The ``id`` of an SSE message: every board's last delivered stream id."""
    return ",".join(f"{board}={entry}" for board, entry in sorted(cursor.items()))


def id_key(entry_id: str) -> tuple[int, int]:
    """A stream id as a sortable pair.

    >>> id_key("1764590000000-3") > id_key("1764590000000-2") > id_key("0-0")
    True
    """
    ms, _, n = entry_id.partition("-")
    return int(ms or 0), int(n or 0)


def sse(event: str, data: object, event_id: str | None = None) -> bytes:
    """One Server-Sent Events message (the JSON on one line: no newline can get into a field).

    >>> sse("board", {"a": 1}, "b1=1-0")
    b'event: board\\nid: b1=1-0\\ndata: {"a":1}\\n\\n'
    """
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return (head + "data: " + json.dumps(data, separators=(",", ":"), allow_nan=False)
            + "\n\n").encode()


def _label(ply: int, pdn: str) -> str:
    return f"{(ply + 1) // 2}{'.' if ply % 2 else '...'} {pdn}"


def _move(message: Mapping[str, object]) -> dict[str, object] | None:
    """What the page is sent of a ``move`` event, every field checked first (the page's
    script draws the FEN and lights the squares): None when the move itself is unreadable;
    a field that is not what it says is left out.

    >>> _move({"ply": 1, "pdn": "32-28", "fen": "W:W1-300000000:B1", "clock_white": 1e300})
    {'ply': 1, 'pdn': '32-28', 'label': '1. 32-28'}
    """
    try:
        ply = edge.integer(message.get("ply"), 1, edge.MAX_PLY)
        pdn = edge.text(message.get("pdn"), 200)
        if not edge.MOVE_TEXT.fullmatch(pdn):
            return None
    except edge.BadRecord:
        return None
    move: dict[str, object] = {"ply": ply, "pdn": pdn, "label": _label(ply, pdn)}
    checks = {"fen": edge.fen_text, "from": edge.square, "to": edge.square,
              "clock_white": _clock_time, "clock_black": _clock_time}
    for name in MOVE_FIELDS:
        if message.get(name) is not None:
            try:
                move[name] = checks[name](message[name])
            except edge.BadRecord:
                continue
    return move


def _clock_time(value: object) -> float:
    return edge.number(value, 0, MAX_LEFT_S)


def _state(value: object, before: str) -> str:
    """A board's state name as sent: one printable word of at most 40 characters."""
    try:
        return edge.text(value, 40)
    except edge.BadRecord:
        return before


@dataclass
class Delta:
    """What a batch of one board's events changed (``add`` them oldest first).

    ``state`` is the state the board was in before the batch (a ``synced`` after a correction
    goes back to it); after the batch it is the board's state.
    """

    state: str = ""
    full: bool = False
    moves: list[dict[str, object]] = field(default_factory=list)
    leds: dict[str, list[str]] | None = None
    #: The board's spoken events of the batch (their key and values).
    say: list[Mapping[str, object]] = field(default_factory=list)
    shown_state: str | None = None
    #: The game clock's newest reading in the batch (its ``clock`` events).
    clock: ClockReading | None = None

    def add(self, message: Mapping[str, object]) -> None:
        """Take in one event."""
        kind = message.get("event")
        if kind in FULL_EVENTS:
            self.full = True
        if kind == "move":
            move = _move(message)
            if move is not None:
                self.moves.append(move)
        elif kind == "leds":
            self.leds = {k: list(v) for k, v in edge.led_frame(message.get("frame")).items()}
        elif kind == "state":
            self.state = _state(message.get("state"), self.state)
            self.shown_state = self.state
        elif kind == "correction":
            self.shown_state = "correction"
        elif kind == "clock":
            self.clock = from_event(message) or self.clock
        elif kind == "synced" and self.shown_state == "correction":
            self.shown_state = self.state
        if kind in SPOKEN:
            self.say.append(message)

    def message(self, board_id: str, hall: bool, now: float | None = None
                ) -> dict[str, object] | None:
        """The JSON message of the batch for a board page or (``hall``) the hall (which shows
        the last move only, and no sentences); None when nothing it shows changed.
        (With ``full``, the caller sends the whole card or panel instead.) A clock is given as
        both times at ``now`` (the Unix time; None: at its reading), for the page to count
        down from."""
        data: dict[str, object] = {"board": board_id}
        if self.moves:
            data["moves"] = self.moves[-1:] if hall else self.moves
        if self.leds is not None:
            data["leds"] = self.leds
        if self.shown_state is not None:
            data["state"] = STATE_NAMES.get(self.shown_state, self.shown_state)
            data["state_key"] = self.shown_state
        if self.say and not hall:  # every language's sentence: each page shows its own
            data["say"] = [said for said in map(said_everywhere, self.say[-12:]) if said]
        if self.clock is not None:
            data["clock"] = self.clock.at(self.clock.time if now is None else now)
        return data if len(data) > 1 else None
