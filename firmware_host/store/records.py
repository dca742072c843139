"""The data the store keeps: game headers, move records, and the operations of a game's log.

A game is an append-only log of operations (``start``, ``move``, ``takeback``, ``finish``,
``headers``, ``note``) in a Redis stream. Replaying the log gives the game; a takeback is an
operation, not a deletion, so a record is never rewritten in place and a crash can at worst lose
the operation being written. Every operation the board writes has a sequence number per game,
so replaying a spooled operation twice is harmless.

A game's log is written by its board alone. The arbiter's tools amend a game in a stream of
their own (``draughtsboard:<board>:amend:<game id>``, :func:`arbiter_op`), read after the log:
a ``headers`` entry that corrects the players' names (a re-imported round; only the tags a
pairing gives, :data:`AMENDED_TAGS`) and a ``note``, a comment of the PDN (a time award). They
carry ``by`` ``arbiter``; they are written once, straight to Redis, by a decision that is in the
audit log too, whether or not the board is online; an entry of another kind there is not
applied (:func:`apply_amendment`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from firmware_host.store.errors import StoreError

#: The longest note a result keeps (characters).
MAX_NOTE = 200


#: A session snapshot (``firmware_host.game.snapshot``): a JSON object, opaque to the store.
Session = dict[str, object]


class RecordError(StoreError, ValueError):
    """A stored record is corrupt or truncated; the message names the game and the entry."""


class MoveJson(TypedDict):
    """A :class:`MoveRecord` as JSON data: a ``move`` entry of a game's log (docs/events.md)."""

    ply: int
    pdn: str
    fen_after: str
    time: float
    origin: str
    destination: str
    path: list[str]
    captures: list[str]
    by: str
    clock_white: float | None
    clock_black: float | None


