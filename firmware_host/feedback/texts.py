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

from firmware_host.i18n import ENGLISH, N_, NN_, Translator

#: What a session state is called to a person (the web pages, the demo's status line).
STATE_NAMES: Mapping[str, str] = {
    "syncing": N_("setting the board"), "human_to_move": N_("waiting for a move"),
    "move_in_progress": N_("move in progress"), "adjusting": N_("j'adoube"),
    "engine_thinking": N_("thinking"), "computer_move_pending": N_("computer's move on the LEDs"),
    "game_over": N_("game over"), "setting_up": N_("setting up a new game"),
    "paused": N_("clock held"),
    "correction": N_("correction needed"), "unknown": N_("unknown"),
}

#: The events that carry their sentence whole (``message``, ``values``, ``words``: see
#: :func:`message_text`) rather than as a row of :data:`TEMPLATES`: the coach's exercises.
CARRIED: frozenset[str] = frozenset({"lesson"})

#: Templates keyed by ``event`` or ``event.reason`` (the more specific key wins). Fields are the
#: event's keys; a template whose fields are missing from the event falls back to the event key.
TEMPLATES: Mapping[str, str] = MappingProxyType({
    "move": N_("{ply_text} {pdn}"),
    "computer_move": N_("the computer plays {pdn}: carry it out on the board"),
    "computer_move.follow": N_("{pdn} in the followed game: carry it out on the board"),
    # a person on another board (the ``opponent`` field: their name, when the game has one)
    "computer_move.remote": N_("your opponent plays {pdn}: carry it out on the board"),
    "computer_move.remote.named": N_("{opponent} plays {pdn}: carry it out on the board"),
    "refused": N_("that move is not legal here"),
    "refused.capture_compulsory": N_("a capture is compulsory: {capture}"),
    # counted: PLURALS has its forms (this is the plural's English, for the key's presence)
    "refused.max_capture": "you must take the maximum: {count} pieces",
    "refused.capture_precedence": N_("another capture comes first: {capture}"),
    "refused.king_priority": N_("capturing with the king comes first: {capture}"),
    # A rated game's refusal names the rule, not the move (no ``capture``, no ``count``):
    # each reason's bare sentence, as an arbiter says it.
    "refused.capture_compulsory.bare": N_("illegal move: a capture is compulsory"),
    "refused.max_capture.bare": N_("illegal move: you must take the maximum"),
    "refused.capture_precedence.bare": N_("illegal move: another capture comes first"),
    "refused.king_priority.bare": N_("illegal move: capturing with the king comes first"),
    "refused.touch_move": N_("touch-move: you touched {square}, you must move it"),
    "refused.not_side_to_move": N_("it is {side}'s turn: {squares_text} is the other side's"),
    "refused.wrong_computer_move": N_("the computer played {expected}, not {played}"),
    "refused.not_a_move": N_("that is not a legal move"),
    "refused.unknown_piece": N_("a piece appeared on {squares_text}"),
    "refused.wrong_colour": N_("a piece of the wrong colour on {squares_text}"),
    "refused.ambiguous": N_("two moves fit the board: {pdn_text}; play it again step by step"),
    "refused.paused": N_("the clock is stopped: {pdn} does not count, put it back"),
    "touch": N_("touch-move: {square} was touched and must be moved"),
    "adjust": N_("adjust window {state}"),
    "correction": N_("put back on: {missing_text}; take away: {extra_text}"),
    "synced": N_("board in sync with the game"),
    "setup": N_("set up the position: {pieces_text}"),
    "position_set": N_("the position is set: {side} to move"),
    # The coach's exercises (firmware_host/coach/lessons.py): a lesson's sentence comes said,
    # in the board's language (its ``text``: the terminal, the voice, the feed show it).
    # (its ``message`` and ``values`` too: a viewer's page says it in the viewer's language).
    "coach": "",
    "lesson": "",
    # Reviewing the last game on the board (firmware_host/coach/review.py).
    "review.start": N_("review of the last game: done (or the game's next move by hand) steps "
                       "on, takeback steps back; mistakes to look at: {mistakes}"),
    # ... by who analyses the board's games (the event's ``case``: ``coach.analyse``)
    "review.not_analysed": N_("the last game is not analysed yet: the board analyses it while "
                              "it is idle; press done to look again"),
    "review.not_analysed.queue": N_("the last game is not analysed yet: it waits for the "
                                    "hall's analysts (draughtsboard coach worker; draughtsboard "
                                    "coach status shows the queue); press done to look again"),
    "review.not_analysed.off": N_("the last game is not analysed: this board does not analyse "
                                  "its games (coach.analyse = off). Set coach.analyse = idle "
                                  "and restart to review the games after it; draughtsboard "
                                  "annotate marks this game's mistakes in its PDN file"),
    "review.no_game": N_("there is no finished game to review"),
    "review.step": N_("after {move}: put the pieces where the lights show"),
    "review.moved": N_("{move}, as in the game"),
    "review.first": N_("the start of the game"),
    "review.mistake": N_("here {played} was played ({mark}); better was {better}: try it by "
                         "hand, or press done to go on"),
    "review.reply": N_("you played {tried}; the engine answers {reply}: carry it out on the "
                       "board"),
    "review.line": N_("play on in this line, or press done to set the game's position back"),
    "review.line_over": N_("the line ends here: press done to set the game's position back"),
    "review.back": N_("back to the game: put the pieces where the lights show"),
    "review.end": N_("the end of the game: takeback steps back"),
    "review.left": N_("the review is over"),
    "command_refused.review": N_("{command}: not while reviewing a game"),
    "hint": N_("hint: {pdn}{reasons_text}"),
    "hint_refused": N_("no hint now"),
    "hint_refused.mode": N_("hints are not available in {mode} mode"),
    "hint_refused.not_your_turn": N_("a hint is for your own turn"),
    "hint_refused.not_ready": N_("no hint yet: first put the pieces as the lights show"),
    "hint_refused.game_over": N_("the game is over: no hints (newgame starts another)"),
    # counted: PLURALS has its forms (a language agrees the verb with the count)
    "takeback": "took back {plies_text}, {side} to move",
    "takeback_refused": N_("takebacks are not available in {mode} mode"),
    "takeback_refused.nothing": N_("nothing to take back: you have not moved yet"),
    "command_refused": N_("{command}: not now"),
    "command_refused.board_size": N_("{value} is played on another board: not on this one"),
    "command_refused.board_layout": N_("{value} puts its squares elsewhere on this board: set "
                                       "game.variant in the configuration and restart"),
    "command_refused.unknown_variant": N_("there is no variant {value}"),
    "command_refused.no_engine": N_("{command}: this board runs without the built-in engine "
                                    "(set it in the configuration)"),
    "command_refused.bad_value": N_("{command}: that value is not allowed"),
    "command_refused.no_game": N_("{command}: no game in play"),
    "command_refused.game_over": N_("{command}: the game is over"),
    "command_refused.not_your_turn": N_("{command}: only on your own turn"),
    "command_refused.not_ready": N_("{command}: first put the pieces as the lights show"),
    "command_refused.not_adjusting": N_("{command}: no adjust window is open (adjust opens one)"),
    "command_refused.unknown": N_("{command}: there is no such command"),
    "command_refused.no_clock": N_("{command}: this game has no clock"),
    "command_refused.already": N_("{command}: the clock is already so"),
    "command_refused.not_over": N_("{command}: the game is not over (adjudicate it)"),
    "command_refused.in_game": N_("{command}: a game is going on"),
    "command_refused.no_pairing": N_("{command}: no pairing of that round waits for this "
                                     "board"),
    "command_refused.bad_ply": N_("{command}: the game has no such ply"),
    "command_refused.not_a_move": N_("{command}: that move is not legal there"),
    "command_refused.same_move": N_("{command}: that move is the one recorded"),
    "command_refused.hall": N_("{command}: the hall's pause holds every clock (resume them "
                               "all)"),
    "command_refused.which_side": N_("{command}: whose? Press your own side's button (or the "
                                     "arbiter records it)"),
    "command_refused.already_offered": N_("{command}: the offer stands: the other side accepts "
                                          "with its draw button or declines by moving"),
    "command_refused.clock_held": N_("{command}: not while the clock is held (the arbiter "
                                     "records it)"),
    "command_refused.not_your_side": N_("{command}: only for the side you play"),
    "command_refused.no_move_yet": N_("{command}: not before the first move"),
    "command_refused.offer_after_moving": N_("{command}: offer a draw after your own move"),
    "command_refused.too_early": N_("{command}: no draw offer before move {count}"),
    "command_refused.bad_board": N_("{command}: {value} is no board's id (letters, digits, - "
                                    "and _, as the shared Redis knows it: club-b-1)"),
    "command_refused.self": N_("{command}: a board cannot play itself"),
    "command_refused.no_link": N_("{command}: this board has no Redis another board reaches "
                                  "(store.url or remote.url)"),
    "paired": N_("from the next game you play {side} against the person at board {partner}"),
    "paired.ended": N_("from the next game the computer plays again"),
    "command_refused.no_claim": N_("{command}: only when your opponent's board has been "
                                   "silent, their turn, for the minutes set"),
    "settings": N_("set for the next game: {pending_text}"),
    "settings_applied": N_("this game: {applied_text}"),
    "header": N_("{tag}: {value}"),
    "alternative_move": N_("you played {pdn} for the computer"),
    "engine_error": N_("the engine failed ({error}): playing a legal move instead"),
    "resumed": N_("resumed game {game_id} at ply {ply}"),
    "resume_failed": N_("could not resume the saved game: {reason}"),
    "sensor_fault": N_("sensor fault at {square}"),
    "sensor_recovered": N_("sensor at {square} works again"),
    "link": N_("board link {state}"),
    "result": N_("game over: {result} ({termination})"),
    "new_game": N_("new game ({variant}, {mode} mode)"),
    "newgame_requested": N_("set up the initial position to start a new game"),
    "draw_declined": N_("the computer declines the draw"),
    "draw_declined.moved": N_("{side} declines the draw by moving"),
    "draw_offer": N_("{side} offers a draw"),
    "takeback_asked": N_("{side} asks to take back a move: the other player agrees with "
                         "their takeback button or declines by moving"),
    "takeback_declined.moved": N_("{side} declines the takeback by moving"),
    "claim_offered": N_("your opponent's board has been silent for {minutes} min: claim the "
                        "game on the phone, a draw with the draw button, or wait"),
    "claim_withdrawn": N_("your opponent's board is back"),
    "answer": "",
    "state": "",
    "clock": "",
    "leds": "",
})


