"""Issue 25 §5-§7 and the pairing's hardening, against the real web app: redirects stay on the
site, every malformed body is a 4xx, the limiter forgets, pairing is per device and revocable,
wrong codes are limited per address and in all, and the headers say what they should."""

from __future__ import annotations

import http.client
import json
import logging
import re
import socket
import threading
import time
import urllib.parse

import pytest
import redis

from firmware_host.store.keys import BOARDS, BoardKeys
from firmware_host.web import forms
from firmware_host.web.app import COOKIE
from firmware_host.web.auth import PAIR_FAILURES_PER_ADDRESS, PAIR_FAILURES_PER_HOUR, RateLimiter
from tests.firmware_host.web.harness import TOKEN, WebServer

pytestmark = pytest.mark.redis

BEARER = {"Authorization": f"Bearer {TOKEN}"}
FORM = "application/x-www-form-urlencoded"


def _post(web: WebServer, path: str, body: bytes, content_type: str = FORM,
          headers: dict[str, str] | None = None, source: str = "127.0.0.1"
          ) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10,
                                            source_address=(source, 0))
    connection.request("POST", path, body=body,
                       headers={"Content-Type": content_type, **(headers or {})})
    reply = connection.getresponse()
    text = reply.read().decode(errors="replace")
    connection.close()
    return reply.status, dict(reply.headers), text


def _pair(web: WebServer, code: str, next_: str = "/", source: str = "127.0.0.1",
          agent: str = "test phone") -> tuple[int, dict[str, str]]:
    body = urllib.parse.urlencode({"code": code, "next": next_}).encode()
    status, headers, _ = _post(web, "/pair", body, headers={"User-Agent": agent}, source=source)
    return status, headers


def _cookie(headers: dict[str, str]) -> str:
    return headers["Set-Cookie"].split(";", 1)[0]


def _wrong(web: WebServer) -> str:
    code = web.keys.pairing_code
    return code[:-1] + str((int(code[-1]) + 1) % 10)


# -- §5 redirects ------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["/\t/evil.example", "/\r/evil.example", "/\n/evil.example",
                                    "//evil.example", "/\\evil.example", "/%2F/evil.example",
                                    "http://evil.example/", "/ /evil.example"])
def test_the_redirect_after_pairing_stays_on_the_site(web: WebServer, target: str) -> None:
    status, _, page = web.get("/pair?next=" + urllib.parse.quote(target, safe=""))
    assert status == 200 and 'name="next" value="/"' in page
    status, headers = _pair(web, web.keys.pairing_code, target)
    assert status == 303 and headers["Location"] == "/"


def test_a_same_site_target_is_kept(web: WebServer) -> None:
    status, headers = _pair(web, web.keys.pairing_code, "/board/b1")
    assert status == 303 and headers["Location"] == "/board/b1"


# -- §6 bodies ---------------------------------------------------------------------------------

BODIES = {
    "not UTF-8": (b"code=\xff\xfe&next=/", FORM),
    "multipart without boundary": (b"--x\r\n\r\n", "multipart/form-data"),
    "broken multipart": (b"--zz\r\nContent-Disposition: form-data\r\n\r\nx",
                         "multipart/form-data; boundary=zz"),
    "multipart with a file": (b'--zz\r\nContent-Disposition: form-data; name="code"; '
                              b'filename="a"\r\nContent-Type: text/plain\r\n\r\n123\r\n'
                              b"--zz--\r\n", "multipart/form-data; boundary=zz"),
    "latin-1 charset": (b"code=\xe9", FORM + "; charset=no-such-charset"),
}


@pytest.mark.parametrize("case", BODIES)
def test_a_malformed_body_is_a_4xx(web: WebServer, client: redis.Redis, case: str) -> None:
    client.sadd(BOARDS, "b1")
    body, content_type = BODIES[case]
    for path, headers in (("/pair", {}), ("/board/b1/command", BEARER), ("/arbiter/pair", {})):
        status, _, text = _post(web, path, body, content_type, headers)
        assert 400 <= status < 500, (path, status, text[:200])


