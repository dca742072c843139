"""A game between two boards, kept by both: which copy a reader of one Redis shows.

Each board of a duel keeps the game in its own record (firmware_host/opponents/remote/), so a
board resumes it from its own store after a power cut and each club keeps its games at home.
When the two boards share one Redis (two boards of one hall, a match played on one club's
Redis), a reader of that Redis (the archive, its PDN files, ``/broadcast.pdn``, a round's
export) finds the game twice. Both copies carry the tags ``WhiteBoard``/``BlackBoard`` and
``WhiteBoardGameId``/``BlackBoardGameId`` (each board's own id of the game), so the copy a
reader shows is **the White board's**; the Black board's copy is left out only when the White
board's copy is among the games read and names it back (its ``BlackBoardGameId`` is this
copy's id). Whatever is missing (a copy deleted, a tag not written yet, a filter that leaves
one copy out), the other copy is shown: a game is never hidden for want of its twin.

>>> tags = {"WhiteBoard": "a", "BlackBoard": "b", "WhiteBoardGameId": "g1",
...         "BlackBoardGameId": "g2"}
>>> left_out([("a", "g1", tags), ("b", "g2", tags), ("b", "g3", tags)])
{('b', 'g2')}
>>> left_out([("b", "g2", tags)])
set()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import BOARD_TAGS, GAME_ID_TAGS

__all__ = ["TAGS", "left_out", "of_record", "one_copy"]

#: The tags that tell the copies apart (a reader that keeps only some tags keeps these).
TAGS = (*BOARD_TAGS.values(), *GAME_ID_TAGS.values())

#: A game as a reader has it: its board, its id, its PDN tags.
Copy = tuple[str, str, Mapping[str, str]]
T = TypeVar("T")


def _twin(board: str, game_id: str, tags: Mapping[str, str]) -> tuple[str, str] | None:
    """The White board's copy of the game this copy is the Black board's copy of (None: this
    copy is no Black board's copy of a game between boards)."""
    white, black = (tags.get(BOARD_TAGS[side], "") for side in ("white", "black"))
    white_id, black_id = (tags.get(GAME_ID_TAGS[side], "") for side in ("white", "black"))
    if not (white and white_id) or white == board or (board, game_id) != (black, black_id):
        return None
    return white, white_id


def left_out(copies: Iterable[Copy]) -> set[tuple[str, str]]:
    """The (board, game id) of the copies a reader leaves out of ``copies``: each Black
    board's copy whose White board's copy is there too and names it back."""
    copies = list(copies)
    names_back = {(board, game_id): tags.get(GAME_ID_TAGS["black"], "")
                  for board, game_id, tags in copies}
    out = set()
    for board, game_id, tags in copies:
        twin = _twin(board, game_id, tags)
        if twin is not None and names_back.get(twin) == game_id:
            out.add((board, game_id))
    return out


def of_record(game: GameRecord | None) -> Copy | None:
    """What ``game`` is as a copy (None: no game)."""
    return None if game is None else (game.board_id, game.game_id, game.headers)


def one_copy(games: Sequence[T], copy: Callable[[T], Copy | None]) -> list[T]:
    """``games`` (in their order) without the copies a reader leaves out; ``copy`` says what
    each is (None: no game, kept as it is)."""
    seen = [copy(game) for game in games]
    out = left_out(c for c in seen if c is not None)
    return [game for game, c in zip(games, seen, strict=True)
            if c is None or (c[0], c[1]) not in out]
