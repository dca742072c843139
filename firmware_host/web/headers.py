"""What every response of the web app carries: its security headers, and a Redis or record
failure turned into one clear reply (503, 409) instead of a traceback; and a client's request
that could not be read said in one log line, not as the server's error with a traceback."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from redis.exceptions import RedisError, ResponseError

from engine.errors import DraughtsError

__all__ = ["CLIENT_FAULTS", "CSP", "ClientFaults", "errors_as_replies", "quiet_client_faults",
           "security_headers"]

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


class ClientFaults(logging.Filter):
    """aiohttp logs a request it could not read (a bad request line, header or body: it
    answers 400) and a client gone in the middle of its request as an ERROR with a traceback,
    ``Error handling request from <address>``: the server's error, in the journal, for what a
    scanner or a broken client did. This filter makes such a record one INFO line that says
    what was wrong (``a request from 10.0.0.7 refused: 400 Invalid method encountered``);
    any other record passes as it is.

    >>> from aiohttp.http_exceptions import BadHttpMessage
    >>> record = logging.makeLogRecord({"msg": "Error handling request from %s", "levelno": 40,
    ...     "levelname": "ERROR", "args": ("10.0.0.7",),
    ...     "exc_info": (BadHttpMessage, BadHttpMessage("Bad header:\\n\\n  b'x'"), None)})
    >>> ClientFaults().filter(record), record.levelname, record.getMessage(), record.exc_info
    (True, 'INFO', 'a request from 10.0.0.7 refused: 400 Bad header:', None)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            first = str(error.message).strip().splitlines()[0] if error.message else ""
            what = f"refused: {error.code} {first[:200]}".rstrip()
        elif isinstance(error, ConnectionResetError) and str(error) == "Connection lost":
            what = "ended: the client went away"
        else:
            return True
        address = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        record.msg, record.args = f"a request from %s {what}", (address,)
        record.levelno, record.levelname = logging.INFO, "INFO"
        record.exc_info, record.exc_text = None, None
        return True


#: The one filter :func:`quiet_client_faults` puts on aiohttp's server logger.
CLIENT_FAULTS = ClientFaults()


def quiet_client_faults() -> None:
    """Put :data:`CLIENT_FAULTS` on aiohttp's server logger (once, however many apps)."""
    logger = logging.getLogger("aiohttp.server")
    if CLIENT_FAULTS not in logger.filters:
        logger.addFilter(CLIENT_FAULTS)
