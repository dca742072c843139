"""Raw records of the boards' keys (docs/events.md), written as the store writes them, so a
test can write a healthy board and then spoil one field of it."""

from __future__ import annotations

import json
from typing import Any

import redis

from engine import Board
from firmware_host.store.keys import BOARDS, BoardKeys

CREATED = 1_795_977_005.0


def start_data(board_id: str, game_id: str = "g1", **changes: Any) -> dict[str, Any]:
    """The data of a game's ``start`` entry."""
    data: dict[str, Any] = {"game_id": game_id, "board_id": board_id,
                            "headers": {"White": "Ann", "Black": "Bob", "Round": "1"},
                            "variant": "russian", "start_fen": None, "mode": "record",
                            "created": CREATED}
    data.update(changes)
    return data


def move_data(move: str = "c3-d4", ply: int = 1, **changes: Any) -> dict[str, Any]:
    """The data of a ``move`` entry (the position after it computed by the engine)."""
    board = Board("russian")
    parsed = board.parse_move(move)
    board.push(parsed)
    data: dict[str, Any] = {"ply": ply, "pdn": move, "fen_after": board.fen(),
                            "time": CREATED + 10, "origin": "c3", "destination": "d4"}
    data.update(changes)
    return data


def op(name: str, seq: int, data: object) -> dict[str, str]:
    """Stream fields of one log operation."""
    return {"op": name, "seq": str(seq), "data": json.dumps(data)}


def add_game(client: redis.Redis, board_id: str, game_id: str = "g1",
             entries: list[dict[Any, Any]] | None = None) -> None:
    """Register ``game_id`` on ``board_id`` and write its log (a start and one move unless
    ``entries`` are given)."""
    client.sadd(BOARDS, board_id)
    client.zadd(BoardKeys(board_id).games, {game_id: CREATED})
    if entries is None:
        entries = [op("start", 1, start_data(board_id, game_id)), op("move", 2, move_data())]
    for fields in entries:
        client.xadd(BoardKeys(board_id).game(game_id), fields)


def add_event(client: redis.Redis, board_id: str, message: object) -> str:
    """Add one event (``message`` as JSON, or raw bytes/str) to the board's live stream."""
    raw = message if isinstance(message, bytes | str) else json.dumps(message)
    entry = client.xadd(BoardKeys(board_id).events, {"event": raw})
    return entry.decode() if isinstance(entry, bytes) else str(entry)


def seed_board(client: redis.Redis, board_id: str) -> None:
    """A healthy board: one game of one move, a session and a few events."""
    add_game(client, board_id)
    client.set(BoardKeys(board_id).session, json.dumps({"game_id": "g1"}))
    add_event(client, board_id, {"event": "new_game", "game_id": "g1", "variant": "russian",
                                 "mode": "record"})
    add_event(client, board_id, {"event": "state", "state": "human_to_move"})
    add_event(client, board_id, {"event": "move", "ply": 1, "pdn": "c3-d4"})
