"""The rounds kept in Redis: each event's round, merged import by import, and each board's game.

A round is named by its number and its event (the pairing list's ``event`` column, a TRF's
``012`` line): two groups' round 2 are two rounds (:func:`~firmware_host.store.keys.round_key`),
listed in ``draughtsboard:round-index``. Its record (:class:`StoredRound`, JSON) holds its
boards in order, the TRF it came from (for the results going back), and the arbiter's
decisions on boards where no game is played (forfeits, byes) and spare boards.

**An import merges** (:func:`plan_import`, pure; :func:`import_round` reads the facts, plans and
writes the plan in one MULTI/EXEC): the listed boards of that event's round are added or
replaced, the others are kept. A board that has its game of the round (begun, finished, or
started by the arbiter: its pairing taken) is never armed again; a new name for one of its
players corrects the names in that game's record (an arbiter's ``headers`` entry of its log,
and an entry of the audit log), and the pairing keeps the former names so the export still
finds the game. Refused, with nothing imported: a player who would play on two boards (of this
round, as imported before, or of another event's round of the same number), a board that
another event's round of the same number uses, and a played game's colours swapped.

>>> stored = StoredRound("1", "", [Pairing("b1", "Ann", "Bob", "1")])
>>> plan = plan_import([Pairing("b2", "Cor", "Dirk", "1")], {stored.key: stored}, {})
>>> [(row.board, row.action) for row in plan.rows], plan.problems
([('b1', 'kept'), ('b2', 'added')], [])
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import redis
from redis.typing import EncodableT, FieldT

from firmware_host.digits import whole_number, whole_number_or
from firmware_host.store.client import Command, run, text
from firmware_host.store.keys import AUDIT, ROUND_INDEX, BoardKeys, round_key
from firmware_host.store.reading import replay_log
from firmware_host.store.records import GameRecord, arbiter_op
from firmware_host.store.replies import items
from firmware_host.tournament.match import is_match_list, pair_commands, read_match
from firmware_host.tournament.pairing import Pairing, pairing_key, read_pairings
from firmware_host.tournament.trf import DEFAULT_PREFIX, MAX_TRF_ROUNDS, is_trf, read_trf

__all__ = [
    "ACTIONS",
    "DECISION_KINDS",
    "LOOK_BACK",
    "BoardDecision",
    "BoardFacts",
    "ImportPlan",
    "PlanRow",
    "StoredRound",
    "audit_command",
    "audit_entry",
    "began",
    "board_games",
    "find_game",
    "import_round",
    "index_entry",
    "is_the_game",
    "load_round",
    "load_rounds",
    "plan_commands",
    "plan_import",
    "read_list",
    "round_commands",
    "round_order",
    "rounds_of",
    "waiting_tags",
]

#: How many of a board's newest games are searched for its game of a round.
LOOK_BACK = 50
#: What an import does to each board of the round, in words.
ACTIONS = {"added": "added", "replaced": "replaced (not begun)", "same": "as before",
           "kept": "kept (not in this list)", "played": "has its game: not armed again",
           "renamed": "has its game: names corrected in its record",
           "decided": "decided by the arbiter: not armed again"}
#: The arbiter's decisions on a board where no game is played.
DECISION_KINDS = ("forfeit", "double_forfeit", "bye")


@dataclass(frozen=True)
class BoardDecision:
    """No game on a board: ``forfeit`` (``side`` did not come: the other wins),
    ``double_forfeit`` (neither came) or ``bye`` (``side`` gets a full-point bye, the other
    none: the pairing is cancelled); when and by whom."""

    kind: str
    side: str
    who: str = ""
    time: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "side": self.side, "who": self.who, "time": self.time}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> BoardDecision:
        kind, side = str(data["kind"]), str(data.get("side", ""))
        if kind not in DECISION_KINDS or side not in ("", "white", "black"):
            raise ValueError(f"not a decision: {kind!r} {side!r}")
        stamp = data.get("time", 0.0)
        return cls(kind, side, str(data.get("who", "")),
                   float(stamp) if isinstance(stamp, int | float) else 0.0)


@dataclass
class StoredRound:
    """One event's round as kept: its boards in order and what goes with them."""

    number: str
    event: str
    pairings: list[Pairing]
    #: When it was first imported (Unix time): the decisions report starts there.
    imported: float = 0.0
    #: The TRF it was imported from, as read (its results go back into it); "" for a CSV list.
    trf: str = ""
    #: The arbiter's decisions by board (forfeits, byes).
    decisions: dict[str, BoardDecision] = field(default_factory=dict)
    #: Spare boards: the board a game was carried to -> the board it came from.
    carried: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Its Redis key."""
        return round_key(self.number, self.event)

    @property
    def name(self) -> str:
        """The round in words: ``round 3`` or ``round 3 of Group A``."""
        return f"round {self.number}" + (f" of {self.event}" if self.event else "")

    def board(self, board_id: str) -> Pairing | None:
        """The pairing of a board (None: not a board of the round)."""
        return next((p for p in self.pairings if p.board == board_id), None)

    def to_json(self) -> str:
        return json.dumps({"round": self.number, "event": self.event,
                           "imported": self.imported, "trf": self.trf,
                           "boards": [p.to_json() for p in self.pairings],
                           "decisions": {b: d.to_json() for b, d in self.decisions.items()},
                           "carried": self.carried}, sort_keys=True)

    @classmethod
    def parse(cls, raw: object, number: str, event: str = "") -> StoredRound | None:
        """A round as stored (None: no such round). A round stored as a bare list of pairings
        (before rounds were kept per event) reads as one with no decisions.

        Raises:
            ValueError: the stored round is damaged.
        """
        if raw is None:
            return None
        try:
            if not isinstance(raw, str | bytes):
                raise TypeError(f"a {type(raw).__name__}, not text")
            data = json.loads(raw)
            if isinstance(data, list):
                return cls(number, event, [Pairing.from_json(item) for item in data])
            if not isinstance(data, dict):
                raise TypeError("not an object")
            decisions = data.get("decisions", {})
            carried = data.get("carried", {})
            if not isinstance(decisions, dict) or not isinstance(carried, dict):
                raise TypeError("decisions")
            return cls(str(data["round"]), str(data.get("event", "")),
                       [Pairing.from_json(item) for item in data["boards"]],
                       float(data.get("imported", 0.0)), str(data.get("trf", "")),
                       {str(b): BoardDecision.from_json(d) for b, d in decisions.items()},
                       {str(k): str(v) for k, v in carried.items()})
        except (TypeError, KeyError, ValueError, json.JSONDecodeError) as exc:
            raise ValueError(f"round {number}: the stored pairings are damaged ({exc})"
                             ) from None


@dataclass(frozen=True)
class BoardFacts:
    """What an import needs to know of a board of the round: its game of the round (None:
    none found) and the pairing tags waiting for its next game."""

    game: GameRecord | None
    waiting: Mapping[str, str]


def is_the_game(game: GameRecord, pairing: Pairing) -> bool:
    """Whether ``game`` is the one ``pairing`` named: its round, its event and the players
    (as the pairing names them, or as they were before a re-import corrected them)."""
    tags = game.headers
    event = tags.get("Event", "")
    return (tags.get("Round") == pairing.round
            and (tags.get("White", ""), tags.get("Black", "")) in pairing.names()
            and (not event or not pairing.event or event == pairing.event))


def find_game(games: Iterable[GameRecord], pairing: Pairing) -> GameRecord | None:
    """The first of ``games`` (newest first) that ``pairing`` named."""
    return next((g for g in games if is_the_game(g, pairing)), None)


def began(facts: BoardFacts, pairing: Pairing) -> bool:
    """Whether the board has its game of the round: a game named by the pairing that has a
    move (not of an English ballot) or a result, or that took the pairing (the arbiter started
    the round: the tags no longer wait)."""
    game = facts.game
    if game is None:
        return False
    waiting = (facts.waiting.get("White"), facts.waiting.get("Black"),
               facts.waiting.get("Round"))
    return (game.finished or any(m.by != "ballot" for m in game.moves)
            or waiting != (pairing.white, pairing.black, pairing.round))


@dataclass(frozen=True)
class PlanRow:
    """One board of the round after an import: what the import does to it (:data:`ACTIONS`),
    its pairing, the pairing before (None: new), and its game of the round (None: none)."""

    board: str
    action: str
    pairing: Pairing
    before: Pairing | None = None
    game_id: str = ""

    @property
    def arms(self) -> bool:
        """Whether the board's next game is named by this pairing (its tags written)."""
        return self.action in ("added", "replaced", "same")

    def words(self) -> str:
        """The row as the import prints it.

        >>> PlanRow("b1", "renamed", Pairing("b1", "Ann Smit", "Bob", "1"),
        ...         Pairing("b1", "Ann Smith", "Bob", "1")).words()
        'b1: Ann Smit - Bob  (has its game: names corrected in its record; was Ann Smith - Bob)'
        """
        note = ACTIONS[self.action]
        if self.before is not None and (self.before.white, self.before.black) != (
                self.pairing.white, self.pairing.black):
            note += f"; was {self.before.white} - {self.before.black}"
        return f"{self.board}: {self.pairing.white} - {self.pairing.black}  ({note})"


