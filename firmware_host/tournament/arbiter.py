"""The arbiter's actions on the boards, each one kept in an audit log in Redis.

Every action goes to the boards the way the web's control does: an entry of the board's command
stream (:mod:`firmware_host.remote.reader`), carried out by the board itself, so the game's
log is only ever written by its board. Each action first adds an entry to the audit log
``draughtsboard:audit-log``, a list of JSON objects (``time``, ``who``, ``action``, ``board``,
``detail``, ``reason``): what was decided, by whom, why; nothing is changed silently. The web
app's Redis user may only append to it (``RPUSH``: store/acl.py), so nobody but the
administrator can trim, delete or rewrite what was decided; an entry's ``id`` is its place in
the list. What is read back is checked like every value the web app reads (a damaged entry is
left out, never a page that fails).

Then the board's answer: the command carries the audit entry's id (``id``) and the time the
console stops waiting (``until``); the board answers on its event feed (an ``answer`` event:
``done``, or ``refused`` with the refusal) and :func:`decide` waits for it, at most
:data:`ANSWER_WAIT_S` seconds. A board offline (its heartbeat: :mod:`firmware_host.web.liveness`)
is not sent anything: ``not_reached``. A board that does not answer in time: ``no_answer`` (it
does not carry the command out later: ``until`` has passed). The answers go to the audit stream
as an entry of their own (``action`` ``answer``, ``detail`` ``of`` the decision's id and the
``answers`` by board), which :func:`audit_entries` folds into the decision's entry: each
decision in the log says what the boards did, not only what was sent.

- :func:`pause_all` / :func:`resume_all`: the hall's pause (kept in Redis,
  :mod:`firmware_host.tournament.hall`: a board that starts or comes back during it is
  paused), sent to every board online;
- :func:`hold` / :func:`release`: one board's clock held (a claim) and released (also a
  corrected position once it is set up);
- :func:`add_time`: seconds more (or less) for one side of one board;
- :func:`adjudicate`: the game in play on a board ends with the arbiter's result;
- :func:`correct_result`: the finished game on a board gets another result;
- :func:`correct_move`: the game on a board is taken back to before a ply and the right move
  played there (the board then guides the players to set up the corrected position);
- :func:`start_round`: the boards of an imported round start it at once: each one's game
  waiting at the start takes its pairing (the players' names, and the round's local start date
  and time as its PDN ``Date`` and ``Time``) and its clock starts, full;
- :func:`decide_board`: no game on a board of a round: a forfeit (one player did not come), a
  double forfeit, a bye; kept with the round (its export's results), the board's pairing
  withdrawn, and a game of the round waiting on the board ended by it;
- :func:`carry`: the game of a board that failed goes on on a spare board: its moves, names and
  clocks (the spare board reads them itself), the round's pairing moved with it once the spare
  board took it.

A time award the board carried out is also a note of the game's record (an arbiter's ``note``
entry of its log: ``{arbiter: +60 s for Black (reason)}`` in its PDN).

The reason of a result or a corrected move goes with the command (``tag``) and the board keeps
it in the game's record: a comment of its PDN (``{arbiter: result corrected from "2-0" (...)}``,
``{arbiter: 37-32 corrected to 33-29 (ply 3; ...)}``).

The board checks each command again: its answer is the decision's outcome, a board decision
of a round's (:func:`decide_board`) and a :func:`carry`'s too.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.typing import EncodableT, FieldT, KeyT, StreamIdT

from firmware_host.digits import is_whole_number
from firmware_host.errors import DraughtsboardError
from firmware_host.i18n import N_
from firmware_host.store.client import Command, text
from firmware_host.store.keys import (
    AUDIT,
    ROUND_INDEX,
    BoardKeys,
    board_id_problem,
    board_order,
    round_key,
)
from firmware_host.store.records import arbiter_op
from firmware_host.store.replies import newest_id, pairs, stream_entries
from firmware_host.terms.commands import MAX_HEADER_LENGTH, SIDES, STREAM_LENGTH
from firmware_host.tournament.hall import HallState, clear_hall, store_hall
from firmware_host.tournament.pairing import Pairing, is_round, pairing_key
from firmware_host.tournament.rounds import (
    BoardDecision,
    StoredRound,
    audit_entry,
    index_entry,
    round_commands,
)

__all__ = ["ANSWER_WAIT_S", "AUDIT", "AUDIT_READ", "Answer", "ArbiterError", "Decided",
           "add_time", "adjudicate", "answers_of", "audit", "audit_entries", "carry",
           "checked_entry",
           "correct_move", "correct_result", "decide", "decide_board", "hold", "pause_all",
           "release", "resume_all", "round_pairings", "run_commands", "start_round",
           "stored_rounds"]

#: How long a decision waits for the boards' answers (seconds).
ANSWER_WAIT_S = 5.0
#: A board's answers: done, refused (and why), not reached (offline: nothing sent), no answer;
#: and not needed: a decision of the round with nothing for the board to carry out (a forfeit
#: on a board whose game is not the round's), kept with the round.
DONE, REFUSED, NOT_REACHED, NO_ANSWER = "done", "refused", "not_reached", "no_answer"
NOT_NEEDED = "not_needed"
ANSWERS = (DONE, REFUSED, NOT_REACHED, NO_ANSWER, NOT_NEEDED)
#: The audit log (:data:`firmware_host.store.keys.AUDIT`) read at most at once.
AUDIT_READ = 1000
#: The largest audit entry read (bytes of its JSON).
AUDIT_ENTRY_BYTES = 16 * 1024
#: The boards' answers one audit entry carries at most (a refusal says why in ~300 bytes).
ANSWERS_AN_ENTRY = 25
#: The most time one decision may give or take (seconds).
MAX_ADDED_S = 3600
RESULTS = ("white", "black", "draw")
#: What becomes of a finished game's result when one of its moves is corrected.
CORRECTED_RESULTS = ("keep", "withdraw", *RESULTS)
#: Nothing of a round could start (``{boards}``: each board with why).
NO_BOARD_STARTS = N_("round {round} can start on no board: {boards}")
#: A move as the arbiter writes it (the board reads it in its variant's notation):
#: ``33-28``, ``28x19``, ``c3-d4``, ``a5:c3``.
_MOVE = re.compile(r"[A-Za-z0-9]{1,3}(?:[-x:][A-Za-z0-9]{1,3}){1,20}")


class ArbiterError(DraughtsboardError, ValueError):
    """An action that cannot be carried out as asked; the message says why.

    ``message`` is a catalog's msgid (English, ``{placeholders}``), formatted with ``fields``:
    ``str()`` is the English, :meth:`words` the words in another language.

    >>> error = ArbiterError(N_("side {side}: white or black"), side="'red'")
    >>> str(error)
    "side 'red': white or black"
    """

    def __init__(self, message: str, **fields: object) -> None:
        super().__init__(message.format(**fields))
        self.message = message
        self.fields = fields

    def words(self, gettext: Callable[[str], str]) -> str:
        """The message translated by ``gettext`` (its fields as they are)."""
        return gettext(self.message).format(**self.fields)


def _reason(reason: str, required: bool) -> str:
    reason = reason.strip()
    if required and not reason:
        raise ArbiterError(N_("say why (a reason is kept with the decision)"))
    if len(reason) > MAX_HEADER_LENGTH or not reason.isprintable():
        raise ArbiterError(N_("the reason: at most {count} printable characters"),
                           count=MAX_HEADER_LENGTH)
    return reason


async def audit(client: Redis, who: str, action: str, board: str, reason: str,
                **detail: object) -> str:
    """Add one decision to the audit log; return its id (its place in the log)."""
    length = await client.rpush(AUDIT, audit_entry(who, action, board, reason, time.time(),
                                                   **detail))
    return str(int(length) - 1)


async def run_commands(client: Redis, commands: Iterable[Command]) -> None:
    """Run ``commands`` in one MULTI/EXEC (as :func:`firmware_host.store.client.run`)."""
    pipe = client.pipeline(transaction=True)
    for name, args, kwargs in commands:
        getattr(pipe, name)(*args, **kwargs)
    await pipe.execute()


@dataclass(frozen=True)
class Answer:
    """A board's answer to a decision: ``answer`` (``done``, ``refused``, ``not_reached``,
    ``no_answer``), the refusal's ``reason`` and its event (``refusal``: to say it in words)."""

    answer: str
    reason: str = ""
    refusal: Mapping[str, object] | None = None

    def to_data(self) -> dict[str, object]:
        """The answer as JSON-ready data (the audit entry, the replies)."""
        data: dict[str, object] = {"answer": self.answer}
        if self.reason:
            data["reason"] = self.reason
        if self.refusal:
            data["refusal"] = dict(self.refusal)
        return data

    @classmethod
    def from_data(cls, data: object) -> Answer:
        """An answer read back (a damaged one reads as no answer)."""
        if not isinstance(data, dict) or data.get("answer") not in ANSWERS:
            return cls(NO_ANSWER)
        refusal = data.get("refusal")
        return cls(str(data["answer"]), str(data.get("reason", ""))[:40],
                   refusal if isinstance(refusal, dict) else None)


