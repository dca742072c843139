"""Who may control the boards: a token kept in a file, a pairing code, CSRF and rate limits.

Viewing is open (on the LAN when ``web.listen`` opens it); control needs authorisation. The
token (random, in ``web.token_file``, mode 0600, made on first start) is never logged. A phone
pairs by entering the six-digit pairing code that ``draughtsboard web`` prints (derived from the
token): it then holds a cookie (HttpOnly, SameSite=Strict) proving it. A script may send the
token itself (``Authorization: Bearer <token>``). Every control form carries a CSRF field tied
to the cookie, and control requests are rate-limited per address.

>>> keys = Keys("k" * 32)
>>> len(keys.pairing_code), keys.pairing_code.isdigit()
(6, True)
>>> keys.valid_session(keys.session_cookie()), keys.valid_session("nope")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

__all__ = ["Keys", "RateLimiter", "load_token"]


def load_token(path: str | Path) -> str:
    """The control token in ``path``, made (0600) if the file does not exist.

    Raises:
        OSError: the file cannot be read or made.
    """
    file = Path(path)
    try:
        token = file.read_text().strip()
    except FileNotFoundError:
        token = ""
    if len(token) >= 16:
        return token
    token = secrets.token_urlsafe(32)
    file.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(token + "\n")
    return token


class Keys:
    """What is derived from the token: the pairing code, the session cookie, CSRF fields."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    def _mac(self, purpose: str) -> str:
        return hmac.new(self._token, purpose.encode(), hashlib.sha256).hexdigest()

    @property
    def pairing_code(self) -> str:
        """Six digits to type on the phone."""
        return f"{int(self._mac('pair')[:12], 16) % 1_000_000:06d}"

    def valid_code(self, code: str) -> bool:
        """Whether ``code`` is the pairing code."""
        return hmac.compare_digest(code.strip(), self.pairing_code)

    def valid_token(self, token: str) -> bool:
        """Whether ``token`` is the token itself."""
        return hmac.compare_digest(token.encode(), self._token)

    def session_cookie(self) -> str:
        """The cookie a paired browser holds."""
        return self._mac("session")

    def valid_session(self, cookie: str) -> bool:
        """Whether ``cookie`` is a paired browser's."""
        return hmac.compare_digest(cookie, self.session_cookie())

    def csrf(self, cookie: str) -> str:
        """The CSRF field of forms shown to the holder of ``cookie``."""
        return self._mac("csrf:" + cookie)[:32]

    def valid_csrf(self, cookie: str, field: str) -> bool:
        """Whether a form's CSRF field matches its cookie."""
        return hmac.compare_digest(field, self.csrf(cookie))


class RateLimiter:
    """At most ``per_minute`` requests per address in any 60 seconds.

    >>> now = [0.0]
    >>> limiter = RateLimiter(2, clock=lambda: now[0])
    >>> limiter.allow("a"), limiter.allow("a"), limiter.allow("a"), limiter.allow("b")
    (True, True, False, True)
    >>> now[0] = 61.0
    >>> limiter.allow("a")
    True
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._seen: dict[str, deque[float]] = {}

    def allow(self, address: str) -> bool:
        """Count a request from ``address``; False when it is over the limit."""
        now = self._clock()
        times = self._seen.setdefault(address, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        if len(self._seen) > 10_000:  # forget idle addresses
            self._seen = {a: t for a, t in self._seen.items() if t}
        return True
