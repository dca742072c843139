"""Paired devices: each phone that pairs gets a cookie of its own, listed and revocable.

A cookie is ``<device id>.<secret>``; only a hash of the secret is kept, in a JSON file beside
the token (``devices.json`` in the directory of ``web.token_file``, mode 0600), so the list
survives a restart and ``draughtsboard web --devices`` / ``--revoke ID`` see and change what
the running web app checks (it reads the file again when it changes). Revoking a device ends
its control at its next request; the other devices keep theirs.

>>> devices = PairedDevices(None)
>>> cookie = devices.pair("phone of Ann", now=0.0)
>>> [d.label for d in devices.list()], devices.check(cookie) == cookie.split(".")[0]
(['phone of Ann'], True)
>>> devices.revoke(cookie.split(".")[0]), devices.check(cookie)
(True, None)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MAX_DEVICES", "Device", "PairedDevices", "cookie_holder", "device_name", "devices_file"]

log = logging.getLogger(__name__)

#: PairedDevices paired at once at most (pairing one more revokes the one paired longest ago).
MAX_DEVICES = 200
_ID = re.compile(r"[0-9a-f]{8}")


def devices_file(token_file: str | Path) -> Path:
    """Where the paired devices of ``token_file``'s web app are kept."""
    return Path(token_file).with_name("devices.json")


@dataclass(frozen=True)
class Device:
    """One paired device."""

    device_id: str
    label: str
    created: float
    digest: str

    @property
    def created_text(self) -> str:
        """When it paired (UTC)."""
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.created))

    def to_json(self) -> dict[str, object]:
        """The device as kept in the file."""
        return {"id": self.device_id, "label": self.label, "created": self.created,
                "sha256": self.digest}


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def cookie_holder(cookie: str, digests: Callable[[str], str | None]) -> str | None:
    """The id of a ``<id>.<secret>`` cookie (a paired device's, an arbiter session's) whose
    secret's SHA-256 is ``digests(id)``; None: malformed, unknown or not its secret.

    >>> cookie_holder("0a1b2c3d.s3cret", {"0a1b2c3d": _digest("s3cret")}.get)
    '0a1b2c3d'
    >>> cookie_holder("0a1b2c3d.other", {"0a1b2c3d": _digest("s3cret")}.get) is None
    True
    """
    holder, _, secret = cookie.partition(".")
    if not _ID.fullmatch(holder) or not secret or len(secret) > 100:
        return None
    digest = digests(holder)
    if digest is None or not hmac.compare_digest(digest, _digest(secret)):
        return None
    return holder


#: (token in the User-Agent, name) in the order they are looked for.
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
             ("CriOS", "Chrome"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"),
             ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("CrOS", "ChromeOS"), ("Macintosh", "macOS"),
            ("Linux", "Linux"))


def device_name(agent: str) -> str:
    """A short name a person recognises for the device that sent ``agent`` (its User-Agent):
    the browser and the system where they can be told, else the text cut at a word.

    >>> device_name("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like "
    ...             "Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")
    'Chrome on Android'
    >>> device_name("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15"
    ...             " (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
    'Safari on iPhone'
    >>> device_name("curl/8.5.0"), device_name("")
    ('curl/8.5.0', 'a browser')
    """
    browser = next((name for token, name in _BROWSERS if token in agent), None)
    system = next((name for token, name in _SYSTEMS if token in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    text = " ".join(agent.split())
    if len(text) > 60:
        text = text[:60].rsplit(" ", 1)[0] + "…"
    return text or "a browser"


def _label(text: str) -> str:
    cleaned = "".join(c for c in text if c.isprintable())
    return cleaned[:80] or "a device"


class PairedDevices:
    """The paired devices, in ``path`` (None: in memory only, for tests and a one-off run)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._devices: dict[str, Device] = {}
        self._stamp: tuple[int, int] | None = None
        self._load()

    def _file_stamp(self) -> tuple[int, int] | None:
        if self.path is None:
            return None
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def _load(self) -> None:
        stamp = self._file_stamp()
        if self.path is None or stamp == self._stamp:
            return
        self._stamp = stamp
        if stamp is None:
            self._devices = {}
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            devices = {}
            for item in data["devices"]:
                device = Device(str(item["id"]), _label(str(item["label"])),
                                float(item["created"]), str(item["sha256"]))
                if _ID.fullmatch(device.device_id):
                    devices[device.device_id] = device
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("web: %s is unreadable (%s): no device is paired until it is fixed "
                        "or removed", self.path, type(exc).__name__)
            self._devices = {}
            return
        self._devices = devices

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            json.dump({"devices": [d.to_json() for d in self._devices.values()]}, out, indent=1)
        os.replace(temporary, self.path)
        self._stamp = self._file_stamp()

    def list(self) -> list[Device]:
        """The paired devices, oldest first."""
        self._load()
        return sorted(self._devices.values(), key=lambda d: d.created)

    def pair(self, label: str, now: float | None = None) -> str:
        """Pair a new device; return its cookie. With :data:`MAX_DEVICES` paired already, the
        one paired longest ago is revoked to make room (logged): pairing never locks every
        device out."""
        self._load()
        while len(self._devices) >= MAX_DEVICES:
            oldest = min(self._devices.values(), key=lambda d: d.created)
            del self._devices[oldest.device_id]
            log.info("web: %d devices are paired: revoked the oldest, %s (%s), for a new one",
                     MAX_DEVICES, oldest.device_id, oldest.label)
        device_id = secrets.token_hex(4)
        while device_id in self._devices:
            device_id = secrets.token_hex(4)
        secret = secrets.token_urlsafe(32)
        self._devices[device_id] = Device(device_id, _label(label),
                                          time.time() if now is None else now, _digest(secret))
        self._save()
        return f"{device_id}.{secret}"

    def check(self, cookie: str) -> str | None:
        """The id of the device holding ``cookie``, or None (unknown, revoked, malformed)."""
        self._load()
        return cookie_holder(cookie, lambda i: d.digest if (d := self._devices.get(i)) else None)

    def label(self, device_id: str) -> str:
        """The name of a paired device ("" if there is none of that id)."""
        self._load()
        device = self._devices.get(device_id)
        return device.label if device is not None else ""

    def revoke(self, device_id: str) -> bool:
        """Revoke a device; False if no device has that id."""
        self._load()
        if self._devices.pop(device_id, None) is None:
            return False
        self._save()
        return True
