"""The game store: write-ahead logs, takebacks, sessions, events, corrupt records, many boards."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import fakeredis
import pytest

from firmware_host.store import MoveRecord, RecordError, RedisStore, Spool, open_store
from firmware_host.store.keys import ROOT, BoardKeys


def move(ply: int, pdn: str) -> MoveRecord:
    return MoveRecord(ply=ply, pdn=pdn, fen_after=f"fen{ply}", time=1000.0 + ply)


@pytest.fixture
def store() -> RedisStore:
    return RedisStore(fakeredis.FakeRedis(), "board1", clock=lambda: 1796000000.0)


def test_game_log_replays_moves_takebacks_and_result(store: RedisStore) -> None:
    game_id = store.new_game({"Event": "Club night"}, "russian", None, "record")
    for ply, pdn in enumerate(["c3-d4", "f6-g5", "g3-f4", "g5-h4"], 1):
        store.append_move(game_id, move(ply, pdn))
    store.truncate(game_id, 2)
    store.append_move(game_id, move(3, "b2-c3"))
    store.finish(game_id, "1-0", "resignation")
    fresh = RedisStore(store.client, "board1")
    game = fresh.load_game(game_id)
    assert [m.pdn for m in game.moves] == ["c3-d4", "f6-g5", "b2-c3"]
    assert (game.result, game.termination) == ("1-0", "resignation")
    assert game.headers == {"Event": "Club night"}


def test_an_inconsistent_move_is_refused_before_it_is_written(store: RedisStore) -> None:
    game_id = store.new_game({}, "english", None, "record")
    with pytest.raises(RecordError, match="ply 3, expected 1"):
        store.append_move(game_id, move(3, "11-15"))
    assert store.load_game(game_id).moves == []
    assert store.client.xlen(BoardKeys("board1").game(game_id)) == 1


def test_resume_continues_numbering(store: RedisStore) -> None:
    game_id = store.new_game({}, "english", None, "play")
    store.append_move(game_id, move(1, "11-15"))
    restarted = RedisStore(store.client, "board1")
    restarted.append_move(game_id, move(2, "23-19"))  # loads the game itself
    assert [m.pdn for m in restarted.load_game(game_id).moves] == ["11-15", "23-19"]


def test_session_state_round_trip(store: RedisStore) -> None:
    assert store.load_session() is None
    state = {"game_id": "g1", "fen": "W:W31-50:B1-20", "pending": None, "mode": "play"}
    store.save_session(state)
    assert RedisStore(store.client, "board1").load_session() == state


@pytest.mark.logs_errors
@pytest.mark.logs_errors
def test_corrupt_session_is_reported_not_fatal(store: RedisStore,
                                               caplog: pytest.LogCaptureFixture) -> None:
    store.client.set(BoardKeys("board1").session, b"{not json")
    assert store.load_session() is None
    assert "corrupt" in caplog.text


@pytest.mark.logs_errors
@pytest.mark.logs_errors
def test_corrupt_entries_are_skipped_and_reported(store: RedisStore) -> None:
    game_id = store.new_game({}, "international", None, "record")
    store.append_move(game_id, move(1, "32-28"))
    key = BoardKeys("board1").game(game_id)
    store.client.xadd(key, {"op": "move", "seq": "3", "data": '{"ply": 2, "pdn"'})  # truncated
    store.client.xadd(key, {"garbage": "x"})
    store.client.xadd(key, {"op": "move", "seq": "5", "data": json.dumps(move(2, "19-23")
                                                                         .to_json())})
    game = RedisStore(store.client, "board1").load_game(game_id)
    assert [m.pdn for m in game.moves] == ["32-28", "19-23"]
    assert len(game.problems) == 2


@pytest.mark.logs_errors
@pytest.mark.logs_errors
def test_unreadable_game_does_not_hide_the_others(store: RedisStore) -> None:
    good = store.new_game({"White": "Ann"}, "russian", None, "record")
    store.client.zadd(BoardKeys("board1").games, {"broken": 1.0})
    store.client.xadd(BoardKeys("board1").game("broken"), {"op": "start", "seq": "1",
                                                           "data": "{}"})
    games = store.list_games()
    assert [g.game_id for g in games] == [good]
    assert games[0].white == "Ann"


def test_many_boards_share_one_redis() -> None:
    client = fakeredis.FakeRedis()
    first, second = RedisStore(client, "table1"), RedisStore(client, "table2")
    a = first.new_game({}, "international", None, "record")
    b = second.new_game({}, "international", None, "record")
    first.append_move(a, move(1, "32-28"))
    assert [g.game_id for g in first.list_games()] == [a]
    assert {(g.board_id, g.game_id) for g in first.list_games(all_boards=True)} == {
        ("table1", a), ("table2", b)}
    assert all(k.decode().startswith(f"{ROOT}:") for k in client.keys("*"))


def test_events_go_to_stream_and_channel(store: RedisStore) -> None:
    pubsub = store.client.pubsub()
    pubsub.subscribe(BoardKeys("board1").events)
    pubsub.get_message(timeout=1)
    store.publish({"event": "move", "pdn": "32-28"})
    message = pubsub.get_message(timeout=1)
    assert message is not None
    payload = json.loads(message["data"])
    assert payload == {"board": "board1", "seq": 1, "time": 1796000000.0, "event": "move",
                       "pdn": "32-28"}
    [(_, fields)] = store.client.xrange(BoardKeys("board1").events)
    assert json.loads(fields[b"event"]) == payload


def test_memory_store_warns_it_keeps_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        memory = open_store("memory", "b")
    assert "nothing else survives a restart" in caplog.text
    memory.close()
    memory.close()


def test_spool_skips_a_line_cut_short(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    spool = Spool(tmp_path / "b.jsonl")
    spool.append([{"cmd": "set", "args": ["k", "1"]}])
    with open(spool.path, "a") as file:
        file.write('{"e": "x", "n": 2, "tx": [{"cmd": "se')
    spool.append([{"cmd": "set", "args": ["k", "3"]}])
    reread = Spool(spool.path)
    assert [(e.n, e.commands) for e in reread.entries()] == [
        (1, [{"cmd": "set", "args": ["k", "1"]}]), (2, [{"cmd": "set", "args": ["k", "3"]}])]
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            reread.entries()
    assert caplog.text.count("cut short") == 1  # said once, not at every retry
    spool.clear()
    assert len(spool) == 0


def test_a_malformed_spooled_command_is_reported_and_the_rest_flushed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "board1.jsonl"
    path.write_text('{"e": "x", "n": 1, "tx": [{"args": ["k", "lost"]}, '
                    '{"cmd": "set", "args": ["k", "1"], "kwargs": 7}, '
                    '{"cmd": "set", "args": ["k2", "2"]}]}\n')
    client = fakeredis.FakeRedis()
    store = RedisStore(client, "board1", Spool(path))
    with caplog.at_level(logging.WARNING):
        assert store.flush()
    assert client.get("k") is None
    assert client.get("k2") == b"2"
    assert "line 1: 2 malformed command(s) skipped" in caplog.text