@dataclass
class ImportPlan:
    """What an import of a list into one event's round does, before anything is written."""

    round: StoredRound
    rows: list[PlanRow]
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    @property
    def renamed(self) -> list[PlanRow]:
        """The boards whose game's record gets the corrected names."""
        return [row for row in self.rows if row.action == "renamed"]


def _conflicts(incoming: Sequence[Pairing], target: StoredRound | None,
               others: Iterable[StoredRound]) -> list[str]:
    listed = {p.board for p in incoming}
    placed: dict[str, str] = {}  # player -> "board (round ...)"
    boards: dict[str, str] = {}  # board -> round name
    if target is not None:
        for p in target.pairings:
            if p.board not in listed and p.board not in target.decisions:
                for name in (p.white, p.black):
                    placed[name] = f"{p.board} ({target.name}, imported before)"
    for other in others:
        for p in other.pairings:
            boards[p.board] = other.name
            for name in (p.white, p.black):
                placed.setdefault(name, f"{p.board} ({other.name})")
    problems = []
    for p in incoming:
        if p.board in boards:
            problems.append(f"{p.board}: a board of {boards[p.board]} already (a board plays "
                            "one game at a time: give this list other boards)")
        for name in (p.white, p.black):
            if name in placed:
                problems.append(f"{p.board}: {name} already plays on {placed[name]}")
    return problems


