"""``/broadcast.pdn`` as lidraughts' relay reads it (tests/firmware_host/web/relay.py: the rules
of its code): a round followed poll after poll on clocked boards, every poll accepted, the games
at their places (a game's first move, a game over, a board gone on to the next round, a board
that starts late), every move and clock read, at most 64 games a file."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
import redis

from engine import Board
from firmware_host.store import MoveRecord, RedisStore
from firmware_host.store.keys import BOARDS
from firmware_host.store.records import GameRecord
from firmware_host.tournament.pairing import read_pairings
from firmware_host.tournament.rounds import import_round
from tests.firmware_host.web.harness import BoardRig, WebServer
from tests.firmware_host.web.relay import MAX_GAMES, Chapter, Relay, RelayError

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]
CLOCK = {"clock": {"time_control": "5+3"}}


class Phone:
    """Sends a board commands from the phone and waits until its service has them."""

    def __init__(self, web: WebServer) -> None:
        self.web = web
        self.sent: dict[str, int] = {}

    def send(self, rig: BoardRig, command: str, **fields: str) -> None:
        self.web.command(rig.board_id, command, **fields)
        self.sent[rig.board_id] = self.sent.get(rig.board_id, 0) + 1
        assert rig.service.remote is not None
        assert rig.service.remote.wait_posted(self.sent[rig.board_id], 10)
        rig.run(0.5)

    def tags(self, rig: BoardRig, **tags: str) -> None:
        for name, value in tags.items():
            self.send(rig, name, value=value)


def _set_up(rig: BoardRig) -> None:
    """Put the pieces back at the start, as players do for the next game."""
    start = Board(rig.session.variant).occupied_squares()
    for square in rig.sim.occupied - start:
        rig.sim.lift(square)
    for square in start - rig.sim.occupied:
        rig.sim.place(square)
    rig.run(5.0)


def _record(rig: BoardRig, game_id: str | None = None) -> GameRecord:
    return rig.service.store.load_game(game_id or rig.session.game_id)


def _agrees(chapter: Chapter, game: GameRecord) -> None:
    """The chapter is the board's game: its players, every move, every mover's clock (whole
    seconds, as the clock comment writes them) and the result."""
    assert chapter.name == f"{game.headers['White']} - {game.headers['Black']}"
    assert chapter.moves == [m.pdn for m in game.moves]
    clocks = []
    for move in game.moves:
        left = move.clock_white if move.fen_after.startswith("B") else move.clock_black
        clocks.append(None if left is None else math.floor(left) * 100)
    assert chapter.clocks == clocks and None not in clocks
    assert chapter.tags["Result"] == game.result


def test_a_round_followed_by_a_relay_poll_after_poll(web: WebServer,
                                                     make_board: BoardMaker) -> None:
    phone = Phone(web)
    rigs = {name: make_board(name, variant="international", extra=CLOCK)
            for name in ("relay-a", "relay-b", "relay-c")}
    for name, rig in rigs.items():
        phone.tags(rig, white=f"White {name}", black=f"Black {name}", event="Club night",
                   round="1")
    relay = Relay(web.base + "/broadcast/round/1.pdn")

    def poll() -> None:
        try:
            relay.poll()
        except RelayError as exc:  # the relay would stop following the round here
            pytest.fail(f"poll {relay.polls}: the relay refuses the file: {exc}")

    poll()  # the round set up, no move yet: every pairing is a chapter, in the boards' order
    assert [c.name for c in relay.chapters] == [f"White {n} - Black {n}" for n in rigs]
    a, b, c = rigs.values()
    for rig, text in ((b, "32-28"), (c, "31-27"), (b, "19-23"), (a, "33-29"), (a, "17-21"),
                      (b, "28x19"), (c, "16-21"), (b, "14x23"), (a, "29-24")):
        rig.play(text)  # a game's first move, while the games before it have none
        poll()
    phone.send(a, "resign", side="black")
    finished = a.session.game_id
    poll()
    # The board goes on to round 2: round 1's file keeps its game, over, at its place.
    phone.send(a, "newgame")
    _set_up(a)
    assert a.session.game_id != finished
    poll()  # a new game of the same tags, no move yet: the game over stays
    phone.tags(a, round="2")
    a.play("34-30")
    c.play("27x16")
    poll()
    assert relay.rewrites == [] and len(relay.chapters) == 3
    _agrees(relay.chapters[0], _record(a, finished))
    assert relay.chapters[0].tags["Result"] == "2-0"
    _agrees(relay.chapters[1], _record(b))
    _agrees(relay.chapters[2], _record(c))
    two = Relay(web.base + "/broadcast/round/2.pdn")
    two.poll()
    assert [ch.moves for ch in two.chapters] == [["34-30"]]


def test_an_imported_round_keeps_the_pairing_order_and_waits_for_a_late_board(
        web: WebServer, make_board: BoardMaker, redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    listed = ("board,white,black,round,event\n"
              "late-3,Ann Smit,Bob de Vries,4,Open\n"   # the list's order, not the ids'
              "late-1,Cor Jansen,Dirk Bos,4,Open\n"
              "late-2,Eva Kok,Fien Dam,4,Open\n")
    plan = import_round(client, read_pairings(listed)[0], "test")
    assert not plan.problems
    first = make_board("late-1", variant="international", extra=CLOCK)
    third = make_board("late-3", variant="international", extra=CLOCK)
    relay = Relay(web.base + "/broadcast.pdn?round=4")
    relay.poll()
    assert [c.name for c in relay.chapters] == ["Ann Smit - Bob de Vries",
                                                "Cor Jansen - Dirk Bos", "Eva Kok - Fien Dam"]
    first.play("32-28")
    third.play("31-26")
    relay.poll()
    second = make_board("late-2", variant="international", extra=CLOCK)  # comes late
    second.play("33-28")
    first.play("18-23")
    relay.poll()
    assert relay.rewrites == []
    _agrees(relay.chapters[0], _record(third))
    _agrees(relay.chapters[1], _record(first))
    _agrees(relay.chapters[2], _record(second))


def test_a_hall_of_more_than_64_games_is_served_64_a_file(web: WebServer,
                                                          redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    names = [f"big-{n:03d}" for n in range(MAX_GAMES + 2)]
    for name in names:
        store = RedisStore(client, name, background=False)
        board = Board("international")
        game_id = store.new_game({"White": f"W {name}", "Black": f"B {name}", "Round": "1"},
                                 "international", None, "record")
        move = board.parse_move("32-28")
        board.push(move)
        store.append_move(game_id, MoveRecord(1, "32-28", board.fen(), 0.0, clock_white=59.0,
                                              clock_black=60.0))
        client.sadd(BOARDS, name)
    parts = [Relay(web.base + f"/broadcast.pdn?part={n}") for n in (1, 2)]
    counts = [len(relay.poll()) for relay in parts]
    assert counts == [MAX_GAMES, 2]
    shown = [c.tags["Board"] for relay in parts for c in relay.chapters]
    assert shown == names  # each game in one file, at one place
    assert parts[1].chapters[1].clocks == [5900]
    assert web.get("/broadcast.pdn?part=0")[0] == 400
    assert web.get("/broadcast.pdn?part=3")[2] == ""
