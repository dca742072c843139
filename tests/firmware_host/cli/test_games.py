"""``draughtsboard games`` and ``games export`` against a real Redis, and the PDN of records."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from engine import Board
from engine.pdn import read_games
from engine.variant import VARIANTS
from firmware_host.store import MoveRecord, RedisStore
from firmware_host.store.pdnrender import render_game
from firmware_host.store.records import GameRecord
from tests.redis_server import RedisServer

DRAUGHTSBOARD = str(Path(sys.executable).parent / "draughtsboard")


def play(store: RedisStore, variant: str, plies: int, seed: int,
         headers: dict[str, str]) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    board = Board(variant)
    game_id = store.new_game(headers, variant, None, "record")
    texts = []
    for ply in range(1, plies + 1):
        if board.is_game_over():
            break
        move = rng.choice(list(board.legal_moves))
        texts.append(board.move_notation(move))
        board.push(move)
        store.append_move(game_id, MoveRecord(ply, texts[-1], board.fen(), 1000.0 + ply))
    return game_id, texts


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([DRAUGHTSBOARD, "games", *args], capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.redis
def test_list_and_export_across_boards(own_redis_server: RedisServer) -> None:
    client = redis.Redis.from_url(own_redis_server.url)
    one, two = RedisStore(client, "table1"), RedisStore(client, "table2")
    first, first_moves = play(one, "international", 12, 1, {"White": "Ann", "Black": "Bob"})
    second, second_moves = play(two, "russian", 9, 2, {"White": "Cleo", "Black": "Dan"})
    two.finish(second, "1-0", "resignation")

    mine = run("--store", own_redis_server.url, "--board-id", "table1")
    assert mine.returncode == 0, mine.stderr
    assert first in mine.stdout and second not in mine.stdout
    assert "Ann - Bob * (12 plies)" in mine.stdout

    everything = run("export", "--store", own_redis_server.url, "--all-boards")
    assert everything.returncode == 0, everything.stderr
    games = {g.headers["GameId"]: g for g in read_games(everything.stdout)}
    assert games[first].move_texts == first_moves
    assert games[second].move_texts == second_moves
    assert games[second].result == "1-0"
    assert games[second].headers["White"] == "Cleo"

    none = run("export", "--store", own_redis_server.url, "--all-boards", "--since",
               "2999-01-01")
    assert none.returncode == 0 and none.stdout == ""


def test_bad_arguments_and_unreachable_store(tmp_path: Path) -> None:
    bad = run("--since", "yesterday")
    assert bad.returncode == 2 and "--since 'yesterday'" in bad.stderr
    down = run("--store", "redis://:pw@127.0.0.1:1/0")
    assert down.returncode == 69  # a dependency is unavailable (docs/architecture.md)
    assert "Redis at redis://:***@127.0.0.1:1/0 unreachable" in down.stderr
    assert "pw" not in down.stderr.replace("***", "")
    assert len(down.stderr.splitlines()) == 1 and "Traceback" not in down.stderr


def test_a_broken_store_url_is_one_line() -> None:
    broken = run("--store", "redis://:pw@[::1")
    assert broken.returncode == 2  # bad input
    assert len(broken.stderr.splitlines()) == 1, broken.stderr
    assert "Traceback" not in broken.stderr and "redis://" in broken.stderr
    assert "pw" not in broken.stderr.replace("***", "")


@pytest.mark.redis
def test_a_wrong_password_is_one_line(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", password="right")
    server.start()
    try:
        wrong = run("--store", f"redis://:wrong@127.0.0.1:{server.port}/0")
    finally:
        server.stop()
    assert wrong.returncode == 69  # Redis refuses: unavailable, as down
    assert "authentication failed" in wrong.stderr
    assert len(wrong.stderr.splitlines()) == 1 and "wrong" not in wrong.stderr.replace(
        "***", "")


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_record_to_pdn_round_trip(variant: str) -> None:
    rng = random.Random(variant)
    board = Board(variant)
    record = GameRecord("g1", "board1", {"Event": "Club night", "White": "Ann"}, variant, None,
                        "record", 1_796_000_000.0)
    for ply in range(1, 41):
        if board.is_game_over():
            break
        move = rng.choice(list(board.generate_moves(paths=True)))
        record.moves.append(MoveRecord(ply, board.move_notation(move), "", 0.0))
        board.push(move)
    [game] = read_games(render_game(record))
    assert game.variant.name == variant
    assert game.move_texts == [m.pdn for m in record.moves]
    assert game.headers["Event"] == "Club night"
    assert game.headers["White"] == "Ann"
    assert game.headers["Board"] == "board1"
    assert game.result == "*"


@pytest.mark.logs_errors
@pytest.mark.logs_errors
def test_damaged_record_keeps_the_moves_before_the_damage() -> None:
    record = GameRecord("g2", "b", {}, "english", None, "record", 1_796_000_000.0)
    record.moves = [MoveRecord(1, "11-15", "", 0.0), MoveRecord(2, "23-19", "", 0.0),
                    MoveRecord(3, "15-99", "", 0.0)]
    text = render_game(record)
    [game] = read_games(text)
    assert game.move_texts == ["11-15", "23-19"]
    assert "record damaged after move 2" in text
