"""One-line texts for session events, as a data table of templates.

The session publishes plain-data events (dicts); this module turns them into text for the terminal,
the log and the teach mode's explanations. Nothing here decides anything: a new message is a new
row in :data:`TEMPLATES`.

>>> render({"event": "refused", "reason": "capture_compulsory", "capture": "22x13"})
'a capture is compulsory: 22x13'
>>> render({"event": "refused", "reason": "max_capture", "count": 3})
'you must take the maximum: 3 pieces'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

#: Templates keyed by ``event`` or ``event.reason`` (the more specific key wins). Fields are the
#: event's keys; a template whose fields are missing from the event falls back to the event key.
TEMPLATES: Mapping[str, str] = MappingProxyType({
    "move": "{ply_text} {pdn}",
    "computer_move": "the computer plays {pdn}: carry it out on the board",
    "computer_move_done": "computer's move {pdn} carried out",
    "thinking": "the computer is thinking",
    "refused": "that move is not legal here",
    "refused.capture_compulsory": "a capture is compulsory: {capture}",
    "refused.max_capture": "you must take the maximum: {count} pieces",
    "refused.majority": "you must take the most pieces: {capture}",
    "refused.king_priority": "capturing with the king comes first: {capture}",
    "refused.touch_move": "touch-move: you touched {square}, you must move it",
    "refused.not_your_turn": "it is {side}'s turn",
    "refused.wrong_computer_move": "the computer played {expected}, not {played}",
    "refused.not_a_move": "that is not a legal move",
    "refused.unknown_piece": "a piece appeared on {squares}",
    "touch": "touch-move: {square} was touched and must be moved",
    "adjust": "adjust window {state}",
    "correction": "put back on: {missing_text}; take away: {extra_text}",
    "synced": "board in sync with the game",
    "sync_needed": "set up the position: put pieces on {missing_text}; take away {extra_text}",
    "hint": "hint: {pdn}",
    "hint_refused": "hints are not available in {mode} mode",
    "takeback": "took back {plies} ply(s), {side} to move",
    "takeback_refused": "takebacks are not available here",
    "result": "game over: {result} ({termination})",
    "new_game": "new game ({variant}, {mode} mode)",
    "newgame_requested": "set up the initial position to start a new game",
    "crown": "crown the piece on {square}",
    "draw_declined": "the computer declines the draw",
    "state": "",
    "leds": "",
    "occupancy": "",
})


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _enrich(event: Mapping[str, Any]) -> dict[str, Any]:
    data = dict(event)
    for key in ("missing", "extra"):
        if key in data and f"{key}_text" not in data:
            data[f"{key}_text"] = ", ".join(str(s) for s in data[key]) or "nothing"
    if "ply" in data and "ply_text" not in data:
        ply = int(data["ply"])
        data["ply_text"] = f"{(ply + 1) // 2}." if ply % 2 else f"{ply // 2}..."
    if "state" in data and isinstance(data["state"], bool):
        data["state"] = "open" if data["state"] else "closed"
    return data


def render(event: Mapping[str, Any]) -> str | None:
    """Return the one-line text of ``event``, or ``None`` for events that have no text.

    >>> render({"event": "leds", "frame": {}}) is None
    True
    >>> render({"event": "refused", "reason": "no_such_reason"})
    'that move is not legal here'
    """
    kind = str(event.get("event", ""))
    data = _enrich(event)
    for key in (f"{kind}.{data.get('reason')}", kind):
        template = TEMPLATES.get(key)
        if template is None:
            continue
        if not template:
            return None
        if _fields(template) <= data.keys():
            return template.format(**data)
    return kind or None
