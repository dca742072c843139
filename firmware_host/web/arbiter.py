"""The arbiter console's server side: JSON routes under ``/arbiter``, behind an arbiter role.

The arbiter role is a credential of its own, derived from a secret the web service holds (the
control token): the ten-digit *arbiter code* (with named arbiters, each one's code) pairs a
browser (``POST /arbiter/pair``: a session of its own, :mod:`~firmware_host.web.sessions`, its
cookie HttpOnly, SameSite=Strict, expiring after a day, listed on the console and revocable
there), the *arbiter token* serves scripts (``Authorization: Bearer <token>``, and no cookie).
A phone paired for control is not an arbiter. Every ``POST`` from a browser carries its
session's CSRF field (``csrf``, given by ``/arbiter/state.json``), comes from this site
(``Origin``) and names its decision (``decision_id``, an id the console makes for each one:
the same request again decides nothing twice; a script may send one too).

Routes (:meth:`ArbiterSite.routes`):

- ``GET /arbiter``: the console (templates/arbiter.html, static/app.js): every board with its
  players, state, clocks and result, and the decisions below, each asked again before it is
  sent; without the arbiter cookie, the form that pairs with the arbiter code;
- ``POST /arbiter/pair`` (``code``): the arbiter cookie; wrong codes are limited as pairing is
  (a browser's form, which accepts HTML, is sent on to the console; a script gets JSON);
- ``GET /arbiter/state.json``: every board with its game, players, round, state, clock (both
  times as they are now: :mod:`firmware_host.web.clocks`; the page counts the running side
  down from there), result, online, the round whose pairing waits for it (``waiting``); the
  rounds waiting (``rounds``); the newest audit entries; the ``csrf`` field;
- ``POST /arbiter/pause-all``, ``POST /arbiter/resume-all`` (``reason`` optional);
- ``POST /arbiter/start-round`` (``round``, ``reason`` optional): every board of the imported
  round that can start it (online, its game waiting at the start with the round's pairing)
  starts it at once, its game named and its clock started full; the reply names the boards
  that could not, and why;
- ``POST /arbiter/add-time`` (``board``, ``side``, ``seconds``, ``reason``);
- ``POST /arbiter/adjudicate`` (``board``, ``result`` ``white``/``black``/``draw``,
  ``reason``, ``game_id``);
- ``POST /arbiter/correct`` (``board``, ``result``, ``reason``, ``game_id``): the finished game
  on a board (the game it shows now) gets another result;
- ``POST /arbiter/correct-move`` (``board``, ``game_id``, ``ply``, ``move``, ``reason``): the
  game a board shows now is taken back to before ``ply`` and ``move`` played there (the board
  checks the move; the players then set up the corrected position);
- ``POST /arbiter/pair-board`` (``board``, ``to``, ``side``, ``reason`` optional): the board
  plays the person at board ``to`` (of this hall, paired back; or another club's), its player
  taking ``side``, from its next game (docs/remote.md); ``to`` empty: the computer again;
- ``GET /arbiter/audit.json`` (``count``): the audit log, newest first;
- ``POST /arbiter/revoke`` (``session``): end an arbiter session (another browser's, or this
  one's).

Each decision is an audit entry (:mod:`firmware_host.tournament.arbiter`) and a command the
board carries out itself. Answers are JSON: ``{"ok": true, "message": "...", ...}`` (the
message says in words what was sent), or ``{"error": "..."}`` with 400 (a bad form), 403 (not
the arbiter, or a missing CSRF field) or 429.

>>> keys = ArbiterKeys("s" * 32)
>>> len(keys.code), keys.valid_code(keys.code), keys.valid_code("0123456789")
(10, -1, None)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from redis.asyncio import Redis

from firmware_host.digits import whole_number_or
from firmware_host.i18n import N_
from firmware_host.store.keys import board_order
from firmware_host.tournament import arbiter
from firmware_host.tournament.match import pair_commands
from firmware_host.tournament.pairing import Pairing
from firmware_host.tournament.rounds import (
    LOOK_BACK,
    BoardFacts,
    StoredRound,
    find_game,
    plan_commands,
    plan_import,
    read_list,
)
from firmware_host.tournament.textfile import ENCODINGS, decode
from firmware_host.tournament.trf import ORDER_WORDS
from firmware_host.web import liveness
from firmware_host.web.arbiter_cards import (
    STATUSES,
    Cards,
    pairing_named,
    played,
    status_counts,
    waiting_rounds,
)
from firmware_host.web.arbiter_words import (
    CORRECTED_CHOICES,
    DECISION_CHOICES,
    IMPORTED,
    MOVED_ON,
    NOT_READY,
    RESULT_CHOICES,
    ROUND_DECISIONS,
    SCRIPT_WORDS,
    SIDES,
    STARTED,
    TERMINATIONS,
    answered,
    decision_words,
    sent_to,
)
from firmware_host.web.auth import CODE_DIGITS, TOO_MANY_ATTEMPTS, PairingGuard, RateLimiter
from firmware_host.web.feed import format_cursor
from firmware_host.web.forms import read_form
from firmware_host.web.paired import device_name
from firmware_host.web.reader import Reader
from firmware_host.web.sessions import (
    DECISION,
    UNDER_WAY,
    ArbiterSession,
    ArbiterSessions,
    KeptReply,
)
from firmware_host.web.views import Views, viewer

__all__ = ["COOKIE", "ArbiterKeys", "ArbiterSite"]

COOKIE = "draughtsboard_arbiter"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ArbiterKeys:
    """The arbiter's credentials, derived from ``secret`` (the web's control token).

    With ``names`` (``web.arbiters``), each arbiter has a code of their own and the audit log
    names who decided; without, one code serves, and the log says ``arbiter``.

    >>> keys = ArbiterKeys("s" * 32, ("Eva Kok", "Jan de Vries"))
    >>> keys.name_of(keys.valid_code(keys.codes["Jan de Vries"]))
    'Jan de Vries'
    """

    def __init__(self, secret: str, names: tuple[str, ...] = ()) -> None:
        self._secret = secret.encode()
        self.names = tuple(names)

    def _mac(self, purpose: str) -> str:
        return hmac.new(self._secret, purpose.encode(), hashlib.sha256).hexdigest()

    def _digits(self, purpose: str) -> str:
        return f"{int(self._mac(purpose)[:20], 16) % 10**CODE_DIGITS:0{CODE_DIGITS}d}"

    @property
    def code(self) -> str:
        """The arbiter code: ten digits to type on the arbiter's browser (with named arbiters,
        the first one's)."""
        return self.codes[self.names[0]] if self.names else self._digits("arbiter-pair")

    @property
    def codes(self) -> dict[str, str]:
        """Each named arbiter's code."""
        return {name: self._digits("arbiter-pair:" + name) for name in self.names}

    @property
    def token(self) -> str:
        """The arbiter token, for scripts (``Authorization: Bearer``)."""
        return self._mac("arbiter-token")

    def valid_code(self, code: str) -> int | None:
        """Whose code ``code`` is (spaces and dashes allowed): the named arbiter's index, -1
        for the one code without names; None: nobody's."""
        digits = code.replace(" ", "").replace("-", "").encode()
        if not self.names:
            return -1 if hmac.compare_digest(digits, self.code.encode()) else None
        found = None
        for index, name in enumerate(self.names):  # (every code compared: constant time)
            if hmac.compare_digest(digits, self.codes[name].encode()):
                found = index
        return found

    def name_of(self, arbiter: int | None) -> str:
        """The named arbiter of :meth:`valid_code`'s answer ("": the one code's)."""
        return self.names[arbiter] if arbiter is not None and 0 <= arbiter < len(
            self.names) else ""