@dataclass(frozen=True)
class Decided:
    """A decision carried out: its audit entry's ``id`` and each board's :class:`Answer`."""

    id: str
    answers: Mapping[str, Answer]

    def boards(self, *answers: str) -> list[str]:
        """The boards that answered one of ``answers``, in order."""
        return sorted((b for b, a in self.answers.items() if a.answer in answers),
                      key=board_order)

    @property
    def done(self) -> bool:
        """Every board carried it out (or had nothing to carry out)."""
        return all(a.answer in (DONE, NOT_NEEDED) for a in self.answers.values())


async def audit_entries(client: Redis, count: int = 100) -> list[dict[str, object]]:
    """The newest ``count`` decisions (at most :data:`AUDIT_READ`), newest first, as JSON-ready
    data, each with the boards' ``answers`` (``{}``: none recorded, e.g. the web service
    stopped while it waited); a damaged entry (not a JSON object, a time that is not a Unix
    time, a field that is not one line of text) is left out.

    A decision's answers are an entry of their own (``answer``, ``detail.of`` the decision's
    id), appended once the boards answered: the log is append-only."""
    wanted = max(1, min(count, AUDIT_READ))
    pipe = client.pipeline(transaction=False)
    pipe.llen(AUDIT)
    pipe.lrange(AUDIT, -(2 * wanted + 10), -1)  # (answers interleave with the decisions)
    length, raw = await pipe.execute()
    first = (length if isinstance(length, int) else 0) - len(raw)
    answers: dict[str, dict[str, object]] = {}
    out: list[dict[str, object]] = []
    for place, value in reversed(list(enumerate(raw, start=first))):
        entry = checked_entry(value)
        if entry is None:
            continue
        if entry["action"] == "answer":
            of, given = answers_of(entry)
            answers.setdefault(of, {}).update(given)
            continue
        if len(out) < wanted:
            out.append({"id": str(place), **entry, "answers": answers.get(str(place), {})})
    return out


