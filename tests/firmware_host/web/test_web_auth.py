"""Control needs authorisation: pairing, the cookie, CSRF, the token, rate limits; and the
``draughtsboard web`` process itself (banner, listen address, clean stop, no secret logged)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from firmware_host.store.keys import AUDIT
from firmware_host.web.app import COOKIE
from firmware_host.web.auth import load_token
from tests.firmware_host.web.harness import BoardRig, WebServer
from tests.redis_server import free_port

pytestmark = pytest.mark.redis

BoardMaker = Callable[..., BoardRig]
DRAUGHTSBOARD = str(Path(sys.executable).parent / "draughtsboard")


def _pair(web: WebServer, code: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    connection.request("POST", "/pair", body=f"code={code}&next=/board/auth1",
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    reply = connection.getresponse()
    cookie = reply.headers.get("Set-Cookie", "")
    reply.read()
    connection.close()
    return reply.status, cookie


def test_control_needs_pairing_and_a_fresh_form(web: WebServer, make_board: BoardMaker) -> None:
    rig = make_board("auth1")
    assert web.post("/board/auth1/command", {"command": "resign"})[0] == 401
    _, _, page = web.get("/board/auth1")
    assert "Pair this device" in page and 'value="resign"' not in page
    wrong = web.keys.pairing_code[:-1] + str((int(web.keys.pairing_code[-1]) + 1) % 10)
    assert _pair(web, wrong)[0] == 403
    status, cookie = _pair(web, web.keys.pairing_code)
    assert status == 303 and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    session = cookie.split(";", 1)[0]
    assert session.startswith(f"{COOKIE}=") and len(session) > len(COOKIE) + 40  # its own
    _, _, page = web.get("/board/auth1", {"Cookie": session})
    assert 'value="resign:white"' in page  # a recorded game: a button for each side
    assert '<option value="brazilian">Brazilian draughts</option>' in page
    assert 'value="international"' not in page
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    form = {"command": "resign:white"}  # (record mode: the button of a side, docs/players.md)
    assert web.post("/board/auth1/command", form, {"Cookie": session})[0] == 403
    foreign = {"Cookie": session, "Origin": "http://evil.example"}
    assert web.post("/board/auth1/command", {**form, "csrf": csrf}, foreign)[0] == 403
    status, _ = web.post("/board/auth1/command", {**form, "csrf": csrf}, {"Cookie": session})
    assert status == 200
    assert rig.service.remote is not None and rig.service.remote.wait_posted(1, 10)
    rig.run(0.5)
    assert rig.session.outcome is not None
    # A phone's press of a side's button is in the audit log with the device (issue 38/40).
    audit = [json.loads(e) for e in redis.Redis.from_url(web.url).lrange(AUDIT, 0, -1)]
    assert [(e["action"], e["board"], e["detail"], e["who"].split()[0]) for e in audit] == [
        ("resign", "auth1", {"side": "white"}, "device")]
    bad_token = {"Authorization": "Bearer wrong"}
    assert web.post("/board/auth1/command", form, bad_token)[0] == 401


def test_control_is_rate_limited(redis_url: str, make_board: BoardMaker) -> None:
    make_board("auth2")
    web = WebServer(redis_url, rate_per_minute=3).start()
    try:
        token = {"Authorization": f"Bearer {web.keys._token.decode()}"}
        codes = [web.post("/board/auth2/command", {"command": "hint"}, token)[0]
                 for _ in range(4)]
    finally:
        web.stop()
    assert codes == [200, 200, 200, 429]


def test_control_off(redis_url: str, make_board: BoardMaker) -> None:
    make_board("auth3")
    web = WebServer(redis_url, control=False).start()
    try:
        _, _, page = web.get("/board/auth3")
        status, _ = web.post("/board/auth3/command", {"command": "hint"},
                             {"Authorization": "Bearer x"})
    finally:
        web.stop()
    assert "Control" not in page and status == 403


def test_token_file_is_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "state" / "web-token"
    token = load_token(path)
    assert len(token) >= 32 and (path.stat().st_mode & 0o777) == 0o600
    assert load_token(path) == token


def test_the_web_command_serves_prints_the_code_and_stops(redis_url: str, tmp_path: Path,
                                                          make_board: BoardMaker) -> None:
    make_board("proc1")
    port = free_port()
    config = tmp_path / "web.toml"
    config.write_text(f'[web]\ntoken_file = "{tmp_path / "token"}"\n')
    process = subprocess.Popen(
        [DRAUGHTSBOARD, "web", "--config", str(config), "--store", redis_url,
         "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in banner and "pairing code" in banner
        token = (tmp_path / "token").read_text().strip()
        assert token not in banner
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/")
        reply = connection.getresponse()
        assert reply.status == 200 and b"proc1" in reply.read()
        connection.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        _, errors = process.communicate(timeout=5)
        assert token not in errors
    finally:
        process.kill()


@pytest.mark.parametrize(("args", "expected"), [
    (["--store", "memory"], "store.url is memory"),
    (["--store", "redis://127.0.0.1:1/0", "--listen", "nowhere"], "web.listen"),
])
def test_the_web_command_refuses_bad_options(args: list[str], expected: str,
                                             tmp_path: Path) -> None:
    result = subprocess.run([DRAUGHTSBOARD, "web", *args], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2
    assert expected in result.stderr and "Traceback" not in result.stderr
