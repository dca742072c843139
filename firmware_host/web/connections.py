"""The web app's connections, bounded: how long a request's headers may take, how many
connections one address holds, how many in all.

Anyone on the LAN can open connections and send nothing, or a header a byte a minute. aiohttp
waits for a request's headers as long as its keep-alive lasts (an hour by default), so a
thousand such connections used every file the process may open and no viewer got a page. Here,
in aiohttp itself (no front proxy is needed; one in front counts as one address, so give it its
own limits):

- a request's headers must have arrived :data:`HEADERS_S` after the connection opened or the
  last reply (aiohttp's ``keepalive_timeout``, which closes a connection waiting for a request,
  whole or in part); a body then has :data:`~firmware_host.web.forms.BODY_S` more (a 408);
- one address holds at most :data:`PER_ADDRESS` connections and all at most :data:`TOTAL`
  (below the unit's ``LimitNOFILE``); a connection beyond is closed as it opens, before aiohttp
  sees it.

>>> cap = ConnectionCap(lambda: None, per_address=2, total=3)  # type: ignore[arg-type]
>>> [cap.admit("a"), cap.admit("a"), cap.admit("a"), cap.admit("b"), cap.admit("c")]
[True, True, False, True, False]
>>> cap.leave("a"); cap.admit("c")
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

__all__ = ["HEADERS_S", "PER_ADDRESS", "TOTAL", "ConnectionCap", "GuardedSite", "runner"]

#: Seconds a request's headers may take to arrive (from the connection, or the last reply).
HEADERS_S = 10.0
#: Connections one address may hold at once (a browser opens six to one site; a hall screen,
#: a phone and the console behind one address still fit).
PER_ADDRESS = 64
#: Connections held at once in all (the unit's LimitNOFILE is 4096).
TOTAL = 2000


class ConnectionCap:
    """The listening socket's protocol factory: ``factory``'s protocols (aiohttp's request
    handlers), each behind a :class:`_Admitted` that counts its address."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], per_address: int = PER_ADDRESS,
                 total: int = TOTAL) -> None:
        self._factory = factory
        self.per_address = per_address
        self.total = total
        self.open: dict[str, int] = {}
        #: Connections closed as they opened (over a limit).
        self.refused = 0

    def admit(self, address: str) -> bool:
        """Count a connection of ``address``; False (not counted) when over a limit."""
        if self.open.get(address, 0) >= self.per_address or sum(self.open.values()) >= \
                self.total:
            self.refused += 1
            return False
        self.open[address] = self.open.get(address, 0) + 1
        return True

    def leave(self, address: str) -> None:
        """A counted connection of ``address`` closed."""
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)

    def __call__(self) -> asyncio.Protocol:
        return _Admitted(self, self._factory())


class _Admitted(asyncio.Protocol):
    """One connection: handed to ``inner`` once its address is admitted, else closed."""

    def __init__(self, cap: ConnectionCap, inner: asyncio.Protocol) -> None:
        self._cap = cap
        self._inner = inner
        self._address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self._cap.admit(address):
            if isinstance(transport, asyncio.Transport):
                transport.abort()  # (connection_lost follows, for this wrapper only)
            else:
                transport.close()
            return
        self._address = address
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._address is not None:
            self._cap.leave(self._address)
            self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._address is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._address is not None else None

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()


class GuardedSite(web.BaseSite):
    """aiohttp's TCP site with the connections of :class:`ConnectionCap`."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, *,
                 per_address: int = PER_ADDRESS, total: int = TOTAL) -> None:
        super().__init__(runner)
        self._host, self._port = host, port
        self.cap: ConnectionCap | None = None
        self._limits = (per_address, total)

    @property
    def name(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        if server is None:
            raise RuntimeError("the runner is not set up")
        self.cap = ConnectionCap(server, *self._limits)
        self._server = await asyncio.get_running_loop().create_server(
            self.cap, self._host, self._port, reuse_address=True)


def runner(app: web.Application, *, headers_s: float = HEADERS_S,
           shutdown_timeout: float = 1.0) -> web.AppRunner:
    """The web app's runner: no access log (the journal has the app's own lines), a request's
    headers within ``headers_s``."""
    return web.AppRunner(app, access_log=None, handle_signals=False,
                         shutdown_timeout=shutdown_timeout, keepalive_timeout=headers_s)
