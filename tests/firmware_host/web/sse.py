"""A raw Server-Sent Events reader for the web tests and bench/web.py."""

from __future__ import annotations

import json
from typing import Any


class SseClient:
    """A raw Server-Sent Events reader (what a browser's EventSource does), blocking with a
    timeout: a test waits for the event it expects, never for a fixed time."""

    def __init__(self, base: str, path: str, last_event_id: str | None = None,
                 timeout: float = 10.0) -> None:
        import http.client
        import urllib.parse

        parts = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port,
                                                     timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.last_id: str | None = None
        #: Bytes read so far (keep-alive comments included).
        self.bytes = 0

    def next_event(self, keep_alive: bool = False) -> tuple[str, dict[str, Any]]:
        """The next named event (the retry line skipped): ``(event, data)``; a keep-alive
        comment is skipped too, or returned as ``("", {})`` with ``keep_alive``."""
        name, data = "", list[str]()
        while True:
            raw = self.response.fp.readline()
            self.bytes += len(raw)
            line = raw.decode()
            if not line:
                raise EOFError("the feed closed")
            line = line.rstrip("\n")
            if keep_alive and line.startswith(": keep-alive"):
                return "", {}
            if not line:
                if name:
                    return name, json.loads("\n".join(data))
                continue
            field, _, value = line.partition(": ")
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                self.last_id = value

    def wait_for(self, predicate: Any, event: str = "board") -> list[dict[str, Any]]:
        """Read ``event`` messages until one satisfies ``predicate``; return every one read."""
        seen = []
        while True:
            name, data = self.next_event()
            if name != event:
                continue
            seen.append(data)
            if predicate(data):
                return seen

    def close(self) -> None:
        self.connection.close()
