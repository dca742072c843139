"""The web service's application: routes, pages, the live feed, broadcast PDN and control.

``build_app(settings, client)`` makes the aiohttp application; :func:`serve` runs it. It holds
no game state: every request reads the boards' Redis (:mod:`firmware_host.web.reader`).

Routes: ``/`` the hall, ``/board/<id>`` a board, ``/games`` the archive (``/games.pdn`` its
games), ``/game/<board>/<game>`` a replay (and ``.pdn``), ``/feed`` the live feed, ``/round/<r>``
a round's results, ``/puzzle`` (``/puzzle/<variant>``) the puzzle of the day, ``/progress``
(``/progress/<player>``) each player's progress,
``/broadcast.pdn`` (``?round=``, ``?board=``; ``/broadcast/round/<r>.pdn``,
``/broadcast/board/<id>.pdn``), ``/pair``, ``POST /board/<id>/command``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path
from urllib.parse import urlencode

from aiohttp import web
from redis.asyncio import Redis
from redis.exceptions import RedisError

from engine.variant import VARIANTS
from firmware_host.coach.results import MAX_LINE
from firmware_host.digits import whole_number, whole_number_or
from firmware_host.i18n import ENGLISH, N_, Translator
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import MAX_POSITION_LENGTH
from firmware_host.tournament import arbiter
from firmware_host.web import broadcast, control, liveness
from firmware_host.web.arbiter import ArbiterKeys, ArbiterSite
from firmware_host.web.archive import PAGE, Archive
from firmware_host.web.auth import TOO_MANY_ATTEMPTS, Keys, PairingGuard, RateLimiter
from firmware_host.web.bounded import bounded
from firmware_host.web.connections import GuardedSite
from firmware_host.web.daily import DailyPuzzles
from firmware_host.web.diagram import board_svg
from firmware_host.web.errors import error_pages
from firmware_host.web.fanout import FanOut
from firmware_host.web.feed import BLOCK_MS, BadCursor, format_cursor, id_key, parse_cursor
from firmware_host.web.forms import read_form
from firmware_host.web.headers import errors_as_replies, quiet_client_faults, security_headers
from firmware_host.web.liveness import Liveness
from firmware_host.web.paired import PairedDevices, device_name
from firmware_host.web.progress import ProgressPages
from firmware_host.web.reader import CARD_RECENT, RECENT, BoardView, Reader
from firmware_host.web.rounds import RoundPages
from firmware_host.web.views import (
    OUTCOMES,
    ArchiveRow,
    Views,
    keep_language,
    outcome_of,
    viewer,
)

__all__ = ["WebSettings", "build_app"]

log = logging.getLogger(__name__)

COOKIE = "draughtsboard_pair"
#: Games a selection's PDN holds at most (the newest that match; an archive page shows
#: web/archive.py PAGE).
PDN_GAMES = 500
#: Archive requests (the page, its PDN) accepted per minute from one address.
ARCHIVE_PER_MINUTE = 30
#: The archive's filters (query parameters), each at most 80 characters.
FILTERS = ("board", "since", "until", "player", "event", "variant", "result")
#: A write to a live feed's client that takes longer ends the feed (s): it stopped reading.
WRITE_TIMEOUT_S = 30.0
#: Pairing attempts accepted per minute from one address.
PAIR_ATTEMPTS = 10
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")
NOT_THE_CODE = N_("That is not the pairing code.")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class WebSettings:
    """The web service's settings (the ``[web]`` section)."""

    keys: Keys
    #: The arbiter's credentials (web/arbiter.py); None: no arbiter console.
    arbiter: ArbiterKeys | None = None
    control: bool = True
    rate_per_minute: int = 60
    block_ms: int = BLOCK_MS
    #: The paired devices (web/paired.py; in memory unless given their file).
    devices: PairedDevices = field(default_factory=lambda: PairedDevices(None))
    #: Live feeds open at once from one address at most.
    feeds_per_address: int = 32
    #: The Unix time (a test's clock decides when a board is offline).
    clock: Callable[[], float] = time.time
    #: How often the live feeds look at the boards' heartbeats (s).
    alive_every_s: float = 5.0
    #: The players' progress records (``coach.mistakes_dir``): ``/progress``; None: none.
    books: Path | None = None


