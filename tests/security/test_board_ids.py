"""Issue 25 §3: board ids read from Redis follow the configuration's rule. An id with ``:`` sent
every hall feed into a busy loop (thousands of messages a second to one client); an id with a
newline injected Server-Sent Events fields into the hall (a forged ``event: board`` reached the
page's ``innerHTML``)."""

from __future__ import annotations

import json

import pytest
import redis

from firmware_host.store.keys import BOARDS, BoardKeys
from tests.firmware_host.web.harness import SseClient, WebServer
from tests.security.records import add_event

pytestmark = pytest.mark.redis

FORGED = 'x\nevent: board\ndata: {"board": "x", "card": "<form action=\\"http://evil.example\\">"}\n'
BAD = ("a:b", FORGED, "../etc", "a b", "-lead")


def test_bad_board_ids_reach_neither_the_hall_nor_its_feed(client: redis.Redis, good_board: str,
                                                           web: WebServer) -> None:
    for bad in BAD:
        client.sadd(BOARDS, bad)
        client.xadd(BoardKeys(bad).events, {"event": json.dumps({"event": "state",
                                                                   "state": "thinking"})})
    status, _, hall = web.get("/")
    assert status == 200 and "good1" in hall
    assert "evil.example" not in hall and "a:b" not in hall
    newest = client.xrevrange(BoardKeys(good_board).events, count=1)[0][0].decode()
    add_event(client, good_board, {"event": "state", "state": "engine_thinking"})
    feed = SseClient(web.base, f"/feed?cursor={good_board}={newest}")  # the hall page's cursor
    seen: list[tuple[str, dict[str, object]]] = []
    while not seen or "engine_thinking" not in json.dumps(seen[-1][1]):
        seen.append(feed.next_event())
        assert len(seen) < 20, "a busy loop: " + repr(seen[:3])[:300]
    feed.connection.close()
    assert {str(data["board"]) for _, data in seen if "board" in data} == {good_board}, seen
    for _, data in seen:  # no bad id in any message (the hall's liveness ones included)
        text = json.dumps(data)
        assert not any(bad in text for bad in ("a:b", "../etc", "evil.example")), text[:300]
