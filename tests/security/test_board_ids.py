"""Issue 25 §3: board ids read from Redis follow the configuration's rule. An id with ``:`` sent
every hall feed into a busy loop (thousands of messages a second to one client); an id with a
newline injected Server-Sent Events fields into the hall (a forged ``event: board`` reached the
page's ``innerHTML``)."""

from __future__ import annotations

import json

import pytest
import redis

from tests.firmware_host.web.harness import SseClient, WebServer
from tests.security.records import ROOT, add_event

pytestmark = pytest.mark.redis

FORGED = 'x\nevent: board\ndata: {"board": "x", "card": "<form action=\\"http://evil.example\\">"}\n'


def test_bad_board_ids_reach_neither_the_hall_nor_its_feed(client: redis.Redis, good_board: str,
                                                           web: WebServer) -> None:
    for bad in ("a:b", FORGED, "../etc", "a b", "-lead"):
        client.sadd(f"{ROOT}:boards", bad)
        client.xadd(f"{ROOT}:{bad}:events", {"event": json.dumps({"event": "state",
                                                                   "state": "thinking"})})
    status, _, hall = web.get("/")
    assert status == 200 and "good1" in hall
    assert "evil.example" not in hall and "a:b" not in hall
    feed = SseClient(web.base, "/feed")
    add_event(client, good_board, {"event": "state", "state": "engine_thinking"})
    seen: list[tuple[str, dict[str, object]]] = []
    while not seen or "engine_thinking" not in json.dumps(seen[-1][1]):
        seen.append(feed.next_event())
        assert len(seen) < 20, "a busy loop: " + repr(seen[:3])[:300]
    feed.connection.close()
    assert {name for name, _ in seen} == {"board"}
    assert {str(data.get("board")) for _, data in seen} == {good_board}, seen[:3]
    assert not any("evil.example" in json.dumps(data) for _, data in seen)
