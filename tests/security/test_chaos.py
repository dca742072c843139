"""The hall's chaos (issue 40): a board's stolen login runs every write its ACL allows, with
random hostile values, while two honest boards play, against ``draughtsboard web`` as the unit
runs it (its own process, the web user of the installer's ACL file, the hall's limits).

For ``DRAUGHTSBOARD_SAMPLE``'s time (a few seconds in CI, a minute at full size) the evil board's
user writes random records into its own keys (game logs, events, sessions, heartbeats, its
pairing, its settings, keys of every type, values up to 1 MB: tests/security/hostile.py), and
tries the shared keys (refused), between the honest boards' moves. Every honest move reaches
the hall page and the hall's live feed; no page answers 5xx; the web app's peak RSS stays under
its unit's ``MemoryMax``.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from firmware_host.store.acl import WEB, board_user
from firmware_host.store.keys import BOARDS, BoardKeys, round_key
from tests.conftest import sample_size
from tests.firmware_host.web.harness import BoardRig, SseClient, heartbeat
from tests.redis_server import free_port
from tests.security.acl_hall import AclHall, acl_hall
from tests.security.hostile import dumps, junk, record

pytestmark = [pytest.mark.redis, pytest.mark.slow]

EVIL, HONEST = "cx-evil", ("cx-a", "cx-b")
#: Seconds of chaos.
SECONDS = sample_size(6, 60)
#: Hostile writes between two honest moves.
WRITES_PER_MOVE = 60
#: The web unit's MemoryMax (systemd/draughtsboard-web.service).
MEMORY_MAX = 160 * 1024 * 1024
UNIT = Path(__file__).resolve().parents[2] / "systemd" / "draughtsboard-web.service"
PAGES = ["/", "/games", f"/board/{EVIL}", f"/board/{HONEST[0]}", "/broadcast.pdn",
         f"/game/{EVIL}/g1", f"/game/{EVIL}/g1.pdn", f"/board/{EVIL}.svg", "/health.json"]


@pytest.fixture
def hall_redis(tmp_path: Path) -> Iterator[AclHall]:
    # As on a hall's Redis host: no fsync per write (the tests' default), it is not the point.
    with acl_hall(tmp_path, (EVIL, *HONEST), "1gb", "--appendfsync", "everysec") as hall:
        yield hall


@contextlib.contextmanager
def _web(url: str, tmp: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    port = free_port()
    config = tmp / "web.toml"
    config.write_text(f'[web]\ntoken_file = "{tmp / "token"}"\n[log]\nlevel = "warning"\n')
    binary = str(Path(sys.executable).parent / "draughtsboard")
    web = subprocess.Popen([binary, "web", "--config", str(config), "--store", url,
                            "--listen", f"127.0.0.1:{port}"], stdout=subprocess.PIPE, text=True)
    try:
        assert web.stdout is not None and "pairing code" in web.stdout.readline()
        yield web, f"http://127.0.0.1:{port}"
    finally:
        web.terminate()
        web.wait(timeout=10)


def _get(base: str, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as reply:
            return reply.status, reply.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _peak_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def _hostile(rng: random.Random, evil: redis.Redis) -> None:
    """One write of the evil board's login: mostly random records into its own keys, sometimes
    a huge value, a hostile heartbeat or pairing, or a write to a key it may not touch."""
    keys = BoardKeys(EVIL)
    pick = rng.randrange(100)
    if pick < 80:
        record(rng, evil, [EVIL], ["g1", "g2", "g3"])
    elif pick < 84:
        evil.set(keys.alive, dumps(rng, {"time": junk(rng), "state": "running"}))
    elif pick < 87:
        evil.hset(keys.pairing, mapping={"White": str(junk(rng))[:300],
                                         "Round": rng.choice(["²", "1", "9" * 40, "x"])})
    elif pick < 89:
        evil.xadd(keys.events, {"event": "x" * rng.choice([100_000, 900_000])})
    elif pick < 92:
        evil.xadd(keys.game("g1"), {f"f{n}": "y" * 200_000 for n in range(rng.randrange(1, 4))})
    else:
        shared = rng.choice([lambda: evil.sadd(BOARDS, *(f"fake{n}" for n in range(50))),
                             lambda: evil.srem(BOARDS, HONEST[0]),
                             lambda: evil.set(round_key("1"), "[]"),
                             lambda: evil.eval("while true do end", 0),
                             lambda: evil.xadd(BoardKeys(HONEST[0]).commands,
                                               {"name": "resign"})])
        with pytest.raises(redis.exceptions.NoPermissionError):
            shared()


def _shows(data: dict[str, object], board: str, move: str) -> bool:
    """Whether a hall feed message shows ``move`` on ``board`` (as a move, or in a whole
    card: a game that ended with it)."""
    moves = data.get("moves")
    return data.get("board") == board and (
        any(isinstance(m, dict) and m.get("pdn") == move for m in moves or ())
        if isinstance(moves, list) else move in str(data.get("html", "")))


def _next_move(rig: BoardRig) -> str:
    board = rig.session.board
    moves = sorted(board.legal_moves, key=board.move_notation)
    return str(board.move_notation(moves[0]))


@pytest.mark.logs_errors  # the PDN writer logs an ERROR for a record whose moves do not replay
def test_a_stolen_board_login_for_a_minute_stops_no_honest_move(
        hall_redis: AclHall, tmp_path: Path) -> None:
    rng = random.Random(40)
    evil = redis.Redis.from_url(hall_redis.url(board_user(EVIL)))
    heartbeat(hall_redis.url(board_user(EVIL)), EVIL)
    rigs = [BoardRig(hall_redis.url(board_user(b)), b, tmp_path / b) for b in HONEST]
    assert f"MemoryMax={MEMORY_MAX // 1024 // 1024}M" in UNIT.read_text()
    moves = 0
    try:
        with _web(hall_redis.url(WEB), tmp_path) as (web, base):
            status, page = _get(base, "/")
            assert status == 200
            cursor = page.split('data-cursor="', 1)[1].split('"', 1)[0]
            feed = SseClient(base, f"/feed?cursor={urllib.parse.quote(cursor)}", timeout=60)
            end = time.monotonic() + SECONDS
            try:
                while time.monotonic() < end:
                    rig = rigs[moves % 2]
                    for _ in range(WRITES_PER_MOVE):
                        with contextlib.suppress(redis.exceptions.ResponseError):
                            _hostile(rng, evil)
                    if rig.session.outcome is not None:
                        rig.beat()
                        continue  # (a game over: the other board plays on)
                    move = _next_move(rig)
                    rig.play(move)
                    moves += 1
                    board = rig.board_id
                    feed.wait_for(lambda d, move=move, board=board: _shows(d, board, move))
                    status, page = _get(base, "/")
                    assert status == 200 and f'id="board-{board}"' in page
                    card = page.split(f'id="board-{board}"', 1)[1].split("</article>", 1)[0]
                    assert move in card, move
                    path = rng.choice(PAGES)
                    status, body = _get(base, path)
                    assert status < 500, (path, status, body[:300])
            finally:
                feed.close()
            health = json.loads(_get(base, "/health.json")[1])
            peak = _peak_rss(web.pid)
    finally:
        for rig in rigs:
            rig.close()
        evil.close()
    print(f"{moves} honest moves in {SECONDS} s of chaos; web peak RSS {peak / 2**20:.0f} MB; "
          f"feed reader {health['feed_reader']}")
    assert moves >= 10
    assert peak < MEMORY_MAX, peak
    assert health["feed_reader"]["restarts"] == 0
