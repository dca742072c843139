"""The arbiter's sessions: each browser that pairs with the arbiter code holds a session of its
own that expires, is listed on the console and can be revoked there, with a CSRF field of its
own and a memory of the decisions it sent.

A session's cookie is ``<session id>.<secret>``; the web app keeps the secret's SHA-256 only,
in memory: a restart of the web app ends every session (pair again with the code). A session
lasts :data:`SESSION_S` (a day of play) from when it paired; at most :data:`MAX_SESSIONS` are
open (pairing one more ends the oldest).

Every decision the console sends carries an id made for it (``decision_id``, app.js): the first
request with that id is carried out and its reply kept (:class:`KeptReply`: its status too, so
a decision a board refused, or that reached no board, is kept as one); the same request again
(a browser's retry, a replay) is answered with the kept reply and decides nothing a second
time; one that comes while the first is still under way is refused (409).

>>> now = [0.0]
>>> sessions = ArbiterSessions(clock=lambda: now[0])
>>> cookie = sessions.open("Firefox on Linux from 10.0.0.7")
>>> session = sessions.check(cookie)
>>> session is not None and session.label
'Firefox on Linux from 10.0.0.7'
>>> session.begin("d1"), session.begin("d1")
(None, 'under way')
>>> session.done("d1", {"ok": True}); session.begin("d1")
{'ok': True}
>>> now[0] = SESSION_S + 1
>>> sessions.check(cookie) is None, sessions.list()
(True, [])
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_host.web.paired import cookie_holder

__all__ = ["DECISION", "MAX_SESSIONS", "SESSION_S", "UNDER_WAY", "ArbiterSession",
           "ArbiterSessions", "KeptReply"]

#: How long an arbiter's session lasts from when it paired (s).
SESSION_S = 24 * 3600.0
#: Sessions open at once at most (one more ends the oldest).
MAX_SESSIONS = 20
#: Decisions a session remembers (the newest).
DECISIONS_KEPT = 500
#: A decision's id, as the console makes them (letters, digits, ``-``).
DECISION = re.compile(r"[A-Za-z0-9-]{8,64}")
UNDER_WAY = "under way"


@dataclass(frozen=True)
class KeptReply:
    """A decision's reply as it was sent: its HTTP ``status`` and JSON ``body``."""

    status: int
    body: dict[str, object]


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class ArbiterSession:
    """One arbiter's browser."""

    session_id: str
    digest: str
    label: str
    created: float
    expires: float
    #: The named arbiter whose code paired it ("": the one arbiter code's).
    arbiter: str = ""
    #: The CSRF field of this session's forms.
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))
    #: Decision id -> its reply (or :data:`UNDER_WAY`), oldest first.
    decisions: OrderedDict[str, object] = field(default_factory=OrderedDict)

    def begin(self, decision: str) -> object | None:
        """None: ``decision`` is new, and now under way; else what it was: its reply, or
        :data:`UNDER_WAY`."""
        if decision in self.decisions:
            return self.decisions[decision]
        self.decisions[decision] = UNDER_WAY
        while len(self.decisions) > DECISIONS_KEPT:
            self.decisions.popitem(last=False)
        return None

    def done(self, decision: str, reply: object | None) -> None:
        """``decision`` is carried out with ``reply`` (None: it was not: forget it, so it can be
        sent again)."""
        if reply is None:
            self.decisions.pop(decision, None)
        else:
            self.decisions[decision] = reply

    def as_json(self, this: bool = False) -> dict[str, object]:
        """What the console lists of the session."""
        return {"id": self.session_id, "label": (f"{self.arbiter}: " if self.arbiter else "")
                + self.label, "since": self.created, "until": self.expires, "this": this}


class ArbiterSessions:
    """The open arbiter sessions (in memory)."""

    def __init__(self, clock: Callable[[], float] = time.time, lifetime: float = SESSION_S,
                 most: int = MAX_SESSIONS) -> None:
        self._clock = clock
        self.lifetime = lifetime
        self.most = most
        self._sessions: dict[str, ArbiterSession] = {}

    def _expire(self) -> None:
        now = self._clock()
        for session_id in [i for i, s in self._sessions.items() if s.expires <= now]:
            del self._sessions[session_id]

    def open(self, label: str, arbiter: str = "") -> str:
        """A new session for the browser ``label`` names (of the named ``arbiter``, whose code
        paired it); its cookie."""
        self._expire()
        while len(self._sessions) >= self.most:
            oldest = min(self._sessions.values(), key=lambda s: s.created)
            del self._sessions[oldest.session_id]
        session_id = secrets.token_hex(4)
        while session_id in self._sessions:
            session_id = secrets.token_hex(4)
        secret = secrets.token_urlsafe(32)
        now = self._clock()
        cleaned = "".join(c for c in label if c.isprintable())[:80] or "a browser"
        self._sessions[session_id] = ArbiterSession(session_id, _digest(secret), cleaned, now,
                                                    now + self.lifetime, arbiter)
        return f"{session_id}.{secret}"

    def check(self, cookie: str) -> ArbiterSession | None:
        """The open session of ``cookie`` (None: unknown, expired, revoked or malformed)."""
        self._expire()
        holder = cookie_holder(
            cookie, lambda i: s.digest if (s := self._sessions.get(i)) else None)
        return None if holder is None else self._sessions[holder]

    def list(self) -> list[ArbiterSession]:
        """The open sessions, oldest first."""
        self._expire()
        return sorted(self._sessions.values(), key=lambda s: s.created)

    def revoke(self, session_id: str) -> bool:
        """End a session; False if there is none of that id."""
        return self._sessions.pop(session_id, None) is not None
