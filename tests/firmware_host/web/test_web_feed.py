"""The live feed: a stored move reaches an open feed; a feed that reconnects misses nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.web.feed import parse_cursor
from tests.firmware_host.web.harness import BoardRig, SseClient, WebServer
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]


def _moves(seen: list[dict[str, Any]]) -> list[str]:
    return [e["pdn"] for data in seen for e in data["events"] if e["event"] == "move"]


def _has_move(pdn: str) -> Callable[[dict[str, Any]], bool]:
    return lambda data: any(e["event"] == "move" and e["pdn"] == pdn for e in data["events"])


def test_a_move_reaches_the_board_feed(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("feed1")
    _, _, html = web.get("/board/feed1")
    cursor = html.split('data-cursor="', 1)[1].split('"', 1)[0]
    assert set(parse_cursor(cursor)) == {"feed1"}
    feed = SseClient(web.base, f"/feed?board=feed1&cursor={cursor}")
    try:
        rig.play("c3-d4")
        seen = feed.wait_for(_has_move("c3-d4"))
        assert seen[-1]["board"] == "feed1"
        assert "1. c3-d4" in seen[-1]["panel"]  # the panel, drawn again with the move
    finally:
        feed.close()


def test_a_reconnecting_feed_resumes_after_its_last_event(web: WebServer,
                                                          make_board: BoardMaker) -> None:
    rig = make_board("feed2")
    feed = SseClient(web.base, "/feed?board=feed2")
    rig.play("c3-d4")
    feed.wait_for(_has_move("c3-d4"))
    last_id = feed.last_id
    assert last_id is not None and set(parse_cursor(last_id)) == {"feed2"}
    feed.close()
    rig.play("f6-g5")  # while the page is away
    rig.play("g3-h4")
    again = SseClient(web.base, "/feed?board=feed2", last_event_id=last_id)
    try:
        seen = again.wait_for(_has_move("g3-h4"))
    finally:
        again.close()
    assert _moves(seen) == ["f6-g5", "g3-h4"]  # nothing missed, nothing repeated


def test_the_hall_feed_follows_every_board_and_new_ones(web: WebServer,
                                                        make_board: BoardMaker) -> None:
    one = make_board("hallfeed1")
    _, _, html = web.get("/")
    cursor = html.split('data-cursor="', 1)[1].split('"', 1)[0]
    feed = SseClient(web.base, f"/feed?cursor={cursor}")
    try:
        one.play("c3-d4")
        seen = feed.wait_for(_has_move("c3-d4"))
        assert seen[-1]["board"] == "hallfeed1" and "card" in seen[-1]
        two = make_board("hallfeed2", variant="international")
        two.play("32-28")
        seen = feed.wait_for(_has_move("32-28"))
        assert seen[-1]["board"] == "hallfeed2" and "32-28" in seen[-1]["card"]
    finally:
        feed.close()


@pytest.mark.logs_errors  # the board's store reports the outage
def test_redis_away_and_back(own_redis_server: RedisServer, tmp_path: Path) -> None:
    """Pages say 503 while Redis is away; the feed ends and a browser's reconnection with its
    last id gets every move made meanwhile."""
    rig = BoardRig(own_redis_server.url, "away1", tmp_path / "away1")
    web = WebServer(own_redis_server.url).start()
    try:
        feed = SseClient(web.base, "/feed?board=away1")
        rig.play("c3-d4")
        feed.wait_for(_has_move("c3-d4"))
        last_id = feed.last_id
        own_redis_server.stop()
        with pytest.raises(EOFError):
            feed.wait_for(lambda data: False)  # the stream ends
        feed.close()
        status, headers, _ = web.get("/")
        assert status == 503 and headers["Retry-After"] == "5"
        rig.play("f6-g5")  # to the board's spool meanwhile
        own_redis_server.start()
        rig.service.store.flush()
        rig.play("g3-h4")
        again = SseClient(web.base, "/feed?board=away1", last_event_id=last_id)
        seen = again.wait_for(_has_move("g3-h4"))
        again.close()
        assert _moves(seen) == ["f6-g5", "g3-h4"]
        assert web.get("/")[0] == 200
    finally:
        web.stop()
        rig.close()


def test_a_hall_cursor_of_many_boards_is_accepted(web: WebServer) -> None:
    cursor = ",".join(f"club-hall-board-{n:04d}=1764590000000-{n}" for n in range(1000))
    assert len(cursor) > 30_000  # far beyond the 8 KB a header field may have by default
    feed = SseClient(web.base, "/feed", last_event_id=cursor)  # asserts 200
    feed.close()