#: Templates with a count: key -> (singular, plural, the counted field), the form chosen by the
#: language's plural rule (Russian has three: 1 шашку, 3 шашки, 5 шашек).
PLURALS: Mapping[str, tuple[tuple[str, str], str]] = MappingProxyType({
    "refused.max_capture": (NN_("you must take the maximum: {count} piece",
                                "you must take the maximum: {count} pieces"), "count"),
    "takeback": (NN_("took back {plies_text}, {side} to move",
                     "took back {plies_text}, {side} to move"), "plies"),
})

#: Counted words: a count field -> its (singular, plural), ``{count}`` the number.
COUNTED: Mapping[str, tuple[str, str]] = MappingProxyType({
    "pieces": NN_("{count} piece", "{count} pieces"),
    "moves": NN_("{count} move", "{count} moves"),
    "plies": NN_("{count} move", "{count} moves"),  # a player counts each side's turn a move
})

#: The words of an event's values that a sentence puts in (side, mode, ...), by field.
WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "side": {"white": N_("white"), "black": N_("black")},
    "mode": {"play": N_("play"), "teach": N_("teach"), "record": N_("record"),
             "review": N_("review")},
    "touch_move": {"strict": N_("strict"), "off": N_("off"),
                   "auto": N_("auto: strict when recording")},
    "ponder": {"on": N_("on"), "off": N_("off"), "auto": N_("auto: where a core is free")},
    "termination": {
        "no_moves": N_("no moves left"), "repetition": N_("threefold repetition"),
        "draw_rule": N_("draw rule"), "resignation": N_("resignation"),
        "draw_agreed": N_("draw agreed"), "time": N_("lost on time"),
        "time_forfeit": N_("lost on time"),  # the older records' name
        "adjudication": N_("adjudication"), "abandoned": N_("abandoned"),
        "forfeit": N_("forfeit"),
        "unknown": N_("unknown")},
    "link_state": {"lost": N_("lost"), "restored": N_("restored")},
    "window": {"open": N_("open"), "closed": N_("closed")},
})