def answers_of(entry: Mapping[str, object]) -> tuple[str, dict[str, dict[str, object]]]:
    """The decision an ``answer`` entry of the log answers (its id) and the answers by board
    it holds, as JSON-ready data (none: a damaged entry)."""
    detail = entry.get("detail")
    if not isinstance(detail, dict) or not isinstance(detail.get("answers"), dict):
        return "", {}
    return str(detail.get("of", "")), {str(b): Answer.from_data(a).to_data()
                                       for b, a in detail["answers"].items()}


def checked_entry(value: object) -> dict[str, object] | None:
    """An audit entry as read, checked (None: damaged): a JSON object of at most
    :data:`AUDIT_ENTRY_BYTES`, its time a Unix time (1970 to year 5138), its texts one line."""
    if not isinstance(value, bytes | str) or len(value) > AUDIT_ENTRY_BYTES:
        return None
    try:
        data = json.loads(value, parse_constant=_no_constant, parse_float=_finite,
                          parse_int=_integer)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    stamp, detail = data.get("time"), data.get("detail", {})
    if (isinstance(stamp, bool) or not isinstance(stamp, int | float)
            or not (math.isfinite(stamp) and 0 <= stamp <= 1e11)):
        return None
    texts = {"who": 200, "action": 40, "board": 80, "reason": 400}
    found = {name: data.get(name, "") for name in texts}
    if not all(isinstance(v, str) and len(v) <= texts[k] and v.isprintable()
               for k, v in found.items()):
        return None
    return {"time": float(stamp), **found, "detail": detail if isinstance(detail, dict) else {}}


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise ValueError(f"{text[:20]}... is too long an integer")
    return int(text)


