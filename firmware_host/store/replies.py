"""The shapes of Redis replies, checked where they are read: what redis-py returns is left
untyped by its stubs, so a reply is taken as an ``object`` and these give back the part of the
expected shape (another shape is left out: a damaged key never raises here).

>>> items({b"a", b"a"}), items(None), pairs([(b"g1", 1.5), b"junk", (1, 2, 3)])
([b'a'], [], [(b'g1', 1.5)])
>>> stream_entries([(b"1-0", {b"event": b"{}"}), (b"2-0", "no fields")])
[('1-0', {b'event': b'{}'})]
>>> newest_id([(b"7-1", {})]), newest_id([])
('7-1', '0-0')
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_host.store.client import text

__all__ = ["StreamEntry", "items", "newest_id", "pairs", "stream_entries"]

#: One stream entry: its id as text, its fields as Redis gave them (bytes, or str when decoded).
StreamEntry = tuple[str, Mapping[bytes, bytes]]


def items(reply: object) -> list[object]:
    """A list (or set) reply as a list; anything else is empty."""
    return list(reply) if isinstance(reply, list | tuple | set) else []


def pairs(reply: object) -> list[tuple[object, object]]:
    """The two-item entries of a list reply (``(member, score)``, ``(id, fields)``)."""
    return [(item[0], item[1]) for item in items(reply)
            if isinstance(item, list | tuple) and len(item) == 2]


def stream_entries(reply: object) -> list[StreamEntry]:
    """The entries of an ``XRANGE`` / ``XREVRANGE`` reply (or of one stream of ``XREAD``)."""
    return [(text(entry_id), fields) for entry_id, fields in pairs(reply)
            if isinstance(fields, dict)]


def newest_id(reply: object) -> str:
    """The id of the first entry of an ``XREVRANGE ... COUNT 1`` reply; ``0-0`` for none."""
    entries = pairs(reply)
    return text(entries[0][0]) if entries else "0-0"
