"""A duel between two boards of one hall (one Redis, virtual time) is one game to the hall's
readers: the archive page, its PDN download, ``/broadcast.pdn`` and a round's PDN show it once,
both boards named; with one board's copy gone, the other's is shown, once."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from firmware_host.remote.reader import parse_command
from firmware_host.store.keys import BoardKeys
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import GAME_ID_TAGS
from firmware_host.tournament.export import RoundGame, round_pdn
from firmware_host.tournament.pairing import Pairing
from tests.firmware_host.opponents.remote.two_boards import (
    move,
    poll,
    record,
    said,
    two_boards,
)
from tests.firmware_host.web.harness import WebServer
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


def shown(web: WebServer, games: list[GameRecord], white: str) -> dict[str, int]:
    """How often each reader shows the duel (a game naming ``white`` as White's board, or a
    link to one of its copies)."""
    tag = f'[WhiteBoard "{white}"]'
    page = web.get("/games")[2]
    round_ = round_pdn([RoundGame(Pairing(g.board_id, "Ann", "Bob", "1"), g) for g in games])
    return {"archive": sum(page.count(f'/game/{g.board_id}/{g.game_id}.pdn"') for g in games),
            "games.pdn": web.get("/games.pdn")[2].count(tag),
            "broadcast.pdn": web.get("/broadcast.pdn")[2].count(tag),
            "round": round_.count(tag)}


def test_a_duel_of_one_hall_is_shown_once_and_kept_by_both_boards(
        redis_server: RedisServer, tmp_path: Path) -> None:
    with two_boards(redis_server.url, tmp_path) as (white, black):
        move(white, black, "32-28")
        move(black, white, "19-23")
        poll(white, black)
        games = [record(white), record(black)]
        for game in games:  # each board keeps the game, naming both boards' ids of it
            assert game.headers[GAME_ID_TAGS["white"]] == games[0].game_id
            assert game.headers[GAME_ID_TAGS["black"]] == games[1].game_id
            assert [m.pdn for m in game.moves] == ["32-28", "19-23"]
        web = WebServer(redis_server.url).start()
        try:
            assert shown(web, games, white.board_id) == dict.fromkeys(
                ("archive", "games.pdn", "broadcast.pdn", "round"), 1)
            assert f'/game/{white.board_id}/{games[0].game_id}.pdn"' in web.get("/games")[2]
            assert f'[BlackBoard "{black.board_id}"]' in web.get("/broadcast.pdn")[2]
            # White's copy lost: Black's is shown, once, by every reader.
            client = redis.Redis.from_url(redis_server.url)
            assert client.delete(BoardKeys(white.board_id).game(games[0].game_id)) == 1
            client.close()
            assert shown(web, [games[1]], white.board_id) == dict.fromkeys(
                ("archive", "games.pdn", "broadcast.pdn", "round"), 1)
        finally:
            web.stop()


def test_the_boards_game_ids_are_kept_quietly_and_only_from_the_board(
        redis_server: RedisServer, tmp_path: Path) -> None:
    """The duel's tags are written without a sentence on the board's page, and the command
    stream (a phone) cannot write them."""
    with two_boards(redis_server.url, tmp_path) as (white, _):
        assert record(white).headers[GAME_ID_TAGS["white"]] == white.session.game_id
        assert not [e for e in said(white, "header") if e["tag"] in GAME_ID_TAGS.values()]
    entry = {b"name": b"header", b"tag": GAME_ID_TAGS["white"].encode(), b"value": b"g1",
             b"time": b"100.0"}
    with pytest.raises(ValueError, match="bad tag"):
        parse_command(entry, 100.0)