def _board_id(request: web.Request, key: str = "board") -> str:
    value = request.match_info.get(key, "")
    if not _ID.fullmatch(value):
        raise web.HTTPNotFound(text="no such board")
    return value


class Site:
    """The request handlers, sharing one Redis client, the templates and the keys."""

    def __init__(self, settings: WebSettings, client: Redis) -> None:
        self.settings = settings
        self.client = client
        self.reader = Reader(client)
        self.views = Views(settings.clock)
        self.views.env.globals["arbiter"] = settings.arbiter is not None  # the console's link
        self.limiter = RateLimiter(settings.rate_per_minute)
        #: Pairing requests per address, and wrong codes per address and in all.
        self.pair_limiter = RateLimiter(min(PAIR_ATTEMPTS, settings.rate_per_minute))
        self.pair_guard = PairingGuard()
        #: The hall's cards as last drawn, by board: (newest event id then, HTML). A drawing,
        #: not game state: Redis stays the source.
        #: Each board's card as last drawn: (its newest event id, liveness key, view, HTML).
        self._cards: dict[str, tuple[str, str, BoardView, str]] = {}
        #: The service is stopping (set by the application's on_shutdown).
        self.closing = False
        #: The one reader of every live feed (web/fanout.py), and the feeds open per address.
        self.fanout = FanOut(client, self._card_now, self._panel_now, block_ms=settings.block_ms,
                       clock=settings.clock, alive_every_s=settings.alive_every_s)
        self.feeds: dict[str, int] = {}
        #: The archive's index (web/archive.py), and its requests per address.
        self.archive = Archive(self.reader)
        self.archive_limiter = RateLimiter(ARCHIVE_PER_MINUTE)
        #: The broadcast's games, read again and rendered only when they changed.
        self.broadcast_games = broadcast.Broadcast(self.reader, client)

    # -- authorisation ------------------------------------------------------------------------

    def _token(self, request: web.Request) -> bool:
        """Whether the request sends the control token itself (a script)."""
        bearer = request.headers.get("Authorization", "")
        return bearer.startswith("Bearer ") and self.settings.keys.valid_token(bearer[7:].strip())

    def paired(self, request: web.Request) -> bool:
        """Whether the request may control the boards."""
        if self._token(request):
            return True
        return self.settings.devices.check(request.cookies.get(COOKIE, "")) is not None

    def _holder(self, request: web.Request) -> str:
        """Who sends a paired request: the device (its id and name) or the token, and the
        address (an audit entry's ``who``)."""
        address = request.remote or "?"
        device_id = self.settings.devices.check(request.cookies.get(COOKIE, ""))
        if device_id is None or self._token(request):
            return f"the control token from {address}"
        return f"device {device_id} ({self.settings.devices.label(device_id)}) from {address}"

    def _csrf_ok(self, request: web.Request, form: dict[str, str]) -> bool:
        if request.headers.get("Authorization", "").startswith("Bearer ") \
                and not request.cookies:
            return True  # a script with the token and no cookie: nothing a page forges with
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return False  # another site, or this one over another scheme
        cookie = request.cookies.get(COOKIE, "")
        return self.settings.keys.valid_csrf(cookie, form.get("csrf", ""))

    # -- pages --------------------------------------------------------------------------------

    async def hall(self, request: web.Request) -> web.Response:
        boards = await self.reader.boards()
        cursor = await self.reader.last_ids(boards)
        alive = await liveness.read(self.client, boards, self.settings.clock())
        tr = viewer(request)
        cards = [{"board_id": b, "html": await self.card(b, cursor[b], alive[b], tr)}
                 for b in boards]
        return _html(self.views.page("hall.html", tr=tr, cards=cards,
                                     cursor=format_cursor(cursor), paired=self.paired(request)))

    async def card(self, board_id: str, newest: str, alive: Liveness,
                   tr: Translator = ENGLISH) -> str:
        """The hall's card of a board whose newest event is ``newest``: drawn again only when
        the board published something since it was last drawn (every change of a game comes
        with an event) or its liveness changed, so a hall page costs little more than its
        changed boards."""
        if tr.language != ENGLISH.language:  # the cache holds the English cards only
            return self.views.card(await self.reader.board(board_id, CARD_RECENT), alive, tr)
        cached = self._cards.get(board_id)
        key = f"{alive.online}{alive.seen if not alive.online else ''}"
        if cached is not None and id_key(cached[0]) >= id_key(newest) and cached[1] == key:
            view, html = cached[2], cached[3]
            clock = view.clock
            if clock is not None and clock.running and not clock.paused:
                return self.views.card(view, alive)  # its times are those of now: drawn again
            return html
        view = await self.reader.board(board_id, CARD_RECENT)
        html = self.views.card(view, alive)
        self._cards[board_id] = (view.last_event_id, key, view, html)
        return html

    async def _alive(self, board_id: str) -> Liveness:
        return (await liveness.read(self.client, [board_id], self.settings.clock()))[board_id]

    async def _card_now(self, board_id: str) -> str:
        """The card as it is now (the live feed's whole-card messages)."""
        view = await self.reader.board(board_id, CARD_RECENT)
        return self.views.card(view, await self._alive(board_id))

    async def _panel_now(self, board_id: str) -> str:
        """The board page's panel as it is now (the live feed's whole-panel messages)."""
        return self.views.panel(await self.reader.board(board_id, RECENT),
                                await self._alive(board_id))

    async def board(self, request: web.Request) -> web.Response:
        board_id = _board_id(request)
        if board_id not in await self.reader.boards():
            raise web.HTTPNotFound(text="no such board")
        view = await self.reader.board(board_id)
        paired = self.paired(request)
        cookie = request.cookies.get(COOKIE, "")
        tr = viewer(request)
        return _html(self.views.page(
            "board.html", tr=tr, board_id=board_id, paired=paired, notice="",
            panel=self.views.panel(view, await self._alive(board_id), tr),
            cursor=format_cursor({board_id: view.last_event_id}), control=self.settings.control,
            csrf=self.settings.keys.csrf(cookie),
            buttons=control.buttons_for(view.game.mode if view.game else None), game=view.game,
            tags=control.TAG_FORMS, tag_of=control.TAGS, position_length=MAX_POSITION_LENGTH,
            settings=control.setting_forms(view.game.variant if view.game else None)))

    def _archive_allowed(self, request: web.Request) -> None:
        """An archive request counts against its address's limit (each may read many games).

        Raises:
            web.HTTPTooManyRequests: over :data:`ARCHIVE_PER_MINUTE`.
        """
        if not self.archive_limiter.allow(request.remote or "?"):
            raise web.HTTPTooManyRequests(text="too many requests: wait a minute",
                                          headers={"Retry-After": "60"})

    async def games(self, request: web.Request) -> web.Response:
        self._archive_allowed(request)
        filters = _filters(request)
        page = _page(request)
        found = await self.archive.search(_outcome(filters), _day(filters, "since", 0.0),
                                          _day(filters, "until", float("inf")), page)
        boards = await self.reader.boards()
        tr = viewer(request)
        analysed = await self.reader.analysed([(g.board_id, g.game_id) for g in found.games])
        rows = [ArchiveRow.of(g, tr, (g.board_id, g.game_id) in analysed) for g in found.games]
        return _html(self.views.page(
            "games.html", tr=tr, games=rows, f=filters,
            boards=boards, variants=[v.name for v in VARIANTS], outcomes=OUTCOMES,
            paired=self.paired(request), limit=PAGE, page=page, more=found.more,
            waiting=found.waiting, query=_query(filters)))

    async def games_pdn(self, request: web.Request) -> web.Response:
        self._archive_allowed(request)
        chosen = request.query.getall("game", [])[:PDN_GAMES]
        games: list[GameRecord] = []
        if chosen:
            for item in chosen:
                board, _, game_id = item.partition("/")
                if _ID.fullmatch(board) and _ID.fullmatch(game_id):
                    game = await self.reader.game(board, game_id)
                    if game is not None:
                        games.append(game)
        else:
            filters = _filters(request)
            found = await self.archive.search(_outcome(filters), _day(filters, "since", 0.0),
                                              _day(filters, "until", float("inf")),
                                              size=PDN_GAMES)
            for summary in reversed(found.games):
                game = await self.reader.game(summary.board_id, summary.game_id)
                if game is not None:
                    games.append(game)
        return _pdn(broadcast.render_games(games), "games.pdn")

    async def game_page(self, request: web.Request) -> web.Response:
        game = await self._game(request)
        ply = whole_number_or(request.query.get("ply", "")[:20], len(game.moves), 0,
                              len(game.moves))
        line = whole_number_or(request.query.get("line", "")[:20], 0, 0, MAX_LINE)
        analysis = await self.reader.analysis(game)
        return _html(self.views.replay(game, ply, self.paired(request), viewer(request),
                                       analysis, line))

    async def game_pdn(self, request: web.Request) -> web.Response:
        game = await self._game(request)
        return _pdn(broadcast.render_games([game]), f"{game.board_id}_{game.game_id}.pdn")

    async def _game(self, request: web.Request) -> GameRecord:
        board_id = _board_id(request)
        game_id = request.match_info.get("game", "")
        game = await self.reader.game(board_id, game_id) if _ID.fullmatch(game_id) else None
        if game is None:
            raise web.HTTPNotFound(text="no such game")
        return game

    # -- broadcast ----------------------------------------------------------------------------

    async def broadcast(self, request: web.Request) -> web.Response:
        round_ = request.match_info.get("round", request.query.get("round", ""))[:40]
        wanted = request.match_info.get("board", request.query.get("board", ""))
        try:
            part = whole_number(request.query.get("part", "1")[:20], 1, 1000)
        except ValueError:
            raise web.HTTPBadRequest(text="part: a whole number 1..1000 (the games 64 at a "
                                          "time: part 2 is the 65th to the 128th)") from None
        try:
            found = await self.broadcast_games.games(round_, wanted)
        except broadcast.NoSuchBoard:  # a typo in a broadcast's address: say so
            raise web.HTTPNotFound(text="no such board") from None
        games = broadcast.part_of(found, part)  # a relay reads 64 games of a file
        text = self.broadcast_games.text(games)
        tag = broadcast.etag(text)
        modified = datetime.fromtimestamp(int(broadcast.last_modified(games)) or 0, UTC)
        headers = {"ETag": tag, "Last-Modified": format_datetime(modified, usegmt=True),
                   "Cache-Control": "no-cache"}
        if _not_modified(request, tag, modified):
            return web.Response(status=304, headers=headers)
        return web.Response(text=text, content_type="application/x-chess-pdn", headers=headers)

    # -- the live feed ------------------------------------------------------------------------

    async def feed(self, request: web.Request) -> web.StreamResponse:
        board = request.query.get("board", "")
        if board and not _ID.fullmatch(board):
            raise web.HTTPBadRequest(text="bad board id")
        # The page's cursor, and the browser's own (the last message's id) over it: checked
        # before anything reads with it (a 400, never an id Redis refuses: web/feed.py).
        try:
            cursor = parse_cursor(request.query.get("cursor", ""))
            for key, entry in parse_cursor(request.headers.get("Last-Event-ID", "")).items():
                if id_key(entry) > id_key(cursor.get(key, "0-0")):
                    cursor[key] = entry
        except BadCursor as exc:
            raise web.HTTPBadRequest(text=f"bad cursor: {exc}") from None
        if board and board not in await self.reader.boards():
            raise web.HTTPNotFound(text="no such board")
        address = request.remote or "?"
        if self.feeds.get(address, 0) >= self.settings.feeds_per_address:
            raise web.HTTPTooManyRequests(text="too many live feeds open from this address")
        self.feeds[address] = self.feeds.get(address, 0) + 1
        try:
            return await self._stream(request, board or None, cursor)
        finally:
            self.feeds[address] -= 1
            if not self.feeds[address]:
                del self.feeds[address]

    async def _stream(self, request: web.Request, board: str | None, cursor: dict[str, str]
                      ) -> web.StreamResponse:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        response.force_close()  # when the feed ends, the connection does: the browser retries
        async with self.fanout.open(board, cursor) as feed:  # RedisError here: a 503
            try:
                await response.prepare(request)  # the client may have gone meanwhile
                await response.write(b"retry: 1000\n\n")
                direct = _direct_writer(request)
                async for chunk in self.fanout.chunks(feed, self.settings.block_ms / 1000, direct):
                    async with asyncio.timeout(WRITE_TIMEOUT_S):
                        await response.write(chunk)
            except (ConnectionResetError, TimeoutError) as exc:  # a normal event
                log.debug("web: feed client gone (%s)", type(exc).__name__)
            except RedisError as exc:  # the stream ends; the browser comes back with its cursor
                if not self.closing:
                    log.warning("web: feed ended, the boards' Redis does not answer: %s",
                                type(exc).__name__)
        return response

    async def health(self, request: web.Request) -> web.Response:
        """``/health.json``: whether the web app reads the boards, and its live feed's reader's
        figures (feeds open, streams read, boards set aside and why, restarts, faults) and the
        bad records skipped: for a monitor, and for the tests."""
        return web.json_response({"ok": True, "feed_reader": self.fanout.health(),
                                  "skipped_records": self.reader.rejects.count
                                  + self.fanout.reader.rejects.count})

    async def board_image(self, request: web.Request) -> web.Response:
        """``/board/<id>.svg``: the board's diagram as an image (``?flip=1``: from Black's
        side) for a broadcast or a chat to embed: no script, cacheable for a few seconds."""
        board_id = _board_id(request)
        if board_id not in await self.reader.boards():
            raise web.HTTPNotFound(text="no such board")
        view = await self.reader.board(board_id, CARD_RECENT)
        if view.position is None:
            raise web.HTTPNotFound(text="the board has no game yet")
        flip = request.query.get("flip", "") in ("1", "true", "yes")
        size = max(120, min(whole_number_or(request.query.get("size", "")[:20], 480), 2000))
        svg = board_svg(view.position, view.last_move, view.leds, size=size,
                        label=f"board {board_id}", flip=flip)
        tag = '"' + hashlib.sha256(svg.encode()).hexdigest()[:32] + '"'
        headers = {"ETag": tag, "Cache-Control": "public, max-age=5",
                   "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
                   "Cross-Origin-Resource-Policy": "cross-origin",
                   "Content-Disposition": f'inline; filename="{board_id}.svg"'}
        if tag in [m.strip() for m in request.headers.get("If-None-Match", "").split(",")]:
            return web.Response(status=304, headers=headers)
        return web.Response(text=svg, content_type="image/svg+xml", headers=headers)

    # -- control ------------------------------------------------------------------------------

    async def pair_form(self, request: web.Request) -> web.Response:
        return _html(self.views.page("pair.html", viewer(request), error="",
                                     next=_next(request.query.get("next", "/")),
                                     paired=self.paired(request)))

    async def pair(self, request: web.Request) -> web.Response:
        address = request.remote or "?"
        refusal = (self.pair_guard.begin(address) if self.pair_limiter.allow(address)
                   else TOO_MANY_ATTEMPTS)  # (counted now, before the body is read)
        if refusal is not None:
            retry = {"Retry-After": str(60 * refusal.wait)}
            if "text/html" not in request.headers.get("Accept", ""):
                raise web.HTTPTooManyRequests(text=str(refusal), headers=retry)
            target = _next(request.query.get("next", "/"))
            page = self.views.page("pair.html", viewer(request), next=target, paired=False,
                                   error=refusal.words(viewer(request).gettext))
            return web.Response(text=page, status=429, content_type="text/html", headers=retry)
        form = await read_form(request)
        target = _next(form.get("next", "/"))
        if not self.settings.keys.valid_code(form.get("code", "")):
            log.warning("pairing refused from %s", address)
            return _html(self.views.page("pair.html", viewer(request), next=target,
                                         paired=False,
                                         error=viewer(request).gettext(NOT_THE_CODE)),
                         status=403)
        self.pair_guard.succeeded(address)
        label = f"{device_name(request.headers.get('User-Agent', ''))} from {address}"
        cookie = self.settings.devices.pair(label)
        log.info("paired device %s from %s", cookie.split(".")[0], address)
        response = web.HTTPSeeOther(target)
        response.set_cookie(COOKIE, cookie, httponly=True, samesite="Strict",
                            max_age=365 * 86400, path="/")
        raise response

    async def devices(self, request: web.Request) -> web.Response:
        """The paired devices, each with a button that revokes it (paired devices only)."""
        if not self.paired(request):
            raise web.HTTPUnauthorized(text="pair this device first (/pair)")
        cookie = request.cookies.get(COOKIE, "")
        return _html(self.views.page(
            "devices.html", viewer(request), devices=self.settings.devices.list(), paired=True,
            this=self.settings.devices.check(cookie), csrf=self.settings.keys.csrf(cookie)))

    async def revoke(self, request: web.Request) -> web.Response:
        """``POST /devices/revoke``: revoke the device ``device``."""
        if not self.paired(request):
            raise web.HTTPUnauthorized(text="pair this device first (/pair)")
        if not self.limiter.allow(request.remote or "?"):
            raise web.HTTPTooManyRequests(text="too many requests: wait a minute")
        form = await read_form(request)
        if not self._csrf_ok(request, form):
            raise web.HTTPForbidden(text="the form is stale or from another site: reload")
        device = form.get("device", "")
        if not self.settings.devices.revoke(device):
            raise web.HTTPNotFound(text="no such device")
        log.info("revoked device %s", device[:8])
        raise web.HTTPSeeOther("/devices")

    async def command(self, request: web.Request) -> web.Response:
        board_id = _board_id(request)
        if not self.settings.control:
            raise web.HTTPForbidden(text="control is off (web.control = false)")
        if not self.paired(request):
            raise web.HTTPUnauthorized(text="pair this device first (/pair)")
        if not self.limiter.allow(request.remote or "?"):
            raise web.HTTPTooManyRequests(text="too many commands: wait a minute")
        form = await read_form(request)
        if not self._csrf_ok(request, form):
            raise web.HTTPForbidden(text="the form is stale or from another site: reload")
        try:
            fields = control.command_fields(form, sides=self._token(request))
        except ValueError as exc:
            return _reply(request, board_id, str(exc), 400)
        if board_id not in await self.reader.boards():
            raise web.HTTPNotFound(text="no such board")
        alive = await self._alive(board_id)
        if not alive.online:  # nobody would carry it out: say so, do not queue it
            tr = viewer(request)
            return _reply(request, board_id, tr.gettext("not sent: {board} is offline ({seen})")
                          .format(board=board_id, seen=alive.seen_in(tr.gettext)), 409)
        if fields["name"] == "header":  # a name, event or round: audited with who set it
            await arbiter.audit(self.client, self._holder(request), "header", board_id, "",
                                tag=fields["tag"], value=fields["value"])
        elif "side" in fields and not self._token(request):  # a side's button from a phone
            await arbiter.audit(self.client, self._holder(request), fields["name"], board_id,
                                "", side=fields["side"])
        await control.send(self.client, board_id, fields)
        label = fields["name"] if "value" not in fields else f"{fields['name']} {fields['value']}"
        return _reply(request, board_id, f"sent to {board_id}: {label}", 200)


