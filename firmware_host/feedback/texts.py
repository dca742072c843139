"""One-line texts for session events, as a data table of templates.

The session publishes plain-data events (dicts); this module turns them into text for the terminal,
the log and the teach mode's explanations. Nothing here decides anything: a new message is a new
row in :data:`TEMPLATES`.

>>> render({"event": "refused", "reason": "capture_compulsory", "capture": "22x13"})
'a capture is compulsory: 22x13'
>>> render({"event": "refused", "reason": "max_capture", "count": 3})
'you must take the maximum: 3 pieces'
>>> render({"event": "refused", "reason": "not_side_to_move", "side": "white", "squares": ["19"]})
"it is white's turn: 19 is the other side's"
>>> render({"event": "move", "ply": 1, "pdn": "32-28"})
'1. 32-28'
>>> render({"event": "takeback", "plies": 1, "side": "white"})
'took back 1 move, white to move'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType

#: Templates keyed by ``event`` or ``event.reason`` (the more specific key wins). Fields are the
#: event's keys; a template whose fields are missing from the event falls back to the event key.
TEMPLATES: Mapping[str, str] = MappingProxyType({
    "move": "{ply_text} {pdn}",
    "computer_move": "the computer plays {pdn}: carry it out on the board",
    "refused": "that move is not legal here",
    "refused.capture_compulsory": "a capture is compulsory: {capture}",
    "refused.max_capture": "you must take the maximum: {count} pieces",
    "refused.capture_precedence": "another capture comes first: {capture}",
    "refused.king_priority": "capturing with the king comes first: {capture}",
    "refused.touch_move": "touch-move: you touched {square}, you must move it",
    "refused.not_side_to_move": "it is {side}'s turn: {squares_text} is the other side's",
    "refused.wrong_computer_move": "the computer played {expected}, not {played}",
    "refused.not_a_move": "that is not a legal move",
    "refused.unknown_piece": "a piece appeared on {squares_text}",
    "refused.wrong_colour": "a piece of the wrong colour on {squares_text}",
    "refused.ambiguous": "two moves fit the board: {pdn_text}; play it again step by step",
    "touch": "touch-move: {square} was touched and must be moved",
    "adjust": "adjust window {state}",
    "correction": "put back on: {missing_text}; take away: {extra_text}",
    "synced": "board in sync with the game",
    "hint": "hint: {pdn}{reasons_text}",
    "hint_refused": "no hint now",
    "hint_refused.mode": "hints are not available in {mode} mode",
    "hint_refused.not_your_turn": "a hint is for your own turn",
    "hint_refused.game_over": "the game is over: no hints (newgame starts another)",
    "takeback": "took back {plies_text}, {side} to move",
    "takeback_refused": "takebacks are not available in {mode} mode",
    "command_refused": "{command}: not now",
    "command_refused.board_size": "{value} is played on another board: not on this one",
    "command_refused.board_layout": "{value} puts its squares elsewhere on this board: set "
                                    "game.variant in the configuration and restart",
    "command_refused.unknown_variant": "there is no variant {value}",
    "command_refused.no_engine": "{command}: this board runs without the built-in engine "
                                 "(set it in the configuration)",
    "command_refused.bad_value": "{command}: that value is not allowed",
    "command_refused.no_game": "{command}: no game in play",
    "command_refused.game_over": "{command}: the game is over",
    "command_refused.not_your_turn": "{command}: only on your own turn",
    "command_refused.not_adjusting": "{command}: no adjust window is open (adjust opens one)",
    "command_refused.unknown": "{command}: there is no such command",
    "command_refused.no_clock": "{command}: this game has no clock",
    "command_refused.already": "{command}: the clock is already so",
    "command_refused.not_over": "{command}: the game is not over (adjudicate it)",
    "settings": "set for the next game: {pending_text}",
    "settings_applied": "this game: {applied_text}",
    "header": "{tag}: {value}",
    "alternative_move": "you played {pdn} for the computer",
    "engine_error": "the engine failed ({error}): playing a legal move instead",
    "resumed": "resumed game {game_id} at ply {ply}",
    "resume_failed": "could not resume the saved game: {reason}",
    "sensor_fault": "sensor fault at {square}",
    "sensor_recovered": "sensor at {square} works again",
    "link": "board link {state}",
    "result": "game over: {result} ({termination})",
    "new_game": "new game ({variant}, {mode} mode)",
    "newgame_requested": "set up the initial position to start a new game",
    "draw_declined": "the computer declines the draw",
    "state": "",
    "clock": "",
    "leds": "",
})


#: Why a hinted move is good, per ``engine.hint.ReasonKind`` value. ``pieces`` and ``moves``
#: are counted in words ("1 piece", "3 moves") before they are put in.
REASONS: Mapping[str, str] = MappingProxyType({
    "only_move": "the only legal move",
    "captures": "captures {pieces}",
    "promotes": "crowns a man",
    "wins_material": "wins {pieces} within {moves}",
    "avoids_loss": "stops a threat to {pieces}",
    "wins_game": "wins in {moves}",
    "wins_endgame": "a won ending: it converts within {moves}",
    "loses_game": "holds out longest",
})


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _ply(value: object) -> int | None:
    """A ply number of an event (an int, or up to nine digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    return None


def _reason(reason: Mapping[str, object]) -> str:
    """The words of one hint reason. Only the table's own templates are formatted, with the
    fields they name: the reason's data is never a template itself (an event is data, and
    ``"{kind:>300000000}"`` as a template would build a 300 MB text).

    >>> _reason({"kind": "captures", "pieces": 2}), _reason({"kind": "captures"})
    ('captures 2', 'captures')
    >>> _reason({"kind": "{kind:>300000000}"})
    '{kind:>300000000}'
    """
    kind = str(reason.get("kind"))[:80]
    template = REASONS.get(kind)
    if template is None:
        return kind
    names = _fields(template)
    if not names <= reason.keys():
        return kind.replace("_", " ")
    return template.format(**{name: str(reason[name])[:80] for name in names})


def _enrich(event: Mapping[str, object]) -> dict[str, object]:
    data = dict(event)
    for key in ("missing", "extra", "squares", "pdn"):
        value = data.get(key)
        if isinstance(value, list | tuple) and f"{key}_text" not in data:
            data[f"{key}_text"] = ", ".join(str(s) for s in value) or "nothing"
    ply = _ply(data.get("ply"))
    if ply is not None and "ply_text" not in data:
        data["ply_text"] = f"{(ply + 1) // 2}." if ply % 2 else f"{ply // 2}..."
    for key in ("pending", "applied"):
        value = data.get(key)
        if isinstance(value, Mapping) and f"{key}_text" not in data:
            data[f"{key}_text"] = ", ".join(f"{k} {v}" for k, v in value.items())
    reasons = data.get("reasons")
    if isinstance(reasons, list | tuple) and "reasons_text" not in data:
        texts = [_reason(r) for r in reasons if isinstance(r, Mapping)]
        data["reasons_text"] = f" ({', '.join(texts)})" if texts else ""
    elif "reasons_text" not in data:
        data["reasons_text"] = ""
    if "state" in data and isinstance(data["state"], bool):
        data["state"] = "open" if data["state"] else "closed"
    return data


def plural(count: int, one: str, many: str | None = None) -> str:
    """``count`` and the word, singular or plural (no "(s)").

    >>> plural(1, "move"), plural(2, "move"), plural(0, "piece"), plural(3, "ply", "plies")
    ('1 move', '2 moves', '0 pieces', '3 plies')
    """
    return f"{count} {one if count == 1 else many or one + 's'}"


def _worded(event: Mapping[str, object]) -> Mapping[str, object]:
    """``event`` with the counts of its hint reasons in words (``pieces`` 1 -> "1 piece").

    >>> render({"event": "hint", "pdn": "32-28", "reasons": [
    ...     {"kind": "wins_material", "pieces": 1, "moves": 3}]})
    'hint: 32-28 (wins 1 piece within 3 moves)'
    """
    reasons = event.get("reasons")
    if not isinstance(reasons, list | tuple):
        return event
    nouns = {"pieces": "piece", "moves": "move"}
    worded = [{**r, **{k: plural(v, nouns[k]) for k, v in r.items()
                       if k in nouns and isinstance(v, int)}}
              if isinstance(r, Mapping) else r for r in reasons]
    return {**event, "reasons": worded}


def _counted(data: dict[str, object]) -> dict[str, object]:
    """Counts in words: ``plies_text`` ("1 move", "2 moves": a player counts each side's
    turn as a move)."""
    plies = data.get("plies")
    if isinstance(plies, int) and "plies_text" not in data:
        data["plies_text"] = plural(plies, "move")
    return data


def render(event: Mapping[str, object]) -> str | None:
    """Return the one-line text of ``event``, or ``None`` for events that have no text.

    >>> render({"event": "leds", "frame": {}}) is None
    True
    >>> render({"event": "refused", "reason": "no_such_reason"})
    'that move is not legal here'
    """
    kind = str(event.get("event", ""))
    data = _counted(_enrich(_worded(event)))
    for key in (f"{kind}.{data.get('reason')}", kind):
        template = TEMPLATES.get(key)
        if template is None:
            continue
        if not template:
            return None
        if _fields(template) <= data.keys():
            return template.format(**data)
    return kind or None
