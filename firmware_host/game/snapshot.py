"""The live session as JSON-ready data, so a restart resumes the game (Redis key ``session``).

A snapshot names moves by their identity (:func:`move_key`), not their text, so it replays
whatever the notation. It is written after the game log (write-ahead): on resume the log wins.

>>> from engine import Board
>>> board = Board("english")
>>> board.push(board.parse_move("11-15"))
>>> data = snapshot(variant="english", mode="play", game_id="g1", start_fen=Board("english").fen(),
...                 board=board, pending=None, obligation=None, outcome=None, human_side=0)
>>> restored, pending = restore(data, lambda fen: Board("english", fen=fen))
>>> restored.fen() == board.fen(), pending
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine import Board
from engine.outcome import Outcome, Termination
from engine.types import Color, Move, Square

#: A move's identity as JSON data: origin, destination, sorted captures, path.
MoveKey = list[object]

#: The snapshot format; an older or newer one is not resumed.
VERSION = 1


def move_key(move: Move) -> MoveKey:
    """A JSON-ready identity of a move, enough to find it again in its position."""
    return [move.origin, move.destination, sorted(move.captures), list(move.path)]


def find_by_key(board: Board, key: object) -> Move:
    """The legal move of ``board`` with the identity ``key`` (see :func:`move_key`).

    Raises:
        ValueError: no legal move has that identity, or ``key`` is malformed.
    """
    try:
        if not isinstance(key, Sequence) or isinstance(key, str) or len(key) != 4:
            raise TypeError("not a list of four")
        origin, destination, captures, path = key
        wanted = (_int(origin), _int(destination), frozenset(_int(c) for c in _list(captures)))
        wanted_path = tuple(_int(s) for s in _list(path))
    except (TypeError, ValueError) as exc:
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


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return value


def _list(value: object) -> Sequence[object]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"not a list: {value!r}")
    return value


def snapshot(
    *, variant: str, mode: str, game_id: str | None, start_fen: str, board: Board,
    pending: Move | None, obligation: Square | None, outcome: Outcome | None, human_side: Color,
) -> dict[str, object]:
    """The live session as JSON-ready data, for ``Store.save_session``.

    A finished game carries no touch-move obligation: it belonged to a turn that is over.
    """
    over = outcome is not None
    return {
        "version": VERSION,
        "variant": variant,
        "mode": mode,
        "game_id": game_id,
        "start_fen": start_fen,
        "moves": [move_key(m) for m in board.move_stack],
        "fen": board.fen(),
        "pending": None if pending is None or over else move_key(pending),
        "obligation": None if over else obligation,
        "over": over,
        "outcome": None if outcome is None else {
            "termination": outcome.termination.value,
            "winner": None if outcome.winner is None else int(outcome.winner),
            "rule": outcome.rule,
        },
        "human_side": int(human_side),
    }


def restore_outcome(state: Mapping[str, object], board: Board) -> Outcome | None:
    """The saved outcome of a finished game (None while it goes on).

    Raises:
        ValueError: the saved outcome is malformed.
    """
    saved = state.get("outcome")
    if not state.get("over"):
        return None
    if not isinstance(saved, Mapping):
        return board.outcome()
    try:
        winner = saved.get("winner")
        rule = saved.get("rule")
        return Outcome(Termination(saved["termination"]),
                       None if winner is None else Color(_int(winner)),
                       None if rule is None else str(rule),
                       gametype=board.variant.pdn_gametype)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"saved outcome is malformed: {saved!r}") from exc


def restore(state: Mapping[str, object],
            board_factory: Callable[[str], Board]) -> tuple[Board, Move | None]:
    """Rebuild the game board and the pending computer move from a snapshot.

    ``board_factory(fen)`` makes a board of the variant at ``fen``.

    Raises:
        ValueError: the snapshot is malformed or its moves are not legal (it is then ignored).
    """
    try:
        board = board_factory(str(state["start_fen"]))
        for key in _list(state["moves"]):
            board.push(find_by_key(board, key))
        pending_key = state.get("pending")
        pending = None if pending_key is None else find_by_key(board, pending_key)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"saved session is malformed: {exc!r}") from exc
    return board, pending