#: A feed's client with more than this waiting in its socket's buffer is busy: the next
#: messages wait in its feed's queue (written as it reads) instead of piling up here.
DIRECT_BUFFER = 256 * 1024


def _direct_writer(request: web.Request) -> Callable[[bytes], bool] | None:
    """A writer of a live feed's messages straight to its socket (the response is chunked on
    HTTP/1.1, so each message is framed as a chunk, as aiohttp would): False, nothing written,
    when the client is gone or its buffer is full. None without a transport."""
    transport = request.transport
    if transport is None:
        return None
    chunked = request.version >= (1, 1)

    def write(data: bytes) -> bool:
        if transport.is_closing() or transport.get_write_buffer_size() >= DIRECT_BUFFER:
            return False
        transport.write(b"%x\r\n%b\r\n" % (len(data), data) if chunked else data)
        return True

    return write


def _reply(request: web.Request, board_id: str, message: str, status: int) -> web.Response:
    if "application/json" in request.headers.get("Accept", ""):
        return web.json_response({"message": message, "ok": status == 200}, status=status)
    if status != 200:
        return web.Response(text=message, status=status)
    raise web.HTTPSeeOther(f"/board/{board_id}")


def _filters(request: web.Request) -> dict[str, str]:
    return {k: request.query.get(k, "")[:80] for k in FILTERS}