#: The audit entries the console lists.
NOT_THE_ARBITER_CODE = N_("That is not the arbiter code.")


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


def _done(message: str, **data: object) -> web.Response:
    return web.json_response({"ok": True, "message": message, **data})


def _sent(request: web.Request, message: str, **fields: object) -> web.Response:
    """A decision's reply: ``message`` (a catalog's msgid) in the requester's language."""
    return _done(viewer(request).gettext(message).format(**fields))


#: The replies of a decision that was taken (200: done; 409: a board refused it; 503: a board
#: was not reached or did not answer): kept under its ``decision_id``. A 400 (a bad form) or a
#: 403 decided nothing: the same id may be sent again.
_TAKEN = frozenset({200, 409, 503})


def _kept(response: web.Response | None) -> KeptReply | None:
    """What a session keeps of a decision's reply (None: nothing was decided)."""
    if response is None or response.status not in _TAKEN or not response.text:
        return None
    return KeptReply(response.status, json.loads(response.text))


def _wants_html(request: web.Request) -> bool:
    """A browser's own form (its Accept names HTML), not a script's request."""
    return "text/html" in request.headers.get("Accept", "")


class ArbiterSite:
    """The arbiter's routes on one Redis client of the boards.

    Args:
        client: the ``redis.asyncio`` client of the boards.
        keys: the arbiter's credentials.
        per_minute: decisions and pairing attempts accepted per minute from one address.
    """

    def __init__(self, client: Redis, keys: ArbiterKeys, per_minute: int = 60,
                 clock: Callable[[], float] = time.time,
                 sessions: ArbiterSessions | None = None,
                 wait_s: float = arbiter.ANSWER_WAIT_S) -> None:
        self.client = client
        #: How long a decision waits for the boards' answers.
        self.wait_s = wait_s
        self.keys = keys
        #: The arbiter's browsers (web/sessions.py); the token's decisions remembered too.
        self.sessions = ArbiterSessions(clock) if sessions is None else sessions
        self.token_decisions = ArbiterSession("token", "", "the arbiter token", 0.0, math.inf)
        self.reader = Reader(client)
        self.limiter = RateLimiter(per_minute)
        self.guard = PairingGuard()
        self.clock = clock
        self.views = Views(clock)
        self.views.env.globals["arbiter"] = True
        self.views.live_words = (*self.views.live_words, *SCRIPT_WORDS, *NOT_READY.values(),
                                 *TERMINATIONS.values())
        #: Every board as the console shows it (web/arbiter_cards.py).
        self.cards = Cards(client, self.reader, self.views, clock)

    def routes(self) -> list[web.RouteDef]:
        """The routes to add to the web application."""
        return [
            web.get("/arbiter", self.page),
            web.post("/arbiter/pair", self.pair),
            web.get("/arbiter/state.json", self._guarded(self.state, post=False)),
            web.get("/arbiter/audit.json", self._guarded(self.audit, post=False)),
            web.post("/arbiter/pause-all", self._guarded(self.pause_all)),
            web.post("/arbiter/resume-all", self._guarded(self.resume_all)),
            web.post("/arbiter/hold", self._guarded(self.hold)),
            web.post("/arbiter/release", self._guarded(self.release)),
            web.post("/arbiter/start-round", self._guarded(self.start_round)),
            web.post("/arbiter/add-time", self._guarded(self.add_time)),
            web.post("/arbiter/adjudicate", self._guarded(self.adjudicate)),
            web.post("/arbiter/correct", self._guarded(self.correct)),
            web.post("/arbiter/correct-move", self._guarded(self.correct_move)),
            web.post("/arbiter/import", self._guarded(self.import_list)),
            web.post("/arbiter/decide", self._guarded(self.decide)),
            web.post("/arbiter/carry", self._guarded(self.carry)),
            web.post("/arbiter/pair-board", self._guarded(self.pair_board)),
            web.post("/arbiter/revoke", self._guarded(self.revoke)),
        ]

    # -- who is asking ------------------------------------------------------------------------

    def caller(self, request: web.Request) -> tuple[str, ArbiterSession | None] | None:
        """Who the request comes from and its session, if it is the arbiter (None: it is
        not; a session of None: the arbiter token)."""
        address = request.remote or "?"
        bearer = request.headers.get("Authorization", "")
        if bearer.startswith("Bearer ") and hmac.compare_digest(
                bearer[7:].strip().encode(), self.keys.token.encode()):
            return f"arbiter token from {address}", None
        session = self.sessions.check(request.cookies.get(COOKIE, ""))
        if session is None:
            return None
        named = session.arbiter or f"arbiter {session.session_id}"
        return f"{named} from {address}", session

    def who(self, request: web.Request) -> str | None:
        """Who the request comes from, if it is the arbiter (None: it is not)."""
        found = self.caller(request)
        return None if found is None else found[0]

    def _csrf_ok(self, request: web.Request, session: ArbiterSession | None,
                 form: dict[str, str]) -> bool:
        if session is None and not request.cookies:
            return True  # a script with the token and no cookie: nothing a page forges with
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return False
        return session is not None and hmac.compare_digest(form.get("csrf", "").encode(),
                                                           session.csrf.encode())

    def _guarded(self, handler: Callable[[web.Request, str, dict[str, str]],
                                         Awaitable[web.Response]],
                 post: bool = True) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            found = self.caller(request)
            if found is None:
                return _error(403, viewer(request).gettext(
                    N_("the arbiter only: pair with the arbiter code")))
            who, session = found
            if not post:
                return await self._decide(request, handler, who, {})
            if not self.limiter.allow(request.remote or "?"):
                return _error(429, viewer(request).gettext(
                    N_("too many requests: wait a minute")))
            form = await read_form(request)  # an unreadable body: a 400
            if not self._csrf_ok(request, session, form):
                return _error(403, viewer(request).gettext(
                    N_("the form is stale or from another site: reload")))
            decision = form.get("decision_id", "")
            memory = session if session is not None else self.token_decisions
            if not decision and session is None:
                return await self._decide(request, handler, who, form)  # a script's own way
            if not DECISION.fullmatch(decision):
                return _error(400, viewer(request).gettext(
                    N_("the form is stale or from another site: reload")))
            before = memory.begin(decision)
            if before == UNDER_WAY:
                return _error(409, viewer(request).gettext(
                    N_("this decision is being sent already")))
            if isinstance(before, KeptReply):  # nothing decided twice, whatever its answer
                return web.json_response({**before.body, "again": True}, status=before.status)
            response = None
            try:
                response = await self._decide(request, handler, who, form)
            finally:
                memory.done(decision, _kept(response))
            return response

        return guarded

    async def _decide(self, request: web.Request, handler: Callable[
            [web.Request, str, dict[str, str]], Awaitable[web.Response]], who: str,
            form: dict[str, str]) -> web.Response:
        try:
            return await handler(request, who, form)
        except arbiter.ArbiterError as exc:
            return _error(400, exc.words(viewer(request).gettext))

    # -- pairing ------------------------------------------------------------------------------

    async def pair(self, request: web.Request) -> web.Response:
        """Pair a browser with the arbiter code: the arbiter cookie (a browser's form: sent on
        to the console, or the form again with the reason it was refused)."""
        address = request.remote or "?"
        html = _wants_html(request)
        refusal = self.guard.begin(address) if self.limiter.allow(address) else TOO_MANY_ATTEMPTS
        if refusal is not None:
            if not html:
                return _error(429, str(refusal))
            page = self._pair_page(request, refusal.words(viewer(request).gettext), 429)
            page.headers["Retry-After"] = str(60 * refusal.wait)
            return page
        data = await read_form(request)
        code = data.get("code", "")
        arbiter = self.keys.valid_code(code) if isinstance(code, str) else None
        if arbiter is None:
            message = viewer(request).gettext(NOT_THE_ARBITER_CODE)
            return (self._pair_page(request, message, 403) if html
                    else _error(403, "not the arbiter code"))
        self.guard.succeeded(address)
        label = f"{device_name(request.headers.get('User-Agent', ''))} from {address}"
        cookie = self.sessions.open(label, self.keys.name_of(arbiter))
        session = self.sessions.check(cookie)
        response: web.Response = web.json_response(
            {"ok": True, "csrf": session.csrf if session is not None else ""})
        if html:
            chosen = f"?lang={viewer(request).language}" if "lang" in request.query else ""
            response = web.Response(status=303, headers={"Location": "/arbiter" + chosen})
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict",
                            max_age=int(self.sessions.lifetime), path="/arbiter")
        return response

    def _pair_page(self, request: web.Request, error: str, status: int = 200) -> web.Response:
        """The pairing form, in the viewer's language (``error``: words in it, or "")."""
        return web.Response(text=self.views.page("arbiter_pair.html", viewer(request),
                                                 error=error, paired=False),
                            content_type="text/html", status=status)

    # -- reading ------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        """The console (the pairing form for a browser that is not the arbiter's)."""
        found = self.caller(request)
        if found is None:
            return self._pair_page(request, "")
        who, session = found
        boards = await self.reader.boards()
        cursor = await self.reader.last_ids(boards)
        tr = viewer(request)
        shown = [{**facts, "diagram": self.views.diagram(view, 200, tr)}
                 for view, facts in await self.cards.boards()]
        return web.Response(content_type="text/html", text=self.views.page(
            "arbiter.html", tr=viewer(request), boards=shown, cursor=format_cursor(cursor),
            rounds=waiting_rounds(shown), statuses=status_counts(shown), status_words=STATUSES,
            encodings=ENCODINGS, decisions=DECISION_CHOICES,
            decision_words=dict(DECISION_CHOICES),
            csrf=session.csrf if session is not None else "", who=who,
            results=RESULT_CHOICES, sides=SIDES, corrected=CORRECTED_CHOICES,
            sessions=self._sessions(session),
            audit=await self.cards.audit(viewer(request)), paired=False,
            audit_time=lambda t: time.strftime("%H:%M:%S", time.gmtime(t)),
            session_time=lambda t: time.strftime("%Y-%m-%d %H:%M", time.gmtime(t))))

    async def state(self, request: web.Request, who: str, form: dict[str, str]
                    ) -> web.Response:
        """Every board, the newest audit entries, the arbiter sessions, the CSRF field."""
        found = self.caller(request)
        session = found[1] if found is not None else None
        shown = [facts for _, facts in await self.cards.boards()]
        return web.json_response({
            "boards": shown, "rounds": waiting_rounds(shown),
            "audit": await self.cards.audit(viewer(request)),
            "sessions": self._sessions(session),
            "csrf": session.csrf if session is not None else None, "who": who})

    def _sessions(self, this: ArbiterSession | None) -> list[dict[str, object]]:
        """The open arbiter sessions, as the console lists them."""
        return [s.as_json(this=s is this) for s in self.sessions.list()]

    async def revoke(self, request: web.Request, who: str, form: dict[str, str]
                     ) -> web.Response:
        """End the arbiter session ``session`` (audited)."""
        session_id = form.get("session", "")[:20]
        if not self.sessions.revoke(session_id):
            raise arbiter.ArbiterError(N_("no arbiter session {session}"),
                                       session=repr(session_id))
        await arbiter.audit(self.client, who, "revoke_session", "*", "", session=session_id)
        return _sent(request, N_("Session {session} ended"), session=session_id)

    async def audit(self, request: web.Request, who: str, form: dict[str, str]
                    ) -> web.Response:
        """The audit log, newest first (``count``, at most 1000)."""
        count = request.query.get("count", "100")[:20]
        number = whole_number_or(count, 100)  # (not a number of entries: the default)
        return web.json_response({"audit": await arbiter.audit_entries(self.client, number)})

    # -- decisions ----------------------------------------------------------------------------

    async def _known_board(self, form: dict[str, str]) -> str:
        board = form.get("board", "")
        if board not in await self.reader.boards():
            raise arbiter.ArbiterError(N_("no board {board}"), board=repr(board[:40]))
        return board

    async def _shown_game(self, board: str, game_id: str) -> tuple[str, bool]:
        """The game a board shows now, if it is ``game_id`` (the game the arbiter saw), and
        whether it is finished.

        Raises:
            ArbiterError: the board has moved on to another game, or has none.
        """
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        if game is None or game_id != current:
            raise arbiter.ArbiterError(MOVED_ON, board=board, game=repr(game_id[:40]))
        return current, game.finished

    async def _online(self, boards: list[str]) -> dict[str, bool]:
        """Each board with whether its service runs now (its heartbeat)."""
        alive = await liveness.read(self.client, boards, self.clock())
        return {b: alive[b].online for b in boards}

    def _reply(self, request: web.Request, decided: arbiter.Decided, entry: dict[str, object],
               **data: object) -> web.Response:
        """A decision's reply: the decision and the boards' answers, in the requester's words;
        200 when every board carried it out, 409 when a board refused it, 503 when one was not
        reached or did not answer (the JSON says each board's ``answers``). A hall's pause and
        a round's decision stand whatever an offline board was told: 200."""
        tr = viewer(request)
        answers = {b: a.to_data() for b, a in decided.answers.items()}
        message = answered(decision_words(entry, tr), answers, str(entry["action"]), tr)
        body = {"message": message, "id": decided.id, "answers": answers, **data}
        if decided.done or (str(entry["action"]) in ("pause_all", "resume_all",
                                                     *ROUND_DECISIONS)
                            and not decided.boards(arbiter.REFUSED, arbiter.NO_ANSWER)):
            return web.json_response({"ok": True, **body})  # (an offline board follows)
        status = 409 if decided.boards(arbiter.REFUSED) else 503
        return web.json_response({"ok": False, "error": message, **body}, status=status)

    async def pause_all(self, request: web.Request, who: str, form: dict[str, str]
                        ) -> web.Response:
        """Pause the hall: every board's clock held (a board offline is paused as it comes
        back)."""
        online = await self._online(await self.reader.boards())
        decided = await arbiter.pause_all(self.client, online, who, form.get("reason", ""),
                                          self.wait_s)
        return self._reply(request, decided, {"action": "pause_all", "board": "*"},
                           boards=sorted(online, key=board_order))

    async def resume_all(self, request: web.Request, who: str, form: dict[str, str]
                         ) -> web.Response:
        """End the hall's pause: every board's clock runs again."""
        online = await self._online(await self.reader.boards())
        decided = await arbiter.resume_all(self.client, online, who, form.get("reason", ""),
                                           self.wait_s)
        return self._reply(request, decided, {"action": "resume_all", "board": "*"},
                           boards=sorted(online, key=board_order))

    async def hold(self, request: web.Request, who: str, form: dict[str, str]) -> web.Response:
        """Hold one board's clock (a claim): no move counts until it is released."""
        board = await self._known_board(form)
        online = (await self._online([board]))[board]
        decided = await arbiter.hold(self.client, board, online, who, form.get("reason", ""),
                                     self.wait_s)
        return self._reply(request, decided, {"action": "hold", "board": board})

    async def release(self, request: web.Request, who: str, form: dict[str, str]
                      ) -> web.Response:
        """Release one board's clock (the arbiter's hold, or a corrected position set up)."""
        board = await self._known_board(form)
        online = (await self._online([board]))[board]
        decided = await arbiter.release(self.client, board, online, who,
                                        form.get("reason", ""), self.wait_s)
        return self._reply(request, decided, {"action": "release", "board": board})

    async def start_round(self, request: web.Request, who: str, form: dict[str, str]
                          ) -> web.Response:
        """Start the imported round ``round`` on every board of its pairing that can start it;
        the reply names the others and why, and what the started ones answered."""
        number = form.get("round", "").strip()
        pairings = await arbiter.round_pairings(self.client, number)
        known = set(await self.reader.boards())
        alive = await liveness.read(self.client, sorted(known, key=board_order), self.clock())
        ready: list[str] = []
        why: dict[str, str] = {}  # board: msgid of why not, its {round} put in after
        for pairing in pairings:
            key = await self._not_ready(pairing, known, alive)
            if key:
                why[pairing.board] = NOT_READY[key]
            else:
                ready.append(pairing.board)
        tr = viewer(request)
        said = "; ".join(f"{board} {tr.gettext(msgid).format(round=number)}"
                         for board, msgid in why.items())
        if not ready:  # the reason of each board in the requester's words
            return _error(400, tr.gettext(arbiter.NO_BOARD_STARTS).format(round=number,
                                                                          boards=said))
        not_started = {board: msgid.format(round=number) for board, msgid in why.items()}
        decided = await arbiter.start_round(self.client, number, ready, not_started, who,
                                            form.get("reason", ""), wait_s=self.wait_s)
        started = decided.boards(arbiter.DONE)
        message = sent_to(tr, STARTED, started, round=number)
        others = {b: a.to_data() for b, a in decided.answers.items() if a.answer != arbiter.DONE}
        if others:
            message = answered(message, others, "start_round", tr)
        if not_started:
            message += tr.gettext(N_("; not started: {boards}")).format(boards=said)
        answers = {b: a.to_data() for b, a in decided.answers.items()}
        if not started:
            return web.json_response({"ok": False, "error": message, "answers": answers,
                                      "not_started": not_started}, status=409)
        return _done(message, boards=started, not_started=not_started, answers=answers)

    async def _not_ready(self, pairing: Pairing, known: set[str],
                         alive: dict[str, liveness.Liveness]) -> str:
        """Why ``pairing``'s board cannot start its round now (a key of :data:`NOT_READY`;
        "": it can)."""
        board = pairing.board
        if board not in known:
            return "unknown"
        if not alive[board].online:
            return "offline"
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        if game is None:
            return "no_game"
        waiting = await self.cards.waiting(board)
        if not pairing_named(waiting, pairing) and pairing_named(game.headers, pairing):
            return "started"
        if game.finished:
            return "over"
        if played(game):
            return "playing"
        if not pairing_named(waiting, pairing):
            return "not_waiting"
        return ""

    async def add_time(self, request: web.Request, who: str, form: dict[str, str]
                       ) -> web.Response:
        """Give one side of one board time (a note of the game in play's record too, once the
        board carried it out)."""
        board = await self._known_board(form)
        side, seconds = form.get("side", ""), form.get("seconds", "")
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        in_play = game is not None and not game.finished
        online = (await self._online([board]))[board]
        decided = await arbiter.add_time(
            self.client, board, online, side, seconds, who, form.get("reason", ""),
            self.wait_s, game_id=game.game_id if game is not None and in_play else "",
            ply=len(game.moves) if game is not None else 0)
        return self._reply(request, decided, {"action": "add_time", "board": board, "detail": {
            "side": side, "seconds": float(seconds)}})

    async def adjudicate(self, request: web.Request, who: str, form: dict[str, str]
                         ) -> web.Response:
        """End the game in play on one board with the arbiter's result (the game the arbiter
        saw: ``game_id``, when given)."""
        board = await self._known_board(form)
        game_id = form.get("game_id", "")
        if game_id:
            _, finished = await self._shown_game(board, game_id)
            if finished:
                raise arbiter.ArbiterError(N_("the game on {board} is over: correct its "
                                              "result"), board=board)
        result = form.get("result", "")
        online = (await self._online([board]))[board]
        decided = await arbiter.adjudicate(self.client, board, online, result, who,
                                           form.get("reason", ""), game_id, self.wait_s)
        return self._reply(request, decided, {"action": "adjudicate", "board": board,
                                              "detail": {"result": result}})

    async def correct(self, request: web.Request, who: str, form: dict[str, str]
                      ) -> web.Response:
        """Change the result of the finished game a board shows now (its record is the board's
        to write: an older game is corrected in the exported PDN)."""
        board = await self._known_board(form)
        game_id, finished = await self._shown_game(board, form.get("game_id", ""))
        if not finished:
            raise arbiter.ArbiterError(N_("the game on {board} is still going on: adjudicate "
                                          "it"), board=board)
        result = form.get("result", "")
        online = (await self._online([board]))[board]
        decided = await arbiter.correct_result(self.client, board, online, result, who,
                                               form.get("reason", ""), game_id, self.wait_s)
        return self._reply(request, decided, {"action": "correct_result", "board": board,
                                              "detail": {"result": result}})

    async def import_list(self, request: web.Request, who: str, form: dict[str, str]
                          ) -> web.Response:
        """Import a pairing list or TRF from the console: ``data`` (the file, base64),
        ``round`` (a TRF's), ``prefix`` (a TRF's board ids), ``encoding``. Without ``confirm``:
        the preview (the boards and names, what each board gets, the problems); with it and
        the preview's ``digest``: the import, unless the round changed since the preview."""
        try:
            data = base64.b64decode(form.get("data", ""), validate=True)
        except (binascii.Error, ValueError):
            raise arbiter.ArbiterError(N_("the file did not arrive: choose it again")) from None
        encoding = form.get("encoding", "utf-8")
        if encoding not in ENCODINGS:
            raise arbiter.ArbiterError(N_("encoding: one of {encodings}"),
                                       encodings=", ".join(ENCODINGS))
        text, problem = decode(data, encoding)
        if text is None:
            raise arbiter.ArbiterError(N_("the file: {problem}"), problem=problem)
        pairings, problems, trf = read_list(text, form.get("round", "").strip(),
                                            form.get("prefix", "").strip() or None,
                                            ours=set(await self.reader.boards()))
        if problems or not pairings:
            return web.json_response({"ok": False, "problems": problems or [
                "the list has no pairing"]}, status=400)
        first = pairings[0]
        stored = {r.key: r for r in await arbiter.stored_rounds(self.client, first.round)}
        target = stored.get(StoredRound(first.round, first.event, []).key)
        facts = {}
        for pairing in pairings:
            before = None if target is None else target.board(pairing.board)
            game = None if before is None else find_game(
                await self.reader.recent_games(before.board, LOOK_BACK), before)
            facts[pairing.board] = BoardFacts(game, await self.cards.waiting(pairing.board))
        now = self.clock()
        plan = plan_import(pairings, stored, facts, trf=trf, now=now)
        rows = [row.words() for row in plan.rows]
        digest = hashlib.sha256("\n".join([plan.round.name, *rows]).encode()).hexdigest()[:16]
        shown = {"round": plan.round.name, "rows": rows, "notices": plan.notices,
                 "problems": plan.problems, "digest": digest,
                 "order": ORDER_WORDS if trf else ""}
        if plan.problems:
            return web.json_response({"ok": False, **shown}, status=400)
        if form.get("confirm") != "1":
            return web.json_response({"ok": True, "preview": True, **shown})
        if form.get("digest") != digest:
            raise arbiter.ArbiterError(N_("the round changed since the preview: look at it "
                                          "again"))
        await arbiter.run_commands(self.client, [*plan_commands(plan, who, now),
                                                 *pair_commands(pairings, now)])
        return _done(viewer(request).ngettext(*IMPORTED, len(pairings)).format(
            round=plan.round.name, count=len(pairings)), **shown)

    async def decide(self, request: web.Request, who: str, form: dict[str, str]
                     ) -> web.Response:
        """No game on a board of a round: ``decision`` ``forfeit:white`` (White did not come),
        ``forfeit:black``, ``double_forfeit:``, ``bye:white`` or ``bye:black``; refused once
        the board's game has a move (adjudicate it instead)."""
        board = await self._known_board(form)
        kind, _, side = form.get("decision", "").partition(":")
        rounds = await self.cards.current_rounds()
        if board not in rounds:
            raise arbiter.ArbiterError(N_("{board} plays in no imported round"), board=board)
        stored, pairing = rounds[board]
        if board in stored.decisions:  # (before its game, which the decision may have ended)
            raise arbiter.ArbiterError(N_("{board}: decided already ({kind})"), board=board,
                                       kind=stored.decisions[board].kind)
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        ours = game is not None and pairing_named(game.headers, pairing)
        if ours and game is not None and (played(game) or game.finished):
            raise arbiter.ArbiterError(N_("the game on {board} has begun: adjudicate it"),
                                       board=board)
        online = (await self._online([board]))[board]
        decided = await arbiter.decide_board(
            self.client, stored, board, kind, side, who, form.get("reason", ""),
            waiting_game=game.game_id if ours and game else "", online=online,
            wait_s=self.wait_s)
        return self._reply(request, decided, {"action": kind, "board": board,
                                              "detail": {"side": side}})

    async def carry(self, request: web.Request, who: str, form: dict[str, str]
                    ) -> web.Response:
        """Carry the game a board shows now (``game_id``) to the spare board ``to``: online,
        its own game not begun."""
        board = await self._known_board(form)
        spare = await self._known_board({"board": form.get("to", "")})
        game_id, finished = await self._shown_game(board, form.get("game_id", ""))
        if finished:
            raise arbiter.ArbiterError(N_("the game on {board} is over: nothing to carry"),
                                       board=board)
        alive = await liveness.read(self.client, [spare], self.clock())
        if not alive[spare].online:
            raise arbiter.ArbiterError(N_("{board} is offline: switch the spare board on"),
                                       board=spare)
        current = await self.reader.current_game_id(spare)
        theirs = None if current is None else await self.reader.game(spare, current)
        if theirs is not None and played(theirs) and not theirs.finished:
            raise arbiter.ArbiterError(N_("{board} has a game going on: choose a free board"),
                                       board=spare)
        rounds = await self.cards.current_rounds()
        stored = rounds[board][0] if board in rounds else None
        decided = await arbiter.carry(self.client, stored, board, spare, game_id, who,
                                      form.get("reason", ""), online=True, wait_s=self.wait_s)
        return self._reply(request, decided, {"action": "carry", "board": board,
                                              "detail": {"to": spare}})

    async def pair_board(self, request: web.Request, who: str, form: dict[str, str]
                         ) -> web.Response:
        """Pair a board of the hall with the board ``to`` (of this hall or another club's, its
        id on the Redis both reach; empty: end the pairing), its player taking ``side``; a
        board ``to`` of this hall is paired back, its player taking the other side."""
        board = await self._known_board(form)
        partner, side = form.get("to", "").strip(), form.get("side", "") or "white"
        boards = [board, *([partner] if partner in await self.reader.boards() else [])]
        online = await self._online(boards)
        decided = await arbiter.pair(self.client, board, online[board], partner, side, who,
                                     form.get("reason", ""), self.wait_s)
        if len(boards) == 2 and decided.done:  # the other board of the hall: paired back
            other = "black" if side == "white" else "white"
            back = await arbiter.pair(self.client, partner, online[partner], board, other, who,
                                      form.get("reason", ""), self.wait_s)
            decided = arbiter.Decided(decided.id, {**decided.answers, **back.answers})
        return self._reply(request, decided, {"action": "pair" if partner else "unpair",
                                              "board": board,
                                              "detail": {"to": partner, "side": side}})

    async def correct_move(self, request: web.Request, who: str, form: dict[str, str]
                           ) -> web.Response:
        """Take the game a board shows now (``game_id``) back to before ``ply`` and play
        ``move`` there instead; a finished game's ``result``: ``keep`` (the default),
        ``withdraw``, or the arbiter's. The board checks the move against its game."""
        board = await self._known_board(form)
        game_id = form.get("game_id", "")
        current = await self.reader.current_game_id(board)
        game = None if current is None else await self.reader.game(board, current)
        if game is None or game_id != current:
            raise arbiter.ArbiterError(N_("{board} has moved on from game {game}: only the game "
                                          "a board shows now can be corrected here"),
                                       board=board, game=repr(game_id[:40]))
        online = (await self._online([board]))[board]
        result = form.get("result", "") or "keep"
        decided = await arbiter.correct_move(
            self.client, board, online, form.get("ply", ""), form.get("move", ""), who,
            form.get("reason", ""), game_id, plies=len(game.moves), finished=game.finished,
            result=result, wait_s=self.wait_s)
        detail: dict[str, object] = {"ply": int(form.get("ply", "")),
                                     "move": form.get("move", "").strip()}
        if game.finished:
            detail["result"] = result
        return self._reply(request, decided, {"action": "correct_move", "board": board,
                                              "detail": detail})
