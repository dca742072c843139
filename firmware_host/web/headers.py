"""What every response of the web app carries: its security headers, and a Redis or record
failure turned into one clear reply (503, 409) instead of a traceback."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from redis.exceptions import RedisError, ResponseError

from engine.errors import DraughtsError

__all__ = ["CSP", "errors_as_replies", "security_headers"]

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def errors_as_replies(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except ResponseError as exc:  # Redis answered with an error: a key of the wrong type...
        log.warning("web: %s: the boards' Redis refused: %.200s", request.path[:100], exc)
        response = web.Response(status=503, text="the boards' Redis refused the request (a "
                                f"key of the wrong type?): {str(exc)[:200]}")
    except RedisError as exc:  # the boards' Redis is away: say so, the page retries later
        log.warning("web: the boards' Redis does not answer: %s", type(exc).__name__)
        response = web.Response(status=503, text="the boards' Redis does not answer: try "
                                "again in a moment", headers={"Retry-After": "5"})
    except DraughtsError as exc:  # a stored game the rules cannot replay: a damaged record
        log.warning("web: %s: a damaged record: %s", request.path[:100], exc)
        response = web.Response(status=409, text="this game's record is damaged: its moves "
                                "cannot be replayed (the PDN download has those before it)")
    return response


#: The Content-Security-Policy of every response.
CSP = ("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
       "form-action 'self'; base-uri 'none'")


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Security headers on every response as it is prepared (pages, feeds, static files and
    errors alike); pages are never cached (they may carry control forms and CSRF fields), and
    ``Server`` names no version."""
    response.headers["Server"] = "draughtsboard"
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if response.content_type == "text/html":
        response.headers["Cache-Control"] = "no-store"