@dataclass(frozen=True)
class MoveRecord:
    """One move as recorded: its PDN text, squares as PDN names, the position after it."""

    ply: int
    pdn: str
    fen_after: str
    time: float
    origin: str = ""
    destination: str = ""
    path: tuple[str, ...] = ()
    captures: tuple[str, ...] = ()
    by: str = "human"
    clock_white: float | None = None
    clock_black: float | None = None

    def to_json(self) -> MoveJson:
        """The record as JSON-ready data."""
        return MoveJson(
            ply=self.ply, pdn=self.pdn, fen_after=self.fen_after, time=self.time,
            origin=self.origin, destination=self.destination, path=list(self.path),
            captures=list(self.captures), by=self.by, clock_white=self.clock_white,
            clock_black=self.clock_black)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> MoveRecord:
        """Build a record from stored data.

        Raises:
            RecordError: a field is missing or of the wrong type.
        """
        try:
            record = cls(
                ply=_int(data["ply"]),
                pdn=str(data["pdn"]),
                fen_after=str(data["fen_after"]),
                time=_float(data["time"]),
                origin=str(data.get("origin", "")),
                destination=str(data.get("destination", "")),
                path=_strings(data.get("path", ())),
                captures=_strings(data.get("captures", ())),
                by=str(data.get("by", "human")),
                clock_white=_optional_float(data.get("clock_white")),
                clock_black=_optional_float(data.get("clock_black")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"move record {dict(data)!r} is invalid: {exc}") from None
        if record.ply < 1 or not record.pdn:
            raise RecordError(f"move record {dict(data)!r} is invalid: bad ply or empty move")
        return record


def _int(value: object) -> int:
    """``int(value)`` of a JSON value (TypeError for null, a list or an object)."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def _float(value: object) -> float:
    """``float(value)`` of a JSON value (TypeError for null, a list or an object)."""
    if isinstance(value, int | float | str):
        return float(value)
    raise TypeError(f"not a number: {value!r}")


def _optional_float(value: object) -> float | None:
    return None if value is None else _float(value)


def _strings(value: object) -> tuple[str, ...]:
    """The items of a JSON list as texts."""
    if not isinstance(value, Iterable):
        raise TypeError(f"not a list: {value!r}")
    return tuple(str(s) for s in value)


class GameJson(TypedDict):
    """A :class:`GameRecord` as JSON data (the games of the local copy, :mod:`.outage.local`)."""

    game_id: str
    board_id: str
    headers: dict[str, str]
    variant: str
    start_fen: str | None
    mode: str
    created: float
    moves: list[MoveJson]
    result: str
    termination: str
    problems: list[str]
    notes: list[tuple[int, str]]


@dataclass
class GameRecord:
    """A game as replayed from its log."""

    game_id: str
    board_id: str
    headers: dict[str, str]
    variant: str
    start_fen: str | None
    mode: str
    created: float
    moves: list[MoveRecord] = field(default_factory=list)
    result: str = "*"
    termination: str = ""
    problems: list[str] = field(default_factory=list)
    #: Notes kept with a result (an arbiter's decision): (the ply it follows, its text).
    notes: list[tuple[int, str]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Whether the game has a result."""
        return self.result != "*"

    def to_json(self) -> GameJson:
        """The record as JSON-ready data (:meth:`from_json` reads it back)."""
        return GameJson(
            game_id=self.game_id, board_id=self.board_id, headers=dict(self.headers),
            variant=self.variant, start_fen=self.start_fen, mode=self.mode,
            created=self.created, moves=[m.to_json() for m in self.moves], result=self.result,
            termination=self.termination, problems=list(self.problems), notes=list(self.notes))

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GameRecord:
        """Build a record from :meth:`to_json` data.

        Raises:
            RecordError: a field is missing or of the wrong type.
        """
        game = _start(data, "saved game")
        try:
            game.moves = [MoveRecord.from_json(_object(m)) for m in _list(data.get("moves", ()))]
            game.notes = [(_int(ply), str(text))
                          for ply, text in map(_list, _list(data.get("notes", ())))]
        except (TypeError, ValueError) as exc:
            raise RecordError(f"saved game {game.game_id}: {exc}") from None
        game.result = str(data.get("result", "*"))
        game.termination = termination_name(data.get("termination", ""))
        return game


def termination_name(value: object) -> str:
    """A stored termination as the board names it now: ``time_forfeit`` (records written
    before 2026-12) reads as ``time``.

    >>> termination_name("time_forfeit"), termination_name("resignation")
    ('time', 'resignation')
    """
    text = str(value)
    return "time" if text == "time_forfeit" else text


def _list(value: object) -> list[object] | tuple[object, ...]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"not a list: {value!r}")
    return value


