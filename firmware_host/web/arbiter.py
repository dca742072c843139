"""The arbiter console's server side: JSON routes under ``/arbiter``, behind an arbiter role.

The arbiter role is a credential of its own, derived from a secret the web service holds (the
control token): the ten-digit *arbiter code* pairs a browser (``POST /arbiter/pair``, a cookie
of its own, HttpOnly, SameSite=Strict), the *arbiter token* serves scripts
(``Authorization: Bearer <token>``). A phone paired for control is not an arbiter. Every
``POST`` from a browser carries the CSRF field of its cookie (``csrf``, given by
``/arbiter/state.json``) and comes from this site (``Origin``).

Routes (:meth:`ArbiterSite.routes`):

- ``POST /arbiter/pair`` (``code``): the arbiter cookie; wrong codes are limited as pairing is;
- ``GET /arbiter/state.json``: every board with its game, players, round, state, clock (the last
  ``clock`` event: the page counts the running side down from its ``time``, the Unix time the
  board published it), result; the newest audit entries; the ``csrf`` field;
- ``POST /arbiter/pause-all``, ``POST /arbiter/resume-all`` (``reason`` optional);
- ``POST /arbiter/add-time`` (``board``, ``side``, ``seconds``, ``reason``);
- ``POST /arbiter/adjudicate`` (``board``, ``result`` ``white``/``black``/``draw``,
  ``reason``, ``game_id``);
- ``POST /arbiter/correct`` (``board``, ``result``, ``reason``, ``game_id``): the finished game
  on a board (the game it shows now) gets another result;
- ``POST /arbiter/correct-move`` (``board``, ``game_id``, ``ply``, ``move``, ``reason``): the
  game a board shows now is taken back to before ``ply`` and ``move`` played there (the board
  checks the move; the players then set up the corrected position);
- ``GET /arbiter/audit.json`` (``count``): the audit log, newest first.

Each decision is an audit entry (:mod:`firmware_host.tournament.arbiter`) and a command the
board carries out itself. Answers are JSON: ``{"ok": true, ...}``, or ``{"error": "..."}`` with
400 (a bad form), 403 (not the arbiter, or a missing CSRF field) or 429.

>>> keys = ArbiterKeys("s" * 32)
>>> len(keys.code), keys.valid_cookie(keys.new_cookie()), keys.valid_cookie("forged.00")
(10, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web
from redis.asyncio import Redis

from firmware_host.tournament import arbiter
from firmware_host.web.auth import CODE_DIGITS, PairingGuard, RateLimiter
from firmware_host.web.forms import read_form
from firmware_host.web.reader import Reader

__all__ = ["COOKIE", "ArbiterKeys", "ArbiterSite"]

COOKIE = "draughtsboard_arbiter"
#: Recent events looked at for a board's state and clock.
RECENT = 200
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ArbiterKeys:
    """The arbiter's credentials, derived from ``secret`` (the web's control token)."""

    def __init__(self, secret: str) -> None:
        self._secret = secret.encode()

    def _mac(self, purpose: str) -> str:
        return hmac.new(self._secret, purpose.encode(), hashlib.sha256).hexdigest()

    @property
    def code(self) -> str:
        """The arbiter code: ten digits to type on the arbiter's browser."""
        return f"{int(self._mac('arbiter-pair')[:20], 16) % 10**CODE_DIGITS:0{CODE_DIGITS}d}"

    @property
    def token(self) -> str:
        """The arbiter token, for scripts (``Authorization: Bearer``)."""
        return self._mac("arbiter-token")

    def valid_code(self, code: str) -> bool:
        """Whether ``code`` is the arbiter code (spaces and dashes allowed)."""
        digits = code.replace(" ", "").replace("-", "")
        return hmac.compare_digest(digits.encode(), self.code.encode())

    def new_cookie(self) -> str:
        """A new arbiter cookie: a random name and its signature."""
        name = secrets.token_hex(8)
        return f"{name}.{self._mac('arbiter-cookie:' + name)}"

    def valid_cookie(self, cookie: str) -> bool:
        """Whether ``cookie`` was made by :meth:`new_cookie` with this secret."""
        name, _, mac = cookie.partition(".")
        return bool(name) and hmac.compare_digest(
            mac.encode(), self._mac("arbiter-cookie:" + name).encode())

    def csrf(self, cookie: str) -> str:
        """The CSRF field of a cookie's forms."""
        return self._mac("arbiter-csrf:" + cookie)

    def valid_csrf(self, cookie: str, field: str) -> bool:
        """Whether ``field`` is the CSRF field of ``cookie``."""
        return bool(cookie) and hmac.compare_digest(field.encode(), self.csrf(cookie).encode())


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class ArbiterSite:
    """The arbiter's routes on one Redis client of the boards.

    Args:
        client: the ``redis.asyncio`` client of the boards.
        keys: the arbiter's credentials.
        per_minute: decisions and pairing attempts accepted per minute from one address.
    """

    def __init__(self, client: Redis, keys: ArbiterKeys, per_minute: int = 60) -> None:
        self.client = client
        self.keys = keys
        self.reader = Reader(client)
        self.limiter = RateLimiter(per_minute)
        self.guard = PairingGuard()

    def routes(self) -> list[web.RouteDef]:
        """The routes to add to the web application."""
        return [
            web.post("/arbiter/pair", self.pair),
            web.get("/arbiter/state.json", self._guarded(self.state, post=False)),
            web.get("/arbiter/audit.json", self._guarded(self.audit, post=False)),
            web.post("/arbiter/pause-all", self._guarded(self.pause_all)),
            web.post("/arbiter/resume-all", self._guarded(self.resume_all)),
            web.post("/arbiter/add-time", self._guarded(self.add_time)),
            web.post("/arbiter/adjudicate", self._guarded(self.adjudicate)),
            web.post("/arbiter/correct", self._guarded(self.correct)),
            web.post("/arbiter/correct-move", self._guarded(self.correct_move)),
        ]

    # -- who is asking ------------------------------------------------------------------------

    def who(self, request: web.Request) -> str | None:
        """Who the request comes from, if it is the arbiter (None: it is not)."""
        address = request.remote or "?"
        bearer = request.headers.get("Authorization", "")
        if bearer.startswith("Bearer ") and hmac.compare_digest(
                bearer[7:].strip().encode(), self.keys.token.encode()):
            return f"arbiter token from {address}"
        cookie = request.cookies.get(COOKIE, "")
        if cookie and self.keys.valid_cookie(cookie):
            return f"arbiter {cookie[:8]} from {address}"
        return None

    def _csrf_ok(self, request: web.Request, form: dict[str, str]) -> bool:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return True  # a script with the token: no cookie to forge with
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return False
        return self.keys.valid_csrf(request.cookies.get(COOKIE, ""), form.get("csrf", ""))

    def _guarded(self, handler: Callable[[web.Request, str, dict[str, str]],
                                         Awaitable[web.Response]],
                 post: bool = True) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            who = self.who(request)
            if who is None:
                return _error(403, "the arbiter only: pair with the arbiter code")
            form: dict[str, str] = {}
            if post:
                if not self.limiter.allow(request.remote or "?"):
                    return _error(429, "too many requests: wait a minute")
                form = await read_form(request)  # an unreadable body: a 400
                if not self._csrf_ok(request, form):
                    return _error(403, "the form is stale or from another site: reload")
            try:
                return await handler(request, who, form)
            except arbiter.ArbiterError as exc:
                return _error(400, str(exc))

        return guarded

    # -- pairing ------------------------------------------------------------------------------

    async def pair(self, request: web.Request) -> web.Response:
        """Pair a browser with the arbiter code: the arbiter cookie."""
        address = request.remote or "?"
        if not self.limiter.allow(address):
            return _error(429, "too many attempts: wait a minute")
        refusal = self.guard.refusal(address)
        if refusal is not None:
            return _error(429, refusal)
        data = await read_form(request)
        code = data.get("code", "")
        if not isinstance(code, str) or not self.keys.valid_code(code):
            self.guard.failed(address)
            return _error(403, "not the arbiter code")
        cookie = self.keys.new_cookie()
        response = web.json_response({"ok": True, "csrf": self.keys.csrf(cookie)})
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict",
                            max_age=14 * 24 * 3600, path="/arbiter")
        return response

    # -- reading ------------------------------------------------------------------------------

    async def _board(self, board_id: str) -> dict[str, object]:
        game_id = await self.reader.current_game_id(board_id)
        game = None if game_id is None else await self.reader.game(board_id, game_id)
        last: dict[str, Mapping[str, object]] = {}
        for _, event in reversed(await self.reader.recent_events(board_id, RECENT)):
            kind = str(event.get("event", ""))
            if kind in ("clock", "state") and kind not in last:
                last[kind] = event
        tags = {} if game is None else game.headers
        return {
            "board": board_id, "game_id": game_id,
            "white": tags.get("White"), "black": tags.get("Black"),
            "round": tags.get("Round"), "event": tags.get("Event"),
            "plies": 0 if game is None else len(game.moves),
            "result": None if game is None else game.result,
            "termination": None if game is None else game.termination,
            "state": last.get("state", {}).get("state"),
            "clock": last.get("clock"),
        }

    async def state(self, request: web.Request, who: str, form: dict[str, str]
                    ) -> web.Response:
        """Every board, the newest audit entries, the CSRF field."""
        boards = [await self._board(b) for b in await self.reader.boards()]
        cookie = request.cookies.get(COOKIE, "")
        return web.json_response({
            "boards": boards, "audit": await arbiter.audit_entries(self.client, 20),
            "csrf": self.keys.csrf(cookie) if cookie else None, "who": who})

    async def audit(self, request: web.Request, who: str, form: dict[str, str]
                    ) -> web.Response:
        """The audit log, newest first (``count``, at most 1000)."""
        count = request.query.get("count", "100")
        number = int(count) if count.isdigit() else 100
        return web.json_response({"audit": await arbiter.audit_entries(self.client, number)})

    # -- decisions ----------------------------------------------------------------------------

    async def _known_board(self, form: dict[str, str]) -> str:
        board = form.get("board", "")
        if board not in await self.reader.boards():
            raise arbiter.ArbiterError(f"no board {board[:40]!r}")
        return board

    async def pause_all(self, request: web.Request, who: str, form: dict[str, str]
                        ) -> web.Response:
        """Hold every board's clock."""
        boards = await arbiter.pause_all(self.client, await self.reader.boards(), who,
                                         form.get("reason", ""))
        return web.json_response({"ok": True, "boards": boards})

    async def resume_all(self, request: web.Request, who: str, form: dict[str, str]
                         ) -> web.Response:
        """Run every board's clock again."""
        boards = await arbiter.resume_all(self.client, await self.reader.boards(), who,
                                          form.get("reason", ""))
        return web.json_response({"ok": True, "boards": boards})

    async def add_time(self, request: web.Request, who: str, form: dict[str, str]
                       ) -> web.Response:
        """Give one side of one board time."""
        board = await self._known_board(form)
        await arbiter.add_time(self.client, board, form.get("side", ""),
                               form.get("seconds", ""), who, form.get("reason", ""))
        return web.json_response({"ok": True})

    async def adjudicate(self, request: web.Request, who: str, form: dict[str, str]
                         ) -> web.Response:
        """End the game in play on one board with the arbiter's result."""
        board = await self._known_board(form)
        await arbiter.adjudicate(self.client, board, form.get("result", ""), who,
                                 form.get("reason", ""), form.get("game_id", ""))
        return web.json_response({"ok": True})

    async def correct(self, request: web.Request, who: str, form: dict[str, str]
                      ) -> web.Response:
        """Change the result of the finished game a board shows now (its record is the board's
        to write: an older game is corrected in the exported PDN)."""
        board = await self._known_board(form)
        game_id = form.get("game_id", "")
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        if game is None or game_id != current:
            raise arbiter.ArbiterError(f"{board} has moved on from game {game_id[:40]!r}: only "
                                       "the game a board shows now can be corrected here")
        if not game.finished:
            raise arbiter.ArbiterError(f"the game on {board} is still going on: adjudicate it")
        await arbiter.correct_result(self.client, board, form.get("result", ""), who,
                                     form.get("reason", ""), game_id)
        return web.json_response({"ok": True})

    async def correct_move(self, request: web.Request, who: str, form: dict[str, str]
                           ) -> web.Response:
        """Take the game a board shows now (``game_id``) back to before ``ply`` and play
        ``move`` there instead; the board checks the move against its game."""
        board = await self._known_board(form)
        game_id = form.get("game_id", "")
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        if game is None or game_id != current:
            raise arbiter.ArbiterError(f"{board} has moved on from game {game_id[:40]!r}: only "
                                       "the game a board shows now can be corrected here")
        await arbiter.correct_move(self.client, board, form.get("ply", ""),
                                   form.get("move", ""), who, form.get("reason", ""), game_id,
                                   plies=len(game.moves))
        return web.json_response({"ok": True})
