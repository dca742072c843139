"""The live feed: what changed reaches an open feed as small JSON; a feed that reconnects misses
nothing; every feed shares the one reader (a fixed few Redis connections however many feeds)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from firmware_host.web.feed import parse_cursor
from tests.firmware_host.web.harness import BoardRig, SseClient, WebServer
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]


def _moves(seen: list[dict[str, Any]]) -> list[str]:
    return [m["pdn"] for data in seen for m in data.get("moves", ())]


def _has_move(pdn: str) -> Callable[[dict[str, Any]], bool]:
    return lambda data: any(m["pdn"] == pdn for m in data.get("moves", ()))


def _cursor(html: str) -> str:
    return html.split('data-cursor="', 1)[1].split('"', 1)[0]


def test_a_move_reaches_the_board_feed_as_small_json(web: WebServer,
                                                     make_board: BoardMaker) -> None:
    rig = make_board("feed1")
    _, _, html = web.get("/board/feed1")
    cursor = _cursor(html)
    assert set(parse_cursor(cursor)) == {"feed1"}
    feed = SseClient(web.base, f"/feed?board=feed1&cursor={cursor}")
    try:
        rig.play("c3-d4")
        seen = feed.wait_for(_has_move("c3-d4"))
        after = seen if seen[-1].get("state_key") == "human_to_move" else \
            seen + feed.wait_for(lambda d: d.get("state_key") == "human_to_move")
    finally:
        feed.close()
    move = seen[-1]["moves"][-1]
    assert seen[-1]["board"] == "feed1"
    assert move["label"] == "1. c3-d4" and move["from"] == "c3" and move["to"] == "d4"
    assert move["fen"] == rig.session.board.fen()  # the page draws the position from it
    assert "html" not in seen[-1]  # no redrawn panel for a move
    assert after[-1]["state"] == "waiting for a move"
    assert feed.bytes < 2048


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
    feed = SseClient(web.base, f"/feed?cursor={_cursor(html)}")
    try:
        one.play("c3-d4")
        seen = feed.wait_for(_has_move("c3-d4"))
        assert seen[-1]["board"] == "hallfeed1"
        assert parse_cursor(feed.last_id or "").keys() == {"hallfeed1"}  # that board's id
        two = make_board("hallfeed2", variant="international")  # its card first, then moves
        seen = feed.wait_for(lambda data: data["board"] == "hallfeed2" and "html" in data)
        assert 'id="board-' not in seen[-1]["html"] and "hallfeed2" in seen[-1]["html"]
        two.play("32-28")
        seen = feed.wait_for(_has_move("32-28"))
        assert seen[-1]["board"] == "hallfeed2"
    finally:
        feed.close()


def test_a_hall_page_resumes_with_its_whole_cursor(web: WebServer,
                                                   make_board: BoardMaker) -> None:
    one, two = make_board("resume1"), make_board("resume2")
    _, _, html = web.get("/")
    cursor = parse_cursor(_cursor(html))
    feed = SseClient(web.base, "/feed?cursor=" + ",".join(f"{b}={i}" for b, i in cursor.items()))
    one.play("c3-d4")
    feed.wait_for(_has_move("c3-d4"))
    two.play("c3-d4")
    feed.wait_for(_has_move("c3-d4"))
    feed.close()
    one.play("f6-g5")
    two.play("f6-e5")
    # The page keeps every message's id (one board each) and reconnects with them all.
    mine = dict(cursor)
    assert feed.last_id is not None
    mine.update(parse_cursor(feed.last_id))
    again = SseClient(web.base, "/feed?cursor=" + ",".join(f"{b}={i}" for b, i in mine.items()))
    boards: set[str] = set()

    def both(data: dict[str, Any]) -> bool:
        boards.update([data["board"]] if data.get("moves") else [])
        return boards == {"resume1", "resume2"}

    try:
        seen = again.wait_for(both)
    finally:
        again.close()
    assert sorted((d["board"], m["pdn"]) for d in seen for m in d.get("moves", ())) == [
        ("resume1", "f6-g5"), ("resume2", "f6-e5")]  # what was missed, once


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
        rig.beat()
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
    feed = SseClient(web.base, "/feed?cursor=" + cursor)  # the page's own reconnection
    feed.close()


def _connections(url: str) -> int:
    info: Any = redis.Redis.from_url(url).info("clients")
    return int(info["connected_clients"])


def test_many_feeds_share_a_few_redis_connections(redis_url: str, make_board: BoardMaker
                                                  ) -> None:
    """Issue 25 item 4: 100 feeds each held a connection in XREAD BLOCK, and the pool's cap
    made every page 503. Now 150 feeds share the one reader."""
    rig = make_board("many1")
    web = WebServer(redis_url, feeds_per_address=1000, connections_per_address=1000).start()
    try:
        assert web.get("/")[0] == 200
        before = _connections(redis_url)
        feeds = [SseClient(web.base, "/feed" if n % 2 else "/feed?board=many1")
                 for n in range(150)]
        try:
            rig.play("c3-d4")
            for feed in feeds:
                feed.wait_for(_has_move("c3-d4"))
            assert web.get("/")[0] == 200 and web.get("/board/many1")[0] == 200
            assert _connections(redis_url) - before <= 10
        finally:
            for feed in feeds:
                feed.close()
    finally:
        web.stop()


def test_feeds_per_address_are_limited(redis_url: str, make_board: BoardMaker) -> None:
    make_board("limit1")
    web = WebServer(redis_url, feeds_per_address=3).start()
    try:
        feeds = [SseClient(web.base, "/feed") for _ in range(3)]
        status, _, body = web.get("/feed")
        assert status == 429 and "too many live feeds" in body
        assert web.get("/")[0] == 200  # pages are not limited by it
        for feed in feeds:
            feed.close()
    finally:
        web.stop()


def test_a_feed_whose_client_stops_reading_is_closed() -> None:
    """Its queue fills (the client reads nothing): the feed ends, and the browser comes back
    with its cursor; a feed keeps at most QUEUE messages for a slow client."""
    import asyncio

    from firmware_host.web.fanout import QUEUE, Feed

    async def fill() -> Feed:
        feed = Feed(None, {})
        for _ in range(QUEUE):
            feed.offer(b"x")
        assert not feed.closed
        feed.offer(b"one too many")
        return feed

    feed = asyncio.run(fill())
    assert feed.closed and feed.queue.qsize() == QUEUE


def test_a_round_start_waits_in_a_busy_clients_queue() -> None:
    """A round start sends every board's whole card at once (300 boards: some 4 MB). The hall
    bench saw the feeds closed when the client's socket buffer filled, and the pages reconnect
    and read it all again, seconds behind. Now what does not fit waits in the feed's queue (it
    holds a whole hall's burst), written as the client reads, and the feed stays open."""
    import asyncio

    from firmware_host.web.fanout import Feed

    boards = [f"b{n:03d}" for n in range(300)]

    async def burst() -> tuple[Feed, list[bytes]]:
        feed = Feed(None, dict.fromkeys(boards, "1-0"))
        written: list[bytes] = []

        def direct(data: bytes) -> bool:  # the client's buffer is full after 10 messages
            if len(written) == 10:
                return False
            written.append(data)
            return True

        feed.direct = direct
        for board in boards:
            feed.offer((board, "2-0", "2-0", b"page", b"card of " + board.encode()))
        return feed, written

    feed, written = asyncio.run(burst())
    assert not feed.closed
    assert written == [b"card of " + b.encode() for b in boards[:10]]
    assert [feed.cursor[b] for b in boards[9:11]] == ["2-0", "1-0"]  # not delivered: not moved
    assert feed.queue.qsize() == 290 and feed.queue.get_nowait()[0] == "b010"
