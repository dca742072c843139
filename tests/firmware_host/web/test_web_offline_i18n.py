"""A command to an offline board is refused in the viewer's language (``Accept-Language`` or
``?lang=``), the board's id and the time it was last seen kept as they are."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.firmware_host.web.harness import TOKEN, BoardRig, WebServer, heartbeat

pytestmark = pytest.mark.redis


def test_the_offline_refusal_is_in_the_viewers_language(
        web: WebServer, redis_url: str, make_board: Callable[..., BoardRig]) -> None:
    make_board("dead1")
    heartbeat(redis_url, "dead1", state="stopped", at=1_795_977_005.0)
    status, body = web.post("/board/dead1/command", {"command": "resign"},
                            {"Authorization": f"Bearer {TOKEN}", "Accept-Language": "ja"})
    assert status == 409
    assert json.loads(body)["message"] == \
        "送信できません：dead1 はオフラインです（最終応答 2026-11-29 18:30:05 UTC）"
    status, body = web.post("/board/dead1/command?lang=ru", {"command": "resign"},
                            {"Authorization": f"Bearer {TOKEN}", "Accept-Language": "ja"})
    assert status == 409
    assert json.loads(body)["message"] == \
        "не отправлено: dead1 не в сети (последний сигнал 2026-11-29 18:30:05 UTC)"
