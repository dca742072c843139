"""The arbiter console's words (web/arbiter.py): the replies of its decisions, why a board
cannot start a round, the script's own words, and the audit log's entries as the console lists
them, each a catalog's msgid put in the requester's language where it is said.

The audit log itself (Redis, ``/arbiter/audit.json``) is a record, not a page: its entries are
data (an action, its detail, the reason as typed) and the reasons a board did not start a round
are kept in English; only the console's list of them is in the viewer's words.

>>> from firmware_host.i18n import translator
>>> audit_words({"action": "add_time", "board": "hall-1",
...              "detail": {"side": "black", "seconds": 60.0}}, translator("fr"))
'hall-1 : +60 s pour les Noirs'
>>> [translator("ja").gettext(TERMINATIONS[key]) for key in ("time", "adjudication")]
['時間切れ', '裁定']
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_host.feedback.texts import WORDS, render
from firmware_host.i18n import ENGLISH, N_, NN_, Translator
from firmware_host.store.keys import board_order

__all__ = ["ANSWER_WORDS", "CORRECTED_CHOICES", "DECISION_CHOICES", "IMPORTED", "MOVED_ON",
           "NOT_READY", "RESULT_CHOICES", "ROUND_DECISIONS", "SCRIPT_WORDS", "SIDES", "STARTED",
           "TERMINATIONS", "answered", "audit_words", "decision_words", "refusal_words",
           "result_words", "sent_to"]

#: The results an arbiter gives, in words.
RESULT_CHOICES = (("white", N_("White won")), ("black", N_("Black won")), ("draw", N_("Draw")))
#: What becomes of a finished game's result when a move of it is corrected, in words.
CORRECTED_CHOICES = (("keep", N_("Keep the result")),
                     ("withdraw", N_("Withdraw it: play resumes")), *RESULT_CHOICES)
#: A game's end, in words (a flag fall as the clock says it: ``Black won (time)``).
TERMINATIONS = {**WORDS["termination"], "time": N_("time"), "time_forfeit": N_("time"),
                "forfeit": N_("forfeit"), "double forfeit": N_("double forfeit"),
                "bye": N_("bye")}
#: The sides, in words.
SIDES = {"white": N_("White"), "black": N_("Black")}
#: The PDN tags a paired device sets, in words.
TAG_WORDS = {"White": N_("White"), "Black": N_("Black"), "Event": N_("Event"),
             "Round": N_("Round"), "Site": N_("Site")}
#: The words the console's script writes itself (app.js), besides the hall's.
SCRIPT_WORDS = (N_("sending…"), N_("Sent to {board}."), N_("the boards"),
                N_("Not done: {error}"), N_("Not sent: no connection to the web service."),
                N_("Cancelled: nothing was sent."), N_("Reason: {reason}."),
                N_("Waiting on the boards: round {rounds}."),
                N_("No round waits on the boards: import its pairing list above (or "
                   "draughtsboard round import)."),
                N_("Showing {shown} of {count} boards."),
                N_("Look at the boards below, then import it."), N_("Dismiss"))
#: Why a board cannot start its round (``{round}``: the round's number).
NOT_READY = {
    "unknown": N_("(no game recorded: is its board.id right?)"), "offline": N_("(offline)"),
    "no_game": N_("(no game open)"), "started": N_("(started already)"),
    "over": N_("(its last game is over: set up the start position)"),
    "playing": N_("(a game is going on)"),
    "not_waiting": N_("(round {round}'s pairing does not wait for it: import it again)")}
MOVED_ON = N_("{board} has moved on from game {game}: only the game a board shows now can be "
              "decided here")
IMPORTED = NN_("Imported into {round}: {count} board", "Imported into {round}: {count} boards")
#: The console's choices of a decision on a board where no game is played.
DECISION_CHOICES = (
    ("forfeit:white", N_("White did not come: Black wins by forfeit")),
    ("forfeit:black", N_("Black did not come: White wins by forfeit")),
    ("double_forfeit:", N_("Neither came: double forfeit")),
    ("bye:white", N_("Pairing cancelled: a bye for White")),
    ("bye:black", N_("Pairing cancelled: a bye for Black")))
#: The audit entries in words, by action (``{board}``, and the fields of the entry's detail).
AUDIT_WORDS = {
    "pause_all": N_("every clock paused"), "resume_all": N_("every clock resumed"),
    "hold": N_("{board}: clock held"), "release": N_("{board}: clock released"),
    "add_time": N_("{board}: {seconds} s for {side}"),
    "adjudicate": N_("{board}: adjudicated, {result}"),
    "correct_result": N_("{board}: result corrected to {result}"),
    "correct_move": N_("{board}: ply {ply} corrected to {move}"),
    "correct_move.keep": N_("{board}: ply {ply} corrected to {move}, result kept"),
    "correct_move.withdraw": N_("{board}: ply {ply} corrected to {move}, result withdrawn"),
    "correct_move.change": N_("{board}: ply {ply} corrected to {move}, result {result}"),
    "forfeit": N_("{board}: forfeit, {side} did not come"),
    "double_forfeit": N_("{board}: double forfeit"),
    "bye": N_("{board}: a bye for {side}, the pairing cancelled"),
    "carry": N_("{board}: the game carried to {to}"),
    "pair": N_("{board}: paired with {to}, playing {side}"),
    "unpair": N_("{board}: pairing ended, the computer plays again"),
    "rename": N_("{board}: names corrected to {names}"),
    "import": N_("round {round} imported"),
    "header": N_("{board}: {tag} set to {value} by {who}"),
    "revoke_session": N_("arbiter session {session} ended"),
}
#: One board's answer to a decision, after the decision in words (``{why}``: the board's
#: refusal in words).
ANSWER_WORDS = {
    "done": N_("{decision}: done"),
    "refused": N_("{decision}: refused by the board: {why}"),
    "not_reached": N_("{decision}: not sent, the board is offline"),
    "no_answer": N_("{decision}: sent, but the board did not answer (see its card)"),
    "not_needed": N_("{decision}: kept with the round (no game of the round on the board to "
                     "end)"),
}
#: A round's decision (a forfeit, a bye) stands with the round: its words when the board, offline,
#: was not told (its waiting game is the arbiter's to end once it is back).
ROUND_DECISIONS = ("forfeit", "double_forfeit", "bye")
KEPT_OFFLINE = N_("{decision}: kept with the round; not sent, the board is offline (adjudicate "
                  "its game once it is back)")
#: The answers of several boards (a hall's pause, a round's start), each with its boards.
MANY_ANSWERS = {
    "done": N_("done on {boards}"),
    "refused": N_("refused by {boards}"),
    "not_reached": N_("not sent to {boards} (offline)"),
    "no_answer": N_("no answer from {boards}"),
}
#: A board offline during the hall's pause or resume: it follows the hall as it comes back.
HALL_OFFLINE = {"pause_all": N_("offline, paused as it comes back: {boards}"),
                "resume_all": N_("offline, running as it comes back: {boards}")}


def result_words(result: str, tr: Translator = ENGLISH) -> str:
    """The arbiter's result in words (``white`` -> ``White won``).

    >>> result_words("white"), result_words("2-0")
    ('White won', '2-0')
    """
    return tr.gettext(dict(RESULT_CHOICES)[result]) if result in dict(RESULT_CHOICES) else result


def sent_to(tr: Translator, plural: tuple[str, str], boards: list[str], **fields: object) -> str:
    """A reply naming the boards a decision went to, in ``tr``'s language.

    >>> sent_to(ENGLISH, STARTED, ["hall-1"], round="3")
    'Round 3 started on 1 board: hall-1'
    """
    return tr.ngettext(*plural, len(boards)).format(
        count=len(boards), boards=", ".join(boards) or tr.gettext(N_("none")), **fields)


#: A round started: the boards that carried it out.
STARTED = NN_("Round {round} started on {count} board: {boards}",
                     "Round {round} started on {count} boards: {boards}")


def refusal_words(answer: Mapping[str, object], tr: Translator = ENGLISH) -> str:
    """Why a board refused, in words (its refusal event rendered in ``tr``'s language).

    >>> refusal_words({"answer": "refused", "reason": "not_a_move", "refusal": {
    ...     "event": "command_refused", "command": "correct_move", "reason": "not_a_move"}})
    'correct_move: that move is not legal there'
    """
    refusal = answer.get("refusal")
    if isinstance(refusal, Mapping):
        said = render(refusal, tr)
        if said:
            return said
    return str(answer.get("reason", "?"))


def answered(decision: str, answers: Mapping[str, Mapping[str, object]], action: str,
             tr: Translator = ENGLISH) -> str:
    """A decision in words with what the boards answered (``answers``: by board, as the audit
    entry keeps them; none: nothing was recorded).

    >>> answered("hall-1: +60 s for Black", {"hall-1": {"answer": "done"}}, "add_time")
    'hall-1: +60 s for Black: done'
    >>> answered("every clock paused", {"hall-1": {"answer": "done"},
    ...     "hall-2": {"answer": "not_reached"}}, "pause_all")
    'every clock paused: done on hall-1; offline, paused as it comes back: hall-2'
    """
    if not answers:
        return decision
    if len(answers) == 1 and action not in HALL_OFFLINE and action != "start_round":
        (answer,) = answers.values()
        key = str(answer.get("answer"))
        words = ANSWER_WORDS.get(key, ANSWER_WORDS["no_answer"])
        if key == "not_reached" and action in ROUND_DECISIONS:
            words = KEPT_OFFLINE
        return tr.gettext(words).format(decision=decision, why=refusal_words(answer, tr))
    parts = []
    for key in ("done", "refused", "not_reached", "no_answer"):
        boards = sorted((b for b, a in answers.items() if a.get("answer") == key),
                        key=board_order)
        if not boards:
            continue
        if key == "refused":
            said = ", ".join(f"{b} ({refusal_words(answers[b], tr)})" for b in boards)
            parts.append(tr.gettext(MANY_ANSWERS[key]).format(boards=said))
        elif key == "not_reached" and action in HALL_OFFLINE:
            parts.append(tr.gettext(HALL_OFFLINE[action]).format(boards=", ".join(boards)))
        else:
            parts.append(tr.gettext(MANY_ANSWERS[key]).format(boards=", ".join(boards)))
    return tr.gettext(N_("{decision}: {answers}")).format(decision=decision,
                                                          answers="; ".join(parts))


def decision_words(entry: Mapping[str, object], tr: Translator = ENGLISH) -> str:
    """What an audit entry decided, in words (without the boards' answers).

    >>> decision_words({"action": "correct_move", "board": "hall-2",
    ...                 "detail": {"ply": 69, "move": "46-41", "result": "keep"}})
    'hall-2: ply 69 corrected to 46-41, result kept'
    """
    action, board = str(entry.get("action", "")), str(entry.get("board", ""))
    raw = entry.get("detail")
    detail = raw if isinstance(raw, dict) else {}
    if action == "start_round":
        return _round_words(detail, tr)
    key = action
    if action == "correct_move" and "result" in detail:
        chosen = str(detail["result"])
        key = f"{action}.{chosen if chosen in ('keep', 'withdraw') else 'change'}"
    if key not in AUDIT_WORDS:
        return f"{board}: {action}"
    seconds, side = detail.get("seconds"), str(detail.get("side", "?"))
    return tr.gettext(AUDIT_WORDS[key]).format(
        board=board, seconds=f"{seconds:+g}" if isinstance(seconds, int | float) else "?",
        side=tr.gettext(SIDES[side]) if side in SIDES else side,
        result=result_words(str(detail.get("result", "?")), tr),
        ply=detail.get("ply", "?"), move=detail.get("move", "?"), to=detail.get("to", "?"),
        round=" ".join(str(detail.get(k, "")) for k in ("round", "event")).strip() or "?",
        names=" – ".join(str(v) for v in (detail.get("after") or {}).values()
                         if isinstance(detail.get("after"), dict)) or "?",
        tag=tr.gettext(TAG_WORDS.get(str(detail.get("tag")), str(detail.get("tag", "?")))),
        value=detail.get("value", "?"), session=detail.get("session", "?"),
        who=entry.get("who", "?"))


def audit_words(entry: Mapping[str, object], tr: Translator = ENGLISH) -> str:
    """An audit entry in words, as the console lists it (in ``tr``'s language): the decision
    and what the boards answered.

    >>> audit_words({"action": "add_time", "board": "hall-1",
    ...              "detail": {"side": "black", "seconds": 60.0}})
    'hall-1: +60 s for Black'
    >>> audit_words({"action": "correct_result", "board": "hall-2", "detail": {"result": "draw"},
    ...              "answers": {"hall-2": {"answer": "refused", "reason": "not_over"}}})
    'hall-2: result corrected to Draw: refused by the board: not_over'
    """
    raw = entry.get("answers")
    answers = raw if isinstance(raw, Mapping) else {}
    return answered(decision_words(entry, tr),
                    {str(b): a for b, a in answers.items() if isinstance(a, Mapping)},
                    str(entry.get("action", "")), tr)


def _round_words(detail: dict[object, object], tr: Translator) -> str:
    """A started round in words (each board's reason as the log keeps it, in English, put in
    ``tr``'s words).

    >>> _round_words({"round": "3", "boards": ["hall-1", "hall-2"],
    ...               "not_started": {"hall-3": "(offline)"}}, ENGLISH)
    'round 3 started on hall-1, hall-2; not on hall-3 (offline)'
    """
    boards, missed, number = detail.get("boards"), detail.get("not_started"), detail.get("round")
    words = tr.gettext(N_("round {round} started on {boards}")).format(
        round=number or "?",
        boards=", ".join(str(b) for b in boards) if isinstance(boards, list) else "?")
    if isinstance(missed, dict) and missed:
        said = {msgid.format(round=number): tr.gettext(msgid).format(round=number)
                for msgid in NOT_READY.values()}
        words += tr.gettext(N_("; not on {boards}")).format(boards="; ".join(
            f"{b} {said.get(str(why), why)}" for b, why in missed.items()))
    return words