def _finite(text: str) -> float:
    """A JSON number that is a finite float (``1e400`` is not: a browser reads Infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is not a finite number")
    return value


def events_key(board: str) -> str:
    """The board's event feed, where it answers."""
    return BoardKeys(board).events


async def decide(client: Redis, online: Mapping[str, bool], fields: Mapping[str, str], *,
                 who: str, action: str, board: str, reason: str,
                 wait_s: float = ANSWER_WAIT_S, also: Iterable[Command] = (),
                 now: float | None = None, detail: Mapping[str, object] | None = None,
                 not_needed: Iterable[str] = ()) -> Decided:
    """Log a decision, send its command (``fields``) to every board of ``online`` that is
    online, in one transaction (with the writes ``also``), and wait for their answers; log
    the answers too.

    ``online``: the boards addressed, each with whether its service runs now; ``board``: the
    audit entry's board (``*``: several); ``now``: the decision's Unix time; ``not_needed``:
    boards the decision concerns that have nothing to carry out (answered :data:`NOT_NEEDED`).
    The writes ``also`` are made whether or not a board is reached.
    """
    entry_id = await audit(client, who, action, board, reason, **(detail or {}))
    answers: dict[str, Answer] = {b: Answer(NOT_REACHED) for b, up in online.items() if not up}
    answers.update({b: Answer(NOT_NEEDED) for b in not_needed})
    reached = sorted((b for b, up in online.items() if up), key=board_order)
    if reached:
        answers.update(await _send_and_wait(client, reached, fields, entry_id, wait_s, also,
                                             time.time() if now is None else now))
    elif also:
        await run_commands(client, also)
    ordered = sorted(answers.items(), key=lambda item: board_order(item[0]))
    for start in range(0, len(ordered) or 1, ANSWERS_AN_ENTRY):  # (16 KB an entry at most)
        await client.rpush(AUDIT, audit_entry(
            who, "answer", board, "", time.time(), of=entry_id,
            answers={b: a.to_data() for b, a in ordered[start:start + ANSWERS_AN_ENTRY]}))
    return Decided(entry_id, answers)


async def _send_and_wait(client: Redis, boards: list[str], fields: Mapping[str, str],
                         entry_id: str, wait_s: float, also: Iterable[Command],
                         sent: float) -> dict[str, Answer]:
    """Send ``fields`` to ``boards`` (one transaction with ``also``, one ``time``: ``sent``)
    and read their event feeds, from before the sending, until each has answered
    ``entry_id`` or the time is up."""
    pipe = client.pipeline(transaction=False)
    for board in boards:
        pipe.xrevrange(events_key(board), count=1)
    cursors = {events_key(b): newest_id(reply)
               for b, reply in zip(boards, await pipe.execute(), strict=True)}
    deadline = time.time() + wait_s
    pipe = client.pipeline(transaction=True)
    for name, args, kwargs in also:
        getattr(pipe, name)(*args, **kwargs)
    for board in boards:
        entry: dict[FieldT, EncodableT] = {k: v for k, v in fields.items()}
        entry.update({"id": entry_id, "time": f"{sent:.3f}", "until": f"{deadline:.3f}"})
        pipe.xadd(BoardKeys(board).commands, entry, maxlen=STREAM_LENGTH, approximate=True)
    await pipe.execute()
    by_key = {events_key(b): b for b in boards}
    found: dict[str, Answer] = {}
    while len(found) < len(boards):
        left = deadline + 0.5 - time.time()  # (the board's last moment, and its publishing)
        if left <= 0:
            break
        waiting = {key: cursor for key, cursor in cursors.items() if by_key[key] not in found}
        streams: dict[KeyT, StreamIdT] = {k: v for k, v in waiting.items()}
        reply: object = await client.xread(streams, block=max(1, int(left * 1000)))
        for key, entries in pairs(reply):
            name = _text(key)
            for answer_id, raw in stream_entries(entries):
                cursors[name] = answer_id
                answer = _answer_of(raw, entry_id)
                if answer is not None and name in by_key:
                    found[by_key[name]] = answer
    return {b: found.get(b, Answer(NO_ANSWER)) for b in boards}


