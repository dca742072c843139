"""Pairing two boards while they run (virtual time, two whole services, one real
redis-server): a ``pair`` command, as the phone or the arbiter's console sends it, seats the
other board across this one from the next game (at once when no move is made), and the game is
one game in both records, both boards named; a bad board name is refused with one message."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.feedback.texts import render
from firmware_host.store.pdnrender import render_game
from firmware_host.terms.commands import Command
from firmware_host.terms.settings import Mode
from firmware_host.web.control import command_fields
from tests.firmware_host.opponents.remote.two_boards import move, poll, record, said
from tests.firmware_host.session_harness import Rig
from tests.firmware_host.web.harness import TOKEN, BoardRig, WebServer
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


@pytest.fixture
def hall(redis_server: RedisServer, tmp_path: Path) -> Iterator[tuple[BoardRig, BoardRig]]:
    """Two boards playing the computer, as a hall's boards start."""
    rigs = [BoardRig(redis_server.url, f"{tmp_path.name[:20]}-{n}", tmp_path / str(n),
                     mode="play", variant="international") for n in (3, 9)]
    try:
        yield rigs[0], rigs[1]
    finally:
        for rig in rigs:
            rig.close()


def pair(rig: BoardRig, partner: str, side: str) -> None:
    rig.service.controller.post(Command("pair", rig.clock.monotonic(), side=side,
                                        value=partner))
    rig.run(3.0)  # (no move made: a new game opens at once, the board at the start)


def test_two_running_boards_are_paired_and_play_one_game(
        hall: tuple[BoardRig, BoardRig]) -> None:
    white, black = hall
    assert white.service.duel is None  # the computer plays across each board
    pair(white, black.board_id, "white")
    pair(black, white.board_id, "black")
    for rig, partner in ((white, black), (black, white)):
        assert said(rig, "paired")[-1]["partner"] == partner.board_id
        assert rig.session.config.remote and rig.service.duel is not None
    poll(white, black)
    move(white, black, "32-28")
    move(black, white, "19-23")
    games = [record(rig) for rig in hall]
    for game in games:
        assert game.headers["White"] == game.headers["WhiteBoard"] == white.board_id
        assert game.headers["Black"] == game.headers["BlackBoard"] == black.board_id
        assert [m.pdn for m in game.moves] == ["32-28", "19-23"]
    tagged = [[line for line in render_game(g).splitlines()
               if line.startswith(("[WhiteBoard", "[BlackBoard"))] for g in games]
    assert tagged[0] == tagged[1] and len(tagged[0]) == 2
    # Unpaired: the computer again, from the next game.
    white.service.controller.post(Command("pair", white.clock.monotonic(), value=""))
    white.run(0.5)
    assert render(said(white, "paired")[-1]) == "from the next game the computer plays again"


def test_a_bad_board_name_is_refused_with_one_message(hall: tuple[BoardRig, BoardRig]) -> None:
    white, _ = hall
    for partner, reason in (("club-b:board-1", "bad_board"), (white.board_id, "self")):
        white.service.controller.post(Command("pair", white.clock.monotonic(), value=partner))
        white.run(0.5)
        refused = said(white, "command_refused")[-1]
        assert refused["reason"] == reason and white.service.duel is None
    assert render(refused) == "pair: a board cannot play itself"
    with pytest.raises(ValueError, match="the board to play: 'club-b:board-1' is not"):
        command_fields({"command": "pair", "value": "club-b:board-1"})
    assert command_fields({"command": "pair", "value": "club-b-1", "side": "black"}) == {
        "name": "pair", "value": "club-b-1", "side": "black"}


def test_the_console_and_the_phone_pair_boards_through_their_guarded_paths(
        redis_server: RedisServer, hall: tuple[BoardRig, BoardRig]) -> None:
    """The arbiter's console pairs a board with another of the hall (paired back, the other
    side); the phone's form is checked at the edge: a bad name is one 400 and nothing sent."""
    white, black = hall
    web = WebServer(redis_server.url, arbiter=True).start()
    try:
        bad = web.post(f"/board/{white.board_id}/command",
                       {"command": "pair", "value": "club-b:board-1"},
                       {"Authorization": f"Bearer {TOKEN}"})
        assert bad[0] == 400 and "the board to play" in json.loads(bad[1])["message"]
        refused = web.post("/arbiter/pair-board", {"board": white.board_id, "to": "a b"},
                           {"Authorization": f"Bearer {web.arbiter.token}"})
        assert refused[0] == 400 and "the board to play" in json.loads(refused[1])["error"]
        replies: list[tuple[int, str]] = []
        sending = threading.Thread(target=lambda: replies.append(web.post(
            "/arbiter/pair-board", {"board": white.board_id, "to": black.board_id,
                                    "side": "white", "reason": "club match"},
            {"Authorization": f"Bearer {web.arbiter.token}"})))
        sending.start()
        while sending.is_alive():  # (the boards answer as their scan loops run)
            for rig in hall:
                rig.run(0.2)
            sending.join(0.01)
        status, body = replies[0]
        assert status == 200, body
        assert json.loads(body)["message"].startswith(
            f"{white.board_id}: paired with {black.board_id}, playing White: done")
        for rig in hall:
            rig.run(3.0)
        assert white.session.config.human_side.name == "WHITE"
        assert black.session.config.human_side.name == "BLACK"
        assert white.service.duel.partner == black.board_id
        assert black.service.duel.partner == white.board_id
    finally:
        web.stop()


def test_a_board_without_an_engine_records_again_when_unpaired() -> None:
    """A hall's board in record mode (no engine) plays a person afar while paired, and
    records again once the pairing ends: never a game of play mode with nobody across."""
    rig = Rig("international", mode=Mode.RECORD, board="hall-1")
    seated: list[tuple[str, str]] = []
    rig.session.settings.pair_hook = lambda partner, side: seated.append((partner, side.name))
    for partner, mode in (("club-b-1", Mode.PLAY), ("", Mode.RECORD)):
        rig.session.handle(Command("pair", rig.now, side="white", value=partner))
        rig.wait(2000)  # (no move made: a new game opens with it)
        assert rig.session.config.mode is mode and rig.last("new_game")["mode"] == mode.value
    assert seated == [("club-b-1", "WHITE"), ("", "WHITE")]
