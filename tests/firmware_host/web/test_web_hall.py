"""The hall as people read it: liveness (a stopped board is "offline" with the time it was last
seen; a command to it is refused, not "ok"), the board image, names and results in words."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from firmware_host.store.keys import BoardKeys
from tests.firmware_host.web.harness import TOKEN, BoardRig, SseClient, WebServer, heartbeat

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]


def _command(web: WebServer, board_id: str, command: str) -> tuple[int, str]:
    return web.post(f"/board/{board_id}/command", {"command": command},
                    {"Authorization": f"Bearer {TOKEN}"})


def test_a_stopped_board_is_offline_and_refuses_commands(web: WebServer, redis_url: str,
                                                         make_board: BoardMaker) -> None:
    make_board("live1")
    make_board("dead1")
    heartbeat(redis_url, "dead1", state="stopped", at=1_795_977_005.0)
    _, _, hall = web.get("/")
    live_card = hall.split('id="board-live1"', 1)[1].split("</article>", 1)[0]
    dead_card = hall.split('id="board-dead1"', 1)[1].split("</article>", 1)[0]
    assert '<span class="alive on">online</span>' in live_card
    assert '<span class="alive off">offline</span>' in dead_card
    assert "last seen 2026-11-29 18:30:05 UTC" in dead_card
    _, _, page = web.get("/board/dead1")
    assert "offline" in page and "last seen 2026-11-29 18:30:05 UTC" in page
    status, body = _command(web, "dead1", "resign")
    assert status == 409 and "offline" in body and "last seen 2026-11-29" in body
    assert _command(web, "live1", "hint")[0] == 200


def test_a_board_without_a_heartbeat_or_with_an_old_one_is_offline(
        web: WebServer, redis_url: str, make_board: BoardMaker) -> None:
    make_board("old1")
    heartbeat(redis_url, "old1", at=time.time() - 16)  # running, but 16 s ago
    assert _command(web, "old1", "hint")[0] == 409
    make_board("none1")
    import redis
    redis.Redis.from_url(redis_url).delete(BoardKeys("none1").alive)
    status, body = _command(web, "none1", "hint")
    assert status == 409 and "never seen" in body


def test_the_feeds_say_when_a_board_goes_offline_and_back(web: WebServer, redis_url: str,
                                                         make_board: BoardMaker) -> None:
    rig = make_board("flap1")
    hall = SseClient(web.base, "/feed")
    page = SseClient(web.base, "/feed?board=flap1")
    try:
        rig.play("c3-d4")  # the reader knows the board and its state
        hall.wait_for(lambda d: bool(d.get("moves")))
        rig.go_dark()
        for feed in (hall, page):
            seen = feed.wait_for(lambda d: d["board"] == "flap1", event="alive")
            assert seen[-1]["online"] is False and seen[-1]["seen_text"].startswith("last seen")
        rig.beat()
        seen = hall.wait_for(lambda d: d["board"] == "flap1", event="alive")
        assert seen[-1]["online"] is True
    finally:
        hall.close()
        page.close()


def test_the_board_image(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("img1")
    rig.play("c3-d4")
    status, headers, svg = web.get("/board/img1.svg")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    assert svg.startswith("<svg") and "<script" not in svg and "on" + "load" not in svg
    assert headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert "max-age" in headers["Cache-Control"]
    assert 'class="last"' in svg and 'data-sq="d4"' in svg
    assert ">a<" in svg and ">8<" in svg and "lab-f" not in svg  # one side's labels
    again = web.get("/board/img1.svg", {"If-None-Match": headers["ETag"]})
    assert again[0] == 304
    _, _, flipped = web.get("/board/img1.svg?flip=1&size=200")
    assert 'transform="rotate(180' in flipped and 'width="' in flipped
    assert web.get("/board/nosuch.svg")[0] == 404
    assert web.get("/board/bad%3Aid.svg")[0] == 404


def test_names_and_results_in_words(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("words1")
    rig.play("c3-d4")
    _, _, hall = web.get("/")
    assert ('<span class="white-name">White</span> – <span class="black-name">Black</span>'
            in hall)
    assert '<dd class="result">In progress</dd>' in hall and "? – ?" not in hall
    web.command("words1", "white", value="Anna")
    assert rig.service.remote is not None and rig.service.remote.wait_posted(1, 10)
    rig.run(0.2)
    web.command("words1", "resign", side="black")
    assert rig.service.remote.wait_posted(2, 10)
    rig.run(0.5)
    _, _, page = web.get("/board/words1")
    assert '<dd class="white-name">Anna</dd>' in page
    assert "White won" in page
    _, _, games = web.get("/games")
    table = games.split("<tbody>", 1)[1]  # the filter offers every outcome; the table its own
    assert ">In progress<" not in table and "White won" in table
