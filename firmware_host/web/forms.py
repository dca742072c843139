"""Request bodies read defensively: a form that cannot be read is a 400, never a traceback.

Anyone who reaches the web app can send any body to a ``POST`` route, authenticated or not:
bytes that are not UTF-8, ``multipart/form-data`` without a boundary or cut short, a file where
a field belongs, a charset nobody knows. :func:`read_form` turns each of those into one
``400 Bad Request`` saying so (a body over the app's ``client_max_size`` stays aiohttp's 413).
A body that does not arrive within :data:`BODY_S` (a ``Content-Length`` promising more than is
sent, or a body trickled in) is a ``408 Request Timeout``: it cannot hold its connection open.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

__all__ = ["BODY_S", "FORM_FIELDS", "read_form"]

#: Fields a form of this app has at most.
FORM_FIELDS = 20
#: Seconds a form's body may take to arrive once its headers have.
BODY_S = 10.0


async def read_form(request: web.Request) -> dict[str, str]:
    """The request's form fields as text.

    Raises:
        web.HTTPBadRequest: the body is not a readable form, a field is a file, too many fields.
        web.HTTPRequestTimeout: the body did not arrive within :data:`BODY_S`.
    """
    try:
        async with asyncio.timeout(BODY_S):
            data = await request.post()
    except TimeoutError:
        raise web.HTTPRequestTimeout(text="the form did not arrive in time") from None
    except web.HTTPException:
        raise  # too large: aiohttp's own 413
    except (ValueError, LookupError, AssertionError, RuntimeError, TypeError) as exc:
        raise web.HTTPBadRequest(text=f"the form is unreadable ({type(exc).__name__})") from None
    if len(data) > FORM_FIELDS:
        raise web.HTTPBadRequest(text="the form has too many fields")
    form = {}
    for key, value in data.items():
        if not isinstance(value, str):
            raise web.HTTPBadRequest(text=f"form field {key[:20]!r} is not text")
        form[key] = value
    return form