def read_list(text: str, round_number: str = "", prefix: str | None = None,
              ours: Collection[str] = ()) -> tuple[list[Pairing], list[str], str]:
    """The pairings of a list's ``text`` (a CSV list; a match list, whose rows with one of
    this hall's boards ``ours`` are read: firmware_host/tournament/match.py; or round
    ``round_number`` of a TRF with boards ``prefix`` and a number), the problems found, and
    the TRF text ("" for a CSV list).

    >>> read_list("001    1 m    Smit", "")[1]
    ['a TRF file: say which round (1, 2, ...)']
    """
    if is_trf(text):
        try:
            number = whole_number(round_number, 1, MAX_TRF_ROUNDS)
        except ValueError:
            return [], ["a TRF file: say which round (1, 2, ...)"], ""
        pairings, problems = read_trf(text, number, prefix or DEFAULT_PREFIX)
        return pairings, problems, text
    if prefix:
        return [], ["a board prefix is for a TRF file: a CSV list names its boards"], ""
    if is_match_list(text):
        pairings, problems = read_match(text, ours)
        return pairings, problems, ""
    pairings, problems = read_pairings(text)
    return pairings, problems, ""


def plan_import(incoming: Sequence[Pairing], stored: Mapping[str, StoredRound],
                facts: Mapping[str, BoardFacts], *, trf: str = "", now: float = 0.0
                ) -> ImportPlan:
    """What importing ``incoming`` (one event's round, checked) does, given the rounds of that
    number ``stored`` (by key) and the ``facts`` of the boards of its round imported before.

    The boards of the round imported before keep their order; new boards follow, in the list's
    order. ``trf``: the TRF the list came from (kept for the export), else the round's own.
    """
    first = incoming[0]
    key = round_key(first.round, first.event)
    target = stored.get(key)
    others = [r for k, r in stored.items() if k != key]
    problems = _conflicts(incoming, target, others)
    merged = StoredRound(first.round, first.event, [], now, trf) if target is None else replace(
        target, pairings=[], trf=trf or target.trf, decisions=dict(target.decisions),
        carried=dict(target.carried))
    if target is not None and not target.imported:
        merged.imported = now
    listed = {p.board: p for p in incoming}
    rows: list[PlanRow] = []
    for before in (target.pairings if target is not None else []):
        pairing = listed.pop(before.board, None)
        if pairing is None:
            rows.append(PlanRow(before.board, "kept", before))
            continue
        board = facts.get(before.board, BoardFacts(None, {}))
        game = board.game
        if before.board in merged.decisions:
            rows.append(PlanRow(before.board, "decided", replace(
                pairing, formerly=before.formerly), before))
        elif game is not None and began(board, before):
            names = (game.headers.get("White", ""), game.headers.get("Black", ""))
            if (pairing.white, pairing.black) == names:
                rows.append(PlanRow(before.board, "played", replace(
                    pairing, formerly=before.formerly), before, game.game_id))
            elif (pairing.black, pairing.white) == names:
                problems.append(f"{before.board}: {names[0]} played White against "
                                f"{names[1]}: an import does not swap a played game's "
                                "colours (the arbiter corrects the record)")
            else:
                formerly = tuple(dict.fromkeys((*before.formerly, names)))
                rows.append(PlanRow(before.board, "renamed", replace(
                    pairing, formerly=formerly), before, game.game_id))
        else:
            same = (pairing.white, pairing.black) == (before.white, before.black)
            rows.append(PlanRow(before.board, "same" if same else "replaced", pairing, before))
    for pairing in listed.values():
        rows.append(PlanRow(pairing.board, "added", pairing))
    merged.pairings = [row.pairing for row in rows]
    plan = ImportPlan(merged, rows, problems)
    for row in rows:
        if row.arms:
            waiting = facts.get(row.board, BoardFacts(None, {})).waiting
            known = (waiting.get("Round", ""), waiting.get("Event", ""))
            if known[0] and known != (row.pairing.round, row.pairing.event):
                shown = f"round {known[0]}" + (f" of {known[1]}" if known[1] else "")
                plan.notices.append(f"{row.board}: the pairing of {shown} that waited for its "
                                    f"next game is replaced")
    return plan


