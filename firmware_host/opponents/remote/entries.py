"""The entries of a duel's streams: what one board writes for the other, checked as read.

Each board writes, to its own stream ``draughtsboard:<board>:duel:<partner>``, the game it
plays against the partner (``start``), its own player's moves (``move``), what its player
proposes (a draw offer, ``offer``; a takeback asked, ``ask``), a takeback both players agreed
(``back``) and the end of the game when this board saw it (``end``). An entry's stream id is
``<game>-<seq>``, the seq given by the writer from what the entry is (:func:`seq_of`): the
takebacks agreed before it (its *line*: ``line * LINE``), then ``ply * SLOTS`` and the entry's
slot at that ply (0: the move; 1: a draw offered after it; 2: a takeback asked there), 0: the
start, :data:`END`: the end. So Redis refuses an entry written twice (a retry after a lost
reply, a restarted service): every move is in the stream once, at its ply, whatever happened to
the link; and a move played again after a takeback is a new entry of the next line, never an
id written before. Every value read back is checked here: an entry that is not one is skipped
and said (``ValueError``), never played.

>>> entry = Played(1, 3, "28x19", "B:W19,31-50:B1-18,20", 296.5)
>>> entry.stream_id(), fields(entry)["left"]
('1-12', '296.5')
>>> decode(*encode(Played(1, 3, "28x19", "B:W19,31-50:B1-18,20", 296.5, line=1)))
Played(game=1, ply=3, pdn='28x19', fen='B:W19,31-50:B1-18,20', left=296.5, line=1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.digits import whole_number

__all__ = ["END", "Agreed", "Asked", "Ended", "Entry", "Offered", "Played", "Started", "decode",
           "encode", "fields", "seq_of"]

#: The seqs of one line of play (the moves between two agreed takebacks).
LINE = 10_000
#: The seqs of one ply in a line: the move, a draw offered after it, a takeback asked there.
SLOTS = 4
#: The seq of a game's ``end`` entry (after every line).
END = 999_999_999
#: The most plies in one line, and the most takebacks agreed in one game.
MAX_PLY, MAX_LINE = LINE // SLOTS - 1, END // LINE - 1
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

    line: int = 0

    def stream_id(self) -> str:
        return f"{self.game}-{seq_of(self.line, self.ply, 0)}"


@dataclass(frozen=True)
class Offered:
    """The writer's player offers a draw after their move at ``ply``: it stands for the
    partner's turn at ``ply + 1`` (firmware_host/game/commands.py: a draw offer)."""

    game: int
    ply: int
    line: int = 0

    def stream_id(self) -> str:
        return f"{self.game}-{seq_of(self.line, self.ply, 1)}"


@dataclass(frozen=True)
class Asked:
    """The writer's player asks, with the game at ``ply`` plies, to take it back to ``back_to``
    plies (before their own last move): it stands until the partner agrees or moves."""

    game: int
    ply: int
    back_to: int
    line: int = 0

    def stream_id(self) -> str:
        return f"{self.game}-{seq_of(self.line, self.ply, 2)}"


@dataclass(frozen=True)
class Agreed:
    """Both players agreed to take the game back to ``ply`` plies; what follows is ``line``
    (1: after the first takeback agreed)."""

    game: int
    line: int
    ply: int

    def stream_id(self) -> str:
        return f"{self.game}-{seq_of(self.line, 0, 0)}"


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


Entry = Started | Played | Offered | Asked | Agreed | Ended


def seq_of(line: int, ply: int, slot: int) -> int:
    """The seq of slot ``slot`` at ``ply`` of line ``line`` (module docstring).

    >>> seq_of(0, 3, 0), seq_of(0, 3, 1), seq_of(2, 0, 0)
    (12, 13, 20000)
    """
    return line * LINE + ply * SLOTS + slot


def fields(entry: Entry) -> dict[str, str]:
    """The entry's fields as written."""
    match entry:
        case Started():
            return {"kind": "start", "white": entry.white, "black": entry.black,
                    "variant": entry.variant, "local": entry.local}
        case Played():
            return {"kind": "move", "pdn": entry.pdn, "fen": entry.fen,
                    "left": "" if entry.left is None else f"{entry.left:.1f}"}
        case Offered():
            return {"kind": "offer"}
        case Asked():
            return {"kind": "ask", "to": str(entry.back_to)}
        case Agreed():
            return {"kind": "back", "ply": str(entry.ply)}
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
    line, rest = divmod(seq, LINE) if 0 < seq < END else (-1, 0)
    ply, slot = divmod(rest, SLOTS)
    if kind == "move" and ply > 0 and slot == 0:
        left_text = _text(raw, "left")
        try:
            left = float(left_text) if left_text else None
        except ValueError:
            raise ValueError(f"left: {left_text!r} is not a number") from None
        if left is not None and not 0.0 <= left <= 100 * 3600:
            raise ValueError(f"left: {left} is not a time left")
        return Played(game, ply, _text(raw, "pdn"), _text(raw, "fen"), left, line)
    if kind == "offer" and ply > 0 and slot == 1:
        return Offered(game, ply, line)
    if kind == "ask" and ply > 0 and slot == 2:
        return Asked(game, ply, whole_number(_text(raw, "to"), 0, ply - 1), line)
    if kind == "back" and line > 0 and seq == seq_of(line, 0, 0):
        return Agreed(game, line, whole_number(_text(raw, "ply"), 0, MAX_PLY))
    raise ValueError(f"{kind!r} at {stream_id!r} is no entry of a duel")