def _object(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise TypeError(f"not an object: {value!r}")
    return value


def encode_op(op: str, seq: int, data: Mapping[str, object]) -> dict[str, str]:
    """Encode one log operation as stream fields."""
    return {"op": op, "seq": str(seq), "data": json.dumps(data, separators=(",", ":"))}


#: The operations of an arbiter's amendment (:func:`arbiter_op`).
ARBITER_OPS = frozenset({"headers", "note"})
#: The PDN tags an amendment may set: a pairing's (the players, the round, their facts).
AMENDED_TAGS = frozenset({"White", "Black", "Round", "Event", "Site", "WhiteRating",
                          "BlackRating", "WhiteFederation", "BlackFederation", "WhiteTitle",
                          "BlackTitle", "WhiteFmjdId", "BlackFmjdId"})


def apply_amendment(game: GameRecord, fields: Mapping[str, str], where: str) -> GameRecord:
    """Apply one entry of a game's amendments (after its log).

    Raises:
        RecordError: not an arbiter's ``headers`` (of :data:`AMENDED_TAGS`) or ``note``.
    """
    if fields.get("op") not in ARBITER_OPS or fields.get("by") != "arbiter":
        raise RecordError(f"{where}: {fields.get('op')!r} is not an arbiter's amendment")
    if fields.get("op") == "headers":
        try:
            data = json.loads(fields["data"])
        except (KeyError, ValueError) as exc:
            raise RecordError(f"{where}: corrupt amendment: {exc}") from None
        if not isinstance(data, dict) or not set(data) <= AMENDED_TAGS:
            raise RecordError(f"{where}: an amendment sets only a pairing's tags")
    return apply_op(game, fields, where)


def arbiter_op(op: str, data: Mapping[str, object]) -> dict[str, str]:
    """Encode an arbiter's amendment of a game (its amendments' stream): ``by`` ``arbiter``.

    >>> arbiter_op("note", {"ply": 12, "text": "arbiter: +60 s for Black"})["by"]
    'arbiter'

    Raises:
        ValueError: ``op`` is not one the arbiter adds.
    """
    if op not in ARBITER_OPS:
        raise ValueError(f"an arbiter adds {sorted(ARBITER_OPS)} entries, not {op!r}")
    return {"op": op, "by": "arbiter", "data": json.dumps(data, separators=(",", ":"))}


def apply_op(game: GameRecord | None, fields: Mapping[str, str], where: str) -> GameRecord:
    """Apply one stored operation to the game being replayed.

    Raises:
        RecordError: the entry is corrupt; the game replayed so far is unchanged.
    """
    try:
        op = fields["op"]
        data = json.loads(fields["data"])
    except (KeyError, ValueError) as exc:
        raise RecordError(f"{where}: corrupt entry {dict(fields)!r}: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}: corrupt entry {dict(fields)!r}: data is not an object")
    if op == "start":
        return _start(data, where)
    if game is None:
        raise RecordError(f"{where}: {op!r} entry before the game's start entry")
    if op == "move":
        record = MoveRecord.from_json(data)
        if record.ply != len(game.moves) + 1:
            raise RecordError(
                f"{where}: move {record.pdn} has ply {record.ply}, expected {len(game.moves) + 1}"
            )
        game.moves.append(record)
    elif op == "takeback":
        to_ply = int(data.get("to_ply", -1))
        if not 0 <= to_ply <= len(game.moves):
            raise RecordError(f"{where}: takeback to ply {to_ply} of {len(game.moves)}")
        del game.moves[to_ply:]
        game.result, game.termination = "*", ""
        # A note after a move taken back stays, after the last move kept: never lost.
        game.notes = [(min(ply, to_ply), text) for ply, text in game.notes]
        note = data.get("note")
        if isinstance(note, str) and note.strip():  # why (an arbiter's correction)
            game.notes.append((to_ply, note.strip()[:MAX_NOTE]))
    elif op == "finish":
        game.result = str(data["result"])
        game.termination = termination_name(data.get("termination", ""))
        note = data.get("note")
        if isinstance(note, str) and note.strip():  # why (an arbiter's decision)
            game.notes.append((len(game.moves), note.strip()[:MAX_NOTE]))
    elif op == "headers":
        game.headers.update({str(k): str(v) for k, v in data.items()})
    elif op == "note":
        text = data.get("text")
        ply = data.get("ply", len(game.moves))
        if isinstance(text, str) and text.strip() and isinstance(ply, int):
            game.notes.append((max(0, min(ply, len(game.moves))), text.strip()[:MAX_NOTE]))
    else:
        raise RecordError(f"{where}: unknown operation {op!r}")
    return game


def _start(data: Mapping[str, object], where: str) -> GameRecord:
    try:
        headers = data["headers"]
        if not isinstance(headers, Mapping):
            raise TypeError(f"headers {headers!r} are not an object")
        return GameRecord(
            game_id=str(data["game_id"]),
            board_id=str(data["board_id"]),
            headers={str(k): str(v) for k, v in headers.items()},
            variant=str(data["variant"]),
            start_fen=None if data.get("start_fen") is None else str(data["start_fen"]),
            mode=str(data["mode"]),
            created=_float(data["created"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{where}: corrupt start entry: {exc}") from None