def audit_entry(who: str, action: str, board: str, reason: str, at: float,
                **detail: object) -> str:
    """The audit log's entry of a decision: JSON of ``time``, ``who``, ``action``, ``board``,
    ``detail`` and ``reason`` (the log is a list the web app may only append to:
    :data:`~firmware_host.store.keys.AUDIT`)."""
    return json.dumps({"time": round(at, 3), "who": who, "action": action, "board": board,
                       "detail": detail, "reason": reason}, sort_keys=True, allow_nan=False)


def audit_command(who: str, action: str, board: str, reason: str, at: float,
                  **detail: object) -> Command:
    """The audit log entry of a decision (:func:`audit_entry`), as a command of a
    transaction."""
    return ("rpush", (AUDIT, audit_entry(who, action, board, reason, at, **detail)), {})


def round_commands(stored: StoredRound) -> list[Command]:
    """Keep ``stored`` and list it in the round index."""
    index = json.dumps({"round": stored.number, "event": stored.event})
    return [("set", (stored.key, stored.to_json()), {}),
            ("hset", (ROUND_INDEX, stored.key, index), {})]


def plan_commands(plan: ImportPlan, who: str, at: float) -> list[Command]:
    """The writes of a plan (one transaction): the round, the armed boards' tags, each renamed
    game's corrected names and its audit entry, and the import's own audit entry."""
    commands = round_commands(plan.round)
    for row in plan.rows:
        if row.arms:
            tags: dict[FieldT, EncodableT] = {k: v for k, v in row.pairing.headers().items()}
            commands.append(("delete", (pairing_key(row.board),), {}))
            commands.append(("hset", (pairing_key(row.board),), {"mapping": tags}))
    for row in plan.renamed:
        before = row.pairing.formerly[-1]
        names = {tag: new for tag, old, new in (("White", before[0], row.pairing.white),
                                                ("Black", before[1], row.pairing.black))
                 if old != new}
        commands.append(("xadd", (BoardKeys(row.board).amendments(row.game_id),
                                  arbiter_op("headers", names)), {}))
        commands.append(audit_command(who, "rename", row.board, "names corrected by a "
                                      "re-imported list", at, game_id=row.game_id,
                                      round=plan.round.number, event=plan.round.event,
                                      before={"White": before[0], "Black": before[1]},
                                      after=names))
    commands.append(audit_command(who, "import", "*", "", at, round=plan.round.number,
                                  event=plan.round.event,
                                  boards={row.board: row.action for row in plan.rows}))
    return commands


