"""A board's stolen Redis login against the hall (issue 40): every hostile value the audit wrote
as a board's own ACL user (with the ACL file and the limits the installer writes), against
every page, the arbiter's console and the live feed, while an honest board plays:

- a heartbeat whose time is 1e20, a 400-digit integer or NaN;
- a move event whose FEN is ``W:W1-300000000:B1`` (a browser expanding it stops) and whose
  clock is 1e400 (``Infinity``: no browser reads that JSON);
- an LED frame of 10,000 squares, a state and sentences of 60 KB;
- a game log of thousands of bad entries (a page read it all, and logged a line per entry);
- a session and an event of more than the web app reads;
- its pairing's round ``²``; its events key turned into a string;
- an audit entry (the web app's own log) with a time of NaN or 1e20.

No page answers 5xx; the console's state is strict JSON; nothing the feed sends holds
``Infinity``; the honest board's next move reaches the hall page and the hall feed after each;
the log says each bad key in a few lines, not one per entry.
"""

from __future__ import annotations

import json
import logging
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from firmware_host.store.acl import WEB, board_user
from firmware_host.store.keys import AUDIT, BoardKeys
from firmware_host.tournament.pairing import pairing_key
from firmware_host.web.reader import MAX_LOG_ENTRIES
from tests.conftest import sample_size
from tests.firmware_host.web.harness import BoardRig, SseClient, WebServer, heartbeat
from tests.security.acl_hall import AclHall, acl_hall
from tests.security.records import move_data, op, start_data

pytestmark = pytest.mark.redis

EVIL, HONEST = "ev1", "ho1"
EV = BoardKeys(EVIL)
#: Bad entries in the evil board's game log (1,000,000 in the audit).
LOG_ENTRIES = sample_size(MAX_LOG_ENTRIES + 2_000, 200_000)


@pytest.fixture(scope="module")
def hall_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AclHall]:
    with acl_hall(tmp_path_factory.mktemp("login"), (EVIL, HONEST), "512mb") as hall:
        yield hall


@pytest.fixture
def hall(hall_redis: AclHall, tmp_path: Path
         ) -> Iterator[tuple[redis.Redis, BoardRig, WebServer, redis.Redis]]:
    admin = redis.Redis.from_url(hall_redis.url("default"))
    admin.flushall()
    evil = redis.Redis.from_url(hall_redis.url(board_user(EVIL)))
    # The evil board recorded one honest game first (as a board does), then turned.
    evil.zadd(EV.games, {"g1": 1.8e9})
    for n, fields in enumerate([op("start", 1, start_data(EVIL)), op("move", 2, move_data())]):
        evil.xadd(EV.game("g1"), fields)
        del n
    evil.set(EV.session, json.dumps({"game_id": "g1"}))
    rig = BoardRig(hall_redis.url(board_user(HONEST)), HONEST, tmp_path / HONEST)
    web = WebServer(hall_redis.url(WEB), arbiter=True).start()
    heartbeat(hall_redis.url(board_user(EVIL)), EVIL)
    try:
        yield evil, rig, web, admin
    finally:
        web.stop()
        rig.close()
        evil.close()
        admin.close()


def _strict(text: str) -> Any:
    def refuse(name: str) -> None:
        raise ValueError(f"{name} in the JSON")
    return json.loads(text, parse_constant=refuse)