def _answer_of(fields: Mapping[bytes, bytes], entry_id: str) -> Answer | None:
    """The answer to ``entry_id`` in an event entry's fields (None: another event)."""
    raw = fields.get(b"event", fields.get("event"))  # type: ignore[call-overload]
    try:
        message = json.loads(raw) if raw is not None else None
    except (ValueError, TypeError):
        return None
    if not isinstance(message, dict) or message.get("event") != "answer" \
            or message.get("id") != entry_id:
        return None
    refusal = message.get("refusal")
    return Answer(DONE if message.get("answer") == DONE else REFUSED,
                  str(message.get("reason", ""))[:40],
                  refusal if isinstance(refusal, dict) else None)


async def pause_all(client: Redis, online: Mapping[str, bool], who: str, reason: str = "",
                    wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Pause the hall: the state in Redis first (a board away reads it as it comes back),
    then ``hall pause`` to every board of ``online`` that is online."""
    why = _reason(reason, required=False)
    await store_hall(client, HallState(True, time.time(), reason=why))
    return await decide(client, online, {"name": "hall", "value": "pause"}, who=who,
                        action="pause_all", board="*", reason=why, wait_s=wait_s,
                        detail={"boards": sorted(online, key=board_order)})


async def resume_all(client: Redis, online: Mapping[str, bool], who: str, reason: str = "",
                     wait_s: float = ANSWER_WAIT_S) -> Decided:
    """End the hall's pause: the state in Redis first, then ``hall resume`` to every board
    online (a board away runs again as it comes back)."""
    why = _reason(reason, required=False)
    await clear_hall(client)
    return await decide(client, online, {"name": "hall", "value": "resume"}, who=who,
                        action="resume_all", board="*", reason=why, wait_s=wait_s,
                        detail={"boards": sorted(online, key=board_order)})


async def hold(client: Redis, board: str, online: bool, who: str, reason: str,
               wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Hold the clock of ``board`` (a claim, a dispute): no move counts until it is released.

    Raises:
        ArbiterError: no reason.
    """
    why = _reason(reason, required=True)
    return await decide(client, {board: online}, {"name": "pause"}, who=who, action="hold",
                        board=board, reason=why, wait_s=wait_s)


async def release(client: Redis, board: str, online: bool, who: str, reason: str,
                  wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Release the clock of ``board``: the arbiter's hold, and a corrected position once the
    board shows it (the board refuses before: the players are setting it up).

    Raises:
        ArbiterError: no reason.
    """
    why = _reason(reason, required=True)
    return await decide(client, {board: online}, {"name": "resume"}, who=who,
                        action="release", board=board, reason=why, wait_s=wait_s)


async def pair(client: Redis, board: str, online: bool, partner: str, side: str, who: str,
               reason: str, wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Pair ``board`` with the board ``partner`` (its id on the Redis both reach; empty: end
    the pairing), ``board``'s player taking ``side``: from its next game, at once when its game
    has not begun (the board carries it out: ``pair``, docs/remote.md).

    Raises:
        ArbiterError: ``partner`` is no board's id, or ``board`` itself; a bad side; a reason
            that is too long.
    """
    problem = board_id_problem(partner) if partner else None
    if problem is not None:
        raise ArbiterError(N_("the board to play: {problem}"), problem=problem)
    if partner == board:
        raise ArbiterError(N_("{board} cannot play itself"), board=board)
    if side not in SIDES:
        raise ArbiterError(N_("side {side}: white or black"), side=repr(side[:20]))
    why = _reason(reason, required=False)
    return await decide(client, {board: online},
                        {"name": "pair", "value": partner, "side": side}, who=who,
                        action="pair" if partner else "unpair", board=board, reason=why,
                        wait_s=wait_s, detail={"to": partner, "side": side})


async def add_time(client: Redis, board: str, online: bool, side: str, seconds: str, who: str,
                   reason: str, wait_s: float = ANSWER_WAIT_S, game_id: str = "",
                   ply: int = 0) -> Decided:
    """Give ``side`` of ``board`` ``seconds`` more (negative: less); once the board carried it
    out, ``game_id`` (the game in play, after ``ply`` moves) gets the award as a note of its
    record, a comment of its PDN.

    Raises:
        ArbiterError: a bad side, an amount out of range, no reason.
    """
    if side not in ("white", "black"):
        raise ArbiterError(N_("side {side}: white or black"), side=repr(side))
    try:
        amount = float(seconds)
    except ValueError:
        raise ArbiterError(N_("{seconds} is not a number of seconds"),
                           seconds=repr(seconds)) from None
    if not math.isfinite(amount) or not -MAX_ADDED_S <= amount <= MAX_ADDED_S or amount == 0:
        raise ArbiterError(N_("seconds: -{most} to {most}, not 0"), most=MAX_ADDED_S)
    why = _reason(reason, required=True)
    decided = await decide(client, {board: online},
                           {"name": "add_time", "side": side, "value": f"{amount:g}"}, who=who,
                           action="add_time", board=board, reason=why, wait_s=wait_s,
                           detail={"side": side, "seconds": amount, "game_id": game_id})
    if game_id and decided.done:
        note = f"arbiter: {amount:+g} s for {side.capitalize()} ({why})"
        await client.xadd(BoardKeys(board).amendments(game_id),
                          arbiter_op("note", {"ply": ply, "text": note}))  # type: ignore[arg-type]
    return decided


def _result(result: str) -> str:
    if result not in RESULTS:
        raise ArbiterError(N_("result {result}: one of {results}"), result=repr(result),
                           results=", ".join(RESULTS))
    return result


def _game_id(game_id: str) -> str:
    if len(game_id) > MAX_HEADER_LENGTH or not game_id.isprintable():
        raise ArbiterError(N_("not a game id"))
    return game_id


async def adjudicate(client: Redis, board: str, online: bool, result: str, who: str,
                     reason: str, game_id: str = "", wait_s: float = ANSWER_WAIT_S) -> Decided:
    """End the game in play on ``board``: ``result`` is the winner (``white``, ``black``) or
    ``draw``; ``game_id`` (the game the arbiter saw) goes into the audit entry.

    Raises:
        ArbiterError: a bad result, no reason.
    """
    _result(result)
    why = _reason(reason, required=True)
    return await decide(client, {board: online},
                        {"name": "adjudicate", "value": result, "tag": why}, who=who,
                        action="adjudicate", board=board, reason=why, wait_s=wait_s,
                        detail={"result": result, "game_id": _game_id(game_id)})


async def correct_result(client: Redis, board: str, online: bool, result: str, who: str,
                         reason: str, game_id: str, wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Give the finished game ``game_id`` on ``board`` (the board's game now) the result
    ``result`` (the winner, or ``draw``); a resignation or an agreed draw corrected to the
    same kind keeps its termination (the board decides).

    Raises:
        ArbiterError: a bad result, no reason.
    """
    _result(result)
    why = _reason(reason, required=True)
    return await decide(client, {board: online},
                        {"name": "correct_result", "value": result, "tag": why}, who=who,
                        action="correct_result", board=board, reason=why, wait_s=wait_s,
                        detail={"result": result, "game_id": _game_id(game_id)})


async def correct_move(client: Redis, board: str, online: bool, ply: str, move: str, who: str,
                       reason: str, game_id: str, plies: int, finished: bool = False,
                       result: str = "keep", wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Take the game ``game_id`` on ``board`` (the game it shows now, of ``plies`` moves) back
    to before ply ``ply`` (1 is the game's first move) and play ``move`` there instead. A
    ``finished`` game's ``result`` is ``keep`` (it stays over, its result unchanged),
    ``withdraw`` (play resumes) or the arbiter's (``white``, ``black``, ``draw``).

    The board checks the move against its game (legal before that ply, not the one recorded)
    and refuses it otherwise.

    Raises:
        ArbiterError: a ply the game does not have, not a move, no reason, a bad result.
    """
    if not plies:
        raise ArbiterError(N_("the game has no move to correct"))
    if not is_whole_number(ply, 1, plies):
        raise ArbiterError(N_("ply {ply}: the game's plies are 1 to {plies}"),
                           ply=repr(ply[:10]), plies=plies)
    text = move.strip()
    if not _MOVE.fullmatch(text):
        raise ArbiterError(N_("{move} is not a move (as the board writes it: 33-28, 28x19, "
                              "c3-d4)"), move=repr(text[:40]))
    if result not in CORRECTED_RESULTS:
        raise ArbiterError(N_("result {result}: one of {results}"), result=repr(result[:20]),
                           results=", ".join(CORRECTED_RESULTS))
    why = _reason(reason, required=True)
    chosen = result if finished else "keep"
    value = f"{int(ply)} {text}" + (f" {chosen}" if finished else "")
    detail: dict[str, object] = {"game_id": _game_id(game_id), "ply": int(ply), "move": text}
    if finished:
        detail["result"] = chosen
    return await decide(client, {board: online},
                        {"name": "correct_move", "value": value, "tag": why}, who=who,
                        action="correct_move", board=board, reason=why, wait_s=wait_s,
                        detail=detail)


async def stored_rounds(client: Redis, number: str) -> list[StoredRound]:
    """The imported rounds numbered ``number``, of every event (events in name order).

    Raises:
        ArbiterError: not a round number, or a stored round damaged.
    """
    if len(number) > 20 or not is_round(number):
        raise ArbiterError(N_("round {round}: a round number (3, or 3.1)"),
                           round=repr(number[:20]))
    index: object = await client.hgetall(ROUND_INDEX)
    keys = [text(k) for k, v in (index.items() if isinstance(index, dict) else ())
            if index_entry(v)[0] == number]
    if round_key(number) not in keys:
        keys.append(round_key(number))  # a round stored before the index
    found: dict[str, StoredRound] = {}
    for key in keys:
        try:
            stored = StoredRound.parse(await client.get(key), number)
        except ValueError as exc:
            raise ArbiterError(N_("{problem}: import the round again"), problem=exc) from None
        if stored is not None:
            found.setdefault(stored.key, stored)
    return sorted(found.values(), key=lambda r: r.event)



async def round_pairings(client: Redis, number: str) -> list[Pairing]:
    """The pairings of the imported round ``number`` (every event's), in board order.

    Raises:
        ArbiterError: not a round number, no such round imported, or its list damaged.
    """
    pairings = [p for stored in await stored_rounds(client, number) for p in stored.pairings
                if p.board not in stored.decisions]
    if not pairings:
        raise ArbiterError(N_("no round {round} imported: import its pairing list first "
                              "(draughtsboard round import)"), round=number)
    return pairings


async def start_round(client: Redis, number: str, boards: Iterable[str],
                      not_started: Mapping[str, str], who: str, reason: str = "",
                      now: float | None = None, wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Start round ``number`` on ``boards`` (those of its pairing that can start it: online,
    each game waiting; the others, in ``not_started``, each with why, go into the audit entry
    too).

    One audit entry, then every board's pairing gets the round's start as its PDN ``Date``
    and ``Time`` (local time) and its ``start_round`` command, in one transaction with one
    ``time``: the boards read them at the same instant; then their answers.

    Raises:
        ArbiterError: no board to start, or a bad reason.
    """
    chosen = list(dict.fromkeys(boards))
    if not chosen:
        raise ArbiterError(NO_BOARD_STARTS, round=number, boards="; ".join(
            f"{board} {why}" for board, why in not_started.items()))
    why = _reason(reason, required=False)
    at = time.time() if now is None else now
    local = time.localtime(at)
    started = {"Date": time.strftime("%Y.%m.%d", local), "Time": time.strftime("%H:%M:%S", local)}
    also: list[Command] = [("hset", (pairing_key(board),), {"mapping": started})
                           for board in chosen]
    return await decide(client, dict.fromkeys(chosen, True),
                        {"name": "start_round", "value": number}, who=who,
                        action="start_round", board="*", reason=why, wait_s=wait_s, also=also,
                        now=at, detail={"round": number, "boards": chosen,
                                        "not_started": dict(not_started)})




async def decide_board(client: Redis, stored: StoredRound, board: str, kind: str, side: str,
                       who: str, reason: str, waiting_game: str = "", online: bool = False,
                       wait_s: float = ANSWER_WAIT_S) -> Decided:
    """No game on ``board`` of ``stored``: ``kind`` ``forfeit`` (``side`` did not come),
    ``double_forfeit`` (``side`` empty) or ``bye`` (``side`` gets a full-point bye).

    The audit entry, then the round with the decision and the board's pairing withdrawn (its
    next game is not named), in one transaction with the command to the board: when a game of
    the round waits on it (``waiting_game``: named by the pairing, no move; ``online``: its
    service runs), ``adjudicate`` ends it, and the board's answer is the decision's; with none,
    the board has nothing to do (:data:`NOT_NEEDED`). The decision is kept with the round
    whatever the board answers (an offline board's game is ended by the arbiter later).

    Raises:
        ArbiterError: a bad kind or side, no reason, a board not of the round, one decided
            already.
    """
    if kind not in ("forfeit", "double_forfeit", "bye"):
        raise ArbiterError(N_("{kind}: forfeit, double_forfeit or bye"), kind=repr(kind[:20]))
    if (kind == "double_forfeit") != (side == "") or (side and side not in SIDES):
        raise ArbiterError(N_("side {side}: white or black"), side=repr(side[:20]))
    pairing = stored.board(board)
    if pairing is None:
        raise ArbiterError(N_("{board} is not a board of round {round}"), board=board,
                           round=stored.number)
    if board in stored.decisions:
        raise ArbiterError(N_("{board}: decided already ({kind})"), board=board,
                           kind=stored.decisions[board].kind)
    why = _reason(reason, required=True)
    at = time.time()
    decided = StoredRound(stored.number, stored.event, stored.pairings, stored.imported,
                          stored.trf, {**stored.decisions, board: BoardDecision(kind, side, who,
                                                                                 at)},
                          dict(stored.carried))
    also: list[Command] = [*round_commands(decided), ("delete", (pairing_key(board),), {})]
    winner = {"forfeit": "black" if side == "white" else "white", "bye": side,
              "double_forfeit": "draw"}[kind]
    return await decide(
        client, {board: online} if waiting_game else {},
        {"name": "adjudicate", "value": winner,
         "tag": f"{kind.replace('_', ' ')}: {why}"[:80]},
        who=who, action=kind, board=board, reason=why, wait_s=wait_s, also=also, now=at,
        not_needed=() if waiting_game else (board,),
        detail={"round": stored.number, "event": stored.event, "side": side,
                "white": pairing.white, "black": pairing.black, "game_id": waiting_game})


async def carry(client: Redis, stored: StoredRound | None, source: str, spare: str,
                game_id: str, who: str, reason: str, online: bool = True,
                wait_s: float = ANSWER_WAIT_S) -> Decided:
    """Carry the game ``game_id`` of board ``source`` (it failed) to board ``spare``
    (``online``: its service runs): the spare board takes its moves, names and clocks and
    guides the players to set up its position (its clock held until the arbiter resumes it);
    the spare board's answer is the decision's. Once it took the game, the round's pairing of
    ``source`` (``stored``, when the game is a round's) moves to ``spare``.

    Raises:
        ArbiterError: the same board, no reason, a spare board that plays in the round.
    """
    if source == spare:
        raise ArbiterError(N_("carry the game to another board"))
    why = _reason(reason, required=True)
    value = f"{source}/{game_id}"
    if len(value) > MAX_HEADER_LENGTH:
        raise ArbiterError(N_("board and game ids too long to send"))
    if stored is not None and stored.board(spare) is not None:
        raise ArbiterError(N_("{board} is a board of round {round}: carry the game to a "
                              "free board"), board=spare, round=stored.number)
    decided = await decide(client, {spare: online},
                           {"name": "carry", "value": value, "tag": why[:80]}, who=who,
                           action="carry", board=source, reason=why, wait_s=wait_s,
                           detail={"to": spare, "game_id": game_id})
    if stored is not None and decided.done:
        moved = [Pairing(spare, p.white, p.black, p.round, p.event, p.tags, p.white_rank,
                         p.black_rank, p.formerly) if p.board == source else p
                 for p in stored.pairings]
        await run_commands(client, round_commands(StoredRound(
            stored.number, stored.event, moved, stored.imported, stored.trf,
            {spare if b == source else b: d for b, d in stored.decisions.items()},
            {**stored.carried, spare: source})))
    return decided


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
