"""``draughtsboard web``: the club's window on the boards (hall, boards, archive, broadcast,
control from a phone), reading the same Redis as the boards and holding no game state.

Modules: :mod:`~firmware_host.web.reader` (reads the boards' keys), :mod:`~.diagram` (SVG),
:mod:`~.views` (templates), :mod:`~.feed` (SSE over XREAD BLOCK), :mod:`~.broadcast` (PDN),
:mod:`~.control` (the command stream), :mod:`~.auth` (token, pairing, CSRF, rate limits),
:mod:`~.app` (routes), :mod:`~.service` (the process).
"""