def _outcome(filters: dict[str, str]) -> dict[str, str]:
    """The archive's filters with the result's choice as the results it names (``white``:
    ``1-0`` and ``2-0``, comma-separated; an older link's ``1-0`` too)."""
    wanted = outcome_of(filters["result"])
    return {**filters, "result": ",".join(sorted(OUTCOMES[wanted][1])) if wanted else ""}


def _page(request: web.Request) -> int:
    """The archive page asked for (1 when not a page number)."""
    return whole_number_or(request.query.get("page", "1")[:20], 1, 1, 10**6)


def _query(filters: dict[str, str]) -> str:
    """The query string of ``filters`` (those set), for the page's links to its neighbours."""
    return urlencode({k: v for k, v in filters.items() if v})


def _day(filters: dict[str, str], key: str, default: float) -> float:
    """Unix time of the start of the filter's day (``until``: of the day after it)."""
    if not filters[key]:
        return default
    try:
        year, month, day = filters[key].split("-")
        date = datetime(whole_number(year, 1, 9998), whole_number(month, 1, 12),
                        whole_number(day, 1, 31), tzinfo=UTC)
    except ValueError:  # (not ASCII digits, out of range, or no such day: 2026-02-30)
        raise web.HTTPBadRequest(text=f"{key}: a date like 2026-12-01") from None
    return date.timestamp() + (86400 if key == "until" else 0)


