"""Who may control the boards: a token kept in a file, a pairing code, CSRF and rate limits.

Viewing is open (on the LAN when ``web.listen`` opens it); control needs authorisation. The
token (random, in ``web.token_file``, mode 0600, made on first start) is never logged. A phone
pairs by entering the ten-digit pairing code that ``draughtsboard web`` prints (derived from
the token): it then holds a cookie of its own (HttpOnly, SameSite=Strict), listed and revocable
(:mod:`~firmware_host.web.paired`). A script may send the token itself
(``Authorization: Bearer <token>``). Every control form carries a CSRF field tied to the cookie,
and control requests are rate-limited per address. Wrong pairing codes are limited per address
and in all (:class:`PairingGuard`): at most :data:`PAIR_FAILURES_PER_HOUR` an hour, so an hour
of guessing at the limit finds the code with a chance below one in a million.

>>> keys = Keys("k" * 32)
>>> len(keys.pairing_code), keys.pairing_code.isdigit()
(10, True)
>>> keys.valid_code(keys.pairing_code[:5] + " " + keys.pairing_code[5:]), keys.valid_code("1")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_host.i18n import N_

__all__ = ["CODE_DIGITS", "PAIR_FAILURES_PER_HOUR", "TOO_MANY_ATTEMPTS", "Keys", "PairingGuard",
           "RateLimiter", "Refusal", "load_token"]

#: Digits of the pairing code.
CODE_DIGITS = 10
#: Wrong pairing codes accepted in any hour, from all addresses together; then pairing is
#: locked until the oldest of them is an hour old (pair with the token meanwhile).
PAIR_FAILURES_PER_HOUR = 60
#: Wrong codes from one address before it is locked out for :data:`LOCKOUT_S`.
PAIR_FAILURES_PER_ADDRESS = 5
LOCKOUT_S = 900.0


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
        """Ten digits to type on the phone."""
        return f"{int(self._mac('pair')[:20], 16) % 10**CODE_DIGITS:0{CODE_DIGITS}d}"

    def valid_code(self, code: str) -> bool:
        """Whether ``code`` is the pairing code (spaces and dashes between digits allowed)."""
        typed = "".join(code.split()).replace("-", "")[:40]
        return hmac.compare_digest(typed.encode(), self.pairing_code.encode())

    def valid_token(self, token: str) -> bool:
        """Whether ``token`` is the token itself."""
        return hmac.compare_digest(token.encode(), self._token)

    def csrf(self, cookie: str) -> str:
        """The CSRF field of forms shown to the holder of ``cookie``."""
        return self._mac("csrf:" + cookie)[:32]

    def valid_csrf(self, cookie: str, field: str) -> bool:
        """Whether a form's CSRF field matches its cookie."""
        return hmac.compare_digest(field.encode(), self.csrf(cookie).encode())


class RateLimiter:
    """At most ``per_minute`` requests per address in any 60 seconds; an address not seen for
    a minute is forgotten (one sweep a minute, so memory follows the addresses of the last
    minute, not every address ever seen).

    >>> now = [0.0]
    >>> limiter = RateLimiter(2, clock=lambda: now[0])
    >>> limiter.allow("a"), limiter.allow("a"), limiter.allow("a"), limiter.allow("b")
    (True, True, False, True)
    >>> now[0] = 61.0
    >>> limiter.allow("a"), len(limiter)
    (True, 1)
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic,
                 window: float = 60.0) -> None:
        self.per_minute = per_minute
        self.window = window
        self._clock = clock
        self._seen: dict[str, deque[float]] = {}
        self._swept = clock()

    def __len__(self) -> int:
        """The addresses remembered."""
        return len(self._seen)

    def _sweep(self, now: float) -> None:
        horizon = now - self.window
        self._seen = {a: t for a, t in self._seen.items() if t and t[-1] > horizon}
        self._swept = now

    def allow(self, address: str) -> bool:
        """Count a request from ``address``; False when it is over the limit."""
        now = self._clock()
        if now - self._swept >= self.window:
            self._sweep(now)
        times = self._seen.setdefault(address, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        return True


@dataclass(frozen=True)
class Refusal:
    """Why a pairing attempt is refused now: the words (English, a catalog's key, with a
    ``{wait}`` field) and the minutes to wait.

    >>> str(Refusal(LOCKED_ADDRESS, 3))
    'too many wrong codes from this address: wait 3 min'
    """

    message: str
    wait: int = 1

    def words(self, gettext: Callable[[str], str]) -> str:
        """The refusal in the language of ``gettext``."""
        return gettext(self.message).format(wait=self.wait)

    def __str__(self) -> str:
        return self.words(str)


LOCKED_ALL = N_("too many wrong codes: pairing is locked for {wait} min (or pair with the token)")
LOCKED_ADDRESS = N_("too many wrong codes from this address: wait {wait} min")
#: The refusal of an address over the control rate limit.
TOO_MANY_ATTEMPTS = Refusal(N_("too many attempts: wait {wait} min"), 1)


class PairingGuard:
    """Wrong pairing codes: per address (:data:`PAIR_FAILURES_PER_ADDRESS`, then locked out for
    :data:`LOCKOUT_S`) and in all (:data:`PAIR_FAILURES_PER_HOUR`), so more addresses buy no more
    guesses.

    >>> now = [0.0]
    >>> guard = PairingGuard(clock=lambda: now[0], per_address=2, per_hour=3)
    >>> guard.refusal("a") is None
    True
    >>> guard.begin("a"), guard.begin("a"), str(guard.begin("a"))
    (None, None, 'too many wrong codes from this address: wait 15 min')
    >>> guard.begin("b"); str(guard.begin("c"))[:42]
    'too many wrong codes: pairing is locked fo'
    >>> now[0] = 3601.0
    >>> guard.refusal("a") is None and guard.refusal("c") is None
    True

    An attempt counts as a wrong code from the moment it begins (:meth:`begin`, before its
    body is read and its code compared: one call, so N guesses sent at once count N), and is
    taken back when the code was right (:meth:`succeeded`).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 per_address: int = PAIR_FAILURES_PER_ADDRESS,
                 per_hour: int = PAIR_FAILURES_PER_HOUR, lockout: float = LOCKOUT_S) -> None:
        self._clock = clock
        self.per_address = per_address
        self.per_hour = per_hour
        self.lockout = lockout
        self._all: deque[float] = deque()
        self._by_address = RateLimiter(per_address, clock, window=lockout)

    def refusal(self, address: str) -> Refusal | None:
        """Why ``address`` may not try a code now, or None."""
        now = self._clock()
        while self._all and self._all[0] <= now - 3600:
            self._all.popleft()
        if len(self._all) >= self.per_hour:
            wait = math.ceil((self._all[0] + 3600 - now) / 60)
            return Refusal(LOCKED_ALL, wait)
        times = self._by_address._seen.get(address)
        if times and len(times) >= self.per_address and times[-1] > now - self.lockout:
            wait = math.ceil((times[-1] + self.lockout - now) / 60)
            return Refusal(LOCKED_ADDRESS, wait)
        return None

    def begin(self, address: str) -> Refusal | None:
        """Why ``address`` may not try a code now; else None, and the attempt is counted as a
        wrong code already (in the same call: no other attempt comes between)."""
        refusal = self.refusal(address)
        if refusal is None:
            self._all.append(self._clock())
            self._by_address.allow(address)
        return refusal

    def succeeded(self, address: str) -> None:
        """The code of an attempt of ``address`` was right: it is not a wrong code."""
        if self._all:
            self._all.pop()
        times = self._by_address._seen.get(address)
        if times:
            times.pop()
