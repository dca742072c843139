"""A match between two clubs (issue 44): 2 boards of one hall against 2 of another, set up
from one list both halls import as a round, each pair of boards playing one game over the Redis
both clubs reach; the result is one match score, seen from each hall's side, and one PDN.

Virtual time, four whole board services on simulated boards, one real redis-server: hall A's
store is database 1, hall B's database 2, the Redis both clubs reach database 3."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from firmware_host.store.keys import BOARDS
from firmware_host.terms.commands import Command
from firmware_host.tournament.export import match_score, round_games, round_pdn
from firmware_host.tournament.match import read_match
from firmware_host.tournament.rounds import import_round, read_list
from tests.firmware_host.opponents.remote.two_boards import move, poll, said
from tests.firmware_host.web.harness import BoardRig, WebServer
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

MATCH = ("white_board;black_board;white;black;round;event\n"
         "a-1;b-1;Ann Smit;Bob Bos;1;A v B\n"
         "b-2;a-2;Cor Kok;Dirk Dam;1;A v B\n")


def url(server: RedisServer, db: int) -> str:
    return server.url.rsplit("/", 1)[0] + f"/{db}"


@pytest.fixture
def clubs(redis_server: RedisServer, tmp_path: Path) -> Iterator[dict[str, BoardRig]]:
    for db in (1, 2, 3):
        redis.Redis.from_url(url(redis_server, db)).flushdb()
    rigs: dict[str, BoardRig] = {}
    try:
        for board in ("a-1", "a-2", "b-1", "b-2"):
            hall = 1 if board.startswith("a") else 2
            rigs[board] = BoardRig(url(redis_server, hall), board, tmp_path / board,
                                   mode="record", variant="international",
                                   extra={"remote": {"url": url(redis_server, 3)}})
        yield rigs
    finally:
        for rig in rigs.values():
            rig.close()


def run(rigs: dict[str, BoardRig], seconds: float) -> None:
    for rig in rigs.values():
        rig.run(seconds)


def test_two_clubs_play_a_two_board_match(redis_server: RedisServer,
                                          clubs: dict[str, BoardRig]) -> None:
    halls = {hall: redis.Redis.from_url(url(redis_server, db)) for hall, db in
             (("a", 1), ("b", 2))}
    for hall, client in halls.items():  # each hall imports the same list: its own rows
        ours = {m.decode() for m in client.smembers(BOARDS)}
        assert ours == {f"{hall}-1", f"{hall}-2"}
        pairings, problems, _ = read_list(MATCH, ours=ours)
        assert problems == []
        assert not import_round(client, pairings, "test").problems
    for _ in range(20):  # the boards read their pair commands and open the match's games
        run(clubs, 0.5)
        if all(rig.service.duel is not None for rig in clubs.values()):
            break
    for board, partner in (("a-1", "b-1"), ("b-2", "a-2")):
        white, black = clubs[board], clubs[partner]
        assert white.service.duel.partner == partner and black.service.duel.partner == board
        poll(white, black)
    # Board 1: Ann (a-1, White) wins: Bob resigns on b-1.
    move(clubs["a-1"], clubs["b-1"], "32-28")
    move(clubs["b-1"], clubs["a-1"], "19-23")
    clubs["b-1"].service.controller.post(Command("resign", clubs["b-1"].clock.monotonic()))
    run(clubs, 0.5)
    poll(clubs["a-1"], clubs["b-1"])
    # Board 2: Cor (b-2, White) and Dirk (a-2) agree a draw.
    move(clubs["b-2"], clubs["a-2"], "32-28")
    move(clubs["a-2"], clubs["b-2"], "19-23")
    clubs["b-2"].play("28x19")
    clubs["b-2"].service.controller.post(Command("draw", clubs["b-2"].clock.monotonic()))
    run(clubs, 0.5)
    poll(clubs["b-2"], clubs["a-2"])
    clubs["a-2"].play_computer_move()
    clubs["a-2"].service.controller.post(Command("draw", clubs["a-2"].clock.monotonic()))
    run(clubs, 0.5)
    poll(clubs["b-2"], clubs["a-2"])
    assert said(clubs["b-2"], "result")[-1]["termination"] == "draw_agreed"
    scores, pdns = {}, {}
    for hall, client in halls.items():
        _, games = round_games(client, "1")
        scores[hall] = match_score(games)
        pdns[hall] = round_pdn(games)
    assert scores["a"] is not None and scores["b"] is not None
    assert (scores["a"].words(), scores["b"].words()) == ("1½–½", "½–1½")
    assert scores["a"].finished == scores["a"].boards == 2

    def kept(pdn: str) -> str:  # (each hall's own tags: the board's id, its game id, times)
        return "\n".join(line for line in pdn.splitlines()
                         if not re.match(r'\[(Board|GameId|Date|Time|Mode) ', line))
    assert kept(pdns["a"]).count("[Event \"A v B\"]") == 2
    assert sorted(kept(pdns["a"]).split("\n\n")) == sorted(kept(pdns["b"]).split("\n\n"))
    assert '[White "Ann Smit"]' in pdns["a"] and '[WhiteBoard "a-1"]' in pdns["a"]
    web = WebServer(url(redis_server, 1)).start()
    try:
        status, _, page = web.get("/round/1")
    finally:
        web.stop()
    assert status == 200 and "Match score: 1½–½" in page and "a-1 – b-1" in page


def test_a_match_list_row_must_name_a_board_of_this_hall() -> None:
    text = MATCH + "c-1;d-1;Eva;Fay;1;A v B\na-3;a-4;Gus;Hil;1;A v B\n"
    pairings, problems = read_match(text, {"a-1", "a-2", "a-3", "a-4"})
    assert [p.board for p in pairings] == ["a-1", "a-2"]  # (the good rows read)
    assert problems == ["line 4: neither c-1 nor d-1 is a board of this hall",
                        "line 5: a-3 and a-4 are both boards of this hall: a match list pairs "
                        "a board of each club"]
