"""A heartbeat value that is not JSON text counts as no heartbeat (never an exception)."""

from __future__ import annotations

import json

import pytest

from firmware_host.web.liveness import of


@pytest.mark.parametrize("raw", [None, 12345, 1.5, ["x"], b"\xff", "not json", "[]"])
def test_an_unreadable_heartbeat_is_offline_never_seen(raw: object) -> None:
    liveness = of(raw, now=1000.0)
    assert (liveness.online, liveness.seen) == (False, None)


def test_a_fresh_running_heartbeat_is_online() -> None:
    raw = json.dumps({"time": 995.0, "state": "running", "pid": 7}).encode()
    assert (of(raw, now=1000.0).online, of(raw, now=1000.0).seen) == (True, 995.0)
