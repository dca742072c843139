"""The clocks as the pages draw them: the times left when the page is drawn, never a drawing
kept from before (a running clock's card is drawn again for every hall page); an offline
board's clock as it was when its service was last seen."""

from __future__ import annotations

import dataclasses
import html
import json
import re
from collections.abc import Callable

import pytest
import redis

from firmware_host.store.keys import BoardKeys
from firmware_host.store.replies import stream_entries
from firmware_host.web.clocks import ClockReading
from firmware_host.web.liveness import Liveness
from firmware_host.web.reader import BoardView
from firmware_host.web.views import Views
from tests.firmware_host.web.harness import BoardRig, WebServer

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]


def _clock_of(page: str, board: str) -> dict[str, object]:
    card = page[page.index(f'id="board-{board}"'):]
    found = re.search(r'data-clock="([^"]*)"', card)
    assert found, "the card has no clock"
    data: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return data


def test_a_hall_page_shows_a_running_clock_as_it_is_now(
        redis_url: str, make_board: BoardMaker) -> None:
    rig = make_board("clock-1", variant="international", extra={"clock": {"time_control": "3+2"}})
    rig.play("32-28")  # Black's time runs
    stored: object = redis.Redis.from_url(redis_url).xrevrange(BoardKeys("clock-1").events,
                                                              count=50)
    reading = next(e for e in (json.loads(fields[b"event"]) for _, fields in
                               stream_entries(stored))
                   if e["event"] == "clock")  # the newest clock event, as the board stored it
    now = [float(reading["time"]) + 1.0]
    web = WebServer(redis_url)
    web.settings = dataclasses.replace(web.settings, clock=lambda: now[0])
    web.start()
    try:
        first = _clock_of(web.get("/")[2], "clock-1")
        now[0] += 10.0  # ten seconds later (still online: the heartbeat is 15 s good)
        second = _clock_of(web.get("/")[2], "clock-1")
    finally:
        web.stop()
    assert first["running"] == second["running"] == "black"
    assert first["black"] == pytest.approx(float(reading["clock_black"]) - 1.0, abs=0.002)
    assert second["black"] == pytest.approx(float(reading["clock_black"]) - 11.0, abs=0.002)
    assert first["white"] == second["white"] == reading["clock_white"]


def test_an_offline_board_shows_its_clock_as_it_was_when_last_seen() -> None:
    reading = ClockReading(white=100.0, black=90.0, running="white", paused=False,
                           control="3+2", time=1000.0)
    view = BoardView("b1", None, None, clock=reading)
    views = Views(clock=lambda: 1100.0)
    online = views.clock_now(view, Liveness(True, 1099.0))
    offline = views.clock_now(view, Liveness(False, 1030.0))  # its service went at 1030
    assert online is not None and offline is not None
    assert (online["white"], online["flag"]) == (0.0, "white")   # 100 s have passed
    assert (offline["white"], offline["black"], offline["low"]) == (70.0, 90.0, None)
    assert views.clock_now(BoardView("b2", None, None), Liveness(True, 1099.0)) is None
