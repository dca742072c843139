"""An error a browser asked for is a page: the site's frame, what went wrong in the viewer's
language, the reply's own words, and the way back to the hall.

Scripts and feeds keep their short replies (JSON, text, the live feed's): only a ``GET`` that
accepts ``text/html`` and got a plain-text error (``404 no such board``, Redis away, a
damaged record) is given the page, with the same status and headers (``Retry-After`` too).

>>> heading(404), heading(503), heading(418)
('Not found', 'Not available just now', 'Something went wrong')
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_host.i18n import N_, Translator
from firmware_host.web.views import Views

__all__ = ["HEADINGS", "error_pages", "heading"]

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
        html = views.page("error.html", viewer(request), heading=heading(status),
                          detail=detail.strip()[:300], status=status)
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