def _arbiter_cookie(web: WebServer) -> str:
    """Pair with the arbiter code; the arbiter cookie the reply sets."""
    request = urllib.request.Request(
        web.base + "/arbiter/pair", data=urllib.parse.urlencode({"code": web.arbiter.code})
        .encode(), headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        morsel = reply.headers["Set-Cookie"].split(";", 1)[0]
    return morsel.split("=", 1)[1]


PAGES = ["/", f"/board/{EVIL}", f"/board/{HONEST}", f"/board/{EVIL}.svg", "/games",
         "/games.pdn", f"/game/{EVIL}/g1", f"/game/{EVIL}/g1.pdn", "/broadcast.pdn",
         f"/broadcast/board/{EVIL}.pdn", "/health.json"]


def _check_pages(web: WebServer, cookie: str) -> None:
    for path in PAGES:
        status, _, body = web.get(path)
        assert status < 500, (path, status, body[:300])
    console = {"Cookie": f"draughtsboard_arbiter={cookie}"}
    status, _, body = web.get("/arbiter", console)
    assert status == 200, body[:300]
    status, _, body = web.get("/arbiter/state.json", console)
    assert status == 200, body[:300]
    _strict(body)


#: Each hostile write of the evil board's own login: (what, write).
Write = Callable[[redis.Redis], object]
HOSTILE: list[tuple[str, Write]] = [
    ("a heartbeat in year 1e20", lambda c: c.set(EV.alive, '{"time": 1e20, "state": '
                                                 '"running", "pid": 1}')),
    ("a heartbeat of 400 digits", lambda c: c.set(EV.alive, '{"time": ' + "9" * 400
                                                  + ', "state": "running", "pid": 1}')),
    ("a heartbeat of NaN", lambda c: c.set(EV.alive, '{"time": NaN, "state": "running"}')),
    ("a FEN of 300,000,000 squares", lambda c: c.xadd(EV.events, {"event": json.dumps(
        {"event": "move", "ply": 2, "pdn": "f6-g5", "fen": "W:W1-300000000:B1", "from": "f6",
         "to": "g5"})})),
    ("a clock of 1e400", lambda c: c.xadd(EV.events, {"event": '{"event": "move", "ply": 3, '
                                                      '"pdn": "g3-h4", "clock_white": 1e400, '
                                                      '"fen": "W:W1:B2"}'})),
    ("a clock event of 1e400", lambda c: c.xadd(EV.events, {"event": '{"event": "clock", '
                                                            '"clock_white": 1e400, '
                                                            '"clock_black": 5, "time": 1}'})),
    ("10,000 lit squares", lambda c: c.xadd(EV.events, {"event": json.dumps(
        {"event": "leds", "frame": {str(n): ["on", "x" * 3] for n in range(10_000)}})})),
    ("a state of 60 KB", lambda c: c.xadd(EV.events, {"event": json.dumps(
        {"event": "state", "state": "s" * 60_000})})),
    ("a sentence of 60 KB", lambda c: c.xadd(EV.events, {"event": json.dumps(
        {"event": "hint", "text": "t" * 60_000})})),
    ("a round of ²", lambda c: c.hset(pairing_key(EVIL), mapping={
        "White": "A", "Black": "B", "Round": "²"})),
    ("a session of 1 MB", lambda c: c.set(EV.session, "{" + " " * 1_000_000 + "}")),
    ("an event of 3 MB", lambda c: c.xadd(EV.events, {f"f{n}": "x" * 1_000_000
                                                      for n in range(3)})),
    ("its events key a string", lambda c: (c.delete(EV.events), c.set(EV.events, "x"))),
    ("its events a stream again", lambda c: (c.delete(EV.events),
                                             c.xadd(EV.events, {"event": '{"event": "x"}'}))),
]


def _next_move(rig: BoardRig) -> str:
    """A legal move of the honest board's game (its first, as the engine lists them)."""
    board = rig.session.board
    return str(board.move_notation(next(iter(board.legal_moves))))


def test_a_board_login_writing_hostile_values_stops_nothing(
        hall: tuple[redis.Redis, BoardRig, WebServer, redis.Redis],
        caplog: pytest.LogCaptureFixture) -> None:
    evil, rig, web, _ = hall
    caplog.set_level(logging.WARNING, "firmware_host.web")
    cookie = _arbiter_cookie(web)
    _, _, page = web.get("/")
    cursor = page.split('data-cursor="', 1)[1].split('"', 1)[0]
    feed = SseClient(web.base, f"/feed?cursor={urllib.parse.quote(cursor)}")
    try:
        for what, write in HOSTILE:
            write(evil)
            move = _next_move(rig)
            rig.play(move)
            seen = feed.wait_for(lambda d, move=move: any(
                m.get("pdn") == move for m in d.get("moves", ())) and d["board"] == HONEST)
            assert "Infinity" not in json.dumps(seen), what
            _check_pages(web, cookie)
            status, _, hall_page = web.get("/")
            assert status == 200 and move in hall_page, what
    finally:
        feed.close()
    assert json.loads(web.get("/health.json")[2])["feed_reader"]["restarts"] == 0


def test_the_web_app_reads_a_bounded_part_of_a_huge_game_log_in_few_lines(
        hall: tuple[redis.Redis, BoardRig, WebServer, redis.Redis],
        caplog: pytest.LogCaptureFixture) -> None:
    evil, _, web, _ = hall
    caplog.set_level(logging.WARNING, "firmware_host.web")
    pipe = evil.pipeline(transaction=False)
    for n in range(LOG_ENTRIES):
        pipe.xadd(EV.game("g1"), {"op": "move", "seq": str(n + 3), "data": "junk"})
        if n % 10_000 == 9_999:
            pipe.execute()
    pipe.execute()
    for _ in range(3):
        status, _, body = web.get(f"/game/{EVIL}/g1")
        assert status == 200
    assert "c3-d4" in body  # the game up to the junk
    status, _, pdn = web.get(f"/game/{EVIL}/g1.pdn")
    assert status == 200 and f"more than {MAX_LOG_ENTRIES} entries" in pdn
    lines = [r for r in caplog.records if "bad record" in r.getMessage()]
    assert len(lines) <= 5, len(lines)  # a few lines for the key, not one per entry


def test_an_audit_entry_of_nan_or_1e20_leaves_the_console_readable(
        hall: tuple[redis.Redis, BoardRig, WebServer, redis.Redis],
        hall_redis: AclHall) -> None:
    _, _, web, _ = hall
    as_web = redis.Redis.from_url(hall_redis.url(WEB))  # the only writer of the audit log
    for when in ("NaN", "1e20", "1e400", "9" * 400, '"soon"'):
        as_web.rpush(AUDIT, '{"time": ' + when + ', "who": "x", "action": "pause_all", '
                     '"board": "*", "detail": {}, "reason": ""}')
    as_web.rpush(AUDIT, json.dumps({"time": 1.8e9, "who": "arbiter", "action": "pause_all",
                                    "board": "*", "detail": {"boards": [HONEST]},
                                    "reason": "fire alarm"}))
    as_web.close()
    cookie = _arbiter_cookie(web)
    _check_pages(web, cookie)
    console = {"Cookie": f"draughtsboard_arbiter={cookie}"}
    audit = _strict(web.get("/arbiter/audit.json", console)[2])["audit"]
    assert [e["reason"] for e in audit] == ["fire alarm"]  # the damaged ones left out
