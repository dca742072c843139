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

from firmware_host.feedback.texts import WORDS
from firmware_host.i18n import ENGLISH, N_, NN_, Translator

__all__ = ["DECIDED", "DECISION_CHOICES", "IMPORTED", "MOVED_ON", "NOT_READY", "PAUSED",
           "RESULT_CHOICES", "RESUMED", "SCRIPT_WORDS", "SIDES", "STARTED", "TERMINATIONS",
           "audit_words", "result_words", "sent_to"]

#: The results an arbiter gives, in words.
RESULT_CHOICES = (("white", N_("White won")), ("black", N_("Black won")), ("draw", N_("Draw")))
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
                N_("Look at the boards below, then import it."))
#: Why a board cannot start its round (``{round}``: the round's number).
NOT_READY = {
    "unknown": N_("(no game recorded: is its board.id right?)"), "offline": N_("(offline)"),
    "no_game": N_("(no game open)"), "started": N_("(started already)"),
    "over": N_("(its last game is over: set up the start position)"),
    "playing": N_("(a game is going on)"),
    "not_waiting": N_("(round {round}'s pairing does not wait for it: import it again)")}
PAUSED = NN_("Pause sent to {count} board: {boards}", "Pause sent to {count} boards: {boards}")
RESUMED = NN_("Resume sent to {count} board: {boards}",
              "Resume sent to {count} boards: {boards}")
STARTED = NN_("Round {round} started on {count} board: {boards}",
              "Round {round} started on {count} boards: {boards}")
MOVED_ON = N_("{board} has moved on from game {game}: only the game a board shows now can be "
              "decided here")
IMPORTED = NN_("Imported into {round}: {count} board", "Imported into {round}: {count} boards")
#: A decision on a board where no game is played, as the reply says it.
DECIDED = {
    "forfeit": N_("Sent to {board}: a forfeit ({white} – {black}); its pairing withdrawn"),
    "double_forfeit": N_("Sent to {board}: a double forfeit ({white} – {black}); its pairing "
                         "withdrawn"),
    "bye": N_("Sent to {board}: a bye ({white} – {black}); its pairing withdrawn")}
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
    "add_time": N_("{board}: {seconds} s for {side}"),
    "adjudicate": N_("{board}: adjudicated, {result}"),
    "correct_result": N_("{board}: result corrected to {result}"),
    "correct_move": N_("{board}: ply {ply} corrected to {move}"),
    "forfeit": N_("{board}: forfeit, {side} did not come"),
    "double_forfeit": N_("{board}: double forfeit"),
    "bye": N_("{board}: a bye for {side}, the pairing cancelled"),
    "carry": N_("{board}: the game carried to {to}"),
    "rename": N_("{board}: names corrected to {names}"),
    "import": N_("round {round} imported"),
    "header": N_("{board}: {tag} set to {value} by {who}"),
    "revoke_session": N_("arbiter session {session} ended"),
}


def result_words(result: str, tr: Translator = ENGLISH) -> str:
    """The arbiter's result in words (``white`` -> ``White won``).

    >>> result_words("white"), result_words("2-0")
    ('White won', '2-0')
    """
    return tr.gettext(dict(RESULT_CHOICES)[result]) if result in dict(RESULT_CHOICES) else result


def sent_to(tr: Translator, plural: tuple[str, str], boards: list[str], **fields: object) -> str:
    """A reply naming the boards a decision went to, in ``tr``'s language.

    >>> sent_to(ENGLISH, PAUSED, ["hall-1"]), sent_to(ENGLISH, RESUMED, [])
    ('Pause sent to 1 board: hall-1', 'Resume sent to 0 boards: none')
    """
    return tr.ngettext(*plural, len(boards)).format(
        count=len(boards), boards=", ".join(boards) or tr.gettext(N_("none")), **fields)


def audit_words(entry: dict[str, object], tr: Translator = ENGLISH) -> str:
    """An audit entry in words, as the console lists it (in ``tr``'s language).

    >>> audit_words({"action": "add_time", "board": "hall-1",
    ...              "detail": {"side": "black", "seconds": 60.0}})
    'hall-1: +60 s for Black'
    >>> audit_words({"action": "correct_result", "board": "hall-2", "detail": {"result": "draw"}})
    'hall-2: result corrected to Draw'
    """
    action, board = str(entry.get("action", "")), str(entry.get("board", ""))
    raw = entry.get("detail")
    detail = raw if isinstance(raw, dict) else {}
    if action == "start_round":
        return _round_words(detail, tr)
    if action not in AUDIT_WORDS:
        return f"{board}: {action}"
    seconds, side = detail.get("seconds"), str(detail.get("side", "?"))
    return tr.gettext(AUDIT_WORDS[action]).format(
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
