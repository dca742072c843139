"""Helpers of the session that hold no state: occupancy of positions, names, records, snapshots.

>>> from engine import Board
>>> board = Board("english")
>>> sorted(occupancy(board))[:3]
[0, 1, 2]
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from engine.types import Color, Move
from firmware_host.store.records import MoveRecord

log = logging.getLogger(__name__)

Square = int


def occupancy(board: Any) -> frozenset[Square]:
    """The squares a position occupies."""
    return frozenset(board.occupied_squares())


def after(board: Any, move: Move) -> Any:
    """A copy of ``board`` with ``move`` played."""
    copy = board.copy()
    copy.push(move)
    return copy


def side_name(color: int) -> str:
    """``"white"`` or ``"black"``."""
    return "white" if color == Color.WHITE else "black"


class Namer:
    """Turns square indices into the variant's PDN names, as the JSON events want them.

    Numeric variants give numbers (``22``), alphanumeric ones strings (``"c3"``).

    >>> from engine.variant import find_variant
    >>> Namer(find_variant("russian")).square(28), Namer(find_variant("english")).square(21)
    ('a1', 22)
    """

    def __init__(self, variant: Any) -> None:
        self._variant = variant
        self._numeric = bool(variant.numeric_notation)

    def text(self, square: Square) -> str:
        """The square's PDN name as text."""
        return str(self._variant.square_name(square))

    def square(self, square: Square) -> int | str:
        """The square's name for JSON: an int on numeric variants."""
        name = self.text(square)
        return int(name) if self._numeric else name

    def squares(self, squares: Iterable[Square]) -> list[int | str]:
        """Names of several squares, sorted by index."""
        return [self.square(sq) for sq in sorted(squares)]


def move_record(board: Any, move: Move, by: str, wall_time: float, namer: Namer) -> MoveRecord:
    """The store's record of ``move`` played on ``board`` (the position before it)."""
    return MoveRecord(
        ply=len(board.move_stack) + 1,
        pdn=board.move_notation(move),
        fen_after=after(board, move).fen(),
        time=wall_time,
        origin=namer.text(move.origin),
        destination=namer.text(move.destination),
        path=tuple(namer.text(sq) for sq in move.path),
        captures=tuple(namer.text(sq) for sq in move.captures),
        by=by,
    )


def move_fields(board: Any, move: Move, namer: Namer) -> dict[str, Any]:
    """Event fields describing ``move`` on ``board`` (the position before it)."""
    return {
        "pdn": board.move_notation(move),
        "from": namer.square(move.origin),
        "to": namer.square(move.destination),
        "path": [namer.square(sq) for sq in move.path],
        "captures": [namer.square(sq) for sq in move.captures],
        "side": side_name(board.turn),
        "promotes": bool(move.promotes),
    }


def move_key(move: Move) -> list[Any]:
    """A JSON-ready identity of a move, enough to find it again in its position."""
    return [move.origin, move.destination, sorted(move.captures), list(move.path)]


def find_by_key(board: Any, key: Any) -> Move:
    """The legal move of ``board`` with the identity ``key`` (see :func:`move_key`).

    Raises:
        ValueError: no legal move has that identity, or ``key`` is malformed.
    """
    try:
        origin, destination, captures, path = int(key[0]), int(key[1]), key[2], key[3]
        wanted = (origin, destination, frozenset(int(c) for c in captures))
        wanted_path = tuple(int(s) for s in path)
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        raise ValueError(f"malformed move key {key!r}") from exc
    fallback = None
    for move in board.generate_moves(paths=True):
        if move.key() == wanted:
            if move.path == wanted_path:
                return move
            fallback = fallback or move
    if fallback is None:
        raise ValueError(f"no legal move {key!r} in {board.fen()}")
    return fallback


def snapshot(
    *, variant: str, mode: str, game_id: str | None, start_fen: str, board: Any,
    pending: Move | None, obligation: Square | None, outcome: Any, human_side: int,
) -> dict[str, Any]:
    """The live session as JSON-ready data, for :meth:`Store.save_session`."""
    return {
        "version": 1,
        "variant": variant,
        "mode": mode,
        "game_id": game_id,
        "start_fen": start_fen,
        "moves": [move_key(m) for m in board.move_stack],
        "fen": board.fen(),
        "pending": None if pending is None else move_key(pending),
        "obligation": obligation,
        "over": outcome is not None,
        "outcome": None if outcome is None else {
            "termination": outcome.termination.value, "winner": outcome.winner,
            "rule": outcome.rule,
        },
        "human_side": int(human_side),
    }


def restore_outcome(state: Mapping[str, Any], board: Any) -> Any:
    """The saved outcome of a finished game (None while it goes on).

    Raises:
        ValueError: the saved outcome is malformed.
    """
    from engine.outcome import Outcome, Termination

    saved = state.get("outcome")
    if not state.get("over"):
        return None
    if not isinstance(saved, Mapping):
        return board.outcome()
    try:
        return Outcome(Termination(saved["termination"]), saved.get("winner"), saved.get("rule"),
                       gametype=board.variant.pdn_gametype)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"saved outcome is malformed: {saved!r}") from exc


def restore(state: Mapping[str, Any], board_factory: Any) -> tuple[Any, Move | None]:
    """Rebuild the game board and the pending computer move from a snapshot.

    ``board_factory(fen)`` makes a board of the variant at ``fen``.

    Raises:
        ValueError: the snapshot is malformed or its moves are not legal (it is then ignored).
    """
    try:
        board = board_factory(str(state["start_fen"]))
        for key in state["moves"]:
            board.push(find_by_key(board, key))
        pending_key = state.get("pending")
        pending = None if pending_key is None else find_by_key(board, pending_key)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"saved session is malformed: {exc!r}") from exc
    return board, pending


def must_capture(board: Any) -> frozenset[int]:
    """The squares of the pieces that can capture (the ``must`` lights of teach mode)."""
    return frozenset(m.origin for m in board.legal_moves if m.is_capture)


#: Refusal details that are plain data worth publishing (the rest holds Move objects).
_DETAIL_KEYS = ("capture", "count", "square", "squares", "side", "expected", "played", "pdn")


def refusal_fields(result: Any, namer: Any) -> dict[str, Any]:
    """Data of a refused move: the reason and what makes its message concrete."""
    fields: dict[str, Any] = {"reason": result.reason.value}
    for key in _DETAIL_KEYS:
        value = result.detail.get(key)
        if value is not None:
            fields[key] = list(value) if isinstance(value, tuple | list) else value
    fields["missing"] = namer.squares(result.missing)
    fields["extra"] = namer.squares(result.extra)
    return fields
