"""The entries of a duel's streams: what one board writes for the other, checked as read.

Each board writes, to its own stream ``draughtsboard:<board>:duel:<partner>``, the game it
plays against the partner (``start``), its own player's moves (``move``) and the end of the
game when this board saw it (``end``). An entry's stream id is ``<game>-<seq>``: the game's
number and the ply (0: the start; :data:`END`: the end), given by the writer, so Redis refuses
an entry written twice (a retry after a lost reply, a restarted service): every move is in the
stream once, at its ply, whatever happened to the link. Every value read back is checked here:
an entry that is not one is skipped and said (``ValueError``), never played.

>>> entry = Played(1, 3, "28x19", "B:W19,31-50:B1-18,20", 296.5)
>>> entry.stream_id(), fields(entry)["left"]
('1-3', '296.5')
>>> decode(*encode(entry)) == entry
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.digits import whole_number

__all__ = ["END", "Ended", "Entry", "Played", "Started", "decode", "encode", "fields"]

#: The seq of a game's ``end`` entry (after every ply).
END = 999_999
#: The highest game number.
MAX_GAME = 10**9
#: The longest text value read (a tag, a FEN, a move).
MAX_TEXT = 200


@dataclass(frozen=True)
class Started:
    """Game ``game`` began: ``white`` and ``black`` are the boards, its variant and the
    writer's own game id (a restart finds its game again by it)."""

    game: int
    white: str
    black: str
    variant: str
    local: str

    def stream_id(self) -> str:
        return f"{self.game}-0"


@dataclass(frozen=True)
class Played:
    """The writer's player made the move ``pdn`` at ``ply`` (1: the game's first), leading
    to ``fen``, with ``left`` seconds on the writer's clock (None: no clock)."""

    game: int
    ply: int
    pdn: str
    fen: str
    left: float | None = None

    def stream_id(self) -> str:
        return f"{self.game}-{self.ply}"


@dataclass(frozen=True)
class Ended:
    """The game ended on the writer's board with ``result`` (the PDN's), why, and what its
    record says of it (``White resigned``; empty: nothing)."""

    game: int
    result: str
    termination: str
    note: str = ""

    def stream_id(self) -> str:
        return f"{self.game}-{END}"


Entry = Started | Played | Ended


def fields(entry: Entry) -> dict[str, str]:
    """The entry's fields as written."""
    match entry:
        case Started():
            return {"kind": "start", "white": entry.white, "black": entry.black,
                    "variant": entry.variant, "local": entry.local}
        case Played():
            return {"kind": "move", "pdn": entry.pdn, "fen": entry.fen,
                    "left": "" if entry.left is None else f"{entry.left:.1f}"}
        case Ended():
            return {"kind": "end", "result": entry.result, "termination": entry.termination,
                    "note": entry.note}


def encode(entry: Entry) -> tuple[str, dict[str, str]]:
    """The stream id and the fields to write."""
    return entry.stream_id(), fields(entry)


def _text(raw: Mapping[str, str], name: str) -> str:
    value = raw.get(name, "")
    if not isinstance(value, str) or len(value) > MAX_TEXT or not value.isprintable():
        raise ValueError(f"{name}: not a text of at most {MAX_TEXT} characters")
    return value


def decode(stream_id: str, raw: Mapping[str, str]) -> Entry:
    """The entry of a stream id and its fields (str).

    Raises:
        ValueError: not an entry of a duel; the message says what is wrong.
    """
    game_text, dash, seq_text = stream_id.partition("-")
    game = whole_number(game_text, 1, MAX_GAME)
    seq = whole_number(seq_text, 0, END) if dash else -1
    kind = _text(raw, "kind")
    if kind == "start" and seq == 0:
        return Started(game, _text(raw, "white"), _text(raw, "black"), _text(raw, "variant"),
                       _text(raw, "local"))
    if kind == "end" and seq == END:
        return Ended(game, _text(raw, "result"), _text(raw, "termination"), _text(raw, "note"))
    if kind == "move" and 0 < seq < END:
        left_text = _text(raw, "left")
        try:
            left = float(left_text) if left_text else None
        except ValueError:
            raise ValueError(f"left: {left_text!r} is not a number") from None
        if left is not None and not 0.0 <= left <= 100 * 3600:
            raise ValueError(f"left: {left} is not a time left")
        return Played(game, seq, _text(raw, "pdn"), _text(raw, "fen"), left)
    raise ValueError(f"{kind!r} at {stream_id!r} is no entry of a duel")