#: A redirect target: a path of this site (one ``/``, then no ``/`` or ``\\``), made of the
#: characters of this app's own paths and queries only (no control characters, no spaces, no
#: ``%``, which browsers and yarl would strip or decode into ``//elsewhere``).
_NEXT = re.compile(r"/(?:[A-Za-z0-9_.~=&+-][A-Za-z0-9/_.~?=&+-]{0,300})?")


def _next(target: str) -> str:
    """``target`` if it is a same-site relative path, else ``/``.

    >>> _next("/board/b1"), _next("//evil.example"), _next("/\t/evil.example")
    ('/board/b1', '/', '/')
    >>> _next("/%09/evil.example"), _next("/\\\\evil.example"), _next("http://evil.example")
    ('/', '/', '/')
    """
    return target if _NEXT.fullmatch(target) else "/"


def _not_modified(request: web.Request, tag: str, modified: datetime) -> bool:
    match = request.headers.get("If-None-Match")
    if match is not None:
        return tag in [m.strip() for m in match.split(",")] or match.strip() == "*"
    since = request.headers.get("If-Modified-Since")
    if since:
        try:
            return parsedate_to_datetime(since) >= modified
        except (TypeError, ValueError, OverflowError):  # (a year of 20 digits overflows)
            return False
    return False


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, content_type="text/html", status=status)