# -- §7 the limiter forgets --------------------------------------------------------------------

def test_the_rate_limiter_forgets_idle_addresses() -> None:
    now = [0.0]
    limiter = RateLimiter(10, clock=lambda: now[0])
    for n in range(20_000):
        assert limiter.allow(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
    now[0] = 61.0
    assert limiter.allow("192.0.2.1")
    assert len(limiter) == 1


# -- pairing -----------------------------------------------------------------------------------

def test_the_code_resists_an_hour_of_guessing(web: WebServer) -> None:
    assert web.keys.pairing_code.isdigit()
    assert PAIR_FAILURES_PER_HOUR / 10 ** len(web.keys.pairing_code) < 1e-6


def test_wrong_codes_lock_an_address_out(web: WebServer) -> None:
    for _ in range(PAIR_FAILURES_PER_ADDRESS):
        assert _pair(web, _wrong(web), source="127.0.0.2")[0] == 403
    assert _pair(web, web.keys.pairing_code, source="127.0.0.2")[0] == 429
    assert _pair(web, web.keys.pairing_code, source="127.0.0.3")[0] == 303


def test_a_locked_out_phone_reads_why_in_its_language(web: WebServer) -> None:
    for _ in range(PAIR_FAILURES_PER_ADDRESS):
        assert _pair(web, _wrong(web), source="127.0.0.4")[0] == 403
    body = urllib.parse.urlencode({"code": web.keys.pairing_code, "next": "/"}).encode()
    browser = {"Accept": "text/html", "Accept-Language": "ja"}
    status, headers, page = _post(web, "/pair", body, headers=browser, source="127.0.0.4")
    assert status == 429 and headers["Content-Type"].startswith("text/html")
    assert '<html lang="ja">' in page and 'name="code"' in page  # the form, to try later
    assert "このアドレスからの誤ったコードが多すぎます：15 分待ってください" in page
    assert headers["Retry-After"] == "900"
    status, headers, text = _post(web, "/pair", body, source="127.0.0.4")
    assert status == 429 and text == "too many wrong codes from this address: wait 15 min"


def test_more_addresses_buy_no_more_guesses(web: WebServer) -> None:
    tries = 0
    for n in range(2, 2 + PAIR_FAILURES_PER_HOUR):
        for _ in range(PAIR_FAILURES_PER_ADDRESS):
            status = _pair(web, _wrong(web), source=f"127.0.1.{n}")[0]
            if status == 429:
                break
            assert status == 403
            tries += 1
        if status == 429 and tries >= PAIR_FAILURES_PER_HOUR:
            break
    assert tries == PAIR_FAILURES_PER_HOUR
    assert _pair(web, _wrong(web), source="127.0.2.1")[0] == 429


def test_each_device_has_its_own_revocable_cookie(web: WebServer, client: redis.Redis) -> None:
    client.sadd(BOARDS, "b1")
    first = _cookie(_pair(web, web.keys.pairing_code, agent="phone A")[1])
    second = _cookie(_pair(web, web.keys.pairing_code, agent="phone B")[1])
    assert first != second and first.startswith(COOKIE + "=")
    status, headers, page = web.get("/devices", {"Cookie": first})
    assert status == 200 and "phone A" in page and "phone B" in page
    ids = re.findall(r'name="device" value="([0-9a-f]{8})"', page)
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    first_id = first.split("=", 1)[1].split(".")[0]
    assert sorted(ids) == sorted([first_id, second.split("=", 1)[1].split(".")[0]])
    assert headers["Cache-Control"] == "no-store"
    status, _, _ = _post(web, "/devices/revoke",
                         urllib.parse.urlencode({"device": first_id, "csrf": csrf}).encode(),
                         headers={"Cookie": second})
    assert status == 403  # the CSRF field is the first device's, not the second's
    status, _, _ = _post(web, "/devices/revoke",
                         urllib.parse.urlencode({"device": first_id, "csrf": csrf}).encode(),
                         headers={"Cookie": first})
    assert status == 303
    assert web.get("/devices", {"Cookie": first})[0] == 401
    status, _, page = web.get("/devices", {"Cookie": second})
    assert status == 200 and "phone A" not in page and "phone B" in page



def test_a_paired_phone_is_named_as_its_owner_knows_it(web: WebServer, client: redis.Redis
                                                       ) -> None:
    """The devices page listed the User-Agent cut at 60 characters, mid-word
    ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, l from ...")."""
    client.sadd(BOARDS, "b1")
    agent = ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/131.0.0.0 Mobile Safari/537.36")
    cookie = _cookie(_pair(web, web.keys.pairing_code, agent=agent)[1])
    status, _, page = web.get("/devices", {"Cookie": cookie})
    assert status == 200 and "Chrome on Android from 127.0.0.1" in page
    assert "KHTML" not in page

def test_the_origin_check_includes_the_scheme(web: WebServer, client: redis.Redis) -> None:
    client.sadd(BOARDS, "b1")
    cookie = _cookie(_pair(web, web.keys.pairing_code)[1])
    _, _, page = web.get("/board/b1", {"Cookie": cookie})
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    body = urllib.parse.urlencode({"command": "hint", "csrf": csrf}).encode()
    host = f"127.0.0.1:{web.port}"
    for origin, expected in ((f"https://{host}", 403), (f"ftp://{host}", 403),
                             (f"http://{host}.evil.example", 403)):
        status, _, text = _post(web, "/board/b1/command", body,
                                headers={"Cookie": cookie, "Origin": origin})
        assert status == expected, (origin, status, text)


def test_headers_csp_cache_and_server(web: WebServer, client: redis.Redis) -> None:
    client.sadd(BOARDS, "b1")
    for path in ("/", "/pair", "/games", "/board/b1", "/static/style.css", "/nowhere"):
        status, headers, _ = web.get(path)
        assert status in (200, 404), path
        csp = headers["Content-Security-Policy"]
        assert "form-action 'self'" in csp and "base-uri 'none'" in csp, path
        assert not re.search(r"[0-9]", headers.get("Server", "")), headers.get("Server")
        assert "aiohttp" not in headers.get("Server", "").lower()
        if headers.get("Content-Type", "").startswith("text/html"):
            assert headers.get("Cache-Control") == "no-store", path


def test_a_command_key_of_the_wrong_type_is_named(web: WebServer, client: redis.Redis) -> None:
    client.sadd(BOARDS, "b1")
    client.set(BoardKeys("b1").alive, json.dumps({"time": time.time(), "state": "running",
                                                      "pid": 1}))
    client.hset(BoardKeys("b1").commands, "a", "b")
    status, _, text = _post(web, "/board/b1/command", b"command=hint", headers=BEARER)
    assert status == 503 and "wrong type" in text and "does not answer" not in text, text


@pytest.mark.parametrize("case", BODIES)
def test_a_malformed_body_to_the_arbiter_is_a_4xx(redis_url: str, case: str) -> None:
    import dataclasses

    from firmware_host.web.arbiter import ArbiterKeys

    server = WebServer(redis_url)
    server.settings = dataclasses.replace(server.settings, arbiter=ArbiterKeys("a" * 32))
    server.start()
    try:
        body, content_type = BODIES[case]
        status, _, text = _post(server, "/arbiter/pair", body, content_type)
        assert 400 <= status < 500, (status, text[:200])
        assert _post(server, "/arbiter/pair", b"code=1", FORM)[0] == 403  # the route is there
    finally:
        server.stop()


# -- §9 a broadcast of a board that is not there -----------------------------------------------

@pytest.mark.parametrize("path", ["/broadcast/board/{board}.pdn", "/broadcast.pdn?board={board}"])
def test_a_broadcast_of_an_unknown_board_is_a_404(web: WebServer, client: redis.Redis,
                                                  path: str) -> None:
    """A broadcast set up with a typo in the board's id got 200 and an empty PDN for ever."""
    client.sadd(BOARDS, "cast-b1")
    for board in ("cast-b2", "%00", "x" * 300, "cast-b1%2F..", "%ff"):
        status, _, text = web.get(path.format(board=board))
        assert status == 404 and "no such board" in text, (board, status, text[:200])
    status, _, text = web.get(path.format(board="cast-b1"))  # known, with no game yet
    assert status == 200 and text == ""


# -- §10 a request that cannot be read is one log line ---------------------------------------

class _Records(logging.Handler):
    """The records of one logger, waited on (the server logs from its own thread)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        with self.changed:
            self.records.append(record)
            self.changed.notify_all()

    def wait_for(self, count: int) -> list[logging.LogRecord]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.records) >= count, timeout=10)
            return list(self.records)


UNREADABLE = {
    "a byte outside ASCII in the path": b"GET /board/\xff HTTP/1.1\r\nHost: x\r\n\r\n",
    "an unknown HTTP version": b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    "a header line of 100 KB": b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 100_000 + b"\r\n\r\n",
    "a bad Content-Length": b"POST /pair HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    "a bad chunk": (b"POST /pair HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                    b"Content-Type: " + FORM.encode() + b"\r\n\r\nZZ\r\ncode\r\n0\r\n\r\n"),
}


@pytest.mark.parametrize("case", UNREADABLE)
def test_an_unreadable_request_is_a_400_and_one_log_line(web: WebServer, case: str) -> None:
    """aiohttp logged each of these as an ERROR with a whole traceback (in the journal of
    ``draughtsboard web``, on the terminal of ``demo --hall``), as if the server had failed."""
    records = _Records()
    server_log = logging.getLogger("aiohttp.server")
    server_log.addHandler(records)
    try:
        with socket.create_connection(("127.0.0.1", web.port), timeout=10) as connection:
            connection.sendall(UNREADABLE[case])
            reply = connection.recv(65536)
        assert reply.startswith(b"HTTP/1.0 400 ") or reply.startswith(b"HTTP/1.1 400 "), reply
        [record] = records.wait_for(1)
    finally:
        server_log.removeHandler(records)
    assert record.levelno == logging.INFO and record.exc_info is None
    assert record.getMessage().startswith("a request from 127.0.0.1 refused: 400 ")
    assert "\n" not in record.getMessage() and "Traceback" not in record.getMessage()


def test_a_client_gone_in_the_middle_of_its_body_is_one_log_line(web: WebServer) -> None:
    records = _Records()
    server_log = logging.getLogger("aiohttp.server")
    server_log.addHandler(records)
    try:
        with socket.create_connection(("127.0.0.1", web.port), timeout=10) as connection:
            connection.sendall(b"POST /pair HTTP/1.1\r\nHost: x\r\nContent-Type: " +
                               FORM.encode() + b"\r\nContent-Length: 100\r\n\r\ncode=1")
        [record] = records.wait_for(1)  # the server notices the connection closed
    finally:
        server_log.removeHandler(records)
    assert record.levelno == logging.INFO and record.exc_info is None
    assert record.getMessage() == "a request from 127.0.0.1 ended: the client went away"


def test_a_body_that_never_comes_is_a_408(web: WebServer, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """A Content-Length promising more than is sent held the connection open until the client
    closed it: any number of them, from anyone who reaches the app."""
    monkeypatch.setattr(forms, "BODY_S", 0.2)
    with socket.create_connection(("127.0.0.1", web.port), timeout=30) as connection:
        connection.sendall(b"POST /pair HTTP/1.1\r\nHost: x\r\nContent-Type: " +
                           FORM.encode() + b"\r\nContent-Length: 100\r\n\r\ncode=1")
        reply = connection.recv(65536)
    assert reply.startswith(b"HTTP/1.1 408 "), reply
    assert b"the form did not arrive in time" in reply
