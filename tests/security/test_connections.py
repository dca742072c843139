"""Limits that hold under concurrency (issue 40), against the running web app:

- code guesses sent at once count each one: the pairing code's and the arbiter code's limits
  (5 wrong codes an address, 60 in all) are counted before a guess's body is read, so 30
  guesses from one address and 100 from twenty addresses, their headers all in before any
  body, compare no more codes than the limits allow (the audit: 200 in 0.5 s, 300 in 0.1 s);
- request headers that never finish are closed after the headers' time (the audit: 1,100 slow
  connections held for good, the process out of files, a viewer got 0 pages), and one address
  holds no more than its share of connections, while a viewer from another address gets every
  page.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest

from firmware_host.web.auth import PAIR_FAILURES_PER_ADDRESS, PAIR_FAILURES_PER_HOUR
from firmware_host.web.connections import PER_ADDRESS
from tests.firmware_host.web.harness import WebServer

pytestmark = pytest.mark.redis


@pytest.fixture
def console(redis_url: str) -> Iterator[WebServer]:
    server = WebServer(redis_url, arbiter=True, rate_per_minute=600, headers_s=1.0).start()
    yield server
    server.stop()


def _connect(web: WebServer, source: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", web.port), timeout=20,
                                    source_address=(source, 0))
    return sock


def _status(sock: socket.socket) -> int:
    reply = b""
    while b"\r\n" not in reply:
        try:
            chunk = sock.recv(4096)
        except ConnectionResetError:
            return 0
        if not chunk:
            return 0  # closed without a reply
        reply += chunk
    return int(reply.split(b" ", 2)[1])


def _guesses(web: WebServer, path: str, sources: list[str], each: int) -> list[int]:
    """``each`` wrong codes from every address in ``sources``, their headers all sent before
    any body; the statuses."""
    body = b"code=0000000001"
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    socks = [_connect(web, source) for source in sources for _ in range(each)]
    try:
        for sock in socks:
            sock.sendall(head)
        # A reply to a later request: the server has taken in every guess's headers by then
        # (its handlers wait for the bodies), so each guess is in flight at once.
        web.get("/static/style.css")
        for sock in socks:
            with contextlib.suppress(OSError):  # refused before its body (a 429 waits)
                sock.sendall(body)
        return [_status(sock) for sock in socks]
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize("path", ["/pair", "/arbiter/pair"])
def test_concurrent_wrong_codes_from_one_address_count_each(console: WebServer,
                                                            path: str) -> None:
    statuses = _guesses(console, path, ["127.0.0.1"], 30)
    assert statuses.count(403) <= PAIR_FAILURES_PER_ADDRESS, statuses  # compared: wrong
    assert set(statuses) <= {0, 403, 429}  # (0: refused and closed before its body)


def test_concurrent_wrong_codes_from_many_addresses_count_in_all(console: WebServer) -> None:
    sources = [f"127.0.0.{n}" for n in range(2, 22)]  # twenty addresses, six guesses each
    statuses = _guesses(console, "/pair", sources, 6)
    assert statuses.count(403) <= PAIR_FAILURES_PER_HOUR, statuses.count(403)
    assert set(statuses) <= {0, 403, 429}  # (0: refused and closed before its body)


def test_slow_headers_are_closed_and_a_viewer_gets_every_page(console: WebServer) -> None:
    slow = [_connect(console, "127.0.0.2") for _ in range(PER_ADDRESS + 30)]
    try:
        for sock in slow:
            with contextlib.suppress(OSError):  # (refused as it opened: over its share)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never ends
        for path in ("/", "/games", "/pair", "/health.json", "/static/app.js", "/no-such"):
            status, _, _ = console.get(path)  # a viewer from 127.0.0.1
            assert status in (200, 404), (path, status)
        closed = 0
        for sock in slow:  # each is closed by the server (EOF), the headers' time passed
            try:
                closed += sock.recv(4096) == b""
            except ConnectionResetError:
                closed += 1
        assert closed == len(slow)
    finally:
        for sock in slow:
            sock.close()
    assert console.site is not None and console.site.cap is not None
    assert console.site.cap.refused >= 30