#: Why a hinted move is good, per ``engine.hint.ReasonKind`` value. ``pieces`` and ``moves``
#: are counted in words ("1 piece", "3 moves") before they are put in.
REASONS: Mapping[str, str] = MappingProxyType({
    "only_move": N_("the only legal move"),
    "captures": N_("captures {pieces}"),
    "promotes": N_("crowns a man"),
    "wins_material": N_("wins {pieces} within {moves}"),
    "avoids_loss": N_("stops a threat to {pieces}"),
    "wins_game": N_("wins in {moves}"),
    "wins_endgame": N_("a won ending: it converts within {moves}"),
    "loses_game": N_("holds out longest"),
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


def _reason(reason: Mapping[str, object], tr: Translator = ENGLISH) -> str:
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
    return tr.gettext(template).format(**{name: str(reason[name])[:80] for name in names})


#: The fields that list squares (or moves): each said as ``KEY_text``, "nothing" when empty.
_SQUARE_LISTS = ("missing", "extra", "squares", "pdn")
#: A ``setup`` event's squares, each list said with its words (``pieces_text``: those lit).
SETUP_PARTS: Mapping[str, str] = MappingProxyType({
    "white": N_("white men on {squares}"), "black": N_("black men on {squares}"),
    "white_kings": N_("white kings on {squares}"), "black_kings": N_("black kings on {squares}"),
    "remove": N_("take off {squares}"),
})


def _enrich(event: Mapping[str, object]) -> dict[str, object]:
    data = dict(event)
    for key in _SQUARE_LISTS:
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


def _counting(tr: Translator, field: str, count: int) -> str:
    """``count`` of the thing ``field`` counts, in words of ``tr``'s language."""
    singular, plural_form = COUNTED[field]
    return tr.ngettext(singular, plural_form, count).format(count=count)


def _worded(event: Mapping[str, object], tr: Translator = ENGLISH) -> Mapping[str, object]:
    """``event`` with the counts of its hint reasons in words (``pieces`` 1 -> "1 piece").

    >>> render({"event": "hint", "pdn": "32-28", "reasons": [
    ...     {"kind": "wins_material", "pieces": 1, "moves": 3}]})
    'hint: 32-28 (wins 1 piece within 3 moves)'
    """
    reasons = event.get("reasons")
    if not isinstance(reasons, list | tuple):
        return event
    worded = [{**r, **{k: _counting(tr, k, v) for k, v in r.items()
                       if k in ("pieces", "moves") and isinstance(v, int)
                       and not isinstance(v, bool)}}
              if isinstance(r, Mapping) else r for r in reasons]
    return {**event, "reasons": worded}


def _counted(data: dict[str, object], tr: Translator = ENGLISH) -> dict[str, object]:
    """Counts in words: ``plies_text`` ("1 move", "2 moves": a player counts each side's
    turn as a move)."""
    plies = data.get("plies")
    if isinstance(plies, int) and not isinstance(plies, bool) and "plies_text" not in data:
        data["plies_text"] = _counting(tr, "plies", plies)
    return data


#: The word of an empty list of squares or moves.
NOTHING = N_("nothing")


def variant_name(name: str, tr: Translator = ENGLISH) -> str:
    """A variant as a sentence names it: its key in English (``russian``, as the command line
    takes it), its name in words in another language.

    >>> from firmware_host.i18n import translator
    >>> variant_name("russian"), variant_name("russian", translator("ja"))
    ('russian', 'ロシア式チェッカー')
    """
    if tr.language == ENGLISH.language:
        return name
    from firmware_host.i18n.variants import variant_words

    return tr.gettext(variant_words(name))


def _localised(event: Mapping[str, object], tr: Translator) -> dict[str, object]:
    """``event`` with the words a sentence puts in (sides, modes, states, an empty list, the
    hint's reasons) in ``tr``'s language, before :func:`_enrich` fills in the rest.

    >>> from firmware_host.i18n import translator
    >>> render({"event": "takeback", "plies": 2, "side": "black"}, translator("nl"))
    '2 zetten teruggenomen, zwart is aan zet'
    """
    data = dict(event)
    kind = data.get("event")
    variant = data.get("variant")
    if isinstance(variant, str):
        data["variant"] = variant_name(variant, tr)
    for field, words in WORDS.items():
        value = data.get(field)
        if isinstance(value, str) and value in words:
            data[field] = tr.gettext(words[value])
    state = data.get("state")
    if kind == "adjust" and isinstance(state, bool):
        data["state"] = tr.gettext(WORDS["window"]["open" if state else "closed"])
    elif kind == "link" and isinstance(state, str) and state in WORDS["link_state"]:
        data["state"] = tr.gettext(WORDS["link_state"][state])
    for key in _SQUARE_LISTS:
        value = data.get(key)
        if isinstance(value, list | tuple) and not value and f"{key}_text" not in data:
            data[f"{key}_text"] = tr.gettext(NOTHING)
    if kind == "setup" and "pieces_text" not in data:
        data["pieces_text"] = "; ".join(
            tr.gettext(words).format(squares=", ".join(str(sq) for sq in squares))
            for key, words in SETUP_PARTS.items()
            if isinstance(squares := data.get(key), list | tuple) and squares)
    reasons = data.get("reasons")
    if isinstance(reasons, list | tuple) and "reasons_text" not in data:
        texts = [_reason(r, tr) for r in reasons if isinstance(r, Mapping)]
        data["reasons_text"] = f" ({', '.join(texts)})" if texts else ""
    return data


def render(event: Mapping[str, object], tr: Translator = ENGLISH) -> str | None:
    """Return the one-line text of ``event`` in ``tr``'s language (English unless given), or
    ``None`` for events that have no text.

    >>> render({"event": "leds", "frame": {}}) is None
    True
    >>> render({"event": "refused", "reason": "no_such_reason"})
    'that move is not legal here'
    >>> from firmware_host.i18n import translator
    >>> render({"event": "refused", "reason": "max_capture", "count": 2}, translator("ru"))
    'нужно взять максимум: 2 шашки'
    >>> render({"event": "refused", "reason": "capture_compulsory"})  # a rated game's
    'illegal move: a capture is compulsory'
    >>> render({"event": "review", "reason": "not_analysed", "case": "queue"})[:50]
    'the last game is not analysed yet: it waits for th'
    """
    kind = str(event.get("event", ""))
    data = _counted(_enrich(_localised(_worded(event, tr), tr)), tr)
    reason = f"{kind}.{data.get('reason')}"
    # (``.named``: said with a name the event has; ``.<case>``: the case the event names;
    # ``.bare``: without the details)
    case = data.get("case")
    cased = (f"{reason}.{case}",) if isinstance(case, str) and case.isidentifier() else ()
    for key in (f"{reason}.named", *cased, reason, f"{reason}.bare", kind):
        template = TEMPLATES.get(key)
        if template is None:
            continue
        if not template:
            return None
        counted = PLURALS.get(key)
        count = data.get(counted[1]) if counted else None
        if counted and isinstance(count, int) and not isinstance(count, bool):
            template = tr.ngettext(*counted[0], count)
        else:
            template = tr.gettext(template)
        if _fields(template) <= data.keys():
            return template.format(**data)
    return kind or None


def message_text(message: str, values: Mapping[str, str], words: frozenset[str] = frozenset(),
                 tr: Translator = ENGLISH) -> str | None:
    """A sentence carried whole by its event (a ``lesson``: its ``message``, its ``values``, and
    the ``words``: the values that are messages themselves) in ``tr``'s language; None when the
    event is not one this version can say: a field that is more than a name (an attribute, an
    index, a format), or a value missing.

    >>> from firmware_host.i18n import translator
    >>> message_text("Drill {number} of {count}. Set up the position the lights show.",
    ...              {"number": "1", "count": "6"}, tr=translator("ru")).startswith("Упражнение")
    True
    >>> message_text("{x.__class__}", {"x": "a"}) is None, message_text("{y}", {}) is None
    (True, True)
    """
    template = tr.gettext(message)
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion or name not in values:
            return None
    return template.format(**{key: tr.gettext(value) if key in words else value
                              for key, value in values.items()})


def _carried(event: Mapping[str, object], tr: Translator) -> str | None:
    """The sentence an event carries whole (:func:`message_text`), if it is one."""
    message, values, words = event.get("message"), event.get("values"), event.get("words", [])
    if not isinstance(message, str) or not isinstance(values, Mapping) or \
            not isinstance(words, list):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in values.items()):
        return None
    return message_text(message, values, frozenset(w for w in words if isinstance(w, str)), tr)


def said(event: Mapping[str, object], tr: Translator = ENGLISH) -> str | None:
    """The sentence of a stored event, in ``tr``'s language (a viewer's, not the board's).

    An event carries its message key (``event``, and ``reason`` where there is one) and its
    values: the sentence is rendered from them in the viewer's language. The board's own text
    (``text``, in the board's language, kept for the log) is shown only when this version
    cannot render the event (a newer board's kind), rather than its bare key.

    >>> from firmware_host.i18n import translator
    >>> event = {"event": "computer_move", "pdn": "g5-h4",
    ...          "text": "компьютер ходит g5-h4: сделайте этот ход на доске"}
    >>> said(event)
    'the computer plays g5-h4: carry it out on the board'
    >>> said(event, translator("ja"))
    'コンピューターの手は g5-h4：盤で指してください'
    >>> said({"event": "new_kind", "text": "un texte"})
    'un texte'
    """
    kind = event.get("event")
    text = _carried(event, tr) if kind in CARRIED else None
    text = text or render(event, tr)
    own = event.get("text")
    if (text is None or text == kind) and isinstance(own, str) and own:
        return own[:500]
    return text[:500] if text else text  # (an event's values are whatever its board wrote)


def said_everywhere(event: Mapping[str, object]) -> dict[str, str]:
    """:func:`said` in every language the board speaks (a feed shared by viewers of every
    language carries them all; each page shows its own).

    >>> sorted(said_everywhere({"event": "synced"}))
    ['en', 'fr', 'ja', 'ko', 'nl', 'pt_BR', 'ru']
    """
    from firmware_host.i18n import LANGUAGES, translator

    out = {}
    for language in LANGUAGES:
        text = said(event, translator(language))
        if text:
            out[language] = text
    return out
