"""An error a browser asked for is a page: the site's frame, what went wrong in the viewer's
language, the reply's own words in it too, and the way back to the hall.

Scripts and feeds keep their short replies (JSON, text, the live feed's): only a ``GET`` that
accepts ``text/html`` and got a plain-text error (``404 no such board``, Redis away, a
damaged record) is given the page, with the same status and headers (``Retry-After`` too).
The web app's own replies are in :data:`DETAILS` and read in the viewer's language; any other
(a message of the rules or the store) is shown as it came.

>>> heading(404), heading(503), heading(418)
('Not found', 'Not available just now', 'Something went wrong')
>>> from firmware_host.i18n import translator
>>> detail_words("no round 3: import its pairing list first", translator("en"))
'There is no round 3: import its pairing list first.'
>>> detail_words("no such board", translator("ru"))
'В этом зале нет такой доски.'
>>> detail_words("a reply of someone else", translator("ru"))
'a reply of someone else'
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_host.i18n import N_, Translator
from firmware_host.web.views import Views

__all__ = ["DETAILS", "HEADINGS", "detail_words", "error_pages", "heading"]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: The page's heading for each status (any other: "Something went wrong").
HEADINGS = {
    400: N_("The address is not understood"),
    401: N_("Not allowed"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    409: N_("A damaged record"),
    429: N_("Too many requests"),
    503: N_("Not available just now"),
}
SOMETHING = N_("Something went wrong")
#: Headers of the plain reply that the page keeps.
KEPT_HEADERS = ("Retry-After",)


#: The web app's plain-text replies (the whole reply, its varying parts named) and the sentence
#: the error page says for each (a catalog key; the named parts fill its ``{fields}``).
#: tests/firmware_host/web/test_web_error_pages.py holds every reply the web package writes to it.
DETAILS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message) for pattern, message in (
        (r"no such board", N_("There is no such board in this hall.")),
        (r"part: a whole number 1\.\.1000 \(the games 64 at a time: part 2 is the 65th to "
         r"the 128th\)", N_("part: a whole number from 1 (part 2: the games 65 to 128).")),
        (r"no such game", N_("There is no such game in the archive.")),
        (r"bad board id", N_("That is not the name of a board.")),
        (r"the board has no game yet", N_("This board has no game yet.")),
        (r"no such device", N_("There is no such paired device.")),
        (r"no round (?P<number>\d+): import its pairing list first",
         N_("There is no round {number}: import its pairing list first.")),
        (r"no puzzles for (?P<variant>.{1,40})",
         N_("There is no puzzle of the day for {variant}.")),
        (r"no progress is kept for this player",
         N_("No progress is kept for this player.")),
        (r"this player's record cannot be read",
         N_("This player's progress record cannot be read: the log says why.")),
        (r"(?P<field>\w+): a date like 2026-12-01",
         N_("{field}: give a date like 2026-12-01.")),
        (r"the boards' Redis refused the request \(a key of the wrong type\?\): .*",
         N_("The boards' Redis refused the request.")),
        (r"the boards' Redis does not answer: try again in a moment",
         N_("The boards' Redis does not answer: try again in a moment.")),
        (r"this game's record is damaged: its moves cannot be replayed \(the PDN download has "
         r"those before it\)",
         N_("This game's record is damaged: its moves cannot be replayed (the PDN download "
            "has those before the damage).")),
        (r"pair this device first \(/pair\)", N_("Pair this device first (/pair).")),
        (r"control is off \(web\.control = false\)",
         N_("Control from the web is switched off here (web.control = false).")),
        (r"too many requests: wait a minute", N_("Too many requests: wait a minute.")),
        (r"too many commands: wait a minute", N_("Too many commands: wait a minute.")),
        (r"too many live feeds open from this address",
         N_("Too many live feeds are open from this address.")),
        (r"bad cursor: .*", N_("The live feed's place is not understood: reload the page.")),
        (r"the form is stale or from another site: reload",
         N_("The form is out of date or comes from another site: reload the page.")),
        (r"the form did not arrive in time", N_("The form did not arrive in time.")),
        (r"the form is unreadable \((?P<why>\w+)\)", N_("The form cannot be read ({why}).")),
        (r"the form has too many fields", N_("The form has too many fields.")),
        (r"form field (?P<field>'[^']*'|\"[^\"]*\") is not text",
         N_("Form field {field} is not text.")),
    )
)


def detail_words(detail: str, tr: Translator) -> str:
    """The reply ``detail`` as the error page says it in ``tr``'s language: a reply of
    :data:`DETAILS` in its sentence, any other as it is."""
    for pattern, message in DETAILS:
        found = pattern.fullmatch(detail)
        if found is not None:
            return tr.gettext(message).format(**found.groupdict())
    return detail


def heading(status: int) -> str:
    """The heading (English, a catalog's key) of the error page for ``status``."""
    return HEADINGS.get(status, SOMETHING)


def _wants_page(request: web.Request) -> bool:
    return request.method in ("GET", "HEAD") and "text/html" in request.headers.get("Accept", "")


def error_pages(views: Views, viewer: Callable[[web.Request], Translator]) -> Middleware:
    """The middleware that turns a browser's plain-text error into the error page, in the
    language ``viewer`` gives for the request."""

    def page(request: web.Request, status: int, detail: str,
             headers: dict[str, str]) -> web.Response:
        tr = viewer(request)
        html = views.page("error.html", tr, heading=heading(status),
                          detail=detail_words(detail.strip()[:300], tr), status=status)
        return web.Response(text=html, status=status, content_type="text/html",
                            headers={k: v for k, v in headers.items() if k in KEPT_HEADERS})

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            if exc.status < 400 or exc.content_type != "text/plain" or not _wants_page(request):
                raise
            return page(request, exc.status, exc.text or "", dict(exc.headers))
        if (response.status >= 400 and isinstance(response, web.Response)
                and response.content_type == "text/plain" and _wants_page(request)):
            return page(request, response.status, response.text or "", dict(response.headers))
        return response

    return middleware