def rounds_of(client: redis.Redis, number: str) -> dict[str, StoredRound]:
    """Every stored round numbered ``number`` (any event), by key.

    Raises:
        ValueError: a stored round is damaged.
        redis.RedisError: Redis cannot be read.
    """
    found: dict[str, StoredRound] = {}
    index: object = client.hgetall(ROUND_INDEX)
    keys = [text(k) for k, v in (index.items() if isinstance(index, dict) else ())
            if index_entry(v)[0] == number]
    if round_key(number) not in keys:
        keys.append(round_key(number))  # a round stored before the index
    for key in keys:
        stored = StoredRound.parse(client.get(key), number)
        if stored is not None:
            found[key] = stored
    return found


def index_entry(value: object) -> tuple[str, str]:
    """The round and event of an entry of the round index (``("", "")``: unreadable).

    >>> index_entry(b'{"round": "3", "event": "Group A"}'), index_entry("junk")
    (('3', 'Group A'), ('', ''))
    """
    try:
        data = json.loads(text(value))
    except (ValueError, UnicodeDecodeError):
        return "", ""
    if not isinstance(data, dict):
        return "", ""
    return str(data.get("round", "")), str(data.get("event", ""))


def round_order(number: str) -> list[int]:
    """A round's place among rounds (``3`` before ``10``, ``3.1`` after ``3``).

    >>> sorted(["10", "3.1", "3"], key=round_order)
    ['3', '3.1', '10']
    """
    return [whole_number_or(part, 0) for part in number.split(".")]


def load_rounds(client: redis.Redis, number: str, event: str | None = None
                ) -> list[StoredRound]:
    """The rounds numbered ``number`` (of ``event`` only, when given), events in name order.

    Raises:
        ValueError: a stored round is damaged.
        redis.RedisError: Redis cannot be read.
    """
    found = rounds_of(client, number).values()
    return sorted((r for r in found if event is None or r.event == event),
                  key=lambda r: r.event)


def load_round(client: redis.Redis, number: str, event: str | None = None) -> StoredRound:
    """The one round ``number`` (of ``event``).

    Raises:
        LookupError: no such round, or several events have one and ``event`` is not given
            (the message names them).
        ValueError: the stored round is damaged.
        redis.RedisError: Redis cannot be read.
    """
    found = load_rounds(client, number, event)
    if not found:
        of = f" of {event!r}" if event else ""
        raise LookupError(f"no round {number}{of} in this Redis (import its pairing list "
                          "first)")
    if len(found) > 1:
        raise LookupError(f"round {number} is a round of several events: say which, --event "
                          + " or --event ".join(repr(r.event) for r in found))
    return found[0]


def board_games(client: redis.Redis, board: str) -> list[GameRecord]:
    """A board's newest games (:data:`LOOK_BACK`), newest first."""
    keys = BoardKeys(board)
    ids: object = client.zrange(keys.games, -LOOK_BACK, -1)
    games = []
    for raw_id in reversed(items(ids)):
        game_id = text(raw_id)
        game, _ = replay_log(game_id, client.xrange(keys.game(game_id)),
                             client.xrange(keys.amendments(game_id)))
        if game is not None:
            games.append(game)
    return games


def waiting_tags(client: redis.Redis, board: str) -> dict[str, str]:
    """The pairing tags waiting for a board's next game ({}: none)."""
    raw: object = client.hgetall(pairing_key(board))
    return {text(k): text(v) for k, v in (raw.items() if isinstance(raw, dict) else ())}


def import_round(client: redis.Redis, incoming: Sequence[Pairing], who: str, *,
                 trf: str = "", dry_run: bool = False,
                 now: float | None = None) -> ImportPlan:
    """Plan the import of ``incoming`` (a checked list, one round) and, unless ``dry_run`` or
    a problem, write it in one transaction (with a match's ``pair`` commands to its boards).

    Raises:
        ValueError: a stored round is damaged.
        redis.RedisError: Redis cannot be read or written.
    """
    at = time.time() if now is None else now
    first = incoming[0]
    stored = rounds_of(client, first.round)
    target = stored.get(round_key(first.round, first.event))
    facts = {}
    for pairing in incoming:
        before = target.board(pairing.board) if target is not None else None
        game = None if before is None else find_game(board_games(client, before.board), before)
        facts[pairing.board] = BoardFacts(game, waiting_tags(client, pairing.board))
    plan = plan_import(incoming, stored, facts, trf=trf, now=at)
    if not plan.problems and not dry_run:
        run(client, [*plan_commands(plan, who, at), *pair_commands(incoming, at)])
    return plan
