"""The web app's pages and PDN against a real Redis with boards playing scripted games."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from email.utils import format_datetime, parsedate_to_datetime

import pytest
from draughts import Board as PyBoard
from draughts import Move as PyMove
from draughts.PDN import PDNReader

from engine.pdn import read_games
from tests.firmware_host.web.harness import BoardRig, WebServer

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]


def _card(html: str, board_id: str) -> str:
    match = re.search(rf'<article class="card" id="board-{board_id}".*?</article>', html, re.S)
    assert match, f"no card for {board_id}"
    return match.group(0)


def test_hall_shows_every_board(web: WebServer, make_board: BoardMaker) -> None:
    one = make_board("hall1")
    two = make_board("hall2", variant="international")
    one.play("c3-d4")
    two.play("32-28")
    two.play("19-23")
    status, headers, html = web.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    first, second = _card(html, "hall1"), _card(html, "hall2")
    assert "russian" in first and "1. c3-d4" in first and "black" in first
    assert "international" in second and "1... 19-23" in second and ">white<" in second
    assert "waiting for a move" in first
    assert first.count('class="piece') == 24 and second.count('class="piece') == 40
    assert 'class="last"' in second  # the last move drawn


def test_board_page_has_moves_sentences_and_pdn(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("page1")
    rig.play("c3-d4")
    rig.sim.lift(rig.session.board.variant.parse_square("d4"))  # white again: not its turn
    rig.sim.place(rig.session.board.variant.parse_square("e5"))
    rig.run(3.0)
    assert "refused" in rig.kinds()
    status, _, html = web.get("/board/page1")
    assert status == 200
    assert '<li><span class="n">1.</span><span class="m">c3-d4</span>' in html  # as PDN does
    assert "it is black&#39;s turn" in html or "it is black's turn" in html
    assert 'class="led' in html  # the correction LEDs drawn on the diagram
    game_id = rig.session.game_id
    assert f'/game/page1/{game_id}.pdn' in html
    status, headers, pdn = web.get(f"/game/page1/{game_id}.pdn")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    assert [g.move_texts for g in read_games(pdn)] == [["c3-d4"]]
    assert web.get("/board/nosuch")[0] == 404
    assert web.get("/board/..%2Fetc")[0] == 404


def test_archive_filters_replay_and_selection(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("arch1")
    web.command("arch1", "white", value="Alice")
    assert rig.service.remote is not None and rig.service.remote.wait_posted(1, 10)
    rig.play("c3-d4")
    rig.play("f6-g5")
    web.command("arch1", "resign", side="black")
    assert rig.service.remote.wait_posted(2, 10)
    rig.run(0.5)
    other = make_board("arch2", variant="international")
    other.play("32-28")
    status, _, html = web.get("/games")
    row = '<td data-label="Board">arch2</td>'
    assert status == 200 and '<span class="w">Alice</span>' in html and row in html
    _, _, html = web.get("/games?player=alice")
    assert '<span class="w">Alice</span>' in html and row not in html
    _, _, html = web.get("/games?variant=international")
    assert row in html and '<span class="w">Alice</span>' not in html
    _, _, html = web.get("/games?result=1-0")
    assert '<span class="w">Alice</span>' in html and row not in html
    _, _, html = web.get("/games?result=white")  # one entry per outcome: 1-0 and 2-0 alike
    assert '<span class="w">Alice</span>' in html and row not in html
    options = html.split('<select name="result">', 1)[1].split("</select>", 1)[0]
    assert options.count("<option") == 5 and "(1-0)" not in options
    _, _, html = web.get("/games?board=arch1")  # c3-d4 f6-g5: two plies, one move
    assert '<td data-label="Moves">1</td>' in html
    assert '<option value="white" selected>White won</option>' in options
    assert web.get("/games?since=not-a-date")[0] == 400
    started = other.service.store.load_game(other.session.game_id).created
    today = time.strftime("%Y-%m-%d", time.gmtime(started))
    _, _, html = web.get(f"/games?since={today}&until={today}")
    assert row in html
    _, _, html = web.get("/games?until=2000-01-01")
    assert row not in html and "No game matches" in html
    game_id = rig.session.game_id
    status, _, replay = web.get(f"/game/arch1/{game_id}?ply=1")
    # Issue 39: "move 83 of 83" beside a list numbered 1-42: plies are called plies.
    assert status == 200 and '<span class="now">1. c3-d4</span> · ply 1 of 2' in replay
    assert replay.count('class="piece') == 24 and 'class="last"' in replay
    _, _, pdn = web.get(f"/games.pdn?game=arch1/{game_id}&game=arch2/{other.session.game_id}")
    games = read_games(pdn)
    assert [g.move_texts for g in games] == [["c3-d4", "f6-g5"], ["32-28"]]
    assert games[0].headers["White"] == "Alice" and games[0].result == "1-0"


def test_broadcast_pdn_etag_last_modified_and_readers(web: WebServer,
                                                      make_board: BoardMaker) -> None:
    one = make_board("cast1", variant="international")
    two = make_board("cast2", variant="international")
    for board_id, round_ in (("cast1", "1"), ("cast2", "2")):
        web.command(board_id, "event", value="Club championship")
        web.command(board_id, "round", value=round_)
    for rig in (one, two):
        assert rig.service.remote is not None and rig.service.remote.wait_posted(2, 10)
    one.play("32-28")
    one.play("19-23")
    two.play("31-27")
    status, headers, text = web.get("/broadcast.pdn")
    assert status == 200 and headers["Content-Type"].startswith("application/x-chess-pdn")
    ours = read_games(text)
    assert [g.move_texts for g in ours] == [["32-28", "19-23"], ["31-27"]]
    for game in ours:
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"):
            assert tag in game.headers
        assert game.headers["Event"] == "Club championship"
    theirs = PDNReader(pdn_text=text).games
    assert [g.moves for g in theirs] == [["32-28", "19-23"], ["31-27"]]
    py = PyBoard(variant="standard")
    for move in theirs[0].moves:
        py.push(PyMove(py, pdn_move=move))
    assert len(py.move_stack) == 2
    tag, modified = headers["ETag"], headers["Last-Modified"]
    assert web.get("/broadcast.pdn", {"If-None-Match": tag})[0] == 304
    assert web.get("/broadcast.pdn", {"If-Modified-Since": modified})[0] == 304
    earlier = format_datetime(parsedate_to_datetime(modified).replace(year=2000), usegmt=True)
    assert web.get("/broadcast.pdn", {"If-Modified-Since": earlier})[0] == 200
    one.play("28x19")
    status, headers, text = web.get("/broadcast.pdn", {"If-None-Match": tag})
    assert status == 200 and headers["ETag"] != tag and "28x19" in text
    _, _, round2 = web.get("/broadcast/round/2.pdn")
    assert [g.move_texts for g in read_games(round2)] == [["31-27"]]
    _, _, board1 = web.get("/broadcast.pdn?board=cast1")
    assert [g.headers["Round"] for g in read_games(board1)] == ["1"]
    _, _, board2 = web.get("/broadcast/board/cast2.pdn")
    assert [g.headers["Board"] for g in read_games(board2)] == ["cast2"]