def _pdn(text: str, filename: str) -> web.Response:
    return web.Response(text=text, content_type="application/x-chess-pdn", headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


def build_app(settings: WebSettings, client: Redis) -> web.Application:
    """The aiohttp application on ``client`` (a ``redis.asyncio`` client of the boards)."""
    from importlib.resources import files

    site = Site(settings, bounded(client))  # no reply larger than the web app reads
    # A hall feed's Last-Event-ID holds every board's stream id (about 30 bytes a board): room
    # for some 2,000 boards, beyond aiohttp's default 8 KB header field.
    pages = error_pages(site.views, viewer)  # a browser's error: a page, not a line
    app = web.Application(middlewares=[pages, errors_as_replies], client_max_size=64 * 1024,
                          handler_args={"max_field_size": 65536, "max_line_size": 65536})
    app.add_routes([
        web.get("/", site.hall),
        web.get("/board/{board}.svg", site.board_image),
        web.get("/board/{board}", site.board),
        web.post("/board/{board}/command", site.command),
        web.get("/games", site.games),
        web.get("/games.pdn", site.games_pdn),
        web.get("/game/{board}/{game}.pdn", site.game_pdn),
        web.get("/game/{board}/{game}", site.game_page),
        web.get("/feed", site.feed),
        web.get("/health.json", site.health),
        web.get("/broadcast.pdn", site.broadcast),
        web.get("/broadcast/round/{round}.pdn", site.broadcast),
        web.get("/broadcast/board/{board}.pdn", site.broadcast),
        *RoundPages(client, site.views).routes(),  # a round's results: web/rounds.py
        *DailyPuzzles(site.views, settings.clock).routes(),  # web/daily.py
        *ProgressPages(site.views, settings.books).routes(),  # web/progress.py
        web.get("/pair", site.pair_form),
        web.post("/pair", site.pair),
        web.get("/devices", site.devices),
        web.post("/devices/revoke", site.revoke),
    ])
    if settings.arbiter is not None:  # the arbiter console's routes: web/arbiter.py
        app.add_routes(ArbiterSite(client, settings.arbiter, settings.rate_per_minute,
                                   settings.clock).routes())
    app.router.add_static("/static", str(files("firmware_host.web") / "static"))
    app.on_response_prepare.append(security_headers)
    quiet_client_faults()  # a request aiohttp cannot read: one line, not a traceback
    app.on_response_prepare.append(keep_language)

    async def closing(app: web.Application) -> None:
        site.closing = True

    async def stop_feeds(app: web.Application) -> None:
        await site.fanout.close()

    app.on_shutdown.append(closing)
    app.on_shutdown.append(stop_feeds)
    return app


async def run_forever(runner: web.AppRunner, host: str, port: int, stop: asyncio.Event,
                      on_ready: Callable[[], None]) -> None:
    """Serve on ``host:port`` until ``stop`` is set; ``on_ready`` once it listens."""
    await runner.setup()
    site = GuardedSite(runner, host, port)  # web/connections.py
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    on_ready()
    try:
        await stop.wait()
    finally:
        if isinstance(runner, web.AppRunner):  # the live feeds end first: the server would
            await runner.app.shutdown()  # wait for each until its next keep-alive
        await runner.cleanup()
