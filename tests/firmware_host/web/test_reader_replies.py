"""A Redis reply of an unexpected shape is skipped by the web reader, never an exception."""

from __future__ import annotations

import pytest

from firmware_host.web.reader import decode_entry


@pytest.mark.parametrize(("entry", "entry_id"), [
    ((b"1-0", "not fields"), "1-0"),
    ((b"1-0", None), "1-0"),
    (5, "?"),
    ((b"1-0",), "?"),
])
def test_an_events_entry_of_another_shape_has_no_message(entry: object, entry_id: str) -> None:
    assert decode_entry(entry) == (entry_id, None)


def test_an_events_entry_is_read() -> None:
    assert decode_entry((b"1-0", {b"event": b'{"event": "state", "state": "syncing"}'})) == (
        "1-0", {"event": "state", "state": "syncing"})
