"""The live feed cannot be poisoned from the LAN (issue 40): requests with cursors Redis would
refuse (ids over 2**64, digits that are not ASCII), ids ahead of their stream, and boards the
hall does not have, against the running web app while a hall feed is open: every bad cursor is a
400 and reaches no read; the open hall feed, and a new one, still carry the next move; the
reader reads the hall's boards only and was never restarted."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from typing import Any

import pytest
import redis

from firmware_host.store.keys import BOARDS
from tests.firmware_host.web.harness import SseClient, WebServer, heartbeat
from tests.security.records import add_event, seed_board

pytestmark = pytest.mark.redis

#: Cursors a request from the LAN may send, each one a way the reader was poisoned or loaded.
POISON = [
    "zp1=99999999999999999999-0",           # over 2**64: Redis refuses the XREAD
    "zp7=99999999999999999999-0",           # the same for a board the hall does not have
    "zp1=18446744073709551616-0",           # 2**64 exactly
    "zp1=0-99999999999999999999",
    "zp1=١٢٣-0",                            # Arabic-Indic digits: \\d takes them
    "zp1=²-0",
    "zp1=1-0,zp2=99999999999999999999-0",
    "zp1=1-0,zp1=x",
    "zp1",
    "zp1=",
    "zp1=1-0" + ",b=1-0" * 1200,            # more boards than a hall has
]
#: Cursors of a valid shape the reader must not take into its read either.
AHEAD = ["zp1=18446744073709551615-18446744073709551615",  # ahead of the stream
         "nobody=5-0", "fake1=1-0,fake2=2-0,fake3=3-0"]       # boards the hall lacks


def _status(base: str, path: str, headers: dict[str, str] | None = None) -> int:
    """The status of a feed request (a feed that opens is closed at once)."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        return connection.getresponse().status
    finally:
        connection.close()


def _has(pdn: str) -> Any:
    return lambda data: any(m.get("pdn") == pdn for m in data.get("moves", ()))


def test_poisoned_cursors_are_refused_and_the_hall_feed_goes_on(
        web: WebServer, client: redis.Redis) -> None:
    seed_board(client, "zp1")
    heartbeat(web.url, "zp1")
    _, _, page = web.get("/")
    cursor = page.split('data-cursor="', 1)[1].split('"', 1)[0]
    hall = SseClient(web.base, f"/feed?cursor={urllib.parse.quote(cursor)}")
    statuses: dict[str, list[int]] = {}
    lock = threading.Lock()
    done = threading.Event()

    def attack(texts: list[str]) -> None:
        while not done.is_set():  # as long as the moves below are played
            for text in texts:
                quoted = urllib.parse.quote(text)
                raw = text.encode().decode("latin-1")  # a header's bytes, as a client sends
                board = text.partition("=")[0] or "zp1"
                for path, headers in ((f"/feed?cursor={quoted}", {}),
                                      (f"/feed?board={board}&cursor={quoted}", {}),
                                      (f"/feed?board={board}", {"Last-Event-ID": raw})):
                    status = _status(web.base, path, headers)
                    with lock:
                        statuses.setdefault(text, []).append(status)

    threads = [threading.Thread(target=attack, args=(POISON[n::8] + AHEAD[n % 3:][:1],))
               for n in range(8)]
    for thread in threads:
        thread.start()
    try:  # every move of the board, played while the requests go on, reaches the hall feed
        for ply in range(2, 22):
            add_event(client, "zp1", {"event": "move", "ply": ply, "pdn": f"{ply}-{ply + 4}"})
            hall.wait_for(lambda data, ply=ply: any(m.get("ply") == ply
                                                    for m in data.get("moves", ())))
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=60)
        hall.close()
    fresh = SseClient(web.base, f"/feed?cursor={urllib.parse.quote(cursor)}")
    try:
        assert fresh.wait_for(_has("21-25"))
    finally:
        fresh.close()
    for text in POISON:
        assert set(statuses[text]) == {400}, (text[:60], statuses[text])
    for text in AHEAD:  # served (or 429: more feeds at once than one address may open)
        assert set(statuses[text]) <= {200, 404, 429}, (text, statuses[text])
    assert _status(web.base, "/feed?board=nobody") == 404
    _, _, body = web.get("/health.json")
    reader = json.loads(body)["feed_reader"]
    assert reader["streams"] == 1 and reader["restarts"] == 0 and reader["set_aside"] == {}


def test_a_board_page_ahead_of_its_stream_gets_its_panel_and_the_next_move(
        web: WebServer, client: redis.Redis) -> None:
    seed_board(client, "zp1")
    feed = SseClient(web.base, "/feed?board=zp1&cursor=zp1%3D18446744073709551615-0")
    try:
        # an "alive" event may come first (the heartbeats' reader runs on its own turn)
        first_board = feed.wait_for(lambda data: True)[0]
        assert "html" in first_board  # drawn whole: its cursor was not kept
        add_event(client, "zp1", {"event": "move", "ply": 2, "pdn": "f6-g5"})
        assert feed.wait_for(_has("f6-g5"))
    finally:
        feed.close()


def test_fake_feed_ids_are_not_read_and_leave_nothing_behind(
        web: WebServer, client: redis.Redis) -> None:
    seed_board(client, "zp1")
    fake = ",".join(f"fake{n}=1-0" for n in range(1000))
    feeds = [SseClient(web.base, f"/feed?cursor={urllib.parse.quote(fake)}") for _ in range(5)]
    for feed in feeds:
        feed.close()
    for n in range(50):
        assert _status(web.base, f"/feed?board=fake{n}") == 404
    _, _, body = web.get("/health.json")
    assert json.loads(body)["feed_reader"]["streams"] == 1  # the hall's one board


def test_the_hall_reads_no_more_boards_than_a_hall_has(web: WebServer,
                                                        client: redis.Redis) -> None:
    """A set of boards of 1,500 members (5,000 fake ids made the hall page 5.9 MB): the pages
    and the feed's reader take MAX_BOARDS of them."""
    from firmware_host.web.reader import MAX_BOARDS

    seed_board(client, "zp1")
    client.sadd(BOARDS, *(f"many{n}" for n in range(1500)))
    status, _, page = web.get("/")
    assert status == 200 and page.count('id="board-') == MAX_BOARDS
    feed = SseClient(web.base, "/feed")
    feed.close()
    _, _, body = web.get("/health.json")
    assert json.loads(body)["feed_reader"]["streams"] <= MAX_BOARDS
