"""Issue 25 §2: event data is never used as a format string. A 77-byte hint event whose reason
kind was ``{kind:>300000000}`` made a board page of 300 MB (17 s, the event loop blocked)."""

from __future__ import annotations

import pytest
import redis

from firmware_host.feedback.texts import render
from tests.firmware_host.web.harness import WebServer
from tests.security.records import add_event, seed_board

pytestmark = pytest.mark.redis

WIDTH = 3_000_000  # 3 MB of padding if formatted: enough to see, not enough to hurt the run


def test_a_reason_kind_is_not_a_template(client: redis.Redis, web: WebServer) -> None:
    seed_board(client, "fmt")
    add_event(client, "fmt", {"event": "hint", "pdn": "c3-d4",
                              "reasons": [{"kind": f"{{kind:>{WIDTH}}}"}]})
    status, _, page = web.get("/board/fmt")
    assert status == 200
    assert len(page) < 200_000
    assert f"{{kind:&gt;{WIDTH}}}" in page or f"{{kind:>{WIDTH}}}" in page


@pytest.mark.parametrize("event", [
    {"event": "hint", "pdn": "c3-d4", "reasons": [{"kind": "wins_material", "pieces": "{0}",
                                                   "moves": "{pieces:>99999999}"}]},
    {"event": "header", "tag": "{value:>99999999}", "value": "{tag}"},
    {"event": "refused", "reason": "capture_compulsory", "capture": "{capture:>99999999}"},
])
def test_field_values_are_text_not_templates(event: dict[str, object]) -> None:
    text = render(event)
    assert text is not None and len(text) < 500
